import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertZorkGptEpisode, zorkGptCalls, zorkGptTurns } from '../../scripts/corpus/convert-zorkgpt.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'example_episode.txt',
  licence: 'MIT',
  agent: "ZorkGPT's agent playing Dungeon",
});

/** The start of an episode as the later harness printed it: the answer under a heading naming the command. */
const EPISODE = [
  '--- NEW EPISODE: 2025-05-22T19:47:21 (2025-05-22T19:47:21.059282) ---',
  'Using agent model: openai/o4-mini-high',
  'INITIAL STATE:',
  'Welcome to Dungeon.\t\t\tThis version created 11-MAR-91.',
  '',
  '--- Turn 1 ---',
  'Agent proposes: open mailbox',
  "Critic evaluation: Score=0.80, Justification='A low-risk first action.'",
  "ZORK RESPONSE for 'open mailbox':",
  '>Opening the mailbox reveals:',
  '  A leaflet.',
  '',
  'Turn reward: 0.80, Total episode reward: 0.80',
  '',
  '--- Turn 2 ---',
  'Agent proposes: ',
  "Critic evaluation: Score=0.00, Justification='An empty command.'",
  "ZORK RESPONSE for '':",
  '',
  '',
  'Turn reward: 0.00, Total episode reward: 0.80',
  '',
  '--- Turn 3 ---',
  'Agent proposes: northwest',
  "Critic evaluation: Score=0.30, Justification='Exploring.'",
  "ZORK RESPONSE for 'northwest':",
  ">I don't understand that.",
  '',
  'Turn reward: 0.30, Total episode reward: 1.10',
  '',
  '--- Turn 4 ---',
  'Agent proposes: turn bolt',
  "Critic evaluation: Score=0.10, Justification='Trying the bolt.'",
  "ZORK RESPONSE for 'turn bolt':",
  '>You must supply an indirect object.',
  '',
  'Turn reward: 0.10, Total episode reward: 1.20',
  '',
  'Episode finished in 4 turns.',
  '',
].join('\n');

/** A turn as the earlier harness printed it: the answer under a bare heading, the extractor's note after it. */
const EARLIER_TURN = [
  '--- Turn 7 ---',
  'Agent proposes: examine house',
  "Critic evaluation: Score=0.10, Justification='Looking closer.'",
  'Zork response:',
  ">I can't see one here.",
  "Extracted Info: Current Location='North of House' Exits=''",
  'Turn reward: -0.10, Total episode reward: 3.40',
  '',
].join('\n');

describe('Zork episodes printed turn by turn by an agent harness', () => {
  it("pairs each proposed command with the game's answer, its further lines kept and the prompt taken off", () => {
    expect(zorkGptTurns(EPISODE)[0]).toEqual({
      command: 'open mailbox',
      answer: 'Opening the mailbox reveals:\n  A leaflet.',
    });
  });

  it('leaves out a turn whose proposal was empty, since it sent nothing', () => {
    expect(zorkGptTurns(EPISODE).map((turn) => turn.command)).toEqual([
      'open mailbox',
      'northwest',
      'turn bolt',
    ]);
  });

  it("reads the earlier heading too, and ends the answer at the harness's note", () => {
    expect(zorkGptTurns(EARLIER_TURN)).toEqual([
      { command: 'examine house', answer: "I can't see one here." },
    ]);
  });

  it("reads Dungeon's own refusals as failures", () => {
    const calls = zorkGptCalls(`${EPISODE}\n${EARLIER_TURN}`, SOURCE);
    expect(calls.map((call) => [call.tool, call.result?.isError === true])).toEqual([
      ['open', false],
      ['go', true],
      ['command', true],
      ['examine', true],
    ]);
  });

  it('makes one run of an episode, named by the time the harness started it', () => {
    const runs = convertZorkGptEpisode(EPISODE, SOURCE, 'zorkgpt');
    expect(runs.map((run) => run.name)).toEqual(['zorkgpt-2025-05-22T19_47_21']);
    expect(callsOf(runs[0]?.events ?? [])).toHaveLength(3);
  });

  it('names an episode without a start by its file', () => {
    expect(convertZorkGptEpisode(EARLIER_TURN, SOURCE, 'zorkgpt-first').map((run) => run.name)).toEqual([
      'zorkgpt-first-example_episode',
    ]);
  });

  it('reads any mix of turn lines and other text into turns that each sent a command', () => {
    const line = fc.oneof(
      fc.constantFrom(
        'Agent proposes: look',
        'Agent proposes: ',
        'Zork response:',
        "ZORK RESPONSE for 'look':",
        '>Taken.',
        'Turn reward: 0.10',
        '--- Turn 2 ---',
        '',
      ),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const turns = zorkGptTurns(lines.join('\n'));
        expect(turns.length).toBeLessThanOrEqual(lines.length);
        for (const turn of turns) expect(turn.command).not.toBe('');
      }),
    );
  });
});
