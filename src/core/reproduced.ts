/**
 * Failures that came back after a change. A failure that nothing blames needs two sightings against
 * unchanged state before it is banned, because one may be a passing glitch. A change in between
 * resets that count (the change may have cured it), but when the call fails again afterwards with
 * the very same error, it has already shown that it is no glitch: the failure from before the change
 * is the second sighting, and the next run with nothing changed is blocked.
 */
import { hashString, maskVolatile } from './identity/index.js';
import { RecencyMap } from './recency-map.js';

/** Calls whose uncorroborated failure a change set aside: a session rarely has more at once. */
const CAPACITY = 256;
/** A saved ban key or error hash longer than this is none this engine wrote. */
const MAX_KEY_CHARS = 1_024;

export class ReproducedFailures {
  /**
   * By ban key: a hash of the signature and the error as kept, of the failure a change set aside
   * (only compared, and saved with the session's run state without the error's words).
   */
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

  /** `[ban key, error hash]` pairs, oldest first, for the session's run state. */
  snapshot(): [string, string][] {
    return [...this.before];
  }

  /** Reads back what `snapshot` wrote; anything else is dropped. */
  restore(state: unknown): void {
    this.before.clear();
    if (!Array.isArray(state)) return;
    for (const item of state.slice(-CAPACITY)) {
      if (!Array.isArray(item) || item.length !== 2) continue;
      const [banKey, error] = item;
      if (
        typeof banKey === 'string' &&
        banKey.length <= MAX_KEY_CHARS &&
        typeof error === 'string' &&
        error.length <= MAX_KEY_CHARS
      )
        this.before.set(banKey, error);
    }
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
  return hashString(`${signature}\u0000${maskVolatile(keptError, 'result')}`);
}
