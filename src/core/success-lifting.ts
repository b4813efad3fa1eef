/**
 * What a successful call proves and changes: it lifts the bans it proves wrong (its own, those on
 * its targets, its strategy's), relieves the ones that depended on what it changed or read (one
 * retry each), and ends bans on calls that act on hidden state (an editor's open file).
 */
import type { BanCheck } from './ban-check.js';
import type { Call } from './call-context.js';
import { blocksKind, type ConstraintIndex, type Entry, isActive } from './constraints.js';
import type { CallContext } from './detectors/types.js';
import { copyOf, invalidateAfter } from './invalidation.js';
import type { Learner } from './learning.js';
import type { Policy } from './policy.js';
import type { RadiusLimit } from './radius.js';
import { ErrorSubjects, namesLookedUp, onlyLooks, subjectNamed } from './subject-lookup.js';
import type { CallFacts, WorkspaceKnowledge } from './types.js';
import type { Effect, WorldTracker } from './world.js';

/** Characters of a look-up's arguments read for the subject it names. */
const LOOKUP_CHARS = 2_000;
/** Names of files a looking command's line is read for. */
const LOOKED_AT_NAMES = 16;
/** Bans held until another call succeeds read back from a session's run state, at most. */
const MAX_HELD = 1_024;
/** Failing commands a look-up is compared with: the latest ones. */
const LOOKUP_SCAN = 64;

/**
 * A learned ban that holds only until another call succeeds: one on a call that acts on hidden state
 * (an editor's open file), or one the error said was out of order (another call must come first).
 */
interface UntilAnotherCall {
  readonly entry: Entry;
  /**
   * Held because the error said another call must come first, not because the call acts on hidden
   * state: only the lift's wording reads it. The ban itself does not say which (the refusal of the
   * order is a fact of the failure, seen only when the ban is learned), and a stored field on every
   * ban for one sentence would cost more than this.
   */
  readonly ordering: boolean;
}

/** A ban lifted or relieved by an outcome, and why. */
export interface Lifted {
  readonly entry: Entry;
  readonly why: string;
}

export interface SuccessLiftingOptions {
  readonly index: ConstraintIndex;
  readonly policy: Policy;
  readonly bans: BanCheck;
  readonly learner: Learner;
  readonly world: WorldTracker;
  readonly radius: RadiusLimit;
  readonly workspace: WorkspaceKnowledge;
}

export class SuccessLifting {
  private readonly index: ConstraintIndex;
  private readonly policy: Policy;
  private readonly bans: BanCheck;
  private readonly learner: Learner;
  private readonly world: WorldTracker;
  private readonly radius: RadiusLimit;
  private readonly workspace: WorkspaceKnowledge;
  /** Learned bans that hold until another call succeeds. */
  private untilAnotherCall: UntilAnotherCall[] = [];
  /** The subjects of the errors look-ups are compared with. */
  private readonly errorSubjects = new ErrorSubjects();

  constructor(options: SuccessLiftingOptions) {
    this.index = options.index;
    this.policy = options.policy;
    this.bans = options.bans;
    this.learner = options.learner;
    this.world = options.world;
    this.radius = options.radius;
    this.workspace = options.workspace;
  }

  /**
   * A success lifts the bans it proves wrong, and relieves the ones that depended on what it
   * changed: those go on probation (one retry), since a change may or may not have cured them.
   */
  learn(call: Call, resultDigest: string, lifted: Lifted[], silent = false): Effect {
    if (this.untilAnotherCall.length > 0) this.liftAfterAnotherCall(call, lifted);
    const { own, targets: onTargets } = this.bans.constraintsOn(call);
    if (own) this.lift(own, () => `${call.description} succeeded`, call.now, lifted);
    for (let index = 0; index < onTargets.length; index++) {
      const target = call.facts.targets[index] as string;
      // Lifting takes entries out of the list being read.
      for (const entry of copyOf(onTargets[index] as readonly Entry[])) {
        if (blocksKind(entry.constraint, call.facts.kind))
          this.lift(entry, () => `${call.description} succeeded on ${target}`, call.now, lifted);
      }
    }
    if (this.index.hasStrategies(call.facts.actionClass)) {
      // Lifting changes the set, so go over a copy.
      for (const entry of [...this.index.strategiesFor(call.facts.actionClass)]) {
        this.lift(
          entry,
          () => `${call.facts.actionClass} succeeded again (${call.description})`,
          call.now,
          lifted,
        );
      }
    }
    this.radius.recordSuccess();
    if (call.facts.readsWholeTarget) this.relieveAfterReading(call, lifted);
    if (onlyLooks(call.facts)) {
      this.relieveAfterLookingUp(call, lifted);
      if (call.facts.kind === 'exec') this.relieveAfterLookingAt(call, lifted);
    }
    if (!silent) this.noteAnswer(call, resultDigest, lifted);
    return this.change(call, resultDigest, lifted, silent);
  }

  /**
   * A command stopped before it ended that writes when it runs (see `FailureFacts.mayHaveWritten`)
   * may have made part of its change: what depended on what it writes is relieved as after its
   * success. It proves no ban wrong: it did not get to the end.
   */
  learnStopped(call: Call, resultDigest: string, lifted: Lifted[]): Effect {
    return this.change(call, resultDigest, lifted, false);
  }

  /**
   * The call's tool refused it because its file changed after the agent read it: another writer (the
   * user, a formatter, a linter) changed the file, and what depended on it is relieved as after an
   * edit of it. Whatever that writer wrote is unknown, so no text is taken as written.
   */
  changedByAnotherWriter(call: Call, lifted: Lifted[]): void {
    const targets = call.facts.targets;
    if (targets.length === 0) return;
    this.world.touchedByCommand(targets);
    this.learner.forgetRecentFailures();
    this.invalidate({ changedTargets: targets, kind: 'mutate' }, call, lifted);
  }

  /** What a call that ran changed, and the bans that depended on it relieved. */
  private change(call: Call, resultDigest: string, lifted: Lifted[], silent: boolean): Effect {
    const effect = this.world.effectOf(call.facts, call.identity.callKey, resultDigest, silent);
    if (effect.kind === 'none') return effect;
    if (effect.kind === 'unknown' && effect.command)
      this.world.touchedByCommand(this.workspace.targetsIn(effect.command));
    this.learner.forgetRecentFailures();
    this.invalidate(effect, call, lifted);
    return effect;
  }

  /** A refused call that left the file it names open (an editor's `create` of a file that exists). */
  noteOpened(call: Call): void {
    const target = call.facts.targets[0];
    if (call.facts.targets.length === 1 && target !== undefined) this.world.opened(target);
  }

  /** A ban on a call that acts on state its arguments do not name holds until anything else runs. */
  noteHiddenStateBan(call: Call): void {
    this.holdUntilAnotherCall(call, false);
  }

  /**
   * A call refused because another must run first fails again only while nothing else has run: the
   * same call retried at once, or after failures only, is a loop; after a success it may be in order.
   */
  noteOrderingBan(call: Call): void {
    this.holdUntilAnotherCall(call, true);
  }

  /**
   * The user spoke. Users act on the machine outside the guard's view (they start a server, set a
   * token, edit a file by hand) and come back to say so ("it is running now, try again"): the bans
   * that depend on the workspace as a whole (commands, searches, calls that name nothing the guard
   * follows) get one retry, and the same failure re-bans them; so do the bans on calls to a named
   * server's tools, whose token, permissions and plan are the user's to change ("I set a new token,
   * try again"). A ban on a named record of a tool that names no server (a flight, a reservation) or
   * on a file that is missing holds: a reply does not change it.
   */
  userSpoke(lifted: Lifted[]): void {
    const why = () => 'the user wrote since, and may have changed what it depends on';
    // Only the bans indexed as workspace-wide, in the order of every ban: not a walk of all of them.
    for (const entry of this.index.workspaceEntries())
      if (entry.constraint.dependsOnWorkspace === true) this.relieve(entry, why, lifted);
    for (const entry of this.index.armedForNamedServers()) this.relieve(entry, why, lifted);
    this.world.userSpoke();
  }

  /**
   * The environment the calls ran in was lost (a sandbox's container removed or stopped under the
   * agent): every ban was learned against a world that is gone, as after a branch switch, so each
   * gets one retry in whatever world comes back; the same failure there bans it again at once.
   */
  worldLost(call: Call, lifted: Lifted[]): void {
    const why = () =>
      `${call.description} found the environment it runs in gone, with everything learned in it`;
    this.learner.forgetRecentFailures();
    for (const entry of [...this.index.entries()]) this.relieve(entry, why, lifted);
  }

  /**
   * A new session or process opens no file, and has run no call yet: what a hidden-state call acted
   * on is gone, and so is the order of the calls a refusal was about.
   */
  endHiddenState(now: number): void {
    for (const held of this.untilAnotherCall) this.index.remove(held.entry, now);
    this.untilAnotherCall = [];
  }

  /**
   * The bans held until another call succeeds, by their ids, for the session's run state: those
   * bans are saved with it, and without this a new process would hold them for the session.
   */
  snapshot(): [string, boolean][] {
    return this.untilAnotherCall.map((held) => [held.entry.constraint.id, held.ordering]);
  }

  /** Reads back what `snapshot` wrote, for bans the index holds (restored first); anything else is dropped. */
  restore(state: unknown): void {
    this.untilAnotherCall = [];
    if (!Array.isArray(state)) return;
    for (const item of state.slice(-MAX_HELD)) {
      if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'boolean') continue;
      const entry = this.index.get(item[0]);
      if (entry && !this.untilAnotherCall.some((held) => held.entry === entry))
        this.untilAnotherCall.push({ entry, ordering: item[1] });
    }
  }

  private holdUntilAnotherCall(call: Call, ordering: boolean): void {
    const entry = this.index.callEntry(call.banKey);
    if (entry && !this.untilAnotherCall.some((held) => held.entry === entry))
      this.untilAnotherCall.push({ entry, ordering });
  }

  /**
   * Reading a failed call's target in full since it failed is new evidence for a retry. Where the
   * error told the agent to read it, every such read gives one. An edit whose text was not found gets
   * one from a read made right after it failed (the agent went to look), for a ban never re-imposed:
   * the same failure after that retry shows the read taught nothing, and a re-read between identical
   * failures then goes round a cycle, which the cycle detector judges. A read some calls later says
   * no more than any other, and a read says nothing new to other calls on the file (a decompiler's
   * function it did not find is no more there for the file having been read).
   */
  private relieveAfterReading(call: Call, lifted: Lifted[]): void {
    const target = call.facts.targets[0];
    if (target === undefined) return;
    for (const entry of this.index.dependentsOf(target)) {
      const { constraint } = entry;
      if (constraint.tool === call.tool) continue;
      const editRetry =
        constraint.scope === 'call' &&
        constraint.strikes === 0 &&
        constraint.meaning === 'content-missing' &&
        constraint.callKey !== undefined &&
        this.world.failedRightBefore(constraint.callKey);
      if (!constraint.curedByReading && !editRetry) continue;
      this.relieve(entry, () => `${call.description} read ${target} since it failed`, lifted);
    }
  }

  /**
   * A command that only looks and named a file a call failed to find (`ls -la docs/plan.md` after
   * `Read docs/plan.md` answered "File does not exist") ran and answered: the file may be there now,
   * so the failed call gets one retry. A read of the file itself is judged by the rules on reads.
   */
  private relieveAfterLookingAt(call: Call, lifted: Lifted[]): void {
    // Without any ban there is nothing to relieve: the line is not read for the files it names.
    if (this.index.size === 0) return;
    const line = call.facts.targets[0];
    if (line === undefined || call.facts.targets.length !== 1) return;
    for (const named of this.workspace.targetsIn(line).slice(0, LOOKED_AT_NAMES)) {
      for (const entry of this.index.dependentsOf(named)) {
        if (entry.constraint.meaning !== 'target-missing') continue;
        this.relieve(entry, () => `${call.description} looked at ${named} since it was not found`, lifted);
      }
    }
  }

  /**
   * A look-up that names what a failing command's error was about (and the command does not) is new
   * evidence: the command gets one retry. Bounded to the latest failing commands.
   */
  private relieveAfterLookingUp(call: Call, lifted: Lifted[]): void {
    const armed = this.index.armedWorkspaceEntries();
    if (armed.length === 0) return;
    const looked = namesLookedUp(
      Object.values(call.args)
        .filter((value): value is string => typeof value === 'string')
        .join(' ')
        .slice(0, LOOKUP_CHARS),
    );
    if (looked.size === 0) return;
    for (const entry of armed.slice(-LOOKUP_SCAN)) {
      const failed = entry.constraint.target ?? '';
      const word = subjectNamed(looked, failed, entry.constraint.evidence.lastError, this.errorSubjects);
      if (word === undefined) continue;
      this.relieve(entry, () => `${call.description} looked up ${word}, which ${failed} failed on`, lifted);
    }
  }

  /**
   * Another call ran: it may have changed what the banned calls act on (opened another file), so
   * the same arguments may now mean another call; or it may be the call that had to come first.
   */
  private liftAfterAnotherCall(call: Call, lifted: Lifted[]): void {
    const kept: UntilAnotherCall[] = [];
    for (const held of this.untilAnotherCall) {
      const { entry } = held;
      if (entry.constraint.callKey === call.banKey) kept.push(held);
      else
        this.lift(
          entry,
          held.ordering
            ? () =>
                `${call.description} ran since, and ${entry.constraint.tool} was refused only until another call ran first`
            : () =>
                `${call.description} ran since, and may have changed what ${entry.constraint.tool} acts on`,
          call.now,
          lifted,
        );
    }
    this.untilAnotherCall = kept;
  }

  /**
   * A tool whose name says nothing of what it does, naming nothing the guard follows (a `click`, a
   * `press`), acts on what its last answer showed: a success that answers what the tool never
   * showed before moved the agent somewhere new (another page, another screen), so the tool's
   * failed calls may mean something else now and get one retry. A success that answers what the
   * tool already showed (the same page again, a greeting a session prints each time) goes back
   * where the agent has been, where those calls were refused; a failure refused again after the
   * move is banned again. A call carrying structured arguments (a proxy's `{tool_name, arguments}`)
   * is a request made through the tool, not a step from what it showed.
   */
  private noteAnswer(call: Call, resultDigest: string, lifted: Lifted[]): void {
    if (!movesWhatItShows(call.facts) || !flat(call.args)) return;
    if (!this.world.showsNew(call.tool, resultDigest)) return;
    for (const entry of this.index.armedWorkspaceEntries()) {
      if (entry.constraint.tool !== call.tool || entry.constraint.callKey === call.banKey) continue;
      this.relieve(
        entry,
        () =>
          `${call.description} answered what it had not shown before, so what ${entry.constraint.tool} acts on has changed`,
        lifted,
      );
    }
  }

  /**
   * A success proved the ban wrong. The reason is worded only for a ban that was in force: most
   * lifted entries are failures seen once, which nobody is told about.
   */
  private lift(entry: Entry, why: () => string, now: number, lifted: Lifted[]): void {
    this.index.remove(entry, now);
    if (isActive(entry)) lifted.push({ entry, why: why() });
  }

  /** What the ban depended on changed, which may or may not have cured it: one retry is allowed. */
  private relieve(entry: Entry, why: () => string, lifted: Lifted[]): void {
    if (!isActive(entry)) {
      // Corroboration counts failures against unchanged state; the state changed. The failure is
      // set aside: if it comes back unchanged, it was no glitch.
      this.index.remove(entry);
      this.learner.setAside(entry);
    } else if (!entry.constraint.probation) {
      entry.constraint.probation = true;
      this.index.changed(entry);
      this.index.disarm(entry);
      lifted.push({ entry, why: `${why()}; one retry is allowed` });
    }
  }

  private invalidate(effect: Effect, call: CallContext, lifted: Lifted[]): void {
    invalidateAfter(effect, call, {
      index: this.index,
      workspace: this.workspace,
      workspaceWide: this.policy.learning.invalidation === 'workspace',
      relieve: (entry, why) => this.relieve(entry, why, lifted),
    });
  }
}

/** A call of a tool that says nothing of what it does, on nothing named: what it acts on is what was shown. */
function movesWhatItShows(facts: CallFacts): boolean {
  return (
    facts.kind === 'other' &&
    facts.targets.length === 0 &&
    facts.actsOnNothing !== true &&
    facts.sideEffect !== true &&
    facts.service === undefined
  );
}

/** Arguments of text, numbers and flags only: a label clicked, a line sent. */
function flat(args: Readonly<Record<string, unknown>>): boolean {
  return Object.values(args).every((value) => value === null || typeof value !== 'object');
}
