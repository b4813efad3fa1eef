import { describe, expect, it } from 'vitest';
import { isSweep, labelRun, shellChanges, shellProgram } from '../../scripts/corpus/label.js';
import type { CallEvent, TraceEvent, TraceResult } from '../../src/trace/types.js';

function call(
  tool: string,
  args: Record<string, unknown>,
  result: TraceResult,
  extra: Partial<CallEvent> = {},
): CallEvent {
  return { type: 'call', tool, args, result, ...extra };
}
const ok = (content: string): TraceResult => ({ content });
const fail = (content: string): TraceResult => ({ isError: true, content });
const bash = (command: string, result: TraceResult, extra: Partial<CallEvent> = {}) =>
  call('Bash', { command }, result, extra);
const wastedSteps = (events: TraceEvent[]) =>
  labelRun('run.jsonl', events).justified.map((item) => item.step);

const PYTEST_FAILS = fail(
  'Exit code 1\n============================= test session starts ==============================\ncollected 12 items\n\ntests/test_api.py F\n\nFAILED tests/test_api.py::test_create - AssertionError: assert 500 == 201\n========================= 1 failed, 11 passed in 0.84s =========================',
);

describe('rule 1: the same call, the same outcome, nothing changed', () => {
  it('labels a test run that fails again the same way with nothing edited in between', () => {
    const events = [
      bash('pytest tests/test_api.py', PYTEST_FAILS),
      bash('pytest tests/test_api.py', PYTEST_FAILS),
    ];
    expect(labelRun('run.jsonl', events).justified).toMatchObject([{ step: 2, rule: 1, like: 1 }]);
  });

  it('does not label a test run repeated after a successful edit', () => {
    const events = [
      bash('pytest tests/test_api.py', PYTEST_FAILS),
      call(
        'Edit',
        { file_path: '/repo/app/api.py', old_string: 'return 500', new_string: 'return 201' },
        ok('The file /repo/app/api.py has been updated.'),
      ),
      bash('pytest tests/test_api.py', PYTEST_FAILS),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('treats results that differ only in durations and clock times as the same result', () => {
    const events = [
      bash('git status --short', ok('M app/api.py\nfinished at 2026-11-28T21:30:01Z in 0.12s')),
      bash('git status --short', ok('M app/api.py\nfinished at 2026-11-28T21:30:09Z in 0.31s')),
    ];
    expect(wastedSteps(events)).toEqual([2]);
  });

  it('treats a failure naming a file with backslashes as the failure naming it with slashes', () => {
    const edit = { path: 'Assets/Scripts/Core/ItemData.cs', search: 'namespace Game.Core', replace: '' };
    const noMatch = (path: string) =>
      fail(`## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in ${path}`);
    const events = [
      call('edit_file', edit, noMatch('Assets/Scripts/Core/ItemData.cs')),
      call('edit_file', edit, noMatch('Assets\\Scripts\\Core\\ItemData.cs')),
    ];
    expect(wastedSteps(events)).toEqual([2]);
  });

  it('treats an edit whose path is written with the other slashes as the same edit', () => {
    const block = { search: 'namespace Game.Core', replace: '' };
    const noMatch = fail(
      '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in Assets\\Scripts\\Core\\ItemData.cs',
    );
    const events = [
      call('edit_file', { path: 'Assets/Scripts/Core/ItemData.cs', ...block }, noMatch),
      call('edit_file', { path: 'Assets\\Scripts\\Core\\ItemData.cs', ...block }, noMatch),
    ];
    expect(labelRun('run.jsonl', events).justified).toMatchObject([{ step: 2, rule: 1, like: 1 }]);
  });

  it('treats a command retried with a rewritten description as the same call', () => {
    const notRepo = fail(
      'Exit code 128\nfatal: not a git repository (or any of the parent directories): .git',
    );
    const events = [
      call('Bash', { command: 'git status', description: 'Show the working tree status' }, notRepo),
      call(
        'Bash',
        { command: 'git status', description: 'Check git status in the project directory' },
        notRepo,
      ),
    ];
    expect(labelRun('run.jsonl', events).justified).toMatchObject([{ step: 2, rule: 1, like: 1 }]);
  });

  it('treats a file read again with another explanation as the same call', () => {
    const content = ok('{\n  "name": "web",\n  "private": true\n}');
    const events = [
      call('read_file', { target_file: 'package.json', explanation: 'Look at the scripts' }, content),
      call('read_file', { target_file: 'package.json', explanation: 'Check the package name' }, content),
    ];
    expect(wastedSteps(events)).toEqual([2]);
  });

  it('keeps a description that is the only argument of a call as what the call asks', () => {
    const created = ok('Created task 12');
    const events = [
      call('create_task', { description: 'Write the release notes' }, created),
      call('create_task', { description: 'Update the changelog' }, created),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('treats results that differ only in a commit hash as the same result', () => {
    const events = [
      bash('git log -1 --oneline', ok('3f9c2a1 Fix the payment total')),
      bash('git log -1 --oneline', ok('8be04d7 Fix the payment total')),
    ];
    expect(wastedSteps(events)).toEqual([2]);
  });

  it('treats failures that differ only in a short hex byte as failing the same way', () => {
    const decode = (byte: string) =>
      fail(
        `Traceback (most recent call last):\n  File "/ctf/solve.py", line 45, in <module>\n    print(f"Flag: {flag.decode()}")\nUnicodeDecodeError: 'utf-8' codec can't decode byte ${byte} in position 0: invalid start byte`,
      );
    const events = [bash('python3 solve.py', decode('0x90')), bash('python3 solve.py', decode('0xff'))];
    expect(wastedSteps(events)).toEqual([2]);
  });

  it('does not label a debugger step whose program counter moved', () => {
    const events = [
      bash('debug_step', ok('0x0000555555400f50 in go() ()')),
      bash('debug_step', ok('0x0000555555400f59 in go() ()')),
      bash('debug_step', ok('0x0000555555400f5d in go() ()')),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('treats a program stopped at one place under randomised addresses as the same result', () => {
    const stopped = (address: string) =>
      ok(
        `Interactive session gdb stopped successfully\nReading symbols from /ctf/bard...\nStarting program: /ctf/bard\nwarning: Error disabling address space randomization: Operation not permitted\n\nProgram stopped.\n${address} in _start () from /lib64/ld-linux-x86-64.so.2`,
      );
    const events = [
      bash('debug_stop\ndebug_start bard', stopped('0x00007f1a68d00290')),
      bash('debug_stop\ndebug_start bard', stopped('0x00007f4d4ebe3290')),
    ];
    expect(wastedSteps(events)).toEqual([2]);
  });

  it('does not label a paced poll, a status check after a sleep', () => {
    const running = ok('{"status": "running"}');
    const events = [
      bash('gh run view 1234 --json status', running),
      bash('sleep 60', ok('')),
      bash('gh run view 1234 --json status', running),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label a retry after the agent read the file the error named', () => {
    const missing = fail(
      '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
    );
    const write = { file_path: '/repo/README.md', content: '# Project\n' };
    const events = [
      call('Write', write, missing),
      call('Read', { file_path: '/repo/README.md' }, ok('     1→# Old title')),
      call('Write', write, missing),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label an edit retried after reading the file, when the error said to read it again', () => {
    const modified = fail(
      'File has been unexpectedly modified. Read it again before attempting to write it.',
    );
    const edit = { file_path: 'C:/app/docker-compose.yml', old_string: '    profiles:\n', new_string: '' };
    const events = [
      call('Edit', edit, modified),
      call('Read', { file_path: 'C:/app/docker-compose.yml' }, ok("     1→version: '3.8'")),
      call('Edit', edit, modified),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not count calls issued together in one turn as repeats of each other', () => {
    const sibling = fail('<tool_use_error>Sibling tool call errored</tool_use_error>');
    const events = [
      call('Read', { file_path: '/repo/a.ts' }, sibling, { turn: 'm1' }),
      call('Read', { file_path: '/repo/a.ts' }, sibling, { turn: 'm1' }),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label a test run repeated after edits whose answers the recording did not keep', () => {
    // A saved editor chat shows each edit but not what the editor answered: every edit answers nothing.
    const e2e = fail(
      '> web@1.0.0 test:e2e\n> playwright test tests/chat.spec.ts:50\n\nRunning 1 test using 1 worker\n    Error: expect(received).toBeTruthy()\n  1 failed',
    );
    const run = () =>
      call('run_terminal_cmd', { command: 'cd web && npm run test:e2e -- tests/chat.spec.ts:50' }, e2e);
    const edit = (line: number) =>
      call(
        'edit_file',
        { target_file: 'web/tests/chat.spec.ts', code_edit: `@@ -${line},4 +${line},8 @@` },
        ok(''),
      );
    const events = [run(), edit(49), run(), edit(55), run(), edit(71), run()];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('ignores a note repeated to a scratchpad tool that answers every call with nothing', () => {
    const thought = { thought: 'The payment must add up to the total price.' };
    const events = [call('think', thought, ok('')), call('think', thought, ok(''))];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('labels a question with no arguments answered blank again with nothing changed', () => {
    // A text game's `goal` that printed nothing every time it was asked.
    const events = [call('goal', {}, ok('')), call('goal', {}, ok('')), call('goal', {}, ok(''))];
    expect(wastedSteps(events)).toEqual([2, 3]);
  });

  it('does not label a question with no arguments asked again after a move', () => {
    const events = [
      call('goal', {}, ok('')),
      call('go', { input: 'east' }, ok('-= Kitchen =-\nYou find yourself in a kitchen.')),
      call('goal', {}, ok('')),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('counts an edit whose answer the recording did not keep as a change, not as a scratchpad', () => {
    const run = { command: 'npm run test:e2e -- tests/e2e/chat.spec.ts:50' };
    const failing = fail(
      '> playwright test tests/e2e/chat.spec.ts:50\n  1 failed\n    Error: expect(received).toBeTruthy()',
    );
    const edit = (line: number) =>
      call(
        'edit_file',
        { target_file: 'web/tests/e2e/chat.spec.ts', code_edit: `@@ -${line},4 +${line},6 @@` },
        ok(''),
      );
    const events = [
      call('run_terminal_cmd', run, failing),
      edit(55),
      call('run_terminal_cmd', run, failing),
      edit(74),
      call('run_terminal_cmd', run, failing),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });
});

describe('rule 1 for changes: a change repeated with the same answer changed nothing', () => {
  const window = ok(
    '[File: /django__django/reproduce.py (80 lines total)]\n64:    filter_conditions = Q(id=1) | Q(ab_a__a=1)',
  );
  const edit = { lines: '64:64', replacement: '    filter_conditions = Q(id=1) | Q(ab_a__a=1)' };
  const traceback = fail(
    'Traceback (most recent call last):\n  File "reproduce.py", line 70\nFieldError: Cannot resolve keyword',
  );

  it('labels an edit repeated with the same window of the file right after the identical edit', () => {
    const events = [call('edit', edit, window), call('edit', edit, window), call('edit', edit, window)];
    expect(labelRun('run.jsonl', events).justified).toMatchObject([
      { step: 2, rule: 1, like: 1 },
      { step: 3, rule: 1, like: 2 },
    ]);
  });

  it('labels the run of a script after an edit that changed nothing, and the edit itself', () => {
    const events = [
      call('edit', edit, window),
      bash('python reproduce.py', traceback),
      call('edit', edit, window),
      bash('python reproduce.py', traceback),
    ];
    expect(wastedSteps(events)).toEqual([3, 4]);
  });

  it('does not label an edit repeated after another change, or one whose answer differs', () => {
    const other = { lines: '70:70', replacement: 'print(queryset)' };
    const grown = ok(
      '[File: /django__django/reproduce.py (81 lines total)]\n64:    filter_conditions = Q(id=1) | Q(ab_a__a=1)',
    );
    const events = [
      call('edit', edit, window),
      call('edit', other, ok('[File: /django__django/reproduce.py (80 lines total)]\n70:print(queryset)')),
      call('edit', edit, window),
      call('edit', edit, grown),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label a change that answers nothing, since nothing shows it changed nothing', () => {
    const events = [
      bash('echo "DEBUG = True" >> settings.py', ok('')),
      bash('echo "DEBUG = True" >> settings.py', ok('')),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });
});

describe('navigation', () => {
  const page = (title: string) => ok(`[Back to Search]\n[< Prev]\n${title}\nPrice: $9.98\n[Buy Now]`);

  it('does not label a page opened again after navigating elsewhere', () => {
    const events = [
      call('click', { input: 'B08H5DCD65' }, page('Corn Wave Ponytail Extension')),
      call('click', { input: '< Prev' }, ok('[Back to Search]\nPage 1 (Total results: 50)\n[B08H5DCD65]')),
      call('click', { input: 'B08H5DCD65' }, page('Corn Wave Ponytail Extension')),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label a command retried in a text world after the agent picked something up', () => {
    const nothing = fail('Nothing happens.');
    const events = [
      call('put', { input: 'mug 1 in/on desk 1' }, nothing),
      call('take', { input: 'mug 1 from shelf 2' }, ok('You pick up the mug 1 from the shelf 2.')),
      call('put', { input: 'mug 1 in/on desk 1' }, nothing),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label a command retried in a household simulator after the agent picked something up', () => {
    const dropped = fail('You put down failed, drop it. You see Shelf (1, 3), Mug (1), Desk (1).');
    const events = [
      call('put', { input: 'Mug (1) on Desk (1)' }, dropped),
      call(
        'pick_up',
        { input: 'Mug (1)' },
        ok('You pick up Mug (1). You see Shelf (1, 3), Mug (1). I am holding Mug (1) now.'),
      ),
      call('put', { input: 'Mug (1) on Desk (1)' }, dropped),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label a lamp switched off again after the agent switched it on', () => {
    const lamp = fail('The DeskLamp (1) is not close to you.');
    const events = [
      call('turn_off', { input: 'DeskLamp (1)' }, lamp),
      call(
        'turn_on',
        { input: 'DeskLamp (1)' },
        ok('You turn on DeskLamp (1). You see Dresser (1), DeskLamp (1).'),
      ),
      call('turn_off', { input: 'DeskLamp (1)' }, lamp),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label a crafting command repeated after an item was got from the world', () => {
    const crafted = ok('Crafted 4 minecraft:birch_planks');
    const events = [
      call('craft', { input: '4 birch planks using 1 birch log' }, crafted),
      call('get', { input: '1 birch log' }, ok('Got 1 birch log')),
      call('craft', { input: '4 birch planks using 1 birch log' }, crafted),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label a thing looked for again in the room the player walked into', () => {
    const missing = fail("You can't see any such thing.");
    const events = [
      call('examine', { input: 'cookbook' }, missing),
      call('go', { input: 'south' }, ok('-= Street =-\nThere is an open sliding door leading north.')),
      call('examine', { input: 'cookbook' }, missing),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label a place visited again after going elsewhere', () => {
    const drawer = ok('You arrive at the location. The drawer 1 is closed.');
    const events = [
      call('go_to', { input: 'drawer 1' }, drawer),
      call(
        'go_to',
        { input: 'shelf 1' },
        ok('You arrive at the location. On the shelf 1, you see a cellphone 1.'),
      ),
      call('go_to', { input: 'drawer 1' }, drawer),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('labels a failing click repeated around a click that only repeats itself', () => {
    const clicked = ok('You have clicked red.');
    const invalid = fail('Invalid action!');
    const events = [
      call('click', { input: 'red' }, clicked),
      call('click', { input: '3 foot' }, invalid),
      call('click', { input: 'red' }, clicked),
      call('click', { input: '3 foot' }, invalid),
    ];
    expect(labelRun('run.jsonl', events).justified).toMatchObject([
      { step: 3, rule: 1, like: 1 },
      { step: 4, rule: 1, like: 2 },
    ]);
  });
});

describe('tools the rules do not know by name', () => {
  const frame = ok('Screenshot generated for node: 4Fq2x. Check it for visual errors.');

  it('takes a tool that names a file it acts on, and does not say it only reads, for a change', () => {
    const events = [
      call('mcp__sketchpad__get_node_image', { filePath: 'designs/app.sketch', nodeId: '4Fq2x' }, frame),
      call(
        'mcp__sketchpad__run_operations',
        { filePath: 'designs/app.sketch', operations: 'U("4Fq2x", {placeholder: false})' },
        ok('# Successfully executed all operations.\n- Updated properties of node `4Fq2x`'),
      ),
      call('mcp__sketchpad__get_node_image', { filePath: 'designs/app.sketch', nodeId: '4Fq2x' }, frame),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not take a tool that fetches a file for a change', () => {
    const events = [
      bash('pytest tests/test_api.py', PYTEST_FAILS),
      call(
        'codex_apps__gitlab_fetch_file',
        { project: 'shop/api', ref: 'main', path: 'app/api.py' },
        ok('def create():\n    return 500\n'),
      ),
      bash('pytest tests/test_api.py', PYTEST_FAILS),
    ];
    expect(wastedSteps(events)).toEqual([3]);
  });
});

describe('rule 2: the same tool failing the same way on the same target', () => {
  it('labels another failing replacement in one file even when the text to replace differs', () => {
    const notFound = (text: string) =>
      fail(
        `ERROR:\nNo replacement was performed, old_str \`${text}\` did not appear verbatim in /workspace/src/match.c.`,
      );
    const events = [
      call(
        'str_replace_editor',
        { command: 'str_replace', path: '/workspace/src/match.c', old_str: 'case TK_A:\n  return x;' },
        notFound('case TK_A:\n  return x;'),
      ),
      call(
        'str_replace_editor',
        { command: 'view', path: '/workspace/src/match.c' },
        ok('   1\t#include "match.h"'),
      ),
      call(
        'str_replace_editor',
        { command: 'str_replace', path: '/workspace/src/match.c', old_str: 'case TK_B:' },
        notFound('case TK_B:'),
      ),
    ];
    expect(labelRun('run.jsonl', events).justified).toMatchObject([{ step: 3, rule: 2, like: 1 }]);
  });

  it('does not label a fetch of another path of one repository answered 404 like the path before it', () => {
    const fetchFile = (path: string) =>
      call(
        'mcp__codex_apps__github_fetch_file',
        { repository_full_name: 'RehealthAI/backend', path, encoding: 'utf-8' },
        fail(
          `Wall time: 2.1997 seconds\nOutput:\n{"error":"GitHub API error 404: {\\"message\\":\\"Not Found\\",\\"documentation_url\\":\\"https://docs.github.com/rest/repos/contents#get-repository-content\\",\\"status\\":\\"404\\"}"}`,
        ),
      );
    const events = [fetchFile('package.json'), fetchFile('pyproject.toml'), fetchFile('pom.xml')];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('labels another read of one path of one repository failing alike, whatever lines it asks for', () => {
    const notFound = fail(
      'Wall time: 2.1137 seconds\nOutput:\n{"error":"GitHub API error 404: {\\"message\\":\\"Not Found\\"}"}',
    );
    const path = { repository_full_name: 'RehealthAI/rehealth-android', path: 'api/routers/pias_v2.py' };
    const events = [
      call('mcp__codex_apps__github_fetch_file', { ...path, encoding: 'utf-8' }, notFound),
      call(
        'mcp__codex_apps__github_fetch_file',
        { ...path, encoding: 'utf-8', start_line: 1, end_line: 320 },
        notFound,
      ),
    ];
    expect(labelRun('run.jsonl', events).justified).toMatchObject([{ step: 2, rule: 2, like: 1 }]);
  });

  it('keeps the services of an API apart: cancelling one reservation does not change a flight search', () => {
    const search = { origin: 'ORD', destination: 'PHL', date: '2024-05-10' };
    const events = [
      call('search_direct_flight', search, ok('[]')),
      call(
        'cancel_reservation',
        { reservation_id: 'S61CZX' },
        ok('{"reservation_id": "S61CZX", "status": "cancelled"}'),
      ),
      call('search_direct_flight', search, ok('[]')),
    ];
    expect(wastedSteps(events)).toEqual([3]);
  });
});

describe('rule 3: guessing', () => {
  const guesses = [
    'config.yaml',
    'config.yml',
    'conf/config.yaml',
    'settings/config.yaml',
    'app/config.yaml',
  ].map((path) => bash(`cat ${path}`, fail(`Exit code 1\ncat: ${path}: No such file or directory`)));

  it('labels the fifth failing guess of one program with one error shape', () => {
    expect(labelRun('run.jsonl', guesses).justified).toMatchObject([{ step: 5, rule: 3, like: 1 }]);
  });

  it('does not label four guesses', () => {
    expect(wastedSteps(guesses.slice(0, 4))).toEqual([]);
  });

  it('leaves edits out, however many fail with one shape', () => {
    const edits = ['a', 'b', 'c', 'd', 'e'].map((text) =>
      call(
        'Edit',
        { file_path: '/repo/app.py', old_string: `value = ${text}`, new_string: 'value = 1' },
        fail('<tool_use_error>String to replace not found in file.</tool_use_error>'),
      ),
    );
    expect(labelRun('run.jsonl', edits).justified.filter((item) => item.rule === 3)).toEqual([]);
  });
});

describe('rule 4: reworded requests that keep coming back empty', () => {
  it('labels the fourth empty answer to reworded queries', () => {
    const queries = ['refund policy', 'Refund Policy', 'refunds', 'money back policy'];
    const events = queries.map((query) => call('search_articles', { query }, ok('[]')));
    expect(labelRun('run.jsonl', events).justified).toMatchObject([{ step: 4, rule: 4, like: 1 }]);
  });

  it('does not label keys typed into the panes of a terminal, which answer nothing when they work', () => {
    const silent = ok('');
    const events = [
      bash('ls src', ok('monitor.py\nprocess_data.py')),
      bash('tmux new-session -d -s workflow', silent),
      bash('tmux split-window -h -t workflow', silent),
      bash('tmux split-window -v -t workflow', silent),
      bash("tmux send-keys -t workflow:0.0 'python src/monitor.py' Enter", silent),
      bash("tmux send-keys -t workflow:0.1 'vim src/process_data.py' Enter", silent),
      bash("tmux send-keys -t workflow:0.1 ':wq' Enter", silent),
    ];
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label a sweep of dates', () => {
    const dates = ['2024-05-10', '2024-05-11', '2024-05-12', '2024-05-13'];
    const events = dates.map((date) =>
      call('search_direct_flight', { origin: 'ORD', destination: 'PHL', date }, ok('[]')),
    );
    expect(wastedSteps(events)).toEqual([]);
  });

  it('does not label code searches for different patterns', () => {
    const patterns = ['useSession', 'sessionStore', 'SessionProvider', 'getSession'];
    const events = patterns.map((pattern) => call('Grep', { pattern, path: 'src' }, ok('No matches found')));
    expect(wastedSteps(events)).toEqual([]);
  });
});

describe('loops', () => {
  it('makes a loop of four wasted calls of one tool and starts it at the call they repeat', () => {
    const events = Array.from({ length: 5 }, () =>
      bash('npm run build', fail('Exit code 2\nsrc/index.ts(3,1): error TS2304')),
    );
    expect(labelRun('run.jsonl', events).loops).toMatchObject([{ start: 1, end: 5, wasted: [2, 3, 4, 5] }]);
  });

  it('does not join wasted calls more than six calls apart', () => {
    const failing = () => bash('npm run build', fail('Exit code 2\nsrc/index.ts(3,1): error TS2304'));
    const reads = Array.from({ length: 7 }, (_, index) =>
      call('Read', { file_path: `/repo/src/f${index}.ts` }, ok('x')),
    );
    const events = [failing(), failing(), failing(), ...reads, failing(), failing()];
    expect(labelRun('run.jsonl', events).loops).toEqual([]);
  });
});

describe('shell commands', () => {
  it('names a command by its program and subcommand, past cd, variables and wrappers', () => {
    expect(shellProgram('cd /testbed && CI=1 timeout 60 npm run test -- --watch=false')).toBe('npm run');
    expect(shellProgram('python -m pytest tests/ -x')).toBe('python -m pytest');
    expect(shellProgram('ls -la src')).toBe('ls');
  });

  it('sees the commands that change files, the repository or packages', () => {
    expect(shellChanges("sed -i 's/old/new/' app.py")).toBe(true);
    expect(shellChanges('echo "x = 1" > settings.py')).toBe(true);
    expect(shellChanges('git checkout -- app.py')).toBe(true);
    expect(shellChanges('pip install -e .')).toBe(true);
  });

  it('sees the commands that act on running programs, and not those that ask about them', () => {
    expect(shellChanges("tmux send-keys -t workflow:0.1 'python process_data.py' Enter")).toBe(true);
    expect(shellChanges('tmux -S /tmp/dev.sock split-window -h -t workflow')).toBe(true);
    expect(shellChanges('pkill -f "uvicorn app:main"')).toBe(true);
    expect(shellChanges('sudo systemctl restart nginx')).toBe(true);
    expect(shellChanges('docker compose -f docker/supabase.yml up -d 2>&1')).toBe(true);
    expect(shellChanges('tmux capture-pane -p -t workflow:0.1')).toBe(false);
    expect(shellChanges('tmux list-panes -t new')).toBe(false);
    expect(shellChanges('systemctl status nginx')).toBe(false);
    expect(shellChanges('docker compose ps')).toBe(false);
  });

  it('reads a `>` inside quotes as no redirection, unless a shell runs the quoted text', () => {
    expect(shellChanges("awk '$5 > 1000 {print $9}' access.log")).toBe(false);
    expect(shellChanges('python3 -c "print(0x41 >> 1)"')).toBe(false);
    expect(shellChanges('grep "=> " src/app.ts | head')).toBe(false);
    expect(shellChanges("awk '$5 > 1000' access.log > big.txt")).toBe(true);
    expect(shellChanges('bash -c "echo ready > /tmp/flag"')).toBe(true);
  });

  it('sees a patch applied through the shell as a change, as Codex gives its patches', () => {
    const patch =
      'apply_patch <<\'PATCH\'\n*** Begin Patch\n*** Update File: internal/auth/service_test.go\n@@\n-import "testing"\n+import (\n+    "testing"\n+)\n*** End Patch\nPATCH';
    expect(shellChanges(patch)).toBe(true);
  });

  it('takes a formatter run again on a file a patch changed in between for no repeat', () => {
    const gofmt = {
      command: 'gofmt -w internal/auth/service_test.go',
      workdir: '/home/arnaud/project/lms-go',
    };
    const patch = (body: string) => ({
      command: `apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: internal/auth/service_test.go\n@@\n${body}\n*** End Patch\nPATCH`,
      workdir: '/home/arnaud/project/lms-go',
    });
    const patched = { content: 'Success. Updated the following files:\nM internal/auth/service_test.go\n' };
    const events: TraceEvent[] = [
      { type: 'call', tool: 'shell', args: patch('-a := 1\n+a := 2'), result: patched },
      { type: 'call', tool: 'shell', args: gofmt, result: { content: '' } },
      { type: 'call', tool: 'shell', args: patch('-a := 2\n+a := 3'), result: patched },
      { type: 'call', tool: 'shell', args: gofmt, result: { content: '' } },
      { type: 'call', tool: 'shell', args: patch('-a := 3\n+a := 4'), result: patched },
      { type: 'call', tool: 'shell', args: gofmt, result: { content: '' } },
    ];
    expect(labelRun('codex-format.jsonl', events).justified).toEqual([]);
  });

  it('sees a PowerShell line that writes, copies, moves or removes files as a change, and one that only reads as none', () => {
    expect(
      shellChanges(
        "powershell.exe -NoLogo -Command $text = '#include \"pch.h\"'; Set-Content -Path 'App/pch.cpp' -Value $text",
      ),
    ).toBe(true);
    expect(
      shellChanges("powershell.exe -Command New-Item -ItemType Directory -Path 'App/res' -Force | Out-Null"),
    ).toBe(true);
    expect(shellChanges("pwsh -c 'Get-Content -Raw -Path lab/common.psm1 | Out-File lab/copy.psm1'")).toBe(
      true,
    );
    expect(shellChanges("powershell.exe -NoLogo -Command Get-Content -Path 'App/MfcHarness.sln'")).toBe(
      false,
    );
  });

  it('takes a line whose every command is commented out for no change, whatever the comment says', () => {
    const flattened =
      "# Let's write a python script to decode it.  echo \"print(open('flag.enc').read())\" > decode.py  python3 decode.py";
    expect(shellChanges(flattened)).toBe(false);
    expect(shellChanges('ls -la  # then: rm -rf build')).toBe(false);
    expect(shellChanges('# write the script\necho "print(1)" > decode.py')).toBe(true);
    expect(shellChanges('echo "#1 result" > notes.txt')).toBe(true);
  });

  it('labels a failing run repeated after a comment line as wasted: the comment ran nothing', () => {
    const missing = fail("python3: can't open file '/ctf/86/decode.py': [Errno 2] No such file or directory");
    const events = [
      bash('python3 decode.py', missing),
      bash('# The script failed. Write it again.  echo "print(42)" > decode.py', ok('')),
      bash('python3 decode.py', missing),
    ];
    expect(wastedSteps(events)).toEqual([3]);
  });

  it('does not take a redirection of errors or a test run for a change', () => {
    expect(shellChanges('cd /testbed && python -m pytest tests 2>&1 | tail -20')).toBe(false);
    expect(shellChanges('grep -rn "def save" src >/dev/null')).toBe(false);
  });

  it('tells a sweep (one field stepping one way) from reworded requests', () => {
    const page = (n: number) => call('list_orders', { user: 'ana', page: n }, ok('[]'));
    expect(isSweep([page(1), page(2), page(3)])).toBe(true);
    expect(isSweep([page(3), page(1), page(2)])).toBe(false);
  });
});
