/**
 * The states of a run and the transitions between them. Every change of state goes through
 * `transition()`, which refuses a move the table does not list and reports each move it makes, so a
 * reader (or a test) can follow a run from its events alone.
 */
import { NarrowingError } from '../core/errors.js';

export type AgentState =
  /** Created, or loaded from disk, and not yet run. */
  | 'idle'
  | 'running'
  | 'waiting_for_tool'
  | 'waiting_for_input'
  | 'completed'
  | 'cancelled'
  | 'timed_out'
  | 'max_steps'
  | 'budget_exceeded'
  /** The guard ended the run (the model kept proposing what it refused) and the model then answered. */
  | 'halted'
  | 'error';

/** The states a run ends in. */
export type TerminalState = Exclude<
  AgentState,
  'idle' | 'running' | 'waiting_for_tool' | 'waiting_for_input'
>;

const ENDINGS: readonly TerminalState[] = [
  'completed',
  'cancelled',
  'timed_out',
  'max_steps',
  'budget_exceeded',
  'halted',
  'error',
];

/**
 * Where each state may go. A run starts in `running`; the waiting states return to `running` or
 * end; an ended run starts again only through `running` (a new task, or a resumed session).
 */
export const TRANSITIONS: Readonly<Record<AgentState, readonly AgentState[]>> = {
  idle: ['running'],
  running: ['waiting_for_tool', 'waiting_for_input', ...ENDINGS],
  // A tool call can end the run every way but one: only the model completes it.
  waiting_for_tool: ['running', 'cancelled', 'timed_out', 'max_steps', 'budget_exceeded', 'error'],
  waiting_for_input: ['running', 'completed', 'cancelled', 'timed_out', 'error'],
  completed: ['running'],
  cancelled: ['running'],
  timed_out: ['running'],
  max_steps: ['running'],
  budget_exceeded: ['running'],
  halted: ['running'],
  error: ['running'],
};

export function isTerminal(state: AgentState): state is TerminalState {
  return (ENDINGS as readonly AgentState[]).includes(state);
}

export interface StateChange {
  readonly from: AgentState;
  readonly to: AgentState;
  /** Why, in a sentence: shown to the user and kept with the run. */
  readonly reason: string;
}

/** Holds the current state and reports every change to `onChange`. */
export class StateMachine {
  private current: AgentState;

  constructor(
    initial: AgentState,
    private readonly onChange: (change: StateChange) => void,
  ) {
    this.current = initial;
  }

  get state(): AgentState {
    return this.current;
  }

  /** Moves to `to`, or throws a `USAGE` error when the table does not allow the move. */
  transition(to: AgentState, reason: string): void {
    const from = this.current;
    if (!TRANSITIONS[from].includes(to)) {
      throw new NarrowingError('USAGE', `an agent run cannot go from ${from} to ${to} (${reason})`);
    }
    this.current = to;
    this.onChange({ from, to, reason });
  }
}
