import { describe, expect, it } from 'vitest';
import { convertZorkLog, zorkCall, zorkCalls } from '../../scripts/corpus/convert-zork.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'runs-archive/openai-in-loop_first_20251024/nice_log.txt',
  licence: 'BSD-3-Clause',
  agent: 'Language models playing Zork I',
});

/** The start of a game's log: the harness's entries, each further line indented under its tag. */
const LOG = [
  'START 2025-10-24 17:46:43',
  'AI    ai: loop',
  '      configuration: openai',
  '      model: gpt-4.1-nano',
  'GAME  West of House',
  '      You are standing in an open field west of a white house, with a boarded front door.',
  'CMD   open mailbox',
  'GAME  Opening the small mailbox reveals a leaflet.',
  'CMD   n',
  'GAME  North of House',
  '      You are facing the north side of a white house.',
  'ROOM  North of House',
  'CMD   north',
  "GAME  You can't go that way.",
  'CMD   climb the house',
  "GAME  That sentence isn't one I recognize.",
  'WARN  unrecognized direction: climb the house',
  'CMD   take boards',
  "GAME  You can't see any boards here!",
  '',
].join('\n');

describe('Zork I games from a harness log', () => {
  it('reads a bare direction as a move, and other commands as calls of their verb', () => {
    expect(zorkCall('ne')).toEqual({ tool: 'go', args: { input: 'northeast' } });
    expect(zorkCall('take egg')).toEqual({ tool: 'take', args: { input: 'egg' } });
    expect(zorkCall('climb tree')).toEqual({ tool: 'command', args: { input: 'climb tree' } });
  });

  it("answers each command with the game's entry after it, its indented lines included, the harness's notes left out", () => {
    const calls = zorkCalls(LOG, SOURCE);
    expect(calls.map((call) => [call.tool, call.result?.content])).toEqual([
      ['open', 'Opening the small mailbox reveals a leaflet.'],
      ['go', 'North of House\nYou are facing the north side of a white house.'],
      ['go', "You can't go that way."],
      ['command', "That sentence isn't one I recognize."],
      ['take', "You can't see any boards here!"],
    ]);
  });

  it("makes one run of a game, reading the parser's and the world's refusals as failures", () => {
    const runs = convertZorkLog(LOG, SOURCE, 'aiplayszork');
    expect(runs.map((run) => run.name)).toEqual(['aiplayszork-openai-in-loop_first_20251024']);
    expect(callsOf(runs[0]?.events ?? []).map((call) => call.result?.isError === true)).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });
});
