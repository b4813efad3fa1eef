import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertMintResults,
  mintCall,
  mintObservation,
  mintSetting,
} from '../../scripts/corpus/convert-mint.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const PATH = 'data/outputs/claude-2/F=None/max5_p2+tool+cd/reasoning/theoremqa/results.jsonl';
const SOURCE = pinnedSource({
  path: PATH,
  licence: 'Apache-2.0',
  agent: 'MINT agent',
});

const TASK = {
  task: { task_name: 'reasoning', task_id: 38, prompt: 'Use Simpson rule with n=8.' },
  state: {
    history: [
      {
        role: 'user',
        content: 'Use <execute> to run code, e.g. <execute> print("Hello World!") </execute>. Task: …',
      },
      {
        role: 'assistant',
        content:
          '<thought>Integrate.</thought>\n<execute>\nimport numpy as np\nprint(np.cos(1))\n</execute>\n',
      },
      {
        role: 'user',
        content:
          'Observation:\n0.5403023058681398\nYou have 4 steps left and 2 chances to propose solution left.\n',
      },
      { role: 'assistant', content: '<execute>\nprint(undefined_name)\n</execute>' },
      {
        role: 'user',
        content:
          "Observation:\n---------------------------------------------------------------------------\nNameError                                 Traceback (most recent call last)\nNameError: name 'undefined_name' is not defined\nYou have 3 steps left and 2 chances to propose solution left.\n",
      },
      {
        role: 'assistant',
        content: '<execute>\nprint(1)\n</execute>\nSo the value is <solution>2.19</solution>',
      },
      {
        role: 'user',
        content:
          'Observation:\nYour answer is wrong.\nYou have 2 steps left and 1 chances to propose solution left.\n',
      },
      { role: 'assistant', content: 'I am not sure.' },
      {
        role: 'user',
        content:
          "Observation:\nI don't understand your input.\nYou have 1 steps left and 1 chances to propose solution left.\n",
      },
    ],
    latest_output: { content: 'Observation:\n0.5403023058681398\n' },
  },
};

describe('MINT results', () => {
  it('names the model and the task from the path', () => {
    expect(mintSetting(PATH)).toEqual({ model: 'claude-2', task: 'theoremqa' });
  });

  it('reads a proposed answer before code written in the same turn, as the harness does', () => {
    expect(mintCall('<execute>print(1)</execute> so <solution>2</solution>')).toEqual({
      tool: 'propose_solution',
      args: { answer: '2' },
    });
    expect(mintCall('<execute>\nprint(1)\n</execute>')).toEqual({
      tool: 'python',
      args: { code: 'print(1)' },
    });
    expect(mintCall('no tags')).toBeUndefined();
  });

  it('leaves out the lines the harness adds about the steps left', () => {
    expect(
      mintObservation(
        'Observation:\n42\nYou have 1 steps left and 1 chances to propose solution left.\nYou should take the last step to propose a solution.\n',
      ),
    ).toBe('42');
    expect(mintObservation('no observation')).toBeUndefined();
  });

  it('makes one run of each task, a traceback and a wrong answer failed, skipping turns that call nothing', () => {
    const runs = convertMintResults(`${JSON.stringify(TASK)}\n`, SOURCE, 'mint');
    expect(runs.map((run) => run.name)).toEqual(['mint-claude-2-theoremqa-38']);
    expect(
      callsOf(runs[0]?.events ?? []).map((call) => [
        call.tool,
        call.result?.isError === true,
        call.result?.content,
      ]),
    ).toEqual([
      ['python', false, '0.5403023058681398'],
      ['python', true, expect.stringContaining("NameError: name 'undefined_name' is not defined")],
      ['propose_solution', true, 'Your answer is wrong.'],
    ]);
  });

  it('leaves the answer that ended a task without a result rather than take the last observation for it', () => {
    const ended = { ...TASK, state: { ...TASK.state, history: TASK.state.history.slice(0, 6) } };
    const calls = callsOf(convertMintResults(JSON.stringify(ended), SOURCE, 'mint')[0]?.events ?? []);
    expect(calls.at(-1)).toEqual({ type: 'call', tool: 'propose_solution', args: { answer: '2.19' } });
  });

  it('refuses a file whose lines are not JSON', () => {
    expect(() => convertMintResults('{"state":', SOURCE, 'mint')).toThrow(/not a MINT results file/);
  });

  it('converts any JSON lines without throwing, each run named uniquely and opened by its meta event', () => {
    const turn = fc.record({
      role: fc.constantFrom('user', 'assistant'),
      content: fc.oneof(
        fc.constantFrom(
          '<execute>print(1)</execute>',
          '<solution>1</solution>',
          'Observation:\n1\n',
          'Observation:\nYour answer is wrong.',
        ),
        fc.string(),
      ),
    });
    const record = fc.oneof(
      fc.record({
        task: fc.record({ task_id: fc.nat(3) }),
        state: fc.record({ history: fc.array(turn, { maxLength: 8 }) }),
      }),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), (records) => {
        const runs = convertMintResults(
          records.map((item) => JSON.stringify(item)).join('\n'),
          SOURCE,
          'mint',
        );
        expect(new Set(runs.map((run) => run.name)).size).toBe(runs.length);
        for (const run of runs) expect(run.events[0]?.type).toBe('meta');
      }),
    );
  });
});
