/**
 * Hard limits on a run: steps, tokens, money and wall time. Near a token or cost limit the agent is
 * warned while there is still room to wrap up (the reserve); at a limit the run halts.
 *
 * Steps and time are per run (they start over with each user message); tokens and cost are spent
 * for the whole session. The counters are part of the session snapshot, so a run that spans
 * several processes (agent hooks start one per event) keeps its limits.
 */
import type { BudgetPolicy } from './policy.js';
import type { Violation } from './types.js';

export const BUDGET_RULES = {
  steps: 'max_steps',
  spend: 'budget_exceeded',
  /** Within the reserve of the token or cost limit: a warning, not yet a halt. */
  reserve: 'budget_reserve',
  time: 'timed_out',
} as const;

export interface BudgetUsage {
  readonly steps: number;
  readonly tokens: number;
  readonly costUsd: number;
  readonly elapsedMs: number;
}

/**
 * The token reserve holds at least this many of the largest model request seen: every request sends
 * the whole conversation again, so the answer costs about as much as the last request did.
 */
export const REQUESTS_IN_RESERVE = 2;

const VERSION = 1;
const WRAP_UP = 'Wrap up: finish what is in hand and report to the user while there is room to do so.';
const STOP = 'Stop and give the user a summary of what is done and what remains; they can raise the limit.';

export class Budget {
  private stepCount = 0;
  /** Calls proposed together in one model step count as one step. */
  private lastStep: string | number | undefined;
  private tokens = 0;
  private costUsd = 0;
  private startedAt = 0;

  constructor(private readonly policy: BudgetPolicy) {}

  /** Steps taken in this run. */
  get steps(): number {
    return this.stepCount;
  }

  /** The run's clock starts here: `timeoutMs` counts from this moment. */
  start(now: number): void {
    this.startedAt = now;
  }

  /** Before a proposal: a halt when a limit is reached, a warning within the reserve. */
  check(now: number, step?: string | number): Violation | undefined {
    return this.limit(now, !this.isCounted(step)) ?? this.reserve();
  }

  /** After a proposal that is going ahead. A step id already counted is not counted again. */
  countStep(step?: string | number): void {
    if (this.isCounted(step)) return;
    this.stepCount++;
    this.lastStep = step;
  }

  /** The limit the run has reached, if any: lets the loop say it is done before the next proposal. */
  exceeded(now: number): Violation | undefined {
    return this.limit(now, true);
  }

  /**
   * Where the session's spend stands against its token and cost limits, for a face that drives the
   * model: a halt once a limit is reached, a warning within its reserve, undefined while there is
   * room. The token reserve is the policy's, or `REQUESTS_IN_RESERVE` times `largestRequest` (the
   * most tokens one model request took) when that is more. At either, the model's next turn is its
   * last, without tools, so that the run ends with an answer.
   */
  spendLimit(largestRequest = 0): Violation | undefined {
    const { tokenBudget, costLimit } = this.policy;
    if (
      (tokenBudget !== undefined && this.tokens >= tokenBudget) ||
      (costLimit !== undefined && this.costUsd >= costLimit)
    )
      return this.limit(this.startedAt, false);
    const scaled = isAmount(largestRequest) ? REQUESTS_IN_RESERVE * largestRequest : 0;
    return this.reserve(Math.max(this.policy.reserveTokens, scaled));
  }

  /** Tokens and cost, from an outcome (`Outcome.tokens`, `Outcome.costUsd`) or reported directly. */
  addUsage(usage: { readonly tokens?: number; readonly costUsd?: number }): void {
    if (isAmount(usage.tokens)) this.tokens += usage.tokens;
    if (isAmount(usage.costUsd)) this.costUsd += usage.costUsd;
  }

  usage(now: number): BudgetUsage {
    return {
      steps: this.stepCount,
      tokens: this.tokens,
      costUsd: this.costUsd,
      elapsedMs: now - this.startedAt,
    };
  }

  /** A user message starts a new run; a new session also starts spending from zero. */
  reset(now: number, reason: 'user' | 'session' = 'user'): void {
    this.stepCount = 0;
    this.lastStep = undefined;
    this.startedAt = now;
    if (reason === 'session') {
      this.tokens = 0;
      this.costUsd = 0;
    }
  }

  snapshot(): unknown {
    return {
      version: VERSION,
      steps: this.stepCount,
      ...(this.lastStep !== undefined ? { lastStep: this.lastStep } : {}),
      tokens: this.tokens,
      costUsd: this.costUsd,
      startedAt: this.startedAt,
    };
  }

  /** Takes what reads correctly from a snapshot; anything else keeps its current value. */
  restore(state: unknown): void {
    if (typeof state !== 'object' || state === null || (state as { version?: unknown }).version !== VERSION) {
      return;
    }
    const fields = state as Record<string, unknown>;
    if (isAmount(fields.steps)) this.stepCount = Math.floor(fields.steps);
    if (typeof fields.lastStep === 'string' || isAmount(fields.lastStep)) this.lastStep = fields.lastStep;
    if (isAmount(fields.tokens)) this.tokens = fields.tokens;
    if (isAmount(fields.costUsd)) this.costUsd = fields.costUsd;
    if (typeof fields.startedAt === 'number' && Number.isFinite(fields.startedAt)) {
      this.startedAt = fields.startedAt;
    }
  }

  private isCounted(step: string | number | undefined): boolean {
    return step !== undefined && step === this.lastStep;
  }

  private limit(now: number, newStep: boolean): Violation | undefined {
    const { maxSteps, tokenBudget, costLimit, timeoutMs } = this.policy;
    if (newStep && maxSteps !== undefined && this.stepCount >= maxSteps) {
      return halt(BUDGET_RULES.steps, `This run has used all ${maxSteps} of its steps.`, {
        count: this.stepCount,
        limit: maxSteps,
      });
    }
    if (tokenBudget !== undefined && this.tokens >= tokenBudget) {
      return halt(
        BUDGET_RULES.spend,
        `This session has used ${this.tokens} tokens, reaching its budget of ${tokenBudget}.`,
        { count: this.tokens, limit: tokenBudget },
      );
    }
    if (costLimit !== undefined && this.costUsd >= costLimit) {
      return halt(
        BUDGET_RULES.spend,
        `This session has cost ${dollars(this.costUsd)}, reaching its limit of ${dollars(costLimit)}.`,
        { count: this.stepCount, costUsd: this.costUsd, limit: costLimit },
      );
    }
    const elapsed = now - this.startedAt;
    if (timeoutMs !== undefined && elapsed >= timeoutMs) {
      return halt(
        BUDGET_RULES.time,
        `This run has been going for ${seconds(elapsed)}, reaching its time limit of ${seconds(timeoutMs)}.`,
        { count: this.stepCount, elapsedMs: elapsed, limit: timeoutMs },
      );
    }
    return undefined;
  }

  private reserve(reserveTokens = this.policy.reserveTokens): Violation | undefined {
    const { tokenBudget, costLimit, reserveCostFraction } = this.policy;
    if (tokenBudget !== undefined && tokenBudget - this.tokens <= reserveTokens) {
      return warn(`Only ${tokenBudget - this.tokens} of this session's ${tokenBudget} tokens remain.`, {
        count: this.tokens,
        limit: tokenBudget,
      });
    }
    if (costLimit !== undefined && costLimit - this.costUsd <= costLimit * reserveCostFraction) {
      return warn(
        `Only ${dollars(costLimit - this.costUsd)} of this session's ${dollars(costLimit)} budget remains.`,
        { count: this.stepCount, costUsd: this.costUsd, limit: costLimit },
      );
    }
    return undefined;
  }
}

function halt(rule: string, reason: string, evidence: Violation['evidence']): Violation {
  return { rule, severity: 'halt', reason, suggestion: STOP, evidence };
}

function warn(reason: string, evidence: Violation['evidence']): Violation {
  return { rule: BUDGET_RULES.reserve, severity: 'warn', reason, suggestion: WRAP_UP, evidence };
}

function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function dollars(amount: number): string {
  return `$${amount >= 1 ? amount.toFixed(2) : amount.toFixed(4)}`;
}

function seconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 1000)} s`;
}
