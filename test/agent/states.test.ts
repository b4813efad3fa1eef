import { describe, expect, it } from 'vitest';
import {
  type AgentState,
  isTerminal,
  type StateChange,
  StateMachine,
  TRANSITIONS,
} from '../../src/agent/index.js';
import { isNarrowingError } from '../../src/core/errors.js';

describe('the state machine', () => {
  it('reports each change with where it came from, where it went and why', () => {
    const changes: StateChange[] = [];
    const machine = new StateMachine('idle', (change) => changes.push(change));
    machine.transition('running', 'a new task');
    machine.transition('waiting_for_tool', 'one tool call');
    expect(machine.state).toBe('waiting_for_tool');
    expect(changes).toEqual([
      { from: 'idle', to: 'running', reason: 'a new task' },
      { from: 'running', to: 'waiting_for_tool', reason: 'one tool call' },
    ]);
  });

  it('refuses a move the table does not list, with a USAGE error, and stays where it was', () => {
    const machine = new StateMachine('idle', () => {});
    const error = (() => {
      try {
        machine.transition('completed', 'skipping the run');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isNarrowingError(error) && error.code).toBe('USAGE');
    expect(machine.state).toBe('idle');
  });

  it('ends only in the seven terminal states, each of which can start again', () => {
    const terminal = (Object.keys(TRANSITIONS) as AgentState[]).filter(isTerminal);
    expect(terminal.sort()).toEqual([
      'budget_exceeded',
      'cancelled',
      'completed',
      'error',
      'halted',
      'max_steps',
      'timed_out',
    ]);
    for (const state of terminal) expect(TRANSITIONS[state]).toEqual(['running']);
  });
});
