import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertAdaptTextCraft, textCraftCall } from '../../scripts/corpus/convert-textcraft.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'results/ADaPT_maxd3_textcraft_gpt-3.5-turbo-instruct.json',
  licence: 'MIT',
  agent: 'ADaPT executor on TextCraft',
});

/** Two executors' parts of one crafting task: the second starts after a bare prompt. */
const TRACE = [
  ' think: First I look at what I hold.',
  'OK.',
  '> inventory',
  'Inventory: [oak log] (1) ',
  '> get 2 birch planks',
  'Could not find birch planks',
  '> craft 4 birch planks using 1 birch log',
  'Could not find enough items to craft minecraft:birch_planks',
  '>',
  '',
  '',
  ' get 1 birch log',
  'Got 1 birch log',
  '> craft 4 birch planks using 1 birch log',
  'Crafted 4 minecraft:birch_planks',
  '>',
  '',
].join('\n');

describe('TextCraft traces in ADaPT results', () => {
  it('reads a command as a call of its verb', () => {
    expect(textCraftCall('get 2 birch planks')).toEqual({ tool: 'get', args: { input: '2 birch planks' } });
    expect(textCraftCall('inventory')).toEqual({ tool: 'inventory', args: {} });
    expect(textCraftCall('jump')).toEqual({ tool: 'command', args: { input: 'jump' } });
  });

  it('makes one run of each task, leaving thoughts out and reading "Could not" as a failure', () => {
    const results = {
      env_0: { problem: 'craft birch planks.', trace: TRACE, reward: 1 },
      env_1: { trace: '' },
    };
    const runs = convertAdaptTextCraft(JSON.stringify(results), SOURCE, 'adapt-textcraft');
    expect(runs.map((run) => run.name)).toEqual(['adapt-textcraft-env_0']);
    expect(callsOf(runs[0]?.events ?? []).map((call) => [call.tool, call.result?.isError === true])).toEqual([
      ['inventory', false],
      ['get', true],
      ['craft', true],
      ['get', false],
      ['craft', false],
    ]);
  });

  it('refuses what is not a results file', () => {
    expect(() => convertAdaptTextCraft('[]', SOURCE, 'adapt-textcraft')).toThrow(/not an ADaPT results file/);
  });

  it('converts any results without throwing, each run named uniquely and opened by its meta event', () => {
    const trace = fc.array(
      fc.oneof(
        fc.constantFrom('> get 1 stick', 'Could not find stick', '>', '', ' inventory', '> think: x', 'OK.'),
        fc.string({ maxLength: 12 }),
      ),
      { maxLength: 20 },
    );
    const results = fc.dictionary(
      fc.string({ maxLength: 130 }),
      fc.oneof(fc.record({ trace: trace.map((lines) => lines.join('\n')) }), fc.jsonValue()),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(results, (file) => {
        const runs = convertAdaptTextCraft(JSON.stringify(file), SOURCE, 'a');
        expect(new Set(runs.map((run) => run.name)).size).toBe(runs.length);
        for (const run of runs) expect(run.events[0]?.type).toBe('meta');
      }),
    );
  });
});
