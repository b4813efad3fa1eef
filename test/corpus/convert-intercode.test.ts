import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertInterCodeResults,
  interCodeCall,
  interCodeSetting,
} from '../../scripts/corpus/convert-intercode.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const PATH = 'data/results/sql/gpt-4/ic_sql_multiturn_gpt-4_10_turns.json';
const SOURCE = pinnedSource({
  path: PATH,
  licence: 'MIT',
  agent: 'InterCode SQL agent',
});

const SQL_TASK = {
  environment: 'ic_sql',
  task_id: 0,
  query:
    'What are the names of poker players, ordered ascending by the number of final tables they have made?',
  turn_history: {
    actions: ['SELECT player_name FROM poker_players ORDER BY final_tables ASC', 'SHOW TABLES'],
    observations: [
      "Error executing query: Table 'poker_player.poker_players' doesn't exist",
      "[('people',), ('poker_player',)]",
    ],
    rewards: [0, 0],
    valid_action: [false, true],
  },
  summary: { max_reward: 0, turns_taken: 2, turns_max: 10 },
};

const REACT_BASH_TASK = {
  environment: 'ic_bash',
  task_id: 1,
  query: 'Calculate md5 sum of the md5 sum of all the sorted files under /testbed/dir2/subdir2',
  turn_history: {
    thoughts: ['I can use md5sum.', 'I can submit.'],
    actions: ['execute[find /testbed/dir2/subdir2 -type f -exec md5sum {} + | sort | md5sum]', 'submit'],
    observations: ['414efca01c4c0d529526537d1070d41e  -\n', '414efca01c4c0d529526537d1070d41e  -\n'],
    valid_action: [true, true],
  },
};

describe('InterCode results', () => {
  it('names the setting from the file name', () => {
    expect(interCodeSetting(PATH)).toBe('sql_multiturn_gpt-4_10_turns');
  });

  it('makes one run of each task, each query answered by its observation, an invalid one failed', () => {
    const runs = convertInterCodeResults(JSON.stringify({ '0': SQL_TASK }), SOURCE, 'intercode-sql');
    expect(runs.map((run) => run.name)).toEqual(['intercode-sql-sql_multiturn_gpt-4_10_turns-task0']);
    expect(callsOf(runs[0]?.events ?? [])).toEqual([
      {
        type: 'call',
        tool: 'execute_sql',
        args: { query: 'SELECT player_name FROM poker_players ORDER BY final_tables ASC' },
        result: {
          isError: true,
          content: "Error executing query: Table 'poker_player.poker_players' doesn't exist",
        },
      },
      {
        type: 'call',
        tool: 'execute_sql',
        args: { query: 'SHOW TABLES' },
        result: { content: "[('people',), ('poker_player',)]" },
      },
    ]);
  });

  it('unwraps the ReAct prompting action and reads submit as its own tool', () => {
    expect(interCodeCall('ic_bash', 'execute[ls -la /testbed]')).toEqual({
      tool: 'bash',
      args: { command: 'ls -la /testbed' },
    });
    expect(interCodeCall('ic_ctf', 'submit picoCTF{flag}')).toEqual({
      tool: 'submit',
      args: { answer: 'picoCTF{flag}' },
    });
    const calls = callsOf(
      convertInterCodeResults(JSON.stringify([REACT_BASH_TASK]), SOURCE, 'intercode-bash')[0]?.events ?? [],
    );
    expect(calls.map((call) => call.tool)).toEqual(['bash', 'submit']);
  });

  it('refuses what is not a results file', () => {
    expect(() => convertInterCodeResults('"results"', SOURCE, 'intercode-sql')).toThrow(
      /not an InterCode results file/,
    );
  });

  it('converts any JSON without throwing, one uniquely named run at most per task', () => {
    const task = fc.oneof(
      fc.record({
        environment: fc.constantFrom('ic_bash', 'ic_sql', 'ic_ctf', 'other'),
        task_id: fc.oneof(fc.nat(), fc.string({ maxLength: 4 })),
        turn_history: fc.record({
          actions: fc.array(fc.oneof(fc.string(), fc.jsonValue()), { maxLength: 6 }),
          observations: fc.array(fc.oneof(fc.string(), fc.jsonValue()), { maxLength: 6 }),
          valid_action: fc.array(fc.oneof(fc.boolean(), fc.jsonValue()), { maxLength: 6 }),
        }),
      }),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(task, { maxLength: 6 }), (tasks) => {
        const runs = convertInterCodeResults(JSON.stringify(tasks), SOURCE, 'ic');
        expect(runs.length).toBeLessThanOrEqual(tasks.length);
        for (const run of runs) expect(run.events[0]?.type).toBe('meta');
      }),
    );
  });
});
