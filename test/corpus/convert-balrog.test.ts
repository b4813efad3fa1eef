import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertBalrogEpisode,
  csvRows,
  textWorldAnswer,
  textWorldCall,
} from '../../scripts/corpus/convert-balrog.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'submissions/LLM/20241030_naive-Llama-3.2-3B-Instruct/textworld/the_cooking_game/the_cooking_game_run_00.csv',
  licence: 'no licence file',
  agent: "BALROG's baseline agent on TextWorld",
});

const PROMPT = (room: string, score: number, moves: number) =>
  `\n\n>${' '.repeat(40)}-= ${room} =-${score}/${moves}`;

/** The first steps of a cooking game as BALROG's episode CSV writes them: each row's observation answers its action. */
const EPISODE = [
  'Step,Observation,Action,Reasoning,Reward,Done',
  `0,"You have to open the sliding door first.\n${PROMPT('Supermarket', 0, 2)}",go south,,0,False`,
  `1,"You open sliding door.\n${PROMPT('Supermarket', 0, 3)}",open door,,0,False`,
  `2,"-= Street =-\nWell how about that, you are in a place we're calling a street.\n\nThere is an open sliding door leading north.\n${PROMPT('Street', 0, 4)}",go south,,0,False`,
  `3,"You can't see any such thing.\n${PROMPT('Street', 0, 4)}",examine cookbook,"The recipe should be here, ""somewhere"".",0,False`,
  `4,"You are carrying nothing.\n${PROMPT('Street', 0, 5)}",i,,0,False`,
  `5,"That's not a verb I recognise.\n${PROMPT('Street', 0, 5)}",grill tuna,,0,False`,
  '',
].join('\n');

describe("BALROG's TextWorld episodes", () => {
  it('reads quoted fields holding commas, newlines and doubled quotes', () => {
    expect(csvRows('a,b\n"x, ""y""\nz",2\n')).toEqual([
      ['a', 'b'],
      ['x, "y"\nz', '2'],
    ]);
  });

  it('reads a command as a call of its verb, and the short form of inventory as inventory', () => {
    expect(textWorldCall('go south')).toEqual({ tool: 'go', args: { input: 'south' } });
    expect(textWorldCall('i')).toEqual({ tool: 'inventory', args: {} });
    expect(textWorldCall('grill tuna')).toEqual({ tool: 'command', args: { input: 'grill tuna' } });
  });

  it("leaves out the game's prompt and status line, which counts the moves", () => {
    expect(textWorldAnswer(`You open sliding door.\n${PROMPT('Supermarket', 0, 3)}`)).toBe(
      'You open sliding door.',
    );
  });

  it('makes one run of an episode, reading what the game refused as failures', () => {
    const runs = convertBalrogEpisode(EPISODE, SOURCE, 'balrog-textworld');
    expect(runs.map((run) => run.name)).toEqual([
      'balrog-textworld-20241030_naive-Llama-3.2-3B-Instruct-the_cooking_game_run_00',
    ]);
    expect(callsOf(runs[0]?.events ?? []).map((call) => [call.tool, call.result?.isError === true])).toEqual([
      ['go', true],
      ['open', false],
      ['go', false],
      ['examine', true],
      ['inventory', false],
      ['command', true],
    ]);
  });

  it('reads the columns by name, in either order the submissions write them', () => {
    const swapped =
      'Step,Action,Reasoning,Observation,Reward,Done\n0,look,,"-= Kitchen =-\nYou see a fridge.",0,False\n';
    const calls = callsOf(convertBalrogEpisode(swapped, SOURCE, 'b')[0]?.events ?? []);
    expect(calls.map((call) => [call.tool, call.result?.content])).toEqual([
      ['look', '-= Kitchen =-\nYou see a fridge.'],
    ]);
  });

  it('refuses a file without the action and observation columns', () => {
    expect(() => convertBalrogEpisode('Step,Reward\n0,1\n', SOURCE, 'b')).toThrow(/not a BALROG episode/);
  });

  it('converts any episode without throwing, each run opened by its meta event', () => {
    const cell = fc.oneof(
      fc.constantFrom('go north', 'look', '"a, ""b""\nc"', '', 'i'),
      fc.string({ maxLength: 12 }),
    );
    const rows = fc.array(
      fc.array(cell, { maxLength: 6 }).map((row) => row.join(',')),
      { maxLength: 10 },
    );
    fc.assert(
      fc.property(rows, (lines) => {
        const runs = convertBalrogEpisode(['Step,Observation,Action', ...lines].join('\n'), SOURCE, 'b');
        for (const run of runs) expect(run.events[0]?.type).toBe('meta');
      }),
    );
  });
});
