import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alfworldCall, alfworldSteps, convertAdaptAlfworld } from '../../scripts/corpus/convert-alfworld.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'results/ADaPT_maxd3_alfworld_text_davinci_003.json',
  licence: 'MIT',
  agent: 'ADaPT executor',
});

/** Two executors' parts of one task, as ADaPT records them: the second starts after a bare prompt. */
const TRACE = [
  ' think: To solve the task, I need to find and take a mug.',
  'OK.',
  '> go to drawer 3',
  'Nothing happens.',
  '> go to shelf 2',
  'You arrive at the location. On the shelf 2, you see a mug 1.',
  '> take mug 1 from shelf 2',
  'You pick up the mug 1 from the shelf 2.',
  '>',
  '',
  '',
  ' go to desk 1',
  'You arrive at the location. On the desk 1, you see a bowl 1.',
  '> put mug 1 in/on desk 1',
  'You put the mug 1 in/on the desk 1.',
  '>',
  '',
].join('\n');

describe('ALFWorld traces in ADaPT results', () => {
  it('reads a command as a call of its verb', () => {
    expect(alfworldCall('go to desk 1')).toEqual({ tool: 'go_to', args: { input: 'desk 1' } });
    expect(alfworldCall('inventory')).toEqual({ tool: 'inventory', args: {} });
    expect(alfworldCall('dance')).toEqual({ tool: 'command', args: { input: 'dance' } });
  });

  it('reads the commands of every executor in a trace, each with what the game printed', () => {
    expect(alfworldSteps(TRACE).map((step) => step.command)).toEqual([
      'think: To solve the task, I need to find and take a mug.',
      'go to drawer 3',
      'go to shelf 2',
      'take mug 1 from shelf 2',
      'go to desk 1',
      'put mug 1 in/on desk 1',
    ]);
  });

  it('makes one run of each task, leaving thoughts out and reading "Nothing happens." as a failure', () => {
    const results = {
      pick_and_place: {
        'pick_and_place_simple-Mug-None-Desk-308/trial_T20190908_125200_737896': {
          trace: TRACE,
          reward: true,
        },
      },
      overall: { rate: 1 },
    };
    const runs = convertAdaptAlfworld(JSON.stringify(results), SOURCE, 'adapt-alfworld');
    expect(runs.map((run) => run.name)).toEqual([
      'adapt-alfworld-pick_and_place_simple-Mug-None-Desk-308-20190908_125200_737896',
    ]);
    expect(callsOf(runs[0]?.events ?? []).map((call) => [call.tool, call.result?.isError === true])).toEqual([
      ['go_to', true],
      ['go_to', false],
      ['take', false],
      ['go_to', false],
      ['put', false],
    ]);
  });

  it('refuses what is not a results file', () => {
    expect(() => convertAdaptAlfworld('[]', SOURCE, 'adapt-alfworld')).toThrow(/not an ADaPT results file/);
  });

  it('converts any results without throwing, each run named uniquely and opened by its meta event', () => {
    const trace = fc.array(
      fc.oneof(
        fc.constantFrom('> go to desk 1', 'Nothing happens.', '>', '', ' open drawer 1', '> think: x', 'OK.'),
        fc.string({ maxLength: 12 }),
      ),
      { maxLength: 20 },
    );
    const results = fc.dictionary(
      fc.string({ maxLength: 6 }),
      fc.dictionary(
        fc.string({ maxLength: 130 }),
        fc.oneof(fc.record({ trace: trace.map((lines) => lines.join('\n')) }), fc.jsonValue()),
        { maxKeys: 4 },
      ),
      { maxKeys: 3 },
    );
    fc.assert(
      fc.property(results, (file) => {
        const runs = convertAdaptAlfworld(JSON.stringify(file), SOURCE, 'a');
        expect(new Set(runs.map((run) => run.name)).size).toBe(runs.length);
        for (const run of runs) expect(run.events[0]?.type).toBe('meta');
      }),
    );
  });
});
