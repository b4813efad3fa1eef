/**
 * Files changed where the agent could not see it. Each time the agent proposes to look at files (a
 * read of one file, a command naming files), the probe's stamp of each (see `WorldProbe.stamp`) is
 * compared with the stamp it had at the last look: a stamp that moved while no call the guard saw
 * changed the file means someone else did (the user in an editor, a formatter, another agent), and
 * what was seen of it no longer holds. Bounded to the files looked at last; without a probe that
 * stamps, nothing is ever told.
 */

import { LruMap } from './detectors/bounded.js';
import type { CallContext } from './detectors/types.js';
import type { WorkspaceKnowledge, WorldProbe } from './types.js';

/** Files whose stamp at their last look is kept. */
const MAX_FILES = 256;
/** Files of one command line stamped: the first it acts on. */
const MAX_NAMED = 4;
const NONE: readonly string[] = [];

export class OutsideChanges {
  private readonly stamps = new LruMap<string>(MAX_FILES);

  constructor(
    private readonly probe: WorldProbe | undefined,
    private readonly workspace: WorkspaceKnowledge,
  ) {}

  /** The files `call` looks at that changed outside the agent's view since they were last looked at. */
  changedBeforeLook(call: CallContext): readonly string[] {
    const stampOf = this.probe?.stamp;
    if (stampOf === undefined) return NONE;
    let changed: string[] | undefined;
    for (const file of this.filesOf(call)) {
      const stamp = stampOf.call(this.probe, file);
      if (stamp === undefined) {
        this.stamps.delete(file);
        continue;
      }
      const before = this.stamps.peek(file);
      if (before === stamp) continue;
      this.stamps.set(file, stamp);
      if (before === undefined) continue;
      changed ??= [];
      changed.push(file);
    }
    return changed ?? NONE;
  }

  /** A call the guard saw changed the files it names: their next stamp is no news. */
  changedByCall(call: CallContext): void {
    if (this.stamps.size === 0) return;
    const files = call.facts.kind === 'exec' ? this.filesOf(call) : call.facts.targets;
    for (const file of files) this.stamps.delete(file);
  }

  /** A new session: no look of this one has been stamped. */
  clear(): void {
    this.stamps.clear();
  }

  /**
   * A read tool's one file, or the first files a command line acts on (its operands, without its
   * programs, subcommands and flags, where the adapter reads them; else every word that could name
   * a file).
   */
  private filesOf(call: CallContext): readonly string[] {
    const { kind, targets } = call.facts;
    if (kind === 'read') return targets.length === 1 ? targets : NONE;
    if (kind !== 'exec' || targets.length !== 1) return NONE;
    const line = targets[0] as string;
    const named = this.workspace.operandsIn?.(line) ?? this.workspace.targetsIn(line);
    return named.length > MAX_NAMED ? named.slice(0, MAX_NAMED) : named;
  }
}
