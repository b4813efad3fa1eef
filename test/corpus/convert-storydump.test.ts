import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertStoryDump,
  storyAnswer,
  storyCalls,
  storyDump,
} from '../../scripts/corpus/convert-storydump.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'storydump/905.z5_2024-07-22_18-44-09.json',
  licence: 'MIT',
  agent: "AdventureAI's player",
});

const turn = (role: 'user' | 'assistant', content: string) => ({
  role,
  content,
  completionTokens: 0,
  promptTokens: 0,
  meta: '',
  score: 0,
});

/** The start of a play of 9:05 as the interpreter dumps it: the game's output as the user, the model's commands as the assistant. */
const DUMP = JSON.stringify({
  promptPattern: 'simple',
  model: 'gemini-15-pro',
  prompt: 'You act as a player of an interactive text adventure.',
  date: '2024-07-22_18-44-09',
  name: '905.z5',
  messages: [
    turn(
      'user',
      '\n\nThe phone rings.\n\nBedroom (in bed)\nOn the end table are a telephone, a wallet and some keys.\n\n>',
    ),
    turn('assistant', 'answer phone'),
    turn('user', 'You pick up the phone. "Hadley!" a shrill voice cries.\n\nClick.\n\n>'),
    turn('assistant', 'get dressed'),
    turn('user', '[!: Noun error.]\n\n>'),
    turn('assistant', 'east'),
    turn('user', "You'll have to get out of bed first.\n\n>"),
    turn('assistant', 'Wobble'),
    turn('user', "That's not a verb I recognize.\n\n>"),
    turn('assistant', 'put down'),
    turn('user', '[What do you want to put the ground in?]\n\n>'),
    turn('assistant', 'take keys'),
  ],
});

describe('story dumps of a language model playing interactive fiction', () => {
  it("answers each command with the game's next turn, its prompt taken off", () => {
    const calls = storyCalls(storyDump(DUMP, SOURCE));
    expect(calls.map((call) => [call.tool, call.args, call.result?.content])).toEqual([
      [
        'command',
        { input: 'answer phone' },
        'You pick up the phone. "Hadley!" a shrill voice cries.\n\nClick.',
      ],
      ['command', { input: 'get dressed' }, '[!: Noun error.]'],
      ['go', { input: 'east' }, "You'll have to get out of bed first."],
      ['command', { input: 'Wobble' }, "That's not a verb I recognize."],
      ['put', { input: 'down' }, '[What do you want to put the ground in?]'],
    ]);
  });

  it('leaves out a last command the game never answered', () => {
    expect(storyCalls(storyDump(DUMP, SOURCE)).map((call) => call.args.input)).not.toContain('keys');
  });

  it("reads the parser's refusals and questions as failures, in American spelling and in 9:05's brackets", () => {
    const failed = storyCalls(storyDump(DUMP, SOURCE)).map((call) => call.result?.isError === true);
    expect(failed).toEqual([false, true, false, true, true]);
  });

  it('makes one run of a story, named by its file and described by its game, model and prompt', () => {
    const runs = convertStoryDump(DUMP, SOURCE, 'adventureai-if');
    expect(runs.map((run) => run.name)).toEqual(['adventureai-if-905.z5_2024-07-22_18-44-09']);
    const meta = runs[0]?.events[0];
    expect(meta?.type === 'meta' ? meta.description : '').toContain(
      'game 905.z5 (gemini-15-pro, prompt simple)',
    );
    expect(callsOf(runs[0]?.events ?? [])).toHaveLength(5);
  });

  it('refuses a file that holds no chat', () => {
    expect(() => storyDump('{"name": "905.z5"}', SOURCE)).toThrow(/not a story dump/);
  });

  it('takes only the prompt off the end of any answer', () => {
    const printed = fc.string({ maxLength: 40 }).filter((value) => !value.includes('>'));
    fc.assert(
      fc.property(printed, (value) => {
        expect(storyAnswer(`${value}\n\n>`)).toBe(value.trim());
      }),
    );
  });
});
