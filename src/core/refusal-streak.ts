/**
 * The halt rule: a model that proposes the very call it was just refused, again and again, is not
 * reading the refusals. The third refusal in a row of the same call becomes a halt, so the run ends
 * there and the model is given one last turn to answer instead of a full-context request per
 * refused step.
 *
 * Blocks that are part of a normal rhythm do not count: a poll that is steered to wait, and the
 * guessing rules, which block a call that varies. Calls made together in one step count once.
 */
import type { Call } from './call-context.js';
import type { Violation } from './types.js';

/** The rule id of the halt this module decides. */
export const REPEATED_REFUSAL_RULE = 'repeated-refusal';

/** Refusals in a row of one call after which the last of them halts the run. */
export const REFUSALS_BEFORE_HALT = 3;
/** A saved call key or step longer than this is no key this engine wrote. */
const MAX_KEY_CHARS = 1_024;

/**
 * The rules whose blocks never count towards the streak (nor break it): polls, which are meant to be
 * repeated, and guessing (varying calls with one error shape; edits guessed at an unread file, or
 * at a file not read again since edits of it kept failing).
 */
export const STREAK_EXEMPT_RULES: ReadonlySet<string> = new Set([
  'poll',
  'error-streak',
  'blind-edit',
  'edit-streak',
]);

export class RefusalStreak {
  private callKey: string | undefined;
  private step: string | number | undefined;
  private count = 0;

  /**
   * Told every proposal with its decisive violation (none when allowed): returns the halt that
   * replaces a block which is the third refusal in a row of the same call, or undefined.
   */
  note(call: Call, decisive: Violation | undefined): Violation | undefined {
    const verdict = decisive?.severity;
    if (verdict !== 'block') {
      if (verdict !== 'halt') this.clear();
      return undefined;
    }
    if (STREAK_EXEMPT_RULES.has(decisive?.rule ?? '')) return undefined;
    const callKey = call.identity.callKey;
    const step = call.step;
    if (callKey !== this.callKey) {
      this.callKey = callKey;
      this.step = step;
      this.count = 1;
      return undefined;
    }
    // The same call twice in one model response is one proposal.
    if (step !== undefined && step === this.step) return undefined;
    this.step = step;
    this.count++;
    if (this.count < REFUSALS_BEFORE_HALT) return undefined;
    return {
      rule: REPEATED_REFUSAL_RULE,
      severity: 'halt',
      reason:
        `${call.description} was refused ${this.count} times in a row and proposed again unchanged: ` +
        'the refusals are not being read, so the run ends here.',
      suggestion:
        'Stop calling tools and answer the user: what was done, what was refused and why, and what is left.',
      evidence: { count: this.count },
    };
  }

  /**
   * The streak as the session's run state saves it (the call key is a hash of the call's arguments,
   * never the arguments), or undefined when there is none: each hook process refuses one proposal.
   */
  snapshot(): unknown {
    if (this.callKey === undefined) return undefined;
    return { callKey: this.callKey, ...(this.step !== undefined && { step: this.step }), count: this.count };
  }

  /** Reads a streak back from `snapshot`; anything else starts none. */
  restore(state: unknown): void {
    this.clear();
    if (typeof state !== 'object' || state === null || Array.isArray(state)) return;
    const { callKey, step, count } = state as Record<string, unknown>;
    if (typeof callKey !== 'string' || callKey.length > MAX_KEY_CHARS) return;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count >= REFUSALS_BEFORE_HALT)
      return;
    const readableStep =
      step === undefined ||
      (typeof step === 'string' && step.length <= MAX_KEY_CHARS) ||
      (typeof step === 'number' && Number.isFinite(step));
    if (!readableStep) return;
    this.callKey = callKey;
    this.step = step as string | number | undefined;
    this.count = count;
  }

  /** A new user message, a new session or a compaction: the streak starts over. */
  clear(): void {
    this.callKey = undefined;
    this.step = undefined;
    this.count = 0;
  }
}
