import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertKnowAgentAlfworld,
  knowAgentAlfworldTrace,
} from '../../scripts/corpus/convert-knowagent-alfworld.js';
import { MAX_LOG_CHARS } from '../../scripts/corpus/convert-react.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const PATH = 'Self-Learning/trajs/datas/KnowAgentALFWorld_llama-2-13b_D0.jsonl';
const SOURCE = pinnedSource({ path: PATH, licence: 'Apache-2.0', agent: 'KnowAgent on ALFWorld' });

/** One game as the trajectory files hold it: the room, the task, then the agent's notes and commands. */
const GAME = {
  name: 'pick_and_place_simple-KeyChain-None-Drawer-208/trial_T20190909_013444_420195',
  result: false,
  traj: [
    'You are in the middle of a room. Looking quickly around you, you see a drawer 1, a fridge 1, and a shelf 1.',
    'Your task is to: put some keychain on drawer.',
    '> Think: To solve the task, I need to first find and then take a keychain.',
    '> ActionPath: Start',
    '> go to shelf 1',
    'On the shelf 1, you see a keychain 1.',
    '> take keychain 1 from shelf 1',
    'You pick up the keychain 1 from the shelf 1.',
    '> open fridge 1',
    'Nothing happens.',
    '> open fridge 1',
    'Nothing happens.',
  ].join('\n'),
};

describe('KnowAgent ALFWorld trajectories', () => {
  it('leaves out the room, the task and the agent’s notes, keeping the commands and what the game printed', () => {
    const trace = knowAgentAlfworldTrace(GAME.traj);
    expect(trace).not.toContain('Your task is to');
    expect(trace).not.toContain('ActionPath');
    expect(trace).not.toContain('Think:');
    expect(trace.startsWith('go to shelf 1')).toBe(true);
  });

  it('makes one run of each game, a command that did nothing failing', () => {
    const runs = convertKnowAgentAlfworld(JSON.stringify(GAME), SOURCE, 'knowagent-alfworld');
    expect(runs.map((run) => run.name)).toEqual(['knowagent-alfworld-D0-001']);
    expect(callsOf(runs[0]?.events ?? [])).toEqual([
      {
        type: 'call',
        tool: 'go_to',
        args: { input: 'shelf 1' },
        result: { content: 'On the shelf 1, you see a keychain 1.' },
      },
      {
        type: 'call',
        tool: 'take',
        args: { input: 'keychain 1 from shelf 1' },
        result: { content: 'You pick up the keychain 1 from the shelf 1.' },
      },
      {
        type: 'call',
        tool: 'open',
        args: { input: 'fridge 1' },
        result: { isError: true, content: 'Nothing happens.' },
      },
      {
        type: 'call',
        tool: 'open',
        args: { input: 'fridge 1' },
        result: { isError: true, content: 'Nothing happens.' },
      },
    ]);
  });

  it('refuses a line that is not JSON, and a file too long to be a trajectory file', () => {
    expect(() => convertKnowAgentAlfworld('{"traj": "x"}\nnot json', SOURCE, 'k')).toThrow(
      /line 2 is not JSON/,
    );
    expect(() => convertKnowAgentAlfworld('x'.repeat(MAX_LOG_CHARS + 1), SOURCE, 'k')).toThrow(/longer than/);
  });

  it('converts any JSON lines without throwing, one uniquely named run at most per line', () => {
    const traj = fc.oneof(
      fc
        .array(fc.oneof(fc.string(), fc.constant('> open fridge 1'), fc.constant('Nothing happens.')))
        .map((lines) => lines.join('\n')),
      fc.jsonValue(),
    );
    const entry = fc.oneof(fc.record({ name: fc.string(), result: fc.boolean(), traj }), fc.jsonValue());
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (games) => {
        const jsonl = games.map((game) => JSON.stringify(game)).join('\n');
        const runs = convertKnowAgentAlfworld(jsonl, SOURCE, 'k');
        expect(runs.length).toBeLessThanOrEqual(games.length);
        expect(new Set(runs.map((run) => run.name)).size).toBe(runs.length);
        for (const run of runs) expect(run.events[0]?.type).toBe('meta');
      }),
    );
  });
});
