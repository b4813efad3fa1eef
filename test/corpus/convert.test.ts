import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertMiniSweAgent } from '../../scripts/corpus/convert-mini.js';
import { convertOpenHandsOutput } from '../../scripts/corpus/convert-openhands.js';
import { convertSweAgentTraj, parseAction } from '../../scripts/corpus/convert-swe-agent.js';
import { convertTauBench } from '../../scripts/corpus/convert-tau.js';
import type { CallEvent } from '../../src/trace/types.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'runs/run.json',
  licence: 'MIT',
  agent: 'test agent',
});

describe('SWE-agent actions', () => {
  it('reads an edit of the open file with its line range and replacement', () => {
    expect(parseAction('edit 307:307\nFILE_UPLOAD_PERMISSIONS = 0o644\nend_of_edit\n')).toEqual({
      tool: 'edit',
      args: { lines: '307:307', replacement: 'FILE_UPLOAD_PERMISSIONS = 0o644' },
    });
  });

  it('keeps the whole multi-line values of an editor call, so two different edits of one file stay different', () => {
    const action = (replacement: string) =>
      `str_replace_editor str_replace /testbed/edge_cases.py   --old_str 'print("\\nTesting")\npath = os.PathLike' --new_str '${replacement}'`;
    const first = parseAction(action('path = os.path.join'));
    expect(first).toEqual({
      tool: 'str_replace_editor',
      args: {
        command: 'str_replace',
        path: '/testbed/edge_cases.py',
        old_str: 'print("\\nTesting")\npath = os.PathLike',
        new_str: 'path = os.path.join',
      },
    });
    expect(parseAction(action(`it'"'"'s`)).args.new_str).toBe("it's");
    expect(parseAction(action('path = None'))).not.toEqual(first);
    expect(parseAction('str_replace_editor view /testbed/core.py --view_range 5234 5260').args).toEqual({
      command: 'view',
      path: '/testbed/core.py',
      view_range: '5234 5260',
    });
  });

  it('names the arguments of the interface commands and keeps anything else a shell command', () => {
    expect(parseAction('search_dir "FILE_UPLOAD_PERMISSIONS" django/conf\n')).toEqual({
      tool: 'search_dir',
      args: { search_term: 'FILE_UPLOAD_PERMISSIONS', dir: 'django/conf' },
    });
    expect(parseAction('open django/conf/global_settings.py 300')).toEqual({
      tool: 'open',
      args: { path: 'django/conf/global_settings.py', line_number: '300' },
    });
    expect(parseAction('python reproduce.py\n')).toEqual({
      tool: 'bash',
      args: { command: 'python reproduce.py' },
    });
  });

  it('converts a trajectory, marks failed observations and names the roles after the first', () => {
    const traj = {
      trajectory: [
        { action: 'plan\n{"entry": "Programmer"}\nend_of_plan\n', observation: 'The programmer fixed it.' },
        {
          action: 'open django/conf/global_settings.py\n',
          observation: '[File: /django/conf/global_settings.py (634 lines total)]',
        },
        {
          action: 'edit 307:307\nFILE_UPLOAD_PERMISSIONS = 0o644\nend_of_edit\n',
          observation:
            'Your proposed edit has introduced new syntax error(s). Please read this error message carefully.',
        },
      ],
      history: [
        { role: 'assistant', agent: 'Manager', action: 'plan\n{"entry": "Programmer"}\nend_of_plan\n' },
        { role: 'assistant', agent: 'Programmer', action: 'open django/conf/global_settings.py\n' },
        {
          role: 'assistant',
          agent: 'Programmer',
          action: 'edit 307:307\nFILE_UPLOAD_PERMISSIONS = 0o644\nend_of_edit\n',
        },
      ],
    };
    const calls = callsOf(
      convertSweAgentTraj(JSON.stringify(traj), SOURCE, 'coder-django-10914', 'run').events,
    );
    expect(calls.map((call) => [call.tool, call.agent, call.result?.isError ?? false])).toEqual([
      ['bash', undefined, false],
      ['open', 'Programmer', false],
      ['edit', 'Programmer', true],
    ]);
  });
});

describe('SWE-agent control words', () => {
  const roled = (steps: readonly (readonly [string, string, string?])[]) =>
    JSON.stringify({
      trajectory: steps.map(([, action, observation]) => ({ action, observation: observation ?? '' })),
      history: steps.map(([agent, action]) => ({ role: 'assistant', agent, action })),
    });

  it('ends a role at its succeed or fail, so the role sent the task again is a new instance, and ends the run at exit_cost', () => {
    const traj = roled([
      ['Manager', 'plan\n{"entry": "Reproducer"}\nend_of_plan\n', 'exit'],
      ['Programmer', 'python reproduce.py\n', 'Traceback (most recent call last):'],
      ['Programmer', 'succeed'],
      ['Tester', 'python reproduce.py\n', 'Traceback (most recent call last):'],
      ['Tester', 'fail'],
      ['Programmer', 'python reproduce.py\n', 'Traceback (most recent call last):'],
      ['Programmer', 'exit_cost'],
      ['Tester', 'python reproduce.py\n', 'ok'],
    ]);
    const calls = callsOf(convertSweAgentTraj(traj, SOURCE, 'coder-django-12589', 'run').events);
    expect(calls.map((call) => [call.args.command, call.agent])).toEqual([
      ['plan\n{"entry": "Reproducer"}\nend_of_plan', undefined],
      ['python reproduce.py', 'Programmer'],
      ['python reproduce.py', 'Tester'],
      ['python reproduce.py', 'Programmer 2'],
    ]);
  });

  it('keeps succeed a shell command in a run of one agent, where no role can end', () => {
    const traj = JSON.stringify({
      trajectory: [{ action: 'succeed', observation: 'bash: succeed: command not found' }],
      history: [],
    });
    const calls = callsOf(convertSweAgentTraj(traj, SOURCE, 'swe-agent-run', 'run').events);
    expect(calls.map((call) => [call.tool, call.args.command, call.result?.isError])).toEqual([
      ['bash', 'succeed', true],
    ]);
  });

  it('never turns a control word into a call, and gives two steps of a role one instance unless the role ended between them', () => {
    const action = fc.constantFrom(
      'ls\n',
      'python reproduce.py',
      'open a.py',
      'succeed',
      'fail',
      'exit_cost',
      'exit_context',
    );
    const role = fc.constantFrom('Manager', 'Reproducer', 'Programmer', 'Tester');
    const ends = (word: string) => /^(succeed|fail)$/.test(word);
    fc.assert(
      fc.property(fc.array(fc.tuple(role, action), { maxLength: 30 }), (steps) => {
        const calls = callsOf(convertSweAgentTraj(roled(steps), SOURCE, 'run', 'run').events);
        const stop = steps.findIndex(([, word]) => /^exit_/.test(word));
        const ran = stop < 0 ? steps : steps.slice(0, stop);
        const kept = ran.map((step, index) => ({ step, index })).filter(({ step: [, word] }) => !ends(word));
        expect(calls.map((call) => call.tool)).toEqual(
          kept.map(({ step: [, word] }) => parseAction(word).tool),
        );
        const main = steps[0]?.[0];
        const agentOf = (call: CallEvent) => call.agent ?? main;
        kept.forEach(({ step: [agent], index }, at) => {
          expect((agentOf(calls[at] as CallEvent) ?? '').replace(/ \d+$/, '')).toBe(agent);
          kept.slice(0, at).forEach(({ step: [other], index: earlier }, before) => {
            if (other !== agent) return;
            const endedBetween = ran.slice(earlier, index).some(([who, word]) => who === agent && ends(word));
            expect(agentOf(calls[before] as CallEvent) === agentOf(calls[at] as CallEvent)).toBe(
              !endedBetween,
            );
          });
        });
      }),
    );
  });
});

describe('mini-swe-agent trajectories', () => {
  it('takes a non-zero return code for a failure and the observation times for t', () => {
    const traj = {
      trajectory_format: 'mini-swe-agent-1.1',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Fix the issue.' },
        { role: 'assistant', content: null, extra: { actions: [{ command: 'ls testbed' }] } },
        {
          role: 'tool',
          content:
            "<returncode>2</returncode>\n<output>\nls: cannot access 'testbed': No such file or directory\n</output>",
          extra: { timestamp: 1773065157.5 },
        },
        { role: 'assistant', content: null, extra: { actions: [{ command: 'ls' }] } },
        {
          role: 'tool',
          content: '<returncode>0</returncode>\n<output>\nsetup.py\n</output>',
          extra: { timestamp: 1773065160 },
        },
      ],
    };
    const calls = callsOf(
      convertMiniSweAgent(JSON.stringify(traj), SOURCE, 'live-astropy-12907', 'run').events,
    );
    expect(calls).toEqual([
      {
        type: 'call',
        tool: 'bash',
        args: { command: 'ls testbed' },
        result: { isError: true, content: "ls: cannot access 'testbed': No such file or directory\n" },
        t: 0,
      },
      { type: 'call', tool: 'bash', args: { command: 'ls' }, result: { content: 'setup.py\n' }, t: 2.5 },
    ]);
  });
});

describe('tau-bench trajectories', () => {
  it('turns customer messages into user turns and "Error:" answers into failures', () => {
    const runs = [
      {
        task_id: 13,
        trial: 0,
        reward: 0,
        traj: [
          { role: 'system', content: 'Airline agent policy' },
          { role: 'user', content: 'Please change my flight.' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                function: { name: 'update_reservation_flights', arguments: '{"reservation_id": "XEWRD9"}' },
              },
            ],
          },
          {
            role: 'tool',
            tool_call_id: 'call_1',
            name: 'update_reservation_flights',
            content: 'Error: flight HAT030 not available',
          },
        ],
      },
    ];
    const [run] = convertTauBench(JSON.stringify(runs), SOURCE, 'tau-airline');
    expect(run?.name).toBe('tau-airline-task13-trial0');
    expect(run?.events.slice(1)).toEqual([
      { type: 'user', text: 'Please change my flight.' },
      {
        type: 'call',
        tool: 'update_reservation_flights',
        args: { reservation_id: 'XEWRD9' },
        id: 'call_1',
        result: { isError: true, content: 'Error: flight HAT030 not available' },
      },
    ]);
  });
});

describe('OpenHands output', () => {
  it('leaves the editor tool unpinned, so its view subcommand reads and its str_replace edits', () => {
    const run = {
      instance_id: 'ponylang__ponyc-4588',
      history: [
        {
          id: 3,
          source: 'agent',
          action: 'read',
          args: { command: 'view', path: '/workspace/src/match.c' },
          tool_call_metadata: { function_name: 'str_replace_editor', tool_call_id: 'toolu_01' },
        },
        { id: 4, source: 'agent', cause: 3, observation: 'read', content: '1\t#include "match.h"' },
      ],
    };
    const [converted] = convertOpenHandsOutput(`${JSON.stringify(run)}\n`, SOURCE, 'openhands');
    const meta = converted?.events[0];
    expect(meta?.type === 'meta' ? meta.tools : undefined).toContainEqual({ name: 'str_replace_editor' });
  });

  it('answers each action with the observation that names it as cause, failing on a non-zero exit code', () => {
    const run = {
      instance_id: 'ponylang__ponyc-4588',
      history: [
        { id: 0, source: 'agent', action: 'system', message: 'You are OpenHands agent' },
        {
          id: 5,
          source: 'agent',
          action: 'run',
          timestamp: '2025-04-30T16:32:57.000',
          args: { command: 'make test', thought: 'Run the tests' },
          tool_call_metadata: { function_name: 'execute_bash', tool_call_id: 'toolu_01' },
        },
        {
          id: 6,
          source: 'agent',
          cause: 5,
          observation: 'run',
          timestamp: '2025-04-30T16:33:07.500',
          content: 'make: *** [Makefile:192: build] Error 1',
          extras: { metadata: { exit_code: 2 } },
        },
      ],
    };
    const [converted] = convertOpenHandsOutput(`${JSON.stringify(run)}\n`, SOURCE, 'openhands');
    expect(callsOf(converted?.events ?? [])).toEqual([
      {
        type: 'call',
        tool: 'execute_bash',
        args: { command: 'make test' },
        t: 0,
        result: { isError: true, content: 'make: *** [Makefile:192: build] Error 1' },
      },
    ]);
  });

  it('reads the older runs that list bare actions and observations', () => {
    const run = {
      issue: { number: 1 },
      history: [
        { action: 'message', content: 'Please fix the following issue.' },
        { action: 'run', command: 'touch LICENSE', thought: 'Create the file.' },
        { observation: 'run', command: 'touch LICENSE', exit_code: 0, content: '' },
      ],
    };
    const [converted] = convertOpenHandsOutput(JSON.stringify(run), SOURCE, 'openhands-resolver');
    expect(converted?.name).toBe('openhands-resolver-issue-1');
    expect(callsOf(converted?.events ?? [])).toEqual([
      { type: 'call', tool: 'execute_bash', args: { command: 'touch LICENSE' }, result: { content: '' } },
    ]);
  });
});
