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
  readonly index: Pick<ConstraintIndex, 'armedSharingOperands'>;
  readonly workspace: WorkspaceKnowledge;
  readonly relieve: (entry: Entry, why: () => string) => void;
}

/**
 * The armed bans sharing an operand with the command are found by the index, which read each ban's
 * command once when it was armed: a command of unknown effects costs what it names, not the
 * session's history of failed commands.
 */
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
  for (const { entry, shared } of context.index.armedSharingOperands(named))
    context.relieve(
      entry,
      () => `${call.description} acted on ${shared}, which the failed command acts on too`,
    );
}
