import { describe, expect, it } from 'vitest';
import { alfworldStepCalls, convertAlfworldSteps } from '../../scripts/corpus/convert-alfworld-steps.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'all_failures.json',
  licence: 'no licence file',
  agent: 'A ReAct agent on ALFWorld',
});

const step = (action: string, answer: string) => ({
  observation: '',
  model_response: `Think: I should try this.\n\nAct: ${action}`,
  action_taken: action,
  next_observation: answer,
  score: 0,
  done: false,
});

/** Two games as the viewer's file keeps them: the first heats a mug that is not in hand, twice. */
const GAMES = JSON.stringify([
  {
    game_id: 22,
    task_type: 'heat',
    initial_obs:
      'You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a microwave 1.',
    result: 'timeout',
    total_steps: 4,
    steps: [
      step('go to microwave 1', 'You arrive at loc 9. The microwave 1 is closed.'),
      step('heat mug 1 with microwave 1', 'Nothing happens.'),
      step('heat mug 1 with microwave 1', 'Nothing happens.'),
      step('inventory', 'You are not carrying anything.'),
    ],
  },
  { game_id: 23, task_type: 'clean', result: 'timeout', total_steps: 0, steps: [] },
]);

describe("a results viewer's ALFWorld games", () => {
  it("reads each step's command as a call of its verb, answered by what the game printed after it", () => {
    const calls = alfworldStepCalls(JSON.parse(GAMES)[0]);
    expect(calls.map((call) => [call.tool, call.args, call.result?.content])).toEqual([
      ['go_to', { input: 'microwave 1' }, 'You arrive at loc 9. The microwave 1 is closed.'],
      ['heat', { input: 'mug 1 with microwave 1' }, 'Nothing happens.'],
      ['heat', { input: 'mug 1 with microwave 1' }, 'Nothing happens.'],
      ['inventory', {}, 'You are not carrying anything.'],
    ]);
  });

  it('makes one run of each game that sent a command, reading `Nothing happens.` as a failure', () => {
    const runs = convertAlfworldSteps(GAMES, SOURCE, 'alfworld-viewer-react');
    expect(runs.map((run) => run.name)).toEqual(['alfworld-viewer-react-game-022']);
    expect(callsOf(runs[0]?.events ?? []).map((call) => call.result?.isError === true)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('refuses a file that is not an array of games', () => {
    expect(() => convertAlfworldSteps('{"games": []}', SOURCE, 'a')).toThrow(
      /not an array of ALFWorld games/,
    );
  });
});
