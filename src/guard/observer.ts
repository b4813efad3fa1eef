/**
 * The guard's hook point for observers (telemetry): see `GuardObserver`. A throwing observer is
 * ignored, so that it can never change a verdict.
 */
export type { CheckedCall, GuardObserver, RecordedCall } from '../telemetry/observer.js';

/** Milliseconds since the epoch, finer than `Date.now()`. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Runs an observer's callback; what it throws is dropped, so that it cannot change a verdict. */
export function tellObserver(notify: () => void): void {
  try {
    notify();
  } catch {
    // An observer's fault is its own: the guard's answer stands.
  }
}
