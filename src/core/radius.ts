/**
 * The paper's radius curve: how many targets one call may touch. It tightens along
 * ∞ → 5 → 3 → 2 → 1 as calls over several targets keep failing, and relaxes as calls succeed.
 */
import type { Constraint } from './types.js';

export interface RadiusPolicy {
  readonly enabled: boolean;
  readonly curve: readonly number[];
  /** Failed multi-target calls that tighten the limit by one step. */
  readonly shrinkAfter: number;
  /** Successful calls that relax it by one step. */
  readonly relaxAfter: number;
}

export class RadiusLimit {
  /** -1 is "no limit"; otherwise a position on the curve. */
  private position = -1;
  private failuresSinceChange = 0;
  private successesSinceChange = 0;
  private totalFailures = 0;

  constructor(private readonly policy: RadiusPolicy) {}

  get limit(): number {
    return this.position < 0 ? Number.POSITIVE_INFINITY : (this.policy.curve[this.position] ?? 1);
  }

  /** Failed multi-target calls since the limit last relaxed to infinity. */
  get failures(): number {
    return this.totalFailures;
  }

  recordFailure(): void {
    if (!this.policy.enabled || this.policy.curve.length === 0) return;
    this.totalFailures++;
    this.successesSinceChange = 0;
    if (++this.failuresSinceChange < this.policy.shrinkAfter) return;
    this.failuresSinceChange = 0;
    this.position = Math.min(this.position + 1, this.policy.curve.length - 1);
  }

  recordSuccess(): void {
    if (this.position < 0) return;
    if (++this.successesSinceChange < this.policy.relaxAfter) return;
    this.successesSinceChange = 0;
    this.position--;
    if (this.position < 0) this.totalFailures = 0;
  }

  reset(): void {
    this.position = -1;
    this.failuresSinceChange = 0;
    this.successesSinceChange = 0;
    this.totalFailures = 0;
  }

  asConstraint(now: number): Constraint | undefined {
    if (this.position < 0) return undefined;
    return {
      id: 'radius',
      type: 'radius_limit',
      scope: 'strategy',
      signature: 'multi_target_failure',
      actionClass: '*',
      radius: this.limit,
      evidence: { failures: this.totalFailures, firstAt: now, lastAt: now, lastError: '', calls: [] },
      createdAt: now,
      expiresAt: Number.POSITIVE_INFINITY,
      strikes: 0,
      probation: false,
      persistent: false,
    };
  }

  snapshot(): unknown {
    return {
      position: this.position,
      failuresSinceChange: this.failuresSinceChange,
      successesSinceChange: this.successesSinceChange,
      totalFailures: this.totalFailures,
    };
  }

  restore(state: unknown): void {
    this.reset();
    const value = state as Partial<
      Record<'position' | 'failuresSinceChange' | 'successesSinceChange' | 'totalFailures', number>
    >;
    if (!value || typeof value !== 'object') return;
    const max = this.policy.curve.length - 1;
    if (typeof value.position === 'number')
      this.position = Math.max(-1, Math.min(max, Math.trunc(value.position)));
    this.failuresSinceChange = Number(value.failuresSinceChange) || 0;
    this.successesSinceChange = Number(value.successesSinceChange) || 0;
    this.totalFailures = Number(value.totalFailures) || 0;
  }
}
