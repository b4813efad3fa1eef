/**
 * A command of unknown effects changes what it acts on (`docker restart shop-app`, `systemctl
 * restart nginx`), whatever files a failure named. A failing command that acts on the same operand
 * (`docker logs shop-app`) may now see something else, even when its ban depends on files it named
 * (the frames of a server's stack trace) that nothing edits: it gets its retry.
 */
import type { ConstraintIndex, Entry } from './constraints.js';
import type { CallContext } from './detectors/types.js';
import type { WorkspaceKnowledge } from './types.js';

/** What relieving needs: the bans, what the adapter knows of commands, and how to relieve one. */
export interface OperandReliefContext {
  readonly index: Pick<ConstraintIndex, 'armedFileScopedEntries'>;
  readonly workspace: WorkspaceKnowledge;
  readonly relieve: (entry: Entry, why: () => string) => void;
}

/** A ban's command and what it acts on, as read the last time a command of unknown effects ran. */
interface ReadOperands {
  readonly workspace: WorkspaceKnowledge;
  readonly target: string;
  readonly operands: readonly string[];
}

/**
 * The operands of each armed ban's command, read once: every command of unknown effects goes over
 * all of them, and reading a command line again for each would cost a session's whole history per call.
 */
const operandsOfEntry = new WeakMap<Entry, ReadOperands>();

function operandsOf(
  entry: Entry,
  target: string,
  workspace: WorkspaceKnowledge,
  operandsIn: (command: string) => readonly string[],
): readonly string[] {
  const read = operandsOfEntry.get(entry);
  if (read !== undefined && read.target === target && read.workspace === workspace) return read.operands;
  const operands = operandsIn.call(workspace, target);
  operandsOfEntry.set(entry, { workspace, target, operands });
  return operands;
}

export function relieveSharedOperands(
  command: string,
  call: CallContext,
  context: OperandReliefContext,
): void {
  const { workspace } = context;
  const operandsIn = workspace.operandsIn;
  if (operandsIn === undefined) return;
  const named = new Set(operandsIn.call(workspace, command));
  if (named.size === 0) return;
  for (const entry of context.index.armedFileScopedEntries()) {
    const target = entry.constraint.target;
    if (target === undefined) continue;
    const shared = operandsOf(entry, target, workspace, operandsIn).find((operand) => named.has(operand));
    if (shared !== undefined)
      context.relieve(
        entry,
        () => `${call.description} acted on ${shared}, which the failed command acts on too`,
      );
  }
}
