/**
 * Failures that came back after a change. A failure that nothing blames needs two sightings against
 * unchanged state before it is banned, because one may be a passing glitch. A change in between
 * resets that count (the change may have cured it), but when the call fails again afterwards with
 * the very same error, it has already shown that it is no glitch: the failure from before the change
 * is the second sighting, and the next run with nothing changed is blocked.
 */
import { maskVolatile } from './identity/index.js';
import { RecencyMap } from './recency-map.js';

/** Calls whose uncorroborated failure a change set aside: a session rarely has more at once. */
const CAPACITY = 256;

export class ReproducedFailures {
  /** By ban key: the signature and the error as kept, of the failure a change set aside. */
  private readonly before = new RecencyMap<string, string>();

  /** A change relieved this call's failure before it was corroborated. */
  setAside(banKey: string, signature: string, keptError: string): void {
    this.before.delete(banKey);
    this.before.set(banKey, errorKey(signature, keptError));
    while (this.before.size > CAPACITY) this.before.shift();
  }

  /**
   * Whether this call failed the same way before the last change set its failure aside. Asking
   * consumes the memory: each earlier failure corroborates once.
   */
  reproduces(banKey: string, signature: string, keptError: string): boolean {
    const earlier = this.before.get(banKey);
    if (earlier === undefined) return false;
    this.before.delete(banKey);
    return earlier === errorKey(signature, keptError);
  }

  clear(): void {
    this.before.clear();
  }
}

/**
 * The same error whatever its volatile parts: a run that took 2.1 s and one that took 2.3 s, at
 * another clock time, failed the same way.
 */
function errorKey(signature: string, keptError: string): string {
  return `${signature}\u0000${maskVolatile(keptError, 'result')}`;
}
