/**
 * What a failure teaches. Each rule seeds the narrowest constraint the evidence supports:
 * the exact call first, its target when the error is about the target, the action class only
 * across several targets, a parameter region only along monotone parameters.
 */
import type { FilePins } from './ban-check.js';
import { teachesOnlyRepeats } from './blame-proof.js';
import { type ConstraintIndex, constraintId, type Entry, isActive, regionCovers } from './constraints.js';
import type { CallContext } from './detectors/types.js';
import { FailingCalls } from './failing-calls.js';
import { hashString } from './identity/hashing.js';
import { answersAlike, digestWithoutNumbers } from './identity/index.js';
import { KEY_GENERATION } from './key-generation.js';
import { OUTSIDE_ANSWER_MS } from './outside-answers.js';
import type { Policy } from './policy.js';
import { ReproducedFailures } from './reproduced.js';
import { namesAbsolutePath, scopedContext } from './scope.js';
import { CUT_MARK, EVIDENCE_CHARS, keptText, ownCopy, redactText } from './secrets.js';
import type {
  ActionKind,
  Constraint,
  ConstraintScope,
  Evidence,
  FailureFacts,
  Mutable,
  ParameterRegion,
} from './types.js';

const EVIDENCE_CALLS = 5;
const SECOND = 1000;

/**
 * What a failure answered, for telling a repeat that failed alike from one that answered otherwise:
 * the digest of its whole text, volatile parts masked, and the digest of its text without numbers.
 */
export interface FailureAnswer {
  readonly digest: string;
  /** See `digestWithoutNumbers`: the same words with other counters, pids or sizes are alike. */
  readonly withoutNumbers?: string;
}

/** What a failure whose text is `text` (and whose digest is `digest`) answered. */
export function failureAnswer(digest: string, text: string): FailureAnswer {
  return { digest, withoutNumbers: digestWithoutNumbers(text) };
}

export interface LearnResult {
  /** Entries that came into force with this failure (new bans or re-bans after probation). */
  readonly enforced: Entry[];
  readonly evicted: Entry[];
}

/** Kinds of action that fail on a target that does not exist. Creating it is what cures it. */
const MISSING_BLOCKS: readonly ActionKind[] = ['read', 'mutate', 'delete', 'search', 'poll'];
const EXISTS_BLOCKS: readonly ActionKind[] = ['create'];

/** Scopes whose last failure is remembered, to corroborate the next (see `Learner.recentFailures`). */
const RECENT_FAILURES = 256;
/** A saved key or digest longer than this is none this engine wrote. */
const MAX_SAVED_KEY = 1_024;

/**
 * Kinds of action on one file whose failure is about that file (an edit's text not in it, a read
 * past its end): the ban holds while the file holds what it held when the call failed.
 */
const ONE_FILE_KINDS: readonly ActionKind[] = ['read', 'mutate', 'create', 'delete'];

/**
 * Digests of `files` as they are now (see `WorldProbe.digest`), and whether every one is
 * configuration; undefined when any is unknown.
 */
export type PinFiles = (files: readonly string[]) => FilePins | undefined;

export class Learner {
  /**
   * The last failure per scope, its error digest and the call's ban key: an unblamed failure per
   * tool and targets, and any failure per tool and respelling (see `corroborateRespelling`).
   */
  private readonly recentFailures = new Map<string, { digest: string; banKey: string }>();
  /** Uncorroborated failures a change set aside, to recognise them when they come back. */
  private readonly reproduced = new ReproducedFailures();
  /** The distinct calls seen failing on each widened target, which corroborate its ban. */
  private readonly failingCalls = new FailingCalls();

  /** Each kind's share of the policy's context (see `scopedContext`). */
  private readonly contexts = new Map<string, Readonly<Record<string, string>> | undefined>();
  private readonly hasContext: boolean;

  constructor(
    private readonly index: ConstraintIndex,
    private readonly policy: Policy,
    /** What the files a failure depends on hold now, or undefined when that cannot be told. */
    private readonly pinFiles: PinFiles = () => undefined,
    /** Whether a failure's signature says what was asked for is not there (see `mayAppear`). */
    private readonly saysAbsent: (signature: string) => boolean = () => false,
  ) {
    this.hasContext = Object.keys(policy.context).length > 0;
  }

  /** `answer`: what the failure answered (see `Evidence.answer`). */
  learn(call: CallContext, failure: FailureFacts, errorText: string, answer?: FailureAnswer): LearnResult {
    const enforced: Entry[] = [];
    const evicted: Entry[] = [];
    const contextOf = (kind: ConstraintScope, targets?: readonly string[]) =>
      this.scopedContext(kind, targets);
    const record = (entry: Entry | undefined, became: boolean, out: Entry[]) => {
      if (entry && became) enforced.push(entry);
      evicted.push(...out);
    };

    const widenable = call.toolPolicy.detectors.identicalFailure.enabled
      ? this.widenableTargets(call, failure, errorText)
      : [];
    // "src/a.ts does not exist", in force at once, already rules out this very call: one constraint
    // says it, not two.
    const coveredByTarget =
      widenable.length === 1 &&
      call.facts.targets.length === 1 &&
      failure.meaning === 'target-missing' &&
      mentions(errorText, widenable[0] as string) &&
      this.index.callEntry(call.banKey) === undefined;
    if (!coveredByTarget) {
      const [callEntry, callBecame, callEvicted] = this.learnCall(
        call,
        failure,
        errorText,
        contextOf('call', call.facts.targets),
        true,
        answer,
      );
      record(callEntry, callBecame, callEvicted);
      if (answer !== undefined)
        enforced.push(...this.corroborateRespelling(call, callEntry, errorText, answer.digest));
    }

    for (const target of widenable) {
      const [entry, became, out] = this.learnTarget(
        call,
        failure,
        errorText,
        target,
        contextOf('target', [target]),
      );
      record(entry, became, out);
    }
    if (this.policy.learning.strategyEffect !== 'off') {
      const [entry, became, out] = this.learnStrategy(call, failure, errorText, contextOf('strategy'));
      record(entry, became, out);
    }
    if (failure.monotone && failure.monotone.length > 0 && call.facts.parameters) {
      const [entry, became, out] = this.learnParameters(call, failure, errorText, contextOf('parameter'));
      record(entry, became, out);
    }
    return { enforced, evicted };
  }

  /**
   * A failure nobody can blame yet (the adapter does not know the error) teaches only that this very
   * call, repeated against unchanged state, fails again: it never widens, and is forgotten with the
   * session, since the environment may be what failed.
   */
  learnRepeat(call: CallContext, failure: FailureFacts, errorText: string, errorDigest: string): LearnResult {
    const context = Object.keys(this.policy.context).length > 0 ? this.policy.context : undefined;
    // Answered alike by its digest alone, numbers included: where nobody can blame the failure, a
    // number that changed may be the environment answering otherwise (a service giving each
    // connection another port).
    const answer = { digest: errorDigest };
    const [entry, became, evicted] = this.learnCall(call, failure, errorText, context, false, answer);
    const enforced = became ? [entry] : [];
    // Another call of the tool on the same targets failed with this very error, and nothing has
    // changed since: the error is about the targets' state, not a passing glitch of one call.
    // By its hash: saved with the session's run state, the targets stay out of it.
    const scope = hashString(`${call.tool}\u0000${call.facts.targets.join('\u0000')}`);
    if (this.otherCallFailedAlike(scope, call.banKey, errorDigest) !== undefined)
      enforced.push(...this.corroborate([entry], call, errorText));
    enforced.push(...this.corroborateRespelling(call, entry, errorText, errorDigest));
    return { enforced, evicted };
  }

  /**
   * The call is another spelling of a call that failed just before with this very error, nothing
   * having changed since (`jest --runInBand a.test.ts`, then `jest a.test.ts --runInBand`): the
   * second sighting of one attempt's failure, whichever order its options were written in.
   */
  private corroborateRespelling(
    call: CallContext,
    entry: Entry,
    errorText: string,
    errorDigest: string,
  ): Entry[] {
    const respelling = call.facts.respellingKey;
    if (respelling === undefined) return [];
    // By its hash, with a mark no tool-and-targets scope has: saved with the session's run state.
    const scope = hashString(`respelled\u0000${call.tool}\u0000${respelling}`);
    const other = this.otherCallFailedAlike(scope, call.banKey, errorDigest);
    if (other === undefined) return [];
    // Both spellings have now failed alike twice: each is banned, as a call seen failing twice is.
    return this.corroborate([entry, this.index.callEntry(other)], call, errorText);
  }

  /**
   * The ban key of the call whose failure was the scope's last, when that was another call's and it
   * failed with this very error; this call's failure is the scope's last from now on.
   */
  private otherCallFailedAlike(scope: string, banKey: string, digest: string): string | undefined {
    const earlier = this.recentFailures.get(scope);
    if (this.recentFailures.size >= RECENT_FAILURES) this.recentFailures.clear();
    this.recentFailures.set(scope, { digest, banKey });
    return earlier !== undefined && earlier.digest === digest && earlier.banKey !== banKey
      ? earlier.banKey
      : undefined;
  }

  /** A failure seen once more for each of the entries not yet in force: those it brings into force. */
  private corroborate(
    entries: readonly (Entry | undefined)[],
    call: CallContext,
    errorText: string,
  ): Entry[] {
    const enforced: Entry[] = [];
    for (const entry of entries) {
      if (entry === undefined || isActive(entry)) continue;
      const [, became] = this.strengthen(entry, call, errorText, 'call');
      if (became) enforced.push(entry);
    }
    return enforced;
  }

  /**
   * The part of the policy's context a constraint of this kind keeps. It depends on the kind and on
   * whether a target names an absolute path, nothing else, so it is worked out once for each, and
   * shared (frozen) by the constraints that keep it.
   */
  private scopedContext(
    kind: ConstraintScope,
    targets?: readonly string[],
  ): Record<string, string> | undefined {
    if (!this.hasContext) return undefined;
    const local =
      (kind === 'call' || kind === 'target') && targets !== undefined && targets.some(namesAbsolutePath);
    const key = local ? `${kind} local` : kind;
    if (this.contexts.has(key)) return this.contexts.get(key);
    const scoped = scopedContext(kind, this.policy.context, this.policy.sharing, targets);
    if (scoped !== undefined) Object.freeze(scoped);
    this.contexts.set(key, scoped);
    return scoped;
  }

  /** Something changed: earlier failures no longer say anything about the next call. */
  forgetRecentFailures(): void {
    if (this.recentFailures.size > 0) this.recentFailures.clear();
  }

  /**
   * A change set aside a call's failure before it was corroborated. If the call fails the same way
   * after the change, that failure is no passing glitch: it counts as the second sighting.
   */
  setAside(entry: Entry): void {
    const { constraint } = entry;
    if (constraint.scope !== 'call' || constraint.callKey === undefined) return;
    this.reproduced.setAside(constraint.callKey, constraint.signature, constraint.evidence.lastError);
  }

  /**
   * What the learner remembers of the session's recent failures, for the session's run state: the
   * last failure per scope (see `recentFailures`; the scope by its hash) and the failures a change
   * set aside (by ban key, their errors by hash). Nothing of a call's arguments in clear.
   */
  snapshot(): unknown {
    return {
      unknown: [...this.recentFailures].map(([scope, { digest, banKey }]) => [scope, digest, banKey]),
      setAside: this.reproduced.snapshot(),
    };
  }

  /** Reads back what `snapshot` wrote; anything else is dropped. */
  restore(state: unknown): void {
    this.recentFailures.clear();
    const saved = typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
    this.reproduced.restore(saved.setAside);
    if (!Array.isArray(saved.unknown)) return;
    for (const item of saved.unknown.slice(-RECENT_FAILURES)) {
      if (!Array.isArray(item) || item.length !== 3) continue;
      if (item.every((part) => typeof part === 'string' && part.length <= MAX_SAVED_KEY))
        this.recentFailures.set(item[0], { digest: item[1], banKey: item[2] });
    }
  }

  /** A new session: what failed in the last one says nothing about glitches in this one. */
  forgetSetAside(): void {
    this.reproduced.clear();
  }

  private learnCall(
    call: CallContext,
    failure: FailureFacts,
    errorText: string,
    context: Record<string, string> | undefined,
    persistent = true,
    answer?: FailureAnswer,
  ): [Entry, boolean, Entry[]] {
    const thresholds = call.toolPolicy.detectors.identicalFailure;
    // A move that names nowhere to go (`scroll_down`, `goto 120`) starts from wherever the last move
    // left off: one failure says nothing certain about the next, however deterministic its words.
    const relativeMove = call.facts.navigates === true && call.facts.actsOnHiddenState === true;
    const thresholdOfPolicy =
      failure.deterministic && !relativeMove
        ? thresholds.deterministicThreshold
        : teachesOnlyRepeats(failure)
          ? thresholds.unknownThreshold
          : thresholds.threshold;
    const required = failure.varies === true ? Math.max(2, thresholdOfPolicy) : thresholdOfPolicy;
    const existing = this.index.callEntry(call.banKey);
    const kind = call.facts.kind;
    // A call that names nothing the guard can follow (a lint read of "the open file", a listing with
    // no path it understands) may depend on any file: any change of the workspace is new evidence.
    const unnamed = call.facts.targets.length === 0 && kind !== 'api' && kind !== 'poll';
    const workspace = kind === 'exec' || kind === 'search';
    // A status check (`pgrep`, `docker ps`) asks about processes and jobs that commands start and
    // stop: any change may change what it finds.
    const anyChange = workspace || unnamed || kind === 'poll';
    const files = workspace && failure.dependsOnFiles?.length ? [...failure.dependsOnFiles] : undefined;
    // A call on one file fails on what the file holds: the user, a formatter or another agent may
    // change it where the guard cannot see, and the ban is lifted when the file no longer holds that.
    const oneFile =
      !anyChange &&
      call.facts.targets.length === 1 &&
      call.facts.service === undefined &&
      ONE_FILE_KINDS.includes(kind);
    // A failure about configuration files holds in a later session while they hold what they held;
    // one about other files (a syntax error in a script) holds in this session while they do.
    const atRoot = files !== undefined && failure.dependsOnFilesAtRoot === true;
    const pins = atRoot ? this.pinFiles(files) : oneFile ? this.pinFiles(call.facts.targets) : undefined;
    const digests = pins?.digests;
    const configuration = atRoot && persistent && pins?.configuration === true;
    if (existing && existing.constraint.signature === failure.signature) {
      if (workspace || oneFile) {
        // Pinned to what the files hold at this failure, which the earlier one may not have seen.
        if (digests) existing.constraint.fileDigests = digests;
        else delete existing.constraint.fileDigests;
      }
      if (workspace) existing.constraint.persistent = configuration;
      if (answeredOtherwise(existing, answer, errorText))
        return this.startOver(existing, call, errorText, answer);
      return this.strengthen(existing, call, errorText, 'call', answer);
    }
    if (existing) this.index.remove(existing);
    const evidence = firstEvidence(call, keptText(errorText, EVIDENCE_CHARS));
    if (answer !== undefined) withAnswer(evidence, answer);
    if (this.reproduced.reproduces(call.banKey, failure.signature, evidence.lastError)) evidence.failures = 2;
    // Built field by field, in the order constraints have always had, with no field left undefined:
    // a constraint is kept for days, possibly by the hundred thousand.
    const constraint: Partial<Mutable<Constraint>> = {
      id: constraintId(['call', call.banKey, failure.signature, contextKey(context)]),
      type: 'banned_strategy',
      scope: 'call',
      signature: failure.signature,
      actionClass: call.facts.actionClass,
      tool: call.tool,
      callKey: call.banKey,
      keyHash: KEY_GENERATION,
    };
    const target = call.facts.targets[0];
    if (target !== undefined) constraint.target = target;
    if (failure.meaning !== undefined) constraint.meaning = failure.meaning;
    if (failure.meaning === 'content-missing' && failure.needle !== undefined)
      constraint.needle = failure.needle;
    constraint.dependsOnWorkspace = anyChange;
    if (files !== undefined) constraint.dependsOnFiles = files;
    if (digests !== undefined) constraint.fileDigests = digests;
    if (call.facts.service !== undefined) constraint.dependsOnService = call.facts.service;
    constraint.evidence = evidence;
    constraint.createdAt = call.now;
    constraint.expiresAt = this.expiresAt(call, 'call', failure.signature, 0);
    constraint.strikes = 0;
    constraint.probation = false;
    // Workspace-wide facts (a failing test run) go stale when files change outside our view,
    // unless the failure was about files whose content is known, and checked before it blocks.
    // A refusal of the calls' order is about this session's calls: it does not outlive the session.
    constraint.persistent = persistent && (!workspace || configuration) && failure.awaitsAnotherCall !== true;
    if (context !== undefined) constraint.context = context;
    if (failure.curedByReading) constraint.curedByReading = true;
    const entry: Entry = {
      required: thresholds.enabled ? required : Number.POSITIVE_INFINITY,
      dependsOn: anyChange || kind === 'api' ? [] : call.facts.targets,
      constraint: constraint as Mutable<Constraint>,
    };
    const evicted = this.index.put(entry, { workspace: anyChange });
    return [entry, isActive(entry), evicted];
  }

  /** Target widening: the failure is about the target itself, not about this call. */
  private widenableTargets(call: CallContext, failure: FailureFacts, errorText: string): string[] {
    const { targets, kind } = call.facts;
    if (targets.length === 0 || kind === 'exec') return [];
    if (failure.meaning === 'target-missing' || failure.meaning === 'target-exists') {
      // With several targets, only the ones the error names are known to be at fault.
      return targets.length === 1 ? [...targets] : targets.filter((target) => mentions(errorText, target));
    }
    // An edit whose text was not found says that text is absent, not that the file is out of reach:
    // another edit is judged by its own text (see the absent-text detector), not by this failure.
    if (failure.meaning === 'content-missing') return [];
    if (this.policy.learning.targetScope === 'all' && targets.length === 1) return [...targets];
    return [];
  }

  private learnTarget(
    call: CallContext,
    failure: FailureFacts,
    errorText: string,
    target: string,
    context: Record<string, string> | undefined,
  ): [Entry, boolean, Entry[]] {
    const meaning = failure.meaning;
    const blocksKinds =
      meaning === 'target-missing'
        ? MISSING_BLOCKS
        : meaning === 'target-exists'
          ? EXISTS_BLOCKS
          : [call.facts.kind];
    const id = constraintId([
      'target',
      target,
      meaning,
      failure.signature,
      blocksKinds.join(','),
      contextKey(context),
    ]);
    const aboutExistence = meaning === 'target-missing' || meaning === 'target-exists';
    const existing = this.index.get(id);
    if (existing) {
      // One call failing again says nothing more about the target than it said the first time:
      // what widens a failure to its target is another call failing there.
      if (!aboutExistence && !this.failingCalls.add(id, call.banKey)) return [existing, false, []];
      return this.strengthen(existing, call, errorText, 'target');
    }
    if (!aboutExistence) this.failingCalls.start(id, call.banKey);
    // For existence, an error that names the target is evidence enough; otherwise wait for a second
    // failure. Any other widening (`targetScope: 'all'`) waits for a second, different call to fail
    // the same way on the target: one empty search or one failed edit is about that call.
    const required = aboutExistence && mentions(errorText, target) ? 1 : 2;
    const constraint: Partial<Mutable<Constraint>> = {
      id,
      type: 'banned_strategy',
      scope: 'target',
      signature: failure.signature,
      actionClass: call.facts.actionClass,
      tool: call.tool,
      target,
      blocksKinds,
    };
    if (meaning !== undefined) constraint.meaning = meaning;
    if (meaning === 'content-missing' && failure.needle !== undefined) constraint.needle = failure.needle;
    constraint.evidence = firstEvidence(call, keptText(errorText, EVIDENCE_CHARS));
    constraint.createdAt = call.now;
    constraint.expiresAt = call.now + this.policy.learning.ttlSeconds.target * SECOND;
    constraint.strikes = 0;
    constraint.probation = false;
    constraint.persistent = true;
    if (context !== undefined) constraint.context = context;
    const entry: Entry = { required, dependsOn: [], constraint: constraint as Mutable<Constraint> };
    // No entry has this id: it was looked up above.
    return [entry, isActive(entry), this.index.put(entry, { absent: true })];
  }

  private learnStrategy(
    call: CallContext,
    failure: FailureFacts,
    errorText: string,
    context: Record<string, string> | undefined,
  ): [Entry | undefined, boolean, Entry[]] {
    // A call that names no target is told apart by what it fails by: its words about itself (a
    // reworded description) do not make another guess of the same failure.
    const target = call.facts.targets[0] ?? call.banKey;
    // Kept as evidence, and compared with what is kept: never a credential in clear.
    const description = ownCopy(redactText(target));
    const existing = this.index.strategyEntry(call.facts.actionClass, failure.signature);
    if (existing) {
      const evidence = existing.constraint.evidence;
      const known = evidence.calls.includes(description);
      if (known && isActive(existing)) return [existing, false, []];
      const wasActive = isActive(existing);
      const distinct = known ? evidence.failures : evidence.failures + 1;
      existing.constraint.evidence = {
        ...evidence,
        failures: distinct,
        lastAt: call.now,
        lastError: keptText(errorText, EVIDENCE_CHARS),
        // A target not among the calls yet (most are) leaves nothing to take out.
        calls: pushBounded(
          known ? evidence.calls.filter((seen) => seen !== description) : evidence.calls,
          description,
          16,
        ),
      };
      existing.constraint.expiresAt = call.now + this.policy.learning.ttlSeconds.strategy * SECOND;
      this.index.touch(existing, wasActive);
      return [existing, !wasActive && isActive(existing), []];
    }
    const constraint: Mutable<Constraint> = {
      id: constraintId(['strategy', call.facts.actionClass, failure.signature, contextKey(context)]),
      type: 'banned_strategy',
      scope: 'strategy',
      signature: failure.signature,
      actionClass: call.facts.actionClass,
      // Its calls are the targets it failed on, not the calls themselves.
      evidence: firstEvidence(call, keptText(errorText, EVIDENCE_CHARS), description),
      createdAt: call.now,
      expiresAt: call.now + this.policy.learning.ttlSeconds.strategy * SECOND,
      strikes: 0,
      probation: false,
      persistent: false,
    };
    if (context !== undefined) constraint.context = context;
    const entry: Entry = { required: this.policy.learning.strategyMinTargets, dependsOn: [], constraint };
    return [entry, isActive(entry), this.index.put(entry)];
  }

  /**
   * Along monotone parameters, everything at least as large as a failing point fails too
   * (memory grows with depth, width and batch size), so the ban is the cone above the point.
   */
  private learnParameters(
    call: CallContext,
    failure: FailureFacts,
    errorText: string,
    context: Record<string, string> | undefined,
  ): [Entry | undefined, boolean, Entry[]] {
    const parameters = call.facts.parameters ?? {};
    const atLeast: Record<string, number> = {};
    const atMost: Record<string, number> = {};
    const monotoneNames = new Set<string>();
    for (const { parameter, direction } of failure.monotone ?? []) {
      const value = parameters[parameter];
      if (typeof value !== 'number') continue;
      monotoneNames.add(parameter);
      if (direction === 'up') atLeast[parameter] = value;
      else atMost[parameter] = value;
    }
    if (monotoneNames.size === 0) return [undefined, false, []];
    const equals: Record<string, number | string | boolean> = {};
    if (!failure.monotoneOnly) {
      for (const [name, value] of Object.entries(parameters))
        if (!monotoneNames.has(name)) equals[name] = value;
    }
    const region: ParameterRegion = { atLeast, atMost, equals };
    const existing = [...this.index.parameterBansFor(call.tool)];
    for (const entry of existing) {
      if (
        entry.constraint.signature === failure.signature &&
        entry.constraint.region &&
        regionCovers(entry.constraint.region, region)
      ) {
        return this.strengthen(entry, call, errorText, 'parameter');
      }
    }
    const id = constraintId([
      'parameter',
      call.facts.actionClass,
      failure.signature,
      JSON.stringify(region),
      contextKey(context),
    ]);
    const thresholds = call.toolPolicy.detectors.identicalFailure;
    // The narrower cones this one contains are failures inside it: they corroborate it, so the
    // order the failures came in (0.1 then 0.11, or 0.11 then 0.1) does not change what is learned.
    const contained = existing.filter(
      (other) =>
        other.constraint.signature === failure.signature &&
        other.constraint.region !== undefined &&
        regionCovers(region, other.constraint.region),
    );
    const evidence = firstEvidence(call, keptText(errorText, EVIDENCE_CHARS));
    for (const other of contained) {
      evidence.failures += other.constraint.evidence.failures;
      evidence.firstAt = Math.min(evidence.firstAt, other.constraint.evidence.firstAt);
    }
    const entry: Entry = {
      required: failure.deterministic ? thresholds.deterministicThreshold : thresholds.threshold,
      dependsOn: [],
      constraint: withoutUndefined({
        id,
        type: 'parameter_ban',
        scope: 'parameter',
        signature: failure.signature,
        actionClass: call.facts.actionClass,
        tool: call.tool,
        region,
        evidence,
        createdAt: call.now,
        expiresAt: call.now + this.policy.learning.ttlSeconds.parameter * SECOND,
        strikes: 0,
        probation: false,
        persistent: true,
        context,
      }),
    };
    const evicted = this.index.put(entry);
    // A wider cone makes the narrower ones it contains redundant.
    for (const other of contained) this.index.remove(other);
    return [entry, isActive(entry), evicted];
  }

  /**
   * The call failed again with the same signature but answered otherwise: what it answers is not a
   * function of the state the guard sees (a test that fails another way on each run, a service that
   * answers differently), so the earlier failure is no corroboration. The count starts over from
   * this failure, which the next one must repeat.
   */
  private startOver(
    entry: Entry,
    call: CallContext,
    errorText: string,
    answer: FailureAnswer,
  ): [Entry, boolean, Entry[]] {
    const evidence = firstEvidence(call, keptText(errorText, EVIDENCE_CHARS));
    evidence.firstAt = entry.constraint.evidence.firstAt;
    withAnswer(evidence, answer);
    entry.constraint.evidence = evidence;
    this.index.touch(entry, false);
    return [entry, false, []];
  }

  /**
   * A question put outside this machine answered that what it asks for is not there (a version not
   * yet on the registry, a pod not yet created): that may change by itself, so a ban of it holds for
   * the time an outside answer holds (see `OUTSIDE_ANSWER_MS`), after which one retry goes through,
   * however often it failed before. A refusal of the call itself (a bad flag, a command the shell
   * would not run) holds as long as any other ban.
   */
  private mayAppear(call: CallContext, signature: string): boolean {
    return call.facts.asksOutside === true && this.saysAbsent(signature);
  }

  /**
   * When a ban of `kind` learned from the call ends: after the policy's time, longer for each retry on
   * probation that failed again (`strikes`), or, for a call's own failure that says what it asks
   * outside for is not there yet, after the time an outside answer holds.
   */
  private expiresAt(
    call: CallContext,
    kind: 'call' | 'target' | 'parameter',
    signature: string,
    strikes: number,
  ): number {
    if (kind === 'call' && this.mayAppear(call, signature)) return call.now + OUTSIDE_ANSWER_MS;
    const ttl = this.policy.learning.ttlSeconds[kind] * SECOND;
    return call.now + ttl * this.policy.learning.probationFactor ** strikes;
  }

  /** One more failure for an existing entry; a failure on probation re-bans for longer. */
  private strengthen(
    entry: Entry,
    call: CallContext,
    errorText: string,
    ttlKind: 'call' | 'target' | 'parameter',
    answer?: FailureAnswer,
  ): [Entry, boolean, Entry[]] {
    const wasActive = isActive(entry);
    const constraint = entry.constraint;
    const evidence = constraint.evidence;
    const next: Mutable<Evidence> = {
      ...evidence,
      failures: evidence.failures + 1,
      lastAt: call.now,
      lastError: keptText(errorText, EVIDENCE_CHARS),
      calls: pushBounded(evidence.calls, call.description, EVIDENCE_CALLS),
    };
    if (answer !== undefined) withAnswer(next, answer);
    constraint.evidence = next;
    let rebanned = false;
    if (constraint.probation) {
      constraint.probation = false;
      constraint.strikes += 1;
      rebanned = true;
    }
    constraint.expiresAt = this.expiresAt(call, ttlKind, constraint.signature, constraint.strikes);
    this.index.touch(entry, wasActive);
    return [entry, (!wasActive && isActive(entry)) || rebanned, []];
  }
}

/**
 * The evidence of a constraint's first failure: `lastError` as kept (see `keptText`), and the call's
 * description unless another account of it is given (a strategy keeps the targets it failed on).
 */
function firstEvidence(call: CallContext, lastError: string, described?: string): Mutable<Evidence> {
  const evidence: Mutable<Evidence> = {
    failures: 1,
    firstAt: call.now,
    lastAt: call.now,
    lastError,
    calls: [described ?? call.description],
  };
  if (call.identity.masked.length > 0) evidence.masked = [...call.identity.masked];
  return evidence;
}

/**
 * An uncorroborated ban whose last failure answered otherwise than this one: both answers known,
 * different with their volatile parts masked, different without their numbers too (when the
 * earlier one's is known), and not alike word for word but for values drawn afresh (see
 * `answersAlike`). A ban already in force, or on probation after a change, is judged as
 * before.
 */
function answeredOtherwise(
  entry: Entry,
  answer: FailureAnswer | undefined,
  errorText: string,
): answer is FailureAnswer {
  if (answer === undefined || isActive(entry) || entry.constraint.probation) return false;
  const { answer: earlier, answerWithoutNumbers, lastError } = entry.constraint.evidence;
  if (earlier === undefined || earlier === answer.digest) return false;
  // Where nobody can blame the failure, its answer is compared by its digest alone (see `learnRepeat`).
  if (answerWithoutNumbers === undefined) return true;
  if (answerWithoutNumbers === answer.withoutNumbers) return false;
  // Values drawn from letters alone (`run evvkvxoskel`) escape every mask: the texts kept of both
  // failures, compared word by word, tell them from another answer, when both were kept whole (a
  // long output's head says nothing of the error further on).
  const kept = keptText(errorText, EVIDENCE_CHARS);
  if (lastError.endsWith(CUT_MARK) || kept.endsWith(CUT_MARK)) return true;
  return !answersAlike(lastError, kept);
}

/** Keeps what a failure answered in its evidence: both digests, the second when known. */
function withAnswer(evidence: Mutable<Evidence>, answer: FailureAnswer): void {
  evidence.answer = answer.digest;
  if (answer.withoutNumbers !== undefined) evidence.answerWithoutNumbers = answer.withoutNumbers;
  else delete evidence.answerWithoutNumbers;
}

function pushBounded(list: readonly string[], item: string, limit: number): string[] {
  const next = [...list, item];
  return next.length > limit ? next.slice(next.length - limit) : next;
}

/** The key of each context object in constraint ids: a learner hands out a few, again and again. */
const contextKeys = new WeakMap<object, string>();

function contextKey(context: Readonly<Record<string, string>> | undefined): string {
  if (context === undefined) return '';
  let key = contextKeys.get(context);
  if (key === undefined) {
    key = JSON.stringify(Object.entries(context).sort());
    contextKeys.set(context, key);
  }
  return key;
}

/** Does the error text name this target (its path, or its file name)? */
export function mentions(text: string, target: string): boolean {
  if (text.includes(target)) return true;
  const name = target.slice(target.lastIndexOf('/') + 1);
  return name.length >= 3 && text.includes(name);
}

export type { Constraint };

/**
 * The same object without its undefined fields. A constraint is kept for days, possibly by the
 * hundred thousand: fields it does not use should not take room.
 */
function withoutUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  // A plain object literal: its own keys are all `for…in` sees, in the order `Object.entries` gives.
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined) out[key] = field;
  }
  return out as T;
}
