import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  claudeScreenArgs,
  convertClaudeScreen,
  namedArguments,
} from '../../scripts/corpus/convert-claude-screen.js';
import {
  convertGeminiScreen,
  editArgs,
  opensQuote,
  READ_NOT_SHOWN,
  shellArgs,
} from '../../scripts/corpus/convert-gemini-screen.js';
import { screenSessions } from '../../scripts/corpus/convert-screen.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'log/day-003.md',
  licence: 'MIT',
  agent: 'test agent',
});

/** A Claude Code session as a terminal shows it, written for this test. */
const CLAUDE_COPY = [
  'claude',
  '╭───────────────────────────────────────╮',
  '│ ✻ Welcome to Claude Code!             │',
  '╰───────────────────────────────────────╯',
  '',
  '> make the build pass',
  '',
  '⏺ I will run the build first.',
  '',
  '⏺ Bash(npm run build)',
  '  ⎿  Waiting…',
  '',
  "  ⎿  Error: src/index.ts(3,1): error TS2304: Cannot find name 'foo'.",
  '',
  '⏺ Read(src/index.ts)',
  '  ⎿  Read 12 lines (ctrl+r to expand)',
  '',
  '⏺ Update(src/index.ts)',
  '  ⎿  Updated src/index.ts with 1 addition and 1 removal',
  '     1  - foo();',
  '     1  + bar();',
  '',
  '⏺ Search(pattern: "foo\\(", path: "src")',
  '  ⎿  Found 0 files',
  '',
  '⏺ Bash(git commit -am "fix: call bar',
  '      instead of foo")',
  '  ⎿  User rejected tool use',
  '',
  '⏺ Call(Look around)…',
  '  ⎿  Bash(ls)…',
  '  ⎿  Done (1 tool use · 1.0s)',
  '',
  '> /compact',
  '  ⎿  Compacted.',
  '',
  '⏺ Bash(npm run build)',
  '  ⎿  > app@1.0.0 build',
  '     > tsc',
  '',
].join('\n');

/** A Gemini CLI session as a terminal shows it, written for this test. */
const GEMINI_COPY = [
  'gemini',
  '',
  'Tips for getting started:',
  '1. Ask questions, edit files, or run commands.',
  '',
  '╭──────────────────────╮',
  '│  > run the tests     │',
  '╰──────────────────────╯',
  '',
  ' ╭────────────────────────────────────────────────────────────╮',
  ' │ ✔  Shell npm test (Run the test suite.)                     │',
  ' │                                                            │',
  " │    Error: Cannot find module 'jest'                        │",
  ' ╰────────────────────────────────────────────────────────────╯',
  ' ╭────────────────────────────────────────────────────────────╮',
  ' │ ✔  ReadFile package.json                                    │',
  ' ╰────────────────────────────────────────────────────────────╯',
  ' ╭────────────────────────────────────────────────────────────╮',
  ' │ ✔  Shell git commit -m "test: add jest                      │',
  ' │                                                            │',
  ' │    so the suite runs" (Commit the change.)                  │',
  ' │                                                            │',
  ' │    [main 1a2b3c4] test: add jest                            │',
  ' ╰────────────────────────────────────────────────────────────╯',
  ' ╭────────────────────────────────────────────────────────────╮',
  ' │ ✔  Edit src/app.ts: const a = 1; => const a = 2;             │',
  ' │                                                            │',
  ' │    Error: Failed to edit, could not find the string to replace. │',
  ' ╰────────────────────────────────────────────────────────────╯',
  ' ╭────────────────────────────────────────────────────────────╮',
  ' │ -  Shell rm -rf node_modules (Remove the modules.)          │',
  ' ╰────────────────────────────────────────────────────────────╯',
  '',
  '> no, keep them',
  '',
].join('\n');

describe('terminal copies of agent sessions', () => {
  it('cuts a copy into sessions at each agent banner and says whose each one is', () => {
    const copy = `${CLAUDE_COPY}\n${GEMINI_COPY}\n${CLAUDE_COPY}`;
    expect(screenSessions(copy).map((session) => session.agent)).toEqual([
      undefined,
      'claude',
      'gemini',
      'claude',
    ]);
    expect(convertClaudeScreen(copy, SOURCE, 'cc-day-003').map((run) => run.name)).toEqual([
      'cc-day-003-1',
      'cc-day-003-2',
    ]);
    expect(convertGeminiScreen(copy, SOURCE, 'gm-day-003').map((run) => run.name)).toEqual(['gm-day-003-1']);
  });
});

describe('Claude Code terminal copies', () => {
  it('reads each call with its arguments and the answer under it, a failure when it starts with Error', () => {
    const [run] = convertClaudeScreen(CLAUDE_COPY, SOURCE, 'cc');
    expect(callsOf(run?.events ?? [])).toEqual([
      {
        type: 'call',
        tool: 'Bash',
        args: { command: 'npm run build' },
        result: { isError: true, content: "Error: src/index.ts(3,1): error TS2304: Cannot find name 'foo'." },
      },
      {
        type: 'call',
        tool: 'Read',
        args: { file_path: 'src/index.ts' },
        result: { content: 'Read 12 lines (ctrl+r to expand)' },
      },
      {
        type: 'call',
        tool: 'Edit',
        args: { file_path: 'src/index.ts', unshown_input: 1 },
        result: { content: 'Updated src/index.ts with 1 addition and 1 removal\n1  - foo();\n1  + bar();' },
      },
      {
        type: 'call',
        tool: 'Grep',
        args: { pattern: 'foo\\(', path: 'src' },
        result: { content: 'Found 0 files' },
      },
      { type: 'call', tool: 'Bash', args: { command: 'git commit -am "fix: call bar\ninstead of foo"' } },
      {
        type: 'call',
        tool: 'Bash',
        args: { command: 'npm run build' },
        result: { content: '> app@1.0.0 build\n> tsc' },
      },
    ]);
  });

  it('keeps the user messages and the compaction between the calls, and leaves grouped calls out', () => {
    const [run] = convertClaudeScreen(CLAUDE_COPY, SOURCE, 'cc');
    expect(run?.events.map((event) => (event.type === 'call' ? event.tool : event.type))).toEqual([
      'meta',
      'user',
      'Bash',
      'Read',
      'Edit',
      'Grep',
      'Bash',
      'compact',
      'Bash',
    ]);
  });

  it('leaves a call the user rejected or interrupted without a result, as the transcript converter does', () => {
    const copy = [
      '⏺ Write(notes.md)',
      "  ⎿  Error: The user doesn't want to proceed with this tool use. The tool use was rejected.",
      '',
      '⏺ Bash(npm test)',
      '  ⎿  Interrupted by user',
      '',
    ].join('\n');
    expect(callsOf(convertClaudeScreen(copy, SOURCE, 'cc')[0]?.events ?? [])).toEqual([
      { type: 'call', tool: 'Write', args: { file_path: 'notes.md', unshown_input: 1 } },
      { type: 'call', tool: 'Bash', args: { command: 'npm test' } },
    ]);
  });

  it('names the arguments a display names, and the one it shows unnamed after the tool', () => {
    expect(namedArguments('pattern: "a, b", path: "src"')).toEqual({ pattern: 'a, b', path: 'src' });
    expect(namedArguments('git status')).toBeUndefined();
    expect(claudeScreenArgs('Bash', 'echo key: value')).toEqual({ command: 'echo key: value' });
    expect(claudeScreenArgs('WebFetch', 'url: "https://example.com", prompt: "title"')).toEqual({
      url: 'https://example.com',
      prompt: 'title',
    });
    expect(claudeScreenArgs('Read', 'docs/a.md')).toEqual({ file_path: 'docs/a.md' });
  });
});

describe('Claude Code edits on the screen', () => {
  it('numbers the edits and writes whose text the screen hides, so that two edits of one file are never one', () => {
    const copy = [
      '✻ Welcome to Claude Code!',
      '',
      '⏺ Update(bookminder/cli.py)',
      '  ⎿  Error: String to replace not found in file.',
      '',
      '⏺ Read(bookminder/cli.py)',
      '  ⎿  Read 48 lines (ctrl+r to expand)',
      '',
      '⏺ Update(bookminder/cli.py)',
      '  ⎿  Updated bookminder/cli.py with 1 addition',
      '     8  + from bookminder import BookminderError',
      '',
    ].join('\n');
    const calls = callsOf(convertClaudeScreen(copy, SOURCE, 'cc')[0]?.events ?? []);
    expect(calls.map((call) => (call as { args: unknown }).args)).toEqual([
      { file_path: 'bookminder/cli.py', unshown_input: 1 },
      { file_path: 'bookminder/cli.py' },
      { file_path: 'bookminder/cli.py', unshown_input: 2 },
    ]);
  });
});

describe('Gemini CLI terminal copies', () => {
  it('reads each box as a call of the tool the model named, with a multi-line command whole', () => {
    const [run] = convertGeminiScreen(GEMINI_COPY, SOURCE, 'gm');
    expect(callsOf(run?.events ?? [])).toEqual([
      {
        type: 'call',
        tool: 'run_shell_command',
        args: { command: 'npm test', description: 'Run the test suite.' },
        result: { isError: true, content: "Error: Cannot find module 'jest'" },
      },
      {
        type: 'call',
        tool: 'read_file',
        args: { absolute_path: 'package.json' },
        result: { content: READ_NOT_SHOWN },
      },
      {
        type: 'call',
        tool: 'run_shell_command',
        args: {
          command: 'git commit -m "test: add jest\n\nso the suite runs"',
          description: 'Commit the change.',
        },
        result: { content: '[main 1a2b3c4] test: add jest' },
      },
      {
        type: 'call',
        tool: 'replace',
        args: { file_path: 'src/app.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' },
        result: { isError: true, content: 'Error: Failed to edit, could not find the string to replace.' },
      },
      {
        type: 'call',
        tool: 'run_shell_command',
        args: { command: 'rm -rf node_modules', description: 'Remove the modules.' },
      },
    ]);
    expect(
      run?.events.filter((event) => event.type === 'user').map((event) => (event as { text?: string }).text),
    ).toEqual(['run the tests', 'no, keep them']);
  });

  it('leaves a call the user aborted without a result, and fails a call its box marks failed', () => {
    const copy = [
      'Tips for getting started:',
      ' ╭──────────────────────────────────────╮',
      ' │ x  write_file {"file_path":"a.sh","content":"echo"} │',
      ' │                                      │',
      ' │    The user aborted a request.        │',
      ' ╰──────────────────────────────────────╯',
      ' ╭──────────────────────────────────────╮',
      ' │ x  glob {"pattern":"**/*.rs"}          │',
      ' │                                      │',
      ' │    No files found                     │',
      ' ╰──────────────────────────────────────╯',
    ].join('\n');
    expect(callsOf(convertGeminiScreen(copy, SOURCE, 'gm')[0]?.events ?? [])).toEqual([
      { type: 'call', tool: 'write_file', args: { file_path: 'a.sh', content: 'echo' } },
      {
        type: 'call',
        tool: 'glob',
        args: { pattern: '**/*.rs' },
        result: { isError: true, content: 'No files found' },
      },
    ]);
  });

  it('keeps only the file of an edit whose preview was cut short, numbering such edits so that two are never one', () => {
    const copy = [
      'Tips for getting started:',
      ' ╭────────────────────────────────────────────────────────────────────╮',
      ' │ ✔  Edit bookminder/cli.py: import click... => import click...       │',
      ' │                                                                    │',
      ' │    Error: Failed to edit, could not find the string to replace.    │',
      ' ╰────────────────────────────────────────────────────────────────────╯',
      ' ╭────────────────────────────────────────────────────────────────────╮',
      ' │ ✔  ReadFile bookminder/cli.py                                       │',
      ' ╰────────────────────────────────────────────────────────────────────╯',
      ' ╭────────────────────────────────────────────────────────────────────╮',
      ' │ ✔  Edit bookminder/cli.py: import click... => import click...       │',
      ' │                                                                    │',
      ' │    5      import click                                             │',
      ' │    8    + from bookminder import BookminderError                   │',
      ' ╰────────────────────────────────────────────────────────────────────╯',
      ' ╭────────────────────────────────────────────────────────────────────╮',
      ' │ ✔  WriteFile Writing to reconstruct.jq                              │',
      ' │                                                                    │',
      ' │    1 def format_tool_name(name):                                   │',
      ' ╰────────────────────────────────────────────────────────────────────╯',
    ].join('\n');
    expect(callsOf(convertGeminiScreen(copy, SOURCE, 'gm')[0]?.events ?? [])).toEqual([
      {
        type: 'call',
        tool: 'replace',
        args: { file_path: 'bookminder/cli.py', unshown_input: 1 },
        result: { isError: true, content: 'Error: Failed to edit, could not find the string to replace.' },
      },
      {
        type: 'call',
        tool: 'read_file',
        args: { absolute_path: 'bookminder/cli.py' },
        result: { content: READ_NOT_SHOWN },
      },
      {
        type: 'call',
        tool: 'replace',
        args: { file_path: 'bookminder/cli.py', unshown_input: 2 },
        result: { content: '5      import click\n8    + from bookminder import BookminderError' },
      },
      {
        type: 'call',
        tool: 'write_file',
        args: { file_path: 'reconstruct.jq', unshown_input: 3 },
        result: { content: '1 def format_tool_name(name):' },
      },
    ]);
  });

  it('reads the edit previews that create a file or change nothing for the file they name', () => {
    expect(editArgs('Create stories/pagination.yaml')).toEqual({
      file_path: 'stories/pagination.yaml',
      old_string: '',
    });
    expect(editArgs('No file changes to TODO.md')).toEqual({ file_path: 'TODO.md' });
    expect(editArgs('src/app.ts: const a = 1; => const a = 2;')).toEqual({
      file_path: 'src/app.ts',
      old_string: 'const a = 1;',
      new_string: 'const a = 2;',
    });
  });

  it('tells the description Gemini CLI adds from parentheses inside the command', () => {
    expect(shellArgs('ls (List files.)')).toEqual({ command: 'ls', description: 'List files.' });
    expect(shellArgs('echo $(date)')).toEqual({ command: 'echo $(date)' });
    expect(shellArgs('git log (Show the log (last week).)')).toEqual({
      command: 'git log',
      description: 'Show the log (last week).',
    });
    expect(opensQuote('git commit -m "one')).toBe(true);
    expect(opensQuote(`echo "it's" 'a "b"' \\"`)).toBe(false);
  });
});

describe('terminal copies of any text', () => {
  const line = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom(
      '✻ Welcome to Claude Code!',
      'Tips for getting started:',
      '⏺ Bash(ls',
      '⏺ Read(a.md)',
      '  ⎿  Error: no',
      '  ⎿  Waiting…',
      ' │ ✔  Shell echo "a',
      ' │ x  write_file {"file_path":"a"}',
      ' │    output',
      ' ╰──╯',
      '> hi',
      '│  > hi',
      '',
    ),
  );

  it('converts any copy without throwing, into uniquely named runs whose events are all known', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), (lines) => {
        const copy = lines.join('\n');
        for (const runs of [
          convertClaudeScreen(copy, SOURCE, 'cc'),
          convertGeminiScreen(copy, SOURCE, 'gm'),
        ]) {
          expect(new Set(runs.map((run) => run.name)).size).toBe(runs.length);
          for (const run of runs) {
            expect(run.events[0]?.type).toBe('meta');
            for (const event of run.events.slice(1)) {
              expect(['call', 'user', 'session', 'compact']).toContain(event.type);
              if (event.type === 'call') expect(typeof event.tool).toBe('string');
            }
          }
        }
      }),
    );
  });
});
