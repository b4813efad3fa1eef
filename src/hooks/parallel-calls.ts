/**
 * Identical calls an agent runs in parallel, as the hook helper sees them: an agent that runs tool
 * calls together (Claude Code does) sends the `PreToolUse` of each before the `PostToolUse` of any.
 * The helper lets the first through; an identical one of the same session is held until the first's
 * `PostToolUse` arrives, at most `holdMs` (what the hook process can wait within its deadline), and
 * then, by the rule every face follows (see `guard/in-flight.ts`):
 * - the first failed, was refused, or changed something: the duplicate is refused with the first's
 *   answer, and journalled as `coalesced`, never as a block;
 * - the first was a read that succeeded: the duplicate is checked as any call is, after it.
 * Nothing is held past the deadline: the duplicate then proceeds as it would have. Without the
 * helper each hook process answers alone, and nothing is held.
 */
import { hostToolAnnotations } from '../adapters/tool-call/host-tools.js';
import { createToolCallAdapter, toolCallToProposal } from '../adapters/tool-call/index.js';
import type { Proposal } from '../core/types.js';
import {
  answersDuplicate,
  type CallClaim,
  callIdentity,
  coalescedReason,
  InFlightCalls,
  type ToolKnowledge,
  type TwinAnswer,
  waitForTwin,
} from '../guard/in-flight.js';
import type { GuardSession } from '../guard/session.js';
import type { HookEvent, HookToolCall, HookVerdict } from './event.js';

/** A duplicate that waited for its twin: what came of the twin, for `answer`. */
export interface HeldCall {
  readonly proposal: Proposal;
  readonly twin: TwinAnswer | undefined;
}

interface PendingFirst {
  readonly session: string;
  readonly key: string;
  readonly claim: Extract<CallClaim, { role: 'first' }>;
}

/** How many first calls are awaited at once, across sessions; the oldest is let go past it. */
const MAX_PENDING = 1024;
/** How much of a twin's error the duplicate's refusal quotes. */
const MAX_QUOTED_CHARS = 2_000;

let fallbackKnowledge: ToolKnowledge | undefined;

/** The calls of each session the helper has let through and not yet seen the end of. */
export class ParallelCalls {
  private readonly sessions = new Map<string, InFlightCalls>();
  /** First calls waiting for their `PostToolUse`, by session and call id (or identity). */
  private readonly pending = new Map<string, PendingFirst>();

  /**
   * Takes an event as it arrives, before it waits its turn: a duplicate of a call in flight comes
   * back as a promise of what came of its twin (held at most `holdMs`); anything else as undefined,
   * having claimed a call or settled one.
   */
  receive(event: HookEvent, holdMs: number): Promise<HeldCall | undefined> | undefined {
    const { action } = event;
    switch (action.type) {
      case 'before-call':
        return holdMs > 0 ? this.before(event, action.call, holdMs) : undefined;
      case 'after-call': {
        const first = this.take(event, action.call);
        const { result } = action;
        const text = result.ok ? result.content : result.error;
        first?.claim.settle({ status: 'ran', value: text, failed: !result.ok });
        return undefined;
      }
      case 'prompt':
      case 'stop':
      case 'session-start':
        // The turn is over: every call of it has ended, whether or not its end was reported.
        this.release(event.sessionId);
        return undefined;
      default:
        return undefined;
    }
  }

  /** After a first call was checked: a refusal answers its duplicates at once. */
  checked(event: HookEvent, verdict: HookVerdict | undefined): void {
    if (event.action.type !== 'before-call') return;
    const key = this.keyOf(event, event.action.call);
    const first = key === undefined ? undefined : this.pending.get(key);
    if (first === undefined || (verdict !== undefined && verdict.type !== 'deny')) return;
    this.pending.delete(first.key);
    first.claim.settle(verdict ? { status: 'refused', message: verdict.text } : undefined);
  }

  /**
   * The refusal that answers a held duplicate from its twin, journalled as `coalesced`; undefined
   * when it is checked as any call is (its twin did not end in time, or was a read that succeeded).
   */
  answer(guard: GuardSession | undefined, held: HeldCall): HookVerdict | undefined {
    const { proposal, twin } = held;
    try {
      if (!answersDuplicate(guard ?? knowledge(), proposal, twin)) return undefined;
      const reason = coalescedReason(proposal, twin);
      guard?.noteCoalesced(proposal, reason);
      const quoted =
        twin.status === 'refused'
          ? twin.message
          : twin.status === 'ran' && twin.failed && typeof twin.value === 'string'
            ? twin.value
            : '';
      const text = `[narrowing coalesced this call] ${reason}${quoted === '' ? '' : `\n${cut(quoted)}`}`;
      return { type: 'deny', text };
    } catch {
      // A fault of the guard never refuses a call.
      return undefined;
    }
  }

  private before(event: HookEvent, call: HookToolCall, holdMs: number): Promise<HeldCall> | undefined {
    const proposal = proposalOf(event, call);
    let claim: CallClaim | undefined;
    try {
      claim = this.callsOf(event.sessionId).claim(proposal);
    } catch {
      claim = undefined;
    }
    if (claim === undefined) return undefined;
    if (claim.role === 'duplicate') {
      if (claim.settled !== undefined) return Promise.resolve({ proposal, twin: claim.settled });
      return waitForTwin(claim.twin, { timeoutMs: holdMs }).then((twin) => {
        // The first's end did not come in time (it may never come): later calls do not wait for it.
        if (twin === undefined) this.giveUp(event.sessionId, proposal);
        return { proposal, twin };
      });
    }
    const key = this.keyOf(event, call, proposal);
    if (key === undefined) {
      claim.settle(undefined);
      return undefined;
    }
    if (this.pending.size >= MAX_PENDING) this.dropOldest();
    this.pending.set(key, { session: event.sessionId, key, claim });
    return undefined;
  }

  /** The first call this `PostToolUse` ends: by its id, else the oldest identical one of the session. */
  private take(event: HookEvent, call: HookToolCall): PendingFirst | undefined {
    const key = this.keyOf(event, call);
    if (key === undefined) return undefined;
    let first = this.pending.get(key);
    if (first === undefined) {
      const identity = key.slice(key.indexOf('\u0000', event.sessionId.length + 1));
      for (const pending of this.pending.values()) {
        if (pending.session === event.sessionId && pending.key.endsWith(identity)) {
          first = pending;
          break;
        }
      }
    }
    if (first !== undefined) this.pending.delete(first.key);
    return first;
  }

  private giveUp(session: string, proposal: Proposal): void {
    const identity = callIdentity(proposal);
    for (const first of this.pending.values()) {
      if (first.session !== session || !first.key.endsWith(`\u0000${identity}`)) continue;
      this.pending.delete(first.key);
      first.claim.settle(undefined);
    }
  }

  private release(session: string): void {
    for (const first of this.pending.values()) {
      if (first.session !== session) continue;
      this.pending.delete(first.key);
      first.claim.settle(undefined);
    }
    this.sessions.delete(session);
  }

  private dropOldest(): void {
    const [oldest] = this.pending.values();
    if (oldest === undefined) return;
    this.pending.delete(oldest.key);
    oldest.claim.settle(undefined);
  }

  private callsOf(session: string): InFlightCalls {
    let calls = this.sessions.get(session);
    if (calls === undefined) {
      calls = new InFlightCalls();
      this.sessions.set(session, calls);
    }
    return calls;
  }

  /** The session, the call's id where the agent gives one, and the call's identity (of `proposal` when made already). */
  private keyOf(
    event: HookEvent,
    call: HookToolCall,
    proposal = proposalOf(event, call),
  ): string | undefined {
    const identity = callIdentity(proposal);
    if (identity === undefined) return undefined;
    return `${event.sessionId}\u0000${call.id ?? ''}\u0000${identity}`;
  }
}

/** The call as the guard would be asked about it: the host's annotations of its built-in tools. */
function proposalOf(event: HookEvent, call: HookToolCall): Proposal {
  const annotations = hostToolAnnotations(event.agent, call.tool);
  return toolCallToProposal(call.tool, call.input, annotations ? { annotations } : {});
}

function knowledge(): ToolKnowledge {
  fallbackKnowledge ??= { engine: { adapter: createToolCallAdapter() }, policy: { tools: {} } };
  return fallbackKnowledge;
}

function cut(text: string): string {
  return text.length <= MAX_QUOTED_CHARS ? text : `${text.slice(0, MAX_QUOTED_CHARS - 1)}…`;
}
