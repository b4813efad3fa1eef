/**
 * Which different calls failed on a target. A failure widens from the call to its target only when
 * another call fails there the same way: one call failing twice is still about that call.
 */
import { RecencyMap } from './recency-map.js';

/** Targets followed at once: a session rarely has more uncorroborated target failures. */
const TARGETS = 1024;
/** Distinct calls kept per target: two corroborate, a few more cost nothing. */
const CALLS_PER_TARGET = 8;

export class FailingCalls {
  /** By target ban id: the ban keys of the calls that failed on it. */
  private readonly calls = new RecencyMap<string, string[]>();

  /** The first failure on a target: it starts a fresh count. */
  start(banId: string, banKey: string): void {
    this.calls.delete(banId);
    this.calls.set(banId, [banKey]);
    while (this.calls.size > TARGETS) this.calls.shift();
  }

  /** Another failure on the target; false when this very call had already failed on it. */
  add(banId: string, banKey: string): boolean {
    const seen = this.calls.get(banId);
    if (seen === undefined) {
      this.start(banId, banKey);
      return true;
    }
    if (seen.includes(banKey)) return false;
    if (seen.length < CALLS_PER_TARGET) seen.push(banKey);
    return true;
  }
}
