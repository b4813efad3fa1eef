/**
 * The run's limits: model steps, tokens, cost and wall time, each with a reserve that warns the
 * model once while there is still room to wrap up, before the hard stop.
 *
 * The counting, the limits and the token and cost reserves are the engine's own `Budget` (the same
 * rules and words as a guard's `budget` policy); this adds the reserves for steps and time, and
 * counts a model response as a step and its tokens as spent.
 */
import { BUDGET_RULES, Budget } from '../core/budget.js';
import type { BudgetPolicy } from '../core/policy.js';
import type { TerminalState } from './states.js';

export interface AgentBudget extends Partial<BudgetPolicy> {
  /**
   * Tokens kept for the answer: once no more than this is left of `tokenBudget`, the model is given
   * one last turn without tools. Default 512 (a quarter of a smaller budget), and never less than
   * twice the largest request seen so far, since every request sends the whole conversation again.
   */
  readonly reserveTokens?: number;
  /** Warn when this many steps or fewer remain. Default: a tenth of `maxSteps`, at least 1. */
  readonly reserveSteps?: number;
  /** Warn when this fraction of `timeoutMs` or less remains. Default 0.1. */
  readonly reserveTimeFraction?: number;
}

export type ReserveKind = 'steps' | 'tokens' | 'cost' | 'time';

export interface BudgetStop {
  readonly state: Extract<TerminalState, 'max_steps' | 'budget_exceeded' | 'timed_out'>;
  readonly rule: string;
  readonly reason: string;
}

export interface BudgetWarning {
  readonly kind: ReserveKind;
  /** What the model reads: what remains, then what to do. */
  readonly text: string;
}

export interface BudgetSnapshot {
  readonly counters: unknown;
  readonly elapsedMs: number;
  readonly warned: readonly ReserveKind[];
  /** The most tokens one request took, for the token reserve. */
  readonly largestRequest?: number;
}

const STATE_OF_RULE: Record<string, BudgetStop['state']> = {
  [BUDGET_RULES.steps]: 'max_steps',
  [BUDGET_RULES.spend]: 'budget_exceeded',
  [BUDGET_RULES.time]: 'timed_out',
};

const WRAP_UP = 'Wrap up: finish what is in hand and report to the user while there is room to do so.';
const DEFAULT_RESERVE_TOKENS = 512;
/** The token reserve is at least this many times the largest request seen. */
const REQUESTS_IN_RESERVE = 2;

export class RunBudget {
  private readonly counters: Budget;
  private readonly limits: AgentBudget;
  private warned = new Set<ReserveKind>();
  /** The most tokens one model response took (its whole request and its output). */
  private largestRequest = 0;

  constructor(limits: AgentBudget, now: number) {
    this.limits = limits;
    // The token reserve is this class's own (it grows with the requests); the engine counts.
    this.counters = new Budget({ reserveCostFraction: 0.1, ...limits, reserveTokens: 0 });
    this.counters.start(now);
  }

  /** The tokens kept for the answer: the reserve asked for, or two of the largest requests seen. */
  reserveTokens(): number {
    const budget = this.limits.tokenBudget ?? Number.POSITIVE_INFINITY;
    const asked = this.limits.reserveTokens ?? Math.min(DEFAULT_RESERVE_TOKENS, Math.floor(budget / 4));
    return Math.max(asked, REQUESTS_IN_RESERVE * this.largestRequest);
  }

  /**
   * Within the token or cost reserve: the next request is the model's last, without tools, so that
   * the run ends with an answer rather than out of budget in the middle of a step.
   */
  spendReserveReached(now: number): (BudgetStop & { readonly kind: 'tokens' | 'cost' }) | undefined {
    if (this.exceeded(now)) return undefined;
    const { tokens, costUsd } = this.counters.usage(now);
    const { tokenBudget, costLimit } = this.limits;
    if (tokenBudget !== undefined && tokenBudget - tokens <= this.reserveTokens()) {
      return {
        kind: 'tokens',
        state: 'budget_exceeded',
        rule: BUDGET_RULES.reserve,
        reason: `This session has used ${tokens} of its ${tokenBudget} tokens; the rest is kept for the answer.`,
      };
    }
    const fraction = this.limits.reserveCostFraction ?? 0.1;
    if (costLimit !== undefined && costLimit - costUsd <= costLimit * fraction) {
      return {
        kind: 'cost',
        state: 'budget_exceeded',
        rule: BUDGET_RULES.reserve,
        reason:
          `This session has cost $${costUsd.toFixed(4)} of its limit of $${costLimit.toFixed(4)}; ` +
          'the rest is kept for the answer.',
      };
    }
    return undefined;
  }

  /** The limit reached, if any: the run stops before its next model request. */
  exceeded(now: number): BudgetStop | undefined {
    const violation = this.counters.exceeded(now);
    if (!violation) return undefined;
    return {
      state: STATE_OF_RULE[violation.rule] ?? 'budget_exceeded',
      rule: violation.rule,
      reason: violation.reason,
    };
  }

  /** Tokens or cost spent to their limit: the tool calls of the response that spent them do not run. */
  overspent(now: number): BudgetStop | undefined {
    const stop = this.exceeded(now);
    return stop?.state === 'budget_exceeded' ? stop : undefined;
  }

  /** The reserves newly entered since the last call: each is reported once per run. */
  warnings(now: number): BudgetWarning[] {
    const out: BudgetWarning[] = [];
    const add = (kind: ReserveKind, message: string) => {
      if (this.warned.has(kind)) return;
      this.warned.add(kind);
      out.push({ kind, text: `${message} ${WRAP_UP}` });
    };
    const { steps, elapsedMs } = this.counters.usage(now);
    const { maxSteps, timeoutMs } = this.limits;
    if (maxSteps !== undefined) {
      const reserve = this.limits.reserveSteps ?? Math.max(1, Math.ceil(maxSteps / 10));
      const left = maxSteps - steps;
      if (left > 0 && left <= reserve) add('steps', `Only ${left} of this run's ${maxSteps} steps remain.`);
    }
    if (timeoutMs !== undefined) {
      const left = timeoutMs - elapsedMs;
      if (left > 0 && left <= timeoutMs * (this.limits.reserveTimeFraction ?? 0.1)) {
        add(
          'time',
          `Only ${Math.ceil(left / 1000)} s of this run's ${Math.round(timeoutMs / 1000)} s remain.`,
        );
      }
    }
    // Within the token or cost reserve the loop gives the model its last turn (`spendReserveReached`).
    return out;
  }

  /** A model response: one step, and the tokens and cost it took. */
  spend(usage: { readonly tokens: number; readonly costUsd?: number }): void {
    this.counters.countStep();
    this.counters.addUsage(usage);
    if (Number.isFinite(usage.tokens)) this.largestRequest = Math.max(this.largestRequest, usage.tokens);
  }

  usage(now: number): { steps: number; tokens: number; costUsd: number; elapsedMs: number } {
    return { ...this.counters.usage(now) };
  }

  /** A new task: steps, time and the reserve warnings start over; tokens and cost keep adding up. */
  newRun(now: number): void {
    this.counters.reset(now);
    this.warned.clear();
  }

  snapshot(now: number): BudgetSnapshot {
    return {
      counters: this.counters.snapshot(),
      elapsedMs: this.counters.usage(now).elapsedMs,
      warned: [...this.warned],
      largestRequest: this.largestRequest,
    };
  }

  /** Back from a snapshot: the run's clock counts the time it ran, not the time it was away. */
  restore(snapshot: BudgetSnapshot, now: number): void {
    this.counters.restore(snapshot.counters);
    this.counters.start(now - Math.max(0, snapshot.elapsedMs));
    this.warned = new Set(snapshot.warned);
    const largest = snapshot.largestRequest;
    this.largestRequest =
      typeof largest === 'number' && Number.isFinite(largest) && largest > 0 ? largest : 0;
  }
}
