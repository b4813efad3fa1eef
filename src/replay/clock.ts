import type { Clock } from '../core/types.js';

/** Where replayed time starts; any fixed instant works, a realistic one reads better in journals. */
export const REPLAY_EPOCH_MS = Date.UTC(2026, 0, 1);
/** How far time moves for a call that carries no `t`. */
export const UNTIMED_STEP_MS = 1000;

/**
 * Trace time as the engine's clock. A call's `t` (seconds since the trace started) sets the time;
 * a call without one moves it a fixed step past the previous call. Time never runs backwards:
 * an out-of-order `t` (calls logged as they finished, not as they started) keeps the current time.
 */
export class TraceClock implements Clock {
  private current = REPLAY_EPOCH_MS;
  private started = false;

  now(): number {
    return this.current;
  }

  /** Moves to the time of the next call. */
  advance(seconds: number | undefined): void {
    const next =
      seconds !== undefined
        ? REPLAY_EPOCH_MS + Math.round(seconds * 1000)
        : this.started
          ? this.current + UNTIMED_STEP_MS
          : REPLAY_EPOCH_MS;
    this.current = Math.max(this.current, next);
    this.started = true;
  }
}
