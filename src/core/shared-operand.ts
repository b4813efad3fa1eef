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

export function relieveSharedOperands(
  command: string,
  call: CallContext,
  context: OperandReliefContext,
): void {
  const operandsIn = context.workspace.operandsIn;
  if (operandsIn === undefined) return;
  const named = new Set(operandsIn.call(context.workspace, command));
  if (named.size === 0) return;
  for (const entry of context.index.armedFileScopedEntries()) {
    const target = entry.constraint.target;
    if (target === undefined) continue;
    const shared = operandsIn.call(context.workspace, target).find((operand) => named.has(operand));
    if (shared !== undefined)
      context.relieve(
        entry,
        () => `${call.description} acted on ${shared}, which the failed command acts on too`,
      );
  }
}
