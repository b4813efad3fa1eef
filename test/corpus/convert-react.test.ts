import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertReflexionLogs,
  MAX_LOG_CHARS,
  MAX_STEPS,
  parseReActAction,
  reactCalls,
  reflexionBlocks,
} from '../../scripts/corpus/convert-react.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({ licence: 'MIT', agent: 'ReAct agent' });

/** One agent as a Reflexion log prints it: a question, numbered steps, the answer key. */
const HALTED = [
  'Question: VIVA Media AG changed its name in 2004. What does their new acronym stand for?',
  'Thought 1: I need to search VIVA Media AG.',
  'Action 1: Search[VIVA Media AG]',
  "Observation 1: Could not find [VIVA Media AG]. Similar: ['VIVA Plus', 'Sartorius AG']",
  'Thought 2: I should search VIVA Plus.',
  'Action 2: Search[VIVA Plus]',
  'Observation 2: VIVA Plus was a German music television channel.',
  'It was the successor to VIVA Zwei.',
  'Thought 3: Let me look up the acronym.',
  'Action 3: Lookup[acronym]',
  'Observation 3: No Results',
  'Correct answer: Gesellschaft mit beschränkter Haftung',
].join('\n');

const CORRECT = [
  'Question: Which of Jonny Craig and Pete Doherty has been a member of more bands ?',
  'Thought 1: I need to search Jonny Craig.',
  'Action 1: Search[Jonny Craig]',
  'Observation 1: Jonathan Monroe Craig is a Canadian-American singer.',
  'Thought 2: So Jonny Craig.',
  'Action 2: Finish[Jonny Craig]',
  'Observation 2: Answer is CORRECT',
  'Correct answer: Jonny Craig',
].join('\n');

function trial(number: number, agents: string[]): string {
  return [
    '########################################',
    `BEGIN TRIAL ${number}`,
    'Trial summary: Correct: 1, Incorrect: 0, Halted: 1',
    '#######################################',
    '------------- BEGIN CORRECT AGENTS -------------',
    '',
    ...agents.flatMap((agent) => [agent, '']),
  ].join('\n');
}

describe('ReAct transcripts', () => {
  it('reads a tool and its bracketed argument, and keeps any other action whole', () => {
    expect(parseReActAction('Search[Nick Park]')).toEqual({ tool: 'Search', args: { input: 'Nick Park' } });
    expect(parseReActAction('Finish[[1, 2]]')).toEqual({ tool: 'Finish', args: { input: '[1, 2]' } });
    expect(parseReActAction('I should answer now')).toEqual({
      tool: 'action',
      args: { input: 'I should answer now' },
    });
  });

  it('answers each action with the lines of its observation and marks pages that are not there as failed', () => {
    expect(reactCalls(HALTED)).toEqual([
      {
        type: 'call',
        tool: 'Search',
        args: { input: 'VIVA Media AG' },
        result: {
          isError: true,
          content: "Could not find [VIVA Media AG]. Similar: ['VIVA Plus', 'Sartorius AG']",
        },
      },
      {
        type: 'call',
        tool: 'Search',
        args: { input: 'VIVA Plus' },
        result: {
          content: 'VIVA Plus was a German music television channel.\nIt was the successor to VIVA Zwei.',
        },
      },
      { type: 'call', tool: 'Lookup', args: { input: 'acronym' }, result: { content: 'No Results' } },
    ]);
  });

  it('marks a tool that threw as failed', () => {
    const [call] = reactCalls(
      "Action: click[Frige - Wikipedia]\nObservation: ('click', 'Frige - Wikipedia') generated an exception: Unknown tool name: click",
    );
    expect(call?.result?.isError).toBe(true);
  });

  it('keeps an action that got no observation as a call that never ran', () => {
    expect(reactCalls('Thought: done.\nAction: finish[42]')).toEqual([
      { type: 'call', tool: 'finish', args: { input: '42' } },
    ]);
  });

  it('splits a log into one block per question and leaves out the banners', () => {
    const blocks = reflexionBlocks(trial(1, [CORRECT, HALTED]));
    expect(blocks).toHaveLength(2);
    expect(blocks[0]?.startsWith('Question: Which of Jonny Craig')).toBe(true);
    expect(blocks.some((block) => block.includes('####') || block.includes('BEGIN'))).toBe(false);
  });

  it('reads a run once however many trials and logs print it again', () => {
    const first = {
      path: 'hotpotqa_runs/root/ReAct/base/100_questions_5_trials.txt',
      content: `${trial(1, [CORRECT, HALTED])}\n${trial(2, [CORRECT, HALTED])}`,
    };
    // Another log prints the same run without its answer key, and a later trial after a reflection.
    const shortened = HALTED.split('\n').slice(0, -1).join('\n');
    const reflected = HALTED.replace(
      'stand for?',
      'stand for?You have attempted to answer following question before and failed.\nReflections:\n- I looped.',
    );
    const again = {
      path: 'hotpotqa_runs/root/ReAct/base/base_react_thought_log.txt',
      content: trial(1, [shortened, reflected]),
    };
    const runs = convertReflexionLogs([first, again], SOURCE, 'reflexion');
    expect(runs.map((run) => run.name)).toEqual([
      'reflexion-base_100_questions_5_trials-001',
      'reflexion-base_100_questions_5_trials-002',
    ]);
    expect(runs.map((run) => callsOf(run.events).length)).toEqual([2, 3]);
    expect(runs[0]?.events[0]).toMatchObject({
      type: 'meta',
      name: 'reflexion-base_100_questions_5_trials-001',
    });
  });

  it('refuses a log too long to be a run log', () => {
    const huge = { path: 'hotpotqa_runs/root/ReAct/x.txt', content: 'x'.repeat(MAX_LOG_CHARS + 1) };
    expect(() => convertReflexionLogs([huge], SOURCE, 'reflexion')).toThrow(/longer than/);
  });

  it('reads any text without throwing, never more calls than actions or than its bound', () => {
    const line = fc.oneof(
      fc.string(),
      fc.constantFrom('Question: q', 'Correct answer: a', '#####', '-----', 'Reflections:'),
      fc
        .tuple(fc.constantFrom('Thought', 'Action', 'Observation', 'Action 2', 'Observation 2'), fc.string())
        .map(([kind, rest]) => `${kind}: ${rest}`),
      fc
        .tuple(fc.constantFrom('Search', 'Lookup', 'Finish', 'x y'), fc.string())
        .map(([tool, arg]) => `Action: ${tool}[${arg}]`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), (lines) => {
        const transcript = lines.join('\n');
        const calls = reactCalls(transcript);
        const actions = lines.filter((entry) => /^Action(?: \d+)?:/.test(entry)).length;
        expect(calls.length).toBeLessThanOrEqual(Math.min(actions, MAX_STEPS));
        for (const call of calls) expect(typeof call.args.input).toBe('string');
        const runs = convertReflexionLogs([{ path: 'a/ReAct/log.txt', content: transcript }], SOURCE, 'p');
        expect(new Set(runs.map((run) => run.name)).size).toBe(runs.length);
      }),
    );
  });
});
