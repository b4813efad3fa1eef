/**
 * Identical calls issued together (parallel tool calls in one model response, or the same call sent
 * again while it is still running) run once. The first one claims the call; a duplicate is held
 * until the first has returned, bounded by the face's deadline, and then:
 * - the first failed or was refused: the duplicate is answered from it and does not run;
 * - the first succeeded and the tool is idempotent (it reads, searches or polls, or its annotations
 *   say so): the duplicate runs, on its own, after the first;
 * - the first succeeded and the tool changes something: the duplicate is answered from it, so the
 *   change is not made twice.
 * A duplicate answered from its twin gets the verdict `coalesced`: the journal records it, and it is
 * never counted as a refusal of a call that would have succeeded.
 */
import { wordsAboutTheCall } from '../adapters/tool-call/normal-form.js';
import { canonicalJson, hashString, withoutFreeText } from '../core/identity/index.js';
import type { Policy } from '../core/policy.js';
import type { ActionKind, DomainAdapter, Proposal } from '../core/types.js';

/** What the guard knows about tools: the adapter that describes calls, and the policy's tool settings. */
export interface ToolKnowledge {
  readonly engine: { readonly adapter: Pick<DomainAdapter, 'describeCall'> };
  readonly policy: Pick<Policy, 'tools'>;
}

/** The rule a coalesced call is recorded under. */
export const COALESCED_RULE = 'in-flight-duplicate';

/** How long a duplicate waits for its twin when the face has no deadline of its own. */
export const DEFAULT_COALESCE_WAIT_MS = 120_000;

/** What became of the first of identical calls. */
export type TwinAnswer =
  /** It ran and returned `value`; `failed` when the value is a failure (an error result). */
  | { readonly status: 'ran'; readonly value: unknown; readonly failed: boolean }
  /** It ran and threw `error`. */
  | { readonly status: 'threw'; readonly error: unknown }
  /** The guard refused it with `message`. */
  | { readonly status: 'refused'; readonly message: string };

/** A call's place among identical calls. */
export type CallClaim =
  /** The first: it runs, and tells its twins what came of it (`undefined`: nothing, they go on alone). */
  | { readonly role: 'first'; settle(answer: TwinAnswer | undefined): void }
  /** A duplicate of a call already claimed: `twin` settles when the first does. */
  | {
      readonly role: 'duplicate';
      readonly twin: Promise<TwinAnswer | undefined>;
      /** What came of the first, when it has already settled. */
      readonly settled: TwinAnswer | undefined;
    };

interface Entry {
  readonly proposal: Proposal;
  /**
   * The call's identity (see `callIdentity`), worked out when another call of its tool is claimed
   * while it is remembered; `null` when its arguments cannot be read (it then has no twin).
   */
  identity: string | null | undefined;
  readonly step: string | number | undefined;
  readonly twin: Promise<TwinAnswer | undefined>;
  answer: TwinAnswer | undefined;
  done: boolean;
}

/** How many settled calls of the current step are remembered for late duplicates. */
const MAX_ENTRIES = 512;

/**
 * The calls of one guard that are running, or that ran in the current model step: told apart by
 * the exact call (tool and arguments; key order and the words about the call aside). A call's
 * identity is worked out only when another call of the same tool is remembered: most calls have no
 * twin to be told from, and the hash of their arguments would cost every one of them.
 */
export class InFlightCalls {
  /** The remembered calls of each tool, oldest first; no two with the same identity. */
  private readonly byTool = new Map<string, Entry[]>();
  private count = 0;
  private step: string | number | undefined;

  /**
   * Claims `proposal`. Undefined when its identity, needed to tell it from another call of its
   * tool, cannot be read (a hostile argument object): such a call is never coalesced.
   */
  claim(proposal: Proposal): CallClaim | undefined {
    this.enterStep(proposal.step);
    const entries = this.byTool.get(proposal.tool);
    let identity: string | undefined;
    if (entries !== undefined) {
      identity = callIdentity(proposal);
      if (identity === undefined) return undefined;
      for (const existing of entries) {
        if (identityOf(existing) !== identity) continue;
        if (!existing.done || (existing.step !== undefined && existing.step === proposal.step))
          return { role: 'duplicate', twin: existing.twin, settled: existing.answer };
        // A settled call of an earlier step: the new one takes its place.
        this.forget(existing);
        break;
      }
    }
    let resolve: (answer: TwinAnswer | undefined) => void = () => undefined;
    const twin = new Promise<TwinAnswer | undefined>((done) => {
      resolve = done;
    });
    const entry: Entry = { proposal, identity, step: proposal.step, twin, answer: undefined, done: false };
    if (this.count >= MAX_ENTRIES) this.dropSettled();
    const list = this.byTool.get(proposal.tool);
    if (list === undefined) this.byTool.set(proposal.tool, [entry]);
    else list.push(entry);
    this.count++;
    return {
      role: 'first',
      settle: (answer) => {
        if (entry.done) return;
        entry.done = true;
        entry.answer = answer;
        // Kept for duplicates later in the same step; a call outside any step is forgotten at once.
        if (entry.step === undefined || answer === undefined) this.forget(entry);
        resolve(answer);
      },
    };
  }

  /** How many calls are remembered (running, or settled in the current step). */
  get size(): number {
    return this.count;
  }

  private enterStep(step: string | number | undefined): void {
    if (step === undefined || step === this.step) return;
    this.step = step;
    this.dropSettled();
  }

  private dropSettled(): void {
    for (const [tool, entries] of this.byTool) {
      const running = entries.filter((entry) => !entry.done);
      this.count -= entries.length - running.length;
      if (running.length === 0) this.byTool.delete(tool);
      else if (running.length < entries.length) this.byTool.set(tool, running);
    }
  }

  private forget(entry: Entry): void {
    const entries = this.byTool.get(entry.proposal.tool);
    const at = entries === undefined ? -1 : entries.indexOf(entry);
    if (entries === undefined || at < 0) return;
    if (entries.length === 1) this.byTool.delete(entry.proposal.tool);
    else entries.splice(at, 1);
    this.count--;
  }
}

/** The entry's identity, worked out on first need. */
function identityOf(entry: Entry): string | null {
  if (entry.identity === undefined) entry.identity = callIdentity(entry.proposal) ?? null;
  return entry.identity;
}

const registries = new WeakMap<object, InFlightCalls>();

/** The in-flight calls of `guard`: every face holding the same guard shares them. */
export function inFlightCalls(guard: object): InFlightCalls {
  let calls = registries.get(guard);
  if (calls === undefined) {
    calls = new InFlightCalls();
    registries.set(guard, calls);
  }
  return calls;
}

/**
 * The exact identity of a call, or undefined when its arguments cannot be read. The words about the
 * call beside its arguments (a `description` or `explanation` the model writes afresh each time, or
 * fields the call's annotations declare free text) are left out: two calls that differ only in them
 * do the same thing.
 */
export function callIdentity(proposal: Proposal): string | undefined {
  try {
    return `${proposal.tool}\u0000${hashString(canonicalJson(withoutFreeText(proposal, wordsAboutTheCall)))}`;
  } catch {
    return undefined;
  }
}

const IDEMPOTENT_KINDS: ReadonlySet<ActionKind> = new Set(['read', 'search', 'poll']);

/**
 * True when running `proposal` again changes nothing the first run did not: its annotations say it
 * only reads or is idempotent, or its kind (from the policy, else the adapter) observes.
 */
export function isIdempotent(session: ToolKnowledge, proposal: Proposal): boolean {
  const { annotations } = proposal;
  if (annotations?.readOnlyHint === true || annotations?.idempotentHint === true) return true;
  if (annotations?.destructiveHint === true) return false;
  try {
    const kind =
      annotations?.narrowing?.kind ??
      session.policy.tools[proposal.tool]?.kind ??
      session.engine.adapter.describeCall(proposal).kind;
    return IDEMPOTENT_KINDS.has(kind);
  } catch {
    return false;
  }
}

/**
 * Whether a duplicate is answered from its twin's `answer` (true) or runs on its own (false): a
 * twin that failed, was refused, or changed something answers it; an idempotent success does not.
 */
export function answersDuplicate(
  session: ToolKnowledge,
  proposal: Proposal,
  answer: TwinAnswer | undefined,
): answer is TwinAnswer {
  if (answer === undefined) return false;
  if (answer.status !== 'ran' || answer.failed) return true;
  return !isIdempotent(session, proposal);
}

export interface WaitOptions {
  /** Give up waiting (and let the duplicate go on alone) when this aborts. */
  readonly signal?: AbortSignal;
  /** Milliseconds to wait at most. Default `DEFAULT_COALESCE_WAIT_MS`. */
  readonly timeoutMs?: number;
}

/** The twin's answer, or undefined when it did not come within the deadline or the signal aborted. */
export async function waitForTwin(
  twin: Promise<TwinAnswer | undefined>,
  options: WaitOptions = {},
): Promise<TwinAnswer | undefined> {
  const { signal } = options;
  if (signal?.aborted) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, options.timeoutMs ?? DEFAULT_COALESCE_WAIT_MS, undefined);
    onAbort = () => resolve(undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([twin, deadline]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** The sentence a coalesced call is recorded with. */
export function coalescedReason(proposal: Proposal, answer: TwinAnswer): string {
  const what =
    answer.status === 'refused'
      ? 'was refused'
      : answer.status === 'threw' || answer.failed
        ? 'failed'
        : 'returned';
  return `An identical ${proposal.tool} call issued at the same time ${what}; its answer is this call's answer, and this call did not run.`;
}

/**
 * What the model reads for a duplicate answered before its twin ran (where a face can only accept
 * or deny a call, as the AI SDK's `toolApproval` does): the twin's result, beside it, is the answer.
 */
export function coalescedText(proposal: Proposal): string {
  return `[narrowing coalesced this call] An identical ${proposal.tool} call was issued in the same step; it runs once, and its result is the answer to both.`;
}
