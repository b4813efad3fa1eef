/**
 * Files changed where the agent could not see it. Each time the agent proposes to read one file, the
 * probe's stamp of it (see `WorldProbe.stamp`) is compared with the stamp it had at the last read: a
 * stamp that moved while no call the guard saw changed the file means someone else did (the user in
 * an editor, a formatter, another agent), and what was read of it no longer holds. Bounded to the
 * files read last; without a probe that stamps, nothing is ever told.
 */

import { LruMap } from './detectors/bounded.js';
import type { CallContext } from './detectors/types.js';
import type { WorldProbe } from './types.js';

/** Files whose stamp at their last read is kept. */
const MAX_FILES = 256;

export class OutsideChanges {
  private readonly stamps = new LruMap<string>(MAX_FILES);

  constructor(private readonly probe: WorldProbe | undefined) {}

  /** The file `call` reads, when it changed outside the agent's view since its last read. */
  changedBeforeRead(call: CallContext): string | undefined {
    const stampOf = this.probe?.stamp;
    if (stampOf === undefined || call.facts.kind !== 'read' || call.facts.targets.length !== 1)
      return undefined;
    const file = call.facts.targets[0] as string;
    const stamp = stampOf.call(this.probe, file);
    if (stamp === undefined) {
      this.stamps.delete(file);
      return undefined;
    }
    const before = this.stamps.peek(file);
    if (before === stamp) return undefined;
    this.stamps.set(file, stamp);
    return before === undefined ? undefined : file;
  }

  /** A call the guard saw changed these files: their next stamp is no news. */
  changedByCall(files: readonly string[]): void {
    if (this.stamps.size === 0) return;
    for (const file of files) this.stamps.delete(file);
  }

  /** A new session: no read of this one has been stamped. */
  clear(): void {
    this.stamps.clear();
  }
}
