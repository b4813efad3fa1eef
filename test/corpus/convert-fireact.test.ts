import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertFireActTrajectories,
  fireActModel,
  fireActTranscript,
} from '../../scripts/corpus/convert-fireact.js';
import { MAX_LOG_CHARS } from '../../scripts/corpus/convert-react.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const PATH = 'trajs/hotpotqa_dev_0_500_llama_models_lora_llama-2-7b-d_1000_0.7_2023-09-19-00-49-36.json';
const SOURCE = pinnedSource({
  path: PATH,
  licence: 'MIT',
  agent: 'FireAct agent',
});

/** A run as the fine-tuned Llama files hold it: the whole prompt and transcript in one string. */
const TEXT_RUN = {
  reward: false,
  traj: [
    '### Instruction:',
    'Who created the show with Wendy Schaal doing the voice of Francine?',
    '',
    '### Response:',
    'Thought: I need to search the show.',
    'Action: search[Wendy Schaal Francine]',
    'Observation: None',
    'Thought: Search again.',
    'Action: search[Wendy Schaal Francine]',
    'Observation: None',
    'Action: finish[Seth MacFarlane]',
    'Observation: Episode finished, reward = True',
    '',
  ].join('\n'),
};

/** A run as the fine-tuned gpt-3.5 file holds it: chat messages. */
const CHAT_RUN = {
  reward: false,
  traj: [
    { role: 'user', content: 'What tales is Frigg associated with?' },
    {
      role: 'assistant',
      content:
        'Thought: Click the page.\nAction: click[Frige - Wikipedia]\nThought: then search\nAction: search[Frigg]',
    },
    {
      role: 'user',
      content: "Observation: ('click', 'Frige - Wikipedia') generated an exception: Unknown tool name: click",
    },
    { role: 'assistant', content: 'Thought: Answer.\nAction: finish[Grímnismál]' },
    { role: 'user', content: 'Observation: Episode finished, reward = False' },
  ],
};

describe('FireAct trajectories', () => {
  it('names the model from the file name', () => {
    expect(fireActModel(PATH)).toBe('llama-2-7b');
    expect(fireActModel('trajs/hotpotqa_dev_0_500_ft_gpt-3.5-turbo-0613_x.json')).toBe('gpt-3.5-turbo');
  });

  it('makes one run of each question, with each action answered by its observation', () => {
    const runs = convertFireActTrajectories(JSON.stringify({ '6238': TEXT_RUN }), SOURCE, 'fireact');
    expect(runs.map((run) => run.name)).toEqual(['fireact-llama-2-7b-6238']);
    expect(callsOf(runs[0]?.events ?? [])).toEqual([
      { type: 'call', tool: 'search', args: { input: 'Wendy Schaal Francine' }, result: { content: 'None' } },
      { type: 'call', tool: 'search', args: { input: 'Wendy Schaal Francine' }, result: { content: 'None' } },
      {
        type: 'call',
        tool: 'finish',
        args: { input: 'Seth MacFarlane' },
        result: { content: 'Episode finished, reward = True' },
      },
    ]);
  });

  it('keeps only the first action of a chat turn, the one the environment ran', () => {
    expect(fireActTranscript(CHAT_RUN.traj)).not.toContain('search[Frigg]');
    const calls = callsOf(
      convertFireActTrajectories(JSON.stringify({ '457': CHAT_RUN }), SOURCE, 'fireact')[0]?.events ?? [],
    );
    expect(calls.map((call) => [call.tool, call.result?.isError === true])).toEqual([
      ['click', true],
      ['finish', false],
    ]);
  });

  it('refuses what is not a trajectory file, and a file too long to be one', () => {
    expect(() => convertFireActTrajectories('[1, 2]', SOURCE, 'fireact')).toThrow(
      /not a FireAct trajectory file/,
    );
    expect(() => convertFireActTrajectories(`"${'x'.repeat(MAX_LOG_CHARS)}"`, SOURCE, 'fireact')).toThrow(
      /longer than/,
    );
  });

  it('converts any JSON object without throwing, one uniquely named run at most per entry', () => {
    const traj = fc.oneof(
      fc.string(),
      fc.array(
        fc.record({
          role: fc.constantFrom('user', 'assistant', 'system'),
          content: fc.oneof(fc.string(), fc.jsonValue()),
        }),
      ),
      fc.jsonValue(),
    );
    const entry = fc.oneof(fc.record({ traj, reward: fc.boolean() }), fc.jsonValue());
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), entry, { maxKeys: 8 }), (file) => {
        const runs = convertFireActTrajectories(JSON.stringify(file), SOURCE, 'fireact');
        expect(runs.length).toBeLessThanOrEqual(Object.keys(file).length);
        for (const run of runs) expect(run.events[0]?.type).toBe('meta');
      }),
    );
  });
});
