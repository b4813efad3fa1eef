import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertKnowAgentTrajectories, knowAgentTranscript } from '../../scripts/corpus/convert-knowagent.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'Self-Learning/trajs/datas/KnowAgentHotpotQA_llama-2-13b_D0.jsonl',
  licence: 'Apache-2.0',
  agent: 'KnowAgent',
});

/** A prompt as the trajectory files hold it: an example, then the run with its path lines. */
const PROMPT = [
  'Answer the question by moving through the action graph.',
  'Question: Which river runs through the capital of Ruritania?',
  'Action 1: Retrieve[Ruritania]',
  'Observation 1: Ruritania is a fictional country.',
  'Action 2: Finish[none]',
  '',
  '(END OF EXAMPLES)',
  'Question: Which lake feeds the river of the town of Strelsau?',
  'ActionPath 1: Start',
  'Thought 1: I should look the town up.',
  'Action 1: Retrieve[Strelsau]',
  "Observation 1: Could not find [Strelsau]. Similar: ['Zenda']",
  'ActionPath 2: Start->Retrieve[Strelsau]',
  'Thought 2: Try a web search.',
  'Action 2: Search[Strelsau river]',
  'Observation 2: The Strel river flows from Lake Tarlenheim.',
  'ActionPath 3: Start->Retrieve[Strelsau]->Search[Strelsau river]',
  'Thought 3: Search again.',
  'Action 3: Search[Strelsau river]',
  'Observation 3: The Strel river flows from Lake Tarlenheim.',
  'ActionPath 4: Start->Retrieve[Strelsau]->Search[Strelsau river]->Search[Strelsau river]',
  'Thought 4: The lake is Tarlenheim.',
  'Action 4: Finish[Lake Tarlenheim]',
  'Observation 4: Answer is CORRECT',
].join('\n');

describe('KnowAgent trajectory files', () => {
  it('keeps the run after the examples and leaves its path lines out', () => {
    const transcript = knowAgentTranscript(PROMPT);
    expect(transcript).not.toContain('Ruritania');
    expect(transcript).not.toContain('ActionPath');
    expect(transcript).toContain('Action 2: Search[Strelsau river]');
  });

  it('makes one run of each line, whose repeated search answers as the search before it did', () => {
    const line = JSON.stringify({ question: 'Which lake?', correct: true, halted: false, prompt: PROMPT });
    const runs = convertKnowAgentTrajectories(
      `${line}\n${JSON.stringify({ question: 'x' })}\n`,
      SOURCE,
      'knowagent',
    );
    expect(runs.map((run) => run.name)).toEqual(['knowagent-datas-KnowAgentHotpotQA_llama-2-13b_D0-001']);
    const calls = callsOf(runs[0]?.events ?? []);
    expect(calls.map((call) => [call.tool, call.args.input, call.result?.isError === true])).toEqual([
      ['Retrieve', 'Strelsau', true],
      ['Search', 'Strelsau river', false],
      ['Search', 'Strelsau river', false],
      ['Finish', 'Lake Tarlenheim', false],
    ]);
    expect(calls[2]?.result).toEqual(calls[1]?.result);
  });

  it('reads a prompt without examples whole, naming its runs by the file and its folder', () => {
    const prompt = [
      'Answer with BingSearch[query], Retrieve[entity], Lookup[keyword], Finish[answer] and Reflect[right/wrong].',
      'Question: Which lake feeds the Strel?',
      'Thought: Search the web.',
      'Action: BingSearch[Strel river source]',
      'Observation: The Strel flows from Lake Tarlenheim.',
      'Action: Finish[Lake Tarlenheim]',
      'Observation: Please reflect your answer.',
    ].join('\n');
    const line = JSON.stringify({ question: 'Which lake?', correct: false, prompt });
    const names = ['output/13b/easy.jsonl', 'output/13b/tem_0.2/easy.jsonl'].flatMap((path) =>
      convertKnowAgentTrajectories(line, { ...SOURCE, path }, 'autoact').map((run) => run.name),
    );
    expect(names).toEqual(['autoact-13b-easy-001', 'autoact-tem_0.2-easy-001']);
    const calls = callsOf(convertKnowAgentTrajectories(line, SOURCE, 'autoact')[0]?.events ?? []);
    expect(calls.map((call) => call.tool)).toEqual(['BingSearch', 'Finish']);
  });

  it('refuses a line that is not JSON', () => {
    expect(() => convertKnowAgentTrajectories('{"prompt": ', SOURCE, 'knowagent')).toThrow(/not JSON/);
  });

  it('converts any lines of records without throwing, each run named uniquely and opened by its meta event', () => {
    const prompt = fc
      .array(
        fc.oneof(
          fc.constantFrom(
            '(END OF EXAMPLES)',
            'ActionPath 2: Start',
            'Action 1: Search[x]',
            'Observation 1: y',
            'Question: q',
          ),
          fc.string({ maxLength: 12 }),
        ),
        { maxLength: 20 },
      )
      .map((lines) => lines.join('\n'));
    const records = fc.array(fc.oneof(fc.record({ prompt, correct: fc.boolean() }), fc.jsonValue()), {
      maxLength: 5,
    });
    fc.assert(
      fc.property(records, (lines) => {
        const runs = convertKnowAgentTrajectories(
          lines.map((line) => JSON.stringify(line)).join('\n'),
          SOURCE,
          'k',
        );
        expect(new Set(runs.map((run) => run.name)).size).toBe(runs.length);
        for (const run of runs) expect(run.events[0]?.type).toBe('meta');
      }),
    );
  });
});
