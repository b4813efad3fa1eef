import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertNatTrajectories, natRunSet } from '../../scripts/corpus/convert-nat.js';
import { MAX_LOG_CHARS } from '../../scripts/corpus/convert-react.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const PATH = 'data/dataset/strategyqa/strategyqa_gpt-3.5_negative.json';
const SOURCE = pinnedSource({ path: PATH, licence: 'no licence file', agent: 'NAT ReAct agent' });

/** One run as the collected files hold it: chat messages, the environment's answers as user turns. */
const RUN = {
  conversations: [
    {
      role: 'assistant',
      content:
        'Thought: I should look up how many children Julius Caesar had.\n\nAction: search[Number of descendants of Julius Caesar]',
      loss: true,
    },
    {
      role: 'user',
      content:
        "Observation:  #1: The closest descendants are from Caesar's great nephew Augustus. #2: Caesar had 2 descendants.",
      loss: false,
    },
    {
      role: 'assistant',
      content: 'Thought: Search again.\n\nAction: search[Number of descendants of Julius Caesar]',
      loss: true,
    },
    {
      role: 'user',
      content:
        "Observation:  #1: The closest descendants are from Caesar's great nephew Augustus. #2: Caesar had 2 descendants.",
      loss: false,
    },
    { role: 'assistant', content: 'Thought: The sources disagree.\n\nAction: finish[Unclear]', loss: true },
    { role: 'user', content: 'Observation: Episode finished', loss: false },
  ],
  info: { reward: false, acc: false, gt: true, pred: 'Unclear' },
  id: 'b8677742616fef051f00',
  source: '0.2',
};

describe('NAT trajectories', () => {
  it('names the run set from the task and the outcome the file holds', () => {
    expect(natRunSet(PATH)).toBe('strategyqa-negative');
    expect(natRunSet('data/dataset/hotpotqa/hotpotqa_gpt-3.5_positive.json')).toBe('hotpotqa-positive');
  });

  it('makes one run of each entry, with each action answered by the observation after it', () => {
    const runs = convertNatTrajectories(JSON.stringify([RUN]), SOURCE, 'nat-strategyqa');
    expect(runs.map((run) => run.name)).toEqual(['nat-strategyqa-strategyqa-negative-0001']);
    const answer =
      "#1: The closest descendants are from Caesar's great nephew Augustus. #2: Caesar had 2 descendants.";
    expect(callsOf(runs[0]?.events ?? [])).toEqual([
      {
        type: 'call',
        tool: 'search',
        args: { input: 'Number of descendants of Julius Caesar' },
        result: { content: answer },
      },
      {
        type: 'call',
        tool: 'search',
        args: { input: 'Number of descendants of Julius Caesar' },
        result: { content: answer },
      },
      { type: 'call', tool: 'finish', args: { input: 'Unclear' }, result: { content: 'Episode finished' } },
    ]);
  });

  it('says in the run description which question, temperature and outcome the run had', () => {
    const [run] = convertNatTrajectories(JSON.stringify([RUN]), SOURCE, 'nat-strategyqa');
    const meta = run?.events[0];
    expect(meta?.type === 'meta' && meta.description).toContain(
      'question b8677742616fef051f00 at temperature 0.2 (incorrect)',
    );
  });

  it('refuses what is not a trajectory file, and a file too long to be one', () => {
    expect(() => convertNatTrajectories('{"a": 1}', SOURCE, 'nat')).toThrow(/not a NAT trajectory file/);
    expect(() => convertNatTrajectories(`"${'x'.repeat(MAX_LOG_CHARS)}"`, SOURCE, 'nat')).toThrow(
      /longer than/,
    );
  });

  it('converts any JSON array without throwing, one uniquely named run at most per entry', () => {
    const conversations = fc.oneof(
      fc.array(
        fc.record({
          role: fc.constantFrom('user', 'assistant', 'system'),
          content: fc.oneof(fc.string(), fc.constant('Action: search[x]'), fc.jsonValue()),
        }),
      ),
      fc.jsonValue(),
    );
    const entry = fc.oneof(
      fc.record({ conversations, id: fc.string(), source: fc.string() }),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (file) => {
        const runs = convertNatTrajectories(JSON.stringify(file), SOURCE, 'nat');
        expect(runs.length).toBeLessThanOrEqual(file.length);
        expect(new Set(runs.map((run) => run.name)).size).toBe(runs.length);
        for (const run of runs) expect(run.events[0]?.type).toBe('meta');
      }),
    );
  });
});
