/**
 * A run's state on disk, beside the guard's: the conversation, the loop's counters and the guard's
 * own snapshot, written after every step, so a run that stops (a crash, a closed terminal, a limit
 * reached) continues where it was instead of starting its counters from zero.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NarrowingError } from '../core/errors.js';
import type { EngineSnapshot } from '../core/types.js';
import { prepareFolderFor, writeFileAtomicSync } from '../node/index.js';
import type { BudgetSnapshot } from './budget.js';
import type { ConversationEntry } from './context.js';
import type { AgentState } from './states.js';

export const RUN_STATE_VERSION = 1;

export interface AgentRunState {
  readonly version: typeof RUN_STATE_VERSION;
  readonly sessionId: string;
  readonly state: AgentState;
  readonly reason: string;
  readonly entries: readonly ConversationEntry[];
  /** Max-tokens continuations used in this run. */
  readonly recoveries: number;
  /** Tools whose alternatives were offered in this run. */
  readonly offered: readonly string[];
  readonly budget: BudgetSnapshot;
  readonly guard: EngineSnapshot;
}

/** Where a session's run state is kept in a guard's state directory. */
export function runStatePath(stateDir: string, sessionId: string): string {
  return join(stateDir, 'agent', `${sessionId.replace(/[^\w.-]/g, '_')}.json`);
}

export function saveRunState(path: string, state: AgentRunState): void {
  prepareFolderFor(path);
  writeFileAtomicSync(path, `${JSON.stringify(state)}\n`);
}

/** The saved run, or undefined when there is none; a file that is not a run state is an error. */
export function loadRunState(path: string): AgentRunState | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new NarrowingError('STATE_UNREADABLE', `${path} is not valid JSON: move it aside to start afresh`, {
      cause: error,
    });
  }
  const state = parsed as Partial<AgentRunState> | null;
  if (
    state?.version !== RUN_STATE_VERSION ||
    typeof state.sessionId !== 'string' ||
    typeof state.state !== 'string' ||
    !Array.isArray(state.entries) ||
    typeof state.guard !== 'object'
  ) {
    throw new NarrowingError(
      'STATE_UNREADABLE',
      `${path} is not an agent run state of version ${RUN_STATE_VERSION}: move it aside to start afresh`,
    );
  }
  return state as AgentRunState;
}
