import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commandLine,
  convertCodexRun,
  readOutput,
  showsOnlyImages,
  unquoteShellWord,
} from '../../scripts/corpus/convert-codex.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'sessions/rollout-2025-10-01.jsonl',
  licence: 'MIT',
  agent: 'Codex CLI',
});
const convert = (lines: readonly unknown[]) =>
  convertCodexRun(lines.map((line) => JSON.stringify(line)).join('\n'), SOURCE, 'codex-run', 'Codex run');
const at = (second: number) => `2025-10-01T10:00:${String(second).padStart(2, '0')}.000Z`;
const item = (second: number, payload: object) => ({ timestamp: at(second), type: 'response_item', payload });
const event = (second: number, payload: object) => ({ timestamp: at(second), type: 'event_msg', payload });
const META = {
  timestamp: at(0),
  type: 'session_meta',
  payload: { id: 'a', cwd: '/repo', originator: 'codex_cli_rs', cli_version: '0.46.0' },
};

describe('Codex rollouts', () => {
  it('answers a shell call with the output of the same call id and fails it on the exit code Codex recorded', () => {
    const run = convert([
      META,
      item(1, {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<environment_context>…' }],
      }),
      item(1, {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'make the tests pass' }],
      }),
      item(2, {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'pytest -q'], workdir: '/repo' }),
        call_id: 'call_1',
      }),
      event(3, {
        type: 'exec_command_end',
        call_id: 'call_1',
        exit_code: 1,
        aggregated_output: 'E   1 failed',
      }),
      item(3, {
        type: 'function_call_output',
        call_id: 'call_1',
        output: JSON.stringify({
          output: 'E   1 failed\n',
          metadata: { exit_code: 1, duration_seconds: 0.4 },
        }),
      }),
    ]);
    expect(run.events.filter((e) => e.type === 'user')).toEqual([
      { type: 'user', text: 'make the tests pass' },
    ]);
    expect(callsOf(run.events)).toEqual([
      {
        type: 'call',
        tool: 'shell',
        args: { command: 'pytest -q', workdir: '/repo' },
        result: { isError: true, content: 'E   1 failed\n' },
        t: 2,
      },
    ]);
  });

  it("takes the workspace's instructions, a skill and Codex's internal context for no user turn", () => {
    const user = (second: number, text: string) =>
      item(second, { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    const run = convert([
      META,
      user(
        1,
        '# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nRun pnpm test before committing.\n</INSTRUCTIONS>',
      ),
      user(1, '<skill>\n<name>release-notes</name>\n</skill>'),
      user(2, '<codex_internal_context source="goal">\nKeep going.\n</codex_internal_context>'),
      user(2, 'write the release notes'),
      { timestamp: at(5), type: 'compacted', payload: { message: 'summary' } },
      user(
        6,
        '# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nRun pnpm test before committing.\n</INSTRUCTIONS>',
      ),
    ]);
    expect(run.events.filter((e) => e.type === 'user')).toEqual([
      { type: 'user', text: 'write the release notes' },
    ]);
    expect(run.events.some((e) => e.type === 'compact')).toBe(true);
  });

  it("reads the exit code and output from the later versions' plain-text output", () => {
    const run = convert([
      item(0, {
        type: 'function_call',
        name: 'exec_command',
        arguments: '{"cmd":"cat missing.txt"}',
        call_id: 'c',
      }),
      item(1, {
        type: 'function_call_output',
        call_id: 'c',
        output:
          'Exit code: 1\nWall time: 0.1 seconds\nOutput:\ncat: missing.txt: No such file or directory\n',
      }),
    ]);
    expect(callsOf(run.events)[0]).toMatchObject({
      tool: 'shell',
      args: { command: 'cat missing.txt' },
      result: { isError: true, content: 'cat: missing.txt: No such file or directory\n' },
    });
  });

  it('keeps the request to run outside the sandbox, so that the approved retry of a refused command is another attempt', () => {
    const run = convert([
      item(0, {
        type: 'function_call',
        name: 'shell_command',
        arguments: JSON.stringify({ command: 'git fetch origin', workdir: 'C:\\repo', timeout_ms: 120000 }),
        call_id: 'a',
      }),
      item(1, {
        type: 'function_call_output',
        call_id: 'a',
        output:
          "Exit code: 1\nWall time: 0.2 seconds\nOutput:\nerror: cannot open '.git/FETCH_HEAD': Permission denied\n",
      }),
      item(2, {
        type: 'function_call',
        name: 'shell_command',
        arguments: JSON.stringify({
          command: 'git fetch origin',
          workdir: 'C:\\repo',
          timeout_ms: 120000,
          sandbox_permissions: 'require_escalated',
          justification: 'Do you want me to fetch the latest remote refs?',
        }),
        call_id: 'b',
      }),
      item(3, {
        type: 'function_call_output',
        call_id: 'b',
        output: 'Exit code: 0\nWall time: 1.4 seconds\nOutput:\n',
      }),
      item(4, {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({
          command: ['bash', '-lc', 'npm install'],
          with_escalated_permissions: true,
        }),
        call_id: 'c',
      }),
      item(5, {
        type: 'function_call_output',
        call_id: 'c',
        output: 'Exit code: 0\nOutput:\nadded 12 packages\n',
      }),
    ]);
    expect(callsOf(run.events).map((call) => call.args)).toEqual([
      { command: 'git fetch origin', workdir: 'C:\\repo' },
      { command: 'git fetch origin', workdir: 'C:\\repo', sandbox_permissions: 'require_escalated' },
      { command: 'npm install', with_escalated_permissions: true },
    ]);
  });

  it('keeps the header of a command that failed without printing anything, so that its exit status is still read', () => {
    const run = convert([
      item(0, {
        type: 'function_call',
        name: 'shell_command',
        arguments: JSON.stringify({ command: 'python generate_handler_include.py', timeout_ms: 1000 }),
        call_id: 'a',
      }),
      item(1, {
        type: 'function_call_output',
        call_id: 'a',
        output: 'Exit code: 124\nWall time: 1.4 seconds\nOutput:\n',
      }),
    ]);
    expect(callsOf(run.events)[0]?.result).toEqual({ isError: true, content: 'Exit code: 124\nOutput:\n' });
  });

  it('keeps a freeform patch whole and fails it when Codex reports the patch did not apply', () => {
    const patch = '*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch';
    const run = convert([
      item(0, {
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'p',
        name: 'apply_patch',
        input: patch,
      }),
      event(1, { type: 'patch_apply_end', call_id: 'p', success: false, stdout: '', stderr: 'no match' }),
      item(1, {
        type: 'custom_tool_call_output',
        call_id: 'p',
        output: 'apply_patch verification failed: no match',
      }),
      { timestamp: at(2), type: 'compacted', payload: { message: 'summary' } },
    ]);
    expect(run.events.slice(1)).toEqual([
      {
        type: 'call',
        tool: 'apply_patch',
        args: { patch },
        result: { isError: true, content: 'apply_patch verification failed: no match' },
        t: 0,
      },
      { type: 'compact' },
    ]);
  });

  it('leaves a call answered only by an image without a result, so that viewing a new screenshot is no empty answer', () => {
    const run = convert([
      item(0, {
        type: 'function_call',
        name: 'view_image',
        arguments: JSON.stringify({ path: '/tmp/shot.png' }),
        call_id: 'v',
      }),
      item(1, {
        type: 'function_call_output',
        call_id: 'v',
        output: [{ type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' }],
      }),
    ]);
    expect(run.events.slice(1)).toEqual([
      { type: 'call', tool: 'view_image', args: { path: '/tmp/shot.png' }, t: 0 },
    ]);
  });

  it('fails a code-mode script that Codex answers `Script failed`, though no exit code says so', () => {
    const run = convert([
      item(0, {
        type: 'custom_tool_call',
        name: 'exec',
        input:
          'const r = await tools.shell_command({command: "Get-Content AGENTS.md -Raw", workdir: "C:\\\\Projects\\\\game", timeout_ms: 10000});\ntext(r);\n',
        call_id: 'x',
      }),
      item(1, {
        type: 'custom_tool_call_output',
        call_id: 'x',
        output: [
          { type: 'input_text', text: 'Script failed\nWall time 0.1 seconds\nOutput:\n' },
          {
            type: 'input_text',
            text: 'Script error:\nexecution error: Io(Os { code: 267, kind: NotADirectory, message: "The directory name is invalid." })',
          },
        ],
      }),
    ]);
    expect(callsOf(run.events)[0]).toMatchObject({ tool: 'exec', result: { isError: true } });
  });

  it('names a tool that tool search found on an MCP server as Codex names it, its namespace first', () => {
    const run = convert([
      item(0, {
        type: 'function_call',
        name: '_fetch_file',
        namespace: 'mcp__codex_apps__github',
        arguments: JSON.stringify({ repository_full_name: 'acme/android-app', path: 'settings.gradle' }),
        call_id: 'f',
      }),
      item(1, {
        type: 'function_call_output',
        call_id: 'f',
        output: 'Wall time: 0.9 seconds\nOutput:\n{"files":[]}',
      }),
      item(2, {
        type: 'function_call',
        name: 'js',
        namespace: 'mcp__node_repl',
        arguments: JSON.stringify({
          title: 'Check Playwright availability',
          code: "await import('playwright');",
        }),
        call_id: 'j',
      }),
      item(3, { type: 'function_call_output', call_id: 'j', output: 'Wall time: 0.4 seconds\nOutput:\n' }),
    ]);
    expect(callsOf(run.events).map((call) => call.tool)).toEqual([
      'mcp__codex_apps__github_fetch_file',
      'mcp__node_repl__js',
    ]);
  });

  it('fails an app tool whose answer is an error object, as a GitHub file that is not there answers', () => {
    const run = convert([
      item(0, {
        type: 'function_call',
        name: '_fetch_file',
        namespace: 'mcp__codex_apps__github',
        arguments: JSON.stringify({ repository_full_name: 'acme/android-app', path: 'settings.gradle' }),
        call_id: 'f',
      }),
      item(1, {
        type: 'function_call_output',
        call_id: 'f',
        output:
          'Wall time: 0.9146 seconds\nOutput:\n{"error":"GitHub API error 404: {\\"message\\":\\"Not Found\\",\\"status\\":\\"404\\"}","error_code":"NOT_FOUND"}',
      }),
    ]);
    expect(callsOf(run.events)[0]).toMatchObject({ result: { isError: true } });
  });

  it('fails a call Codex answers `<tool> failed:`, as it answers an interrupt the process backend refuses', () => {
    const run = convert([
      item(0, {
        type: 'function_call',
        name: 'write_stdin',
        arguments: JSON.stringify({ session_id: 41978, chars: '\u0003', yield_time_ms: 1000 }),
        call_id: 's',
      }),
      item(1, {
        type: 'function_call_output',
        call_id: 's',
        output:
          'write_stdin failed: Unified exec process failed: process interrupt is not supported by this process backend',
      }),
    ]);
    expect(callsOf(run.events)[0]).toMatchObject({ tool: 'write_stdin', result: { isError: true } });
  });
});

describe('Codex model steps', () => {
  const fetchFile = (second: number, id: string, path: string) =>
    item(second, {
      type: 'function_call',
      name: '_fetch_file',
      namespace: 'mcp__codex_apps__github',
      arguments: JSON.stringify({ repository_full_name: 'acme/backend', path, encoding: 'utf-8' }),
      call_id: id,
    });
  const notFound = (second: number, id: string) =>
    item(second, {
      type: 'function_call_output',
      call_id: id,
      output:
        'Wall time: 2.2 seconds\nOutput:\n{"error":"GitHub API error 404: {\\"message\\":\\"Not Found\\"}","error_code":"NOT_FOUND"}',
    });

  it('marks the calls one response issued at once as one turn, so that none of them saw the others answer', () => {
    const run = convert([
      META,
      item(1, { type: 'reasoning', summary: [] }),
      fetchFile(2, 'a', 'pom.xml'),
      fetchFile(2, 'b', 'docker-compose.yml'),
      fetchFile(2, 'c', 'Dockerfile'),
      notFound(3, 'b'),
      notFound(3, 'a'),
      notFound(4, 'c'),
      fetchFile(9, 'd', 'jeecg-boot/pom.xml'),
      notFound(10, 'd'),
    ]);
    const calls = callsOf(run.events);
    expect(calls.map((call) => call.turn)).toEqual(['turn-1', 'turn-1', 'turn-1', undefined]);
  });

  it('leaves calls made one after another, each after the answer before it, without a turn', () => {
    const run = convert([
      META,
      fetchFile(1, 'a', 'pom.xml'),
      notFound(2, 'a'),
      fetchFile(3, 'b', 'build.gradle'),
      notFound(4, 'b'),
    ]);
    expect(callsOf(run.events).map((call) => call.turn)).toEqual([undefined, undefined]);
  });
});

describe('codex exec --json output', () => {
  it("reads command items through a logger's wrapper and numbers patches whose text the output leaves out", () => {
    const wrap = (second: number, data: object) => ({
      log_type: 'tool_event',
      timestamp_unix: 1000 + second,
      data,
    });
    const command = { id: 'item_1', type: 'command_execution', command: "/bin/bash -lc 'rg --files'" };
    const change = { id: 'item_2', type: 'file_change', changes: [{ path: '/src/a.c', kind: 'update' }] };
    const run = convert([
      {
        log_type: 'session_start',
        timestamp_unix: 1000,
        data: { command: ['codex', 'exec', '--json', 'fix it'] },
      },
      wrap(1, {
        type: 'item.started',
        item: { ...command, aggregated_output: '', exit_code: null, status: 'in_progress' },
      }),
      wrap(2, {
        type: 'item.completed',
        item: { ...command, aggregated_output: 'a.c\n', exit_code: 0, status: 'completed' },
      }),
      wrap(3, { type: 'item.completed', item: { ...change, status: 'completed' } }),
      wrap(4, { type: 'item.completed', item: { ...change, id: 'item_3', status: 'failed' } }),
    ]);
    expect(callsOf(run.events)).toEqual([
      { type: 'call', tool: 'shell', args: { command: 'rg --files' }, result: { content: 'a.c\n' }, t: 1 },
      {
        type: 'call',
        tool: 'apply_patch',
        args: { files: ['update /src/a.c'], unshown_input: 1 },
        result: {},
        t: 3,
      },
      {
        type: 'call',
        tool: 'apply_patch',
        args: { files: ['update /src/a.c'], unshown_input: 2 },
        result: { isError: true, content: 'patch failed' },
        t: 4,
      },
    ]);
  });
});

describe('Codex conversion properties', () => {
  const line = fc.string({ maxLength: 40 });

  it('undoes the single quotes `bash -lc` put around any command line', () => {
    fc.assert(
      fc.property(line, (command) => {
        const quoted = `'${command.replaceAll("'", "'\\''")}'`;
        expect(unquoteShellWord(quoted)).toBe(command);
        expect(commandLine(['bash', '-lc', command])).toBe(command);
      }),
    );
  });

  it('leaves a command line of several quoted words as it is', () => {
    expect(commandLine("/bin/bash -lc 'echo a' 'b'")).toBe("'echo a' 'b'");
    expect(commandLine('bash -lc "grep -n \\"x\\" a.py"')).toBe('grep -n "x" a.py');
  });

  it('reads the exit code and body back from either output form Codex writes', () => {
    fc.assert(
      fc.property(fc.integer({ min: -255, max: 255 }), line, fc.boolean(), (code, body, plain) => {
        const output = plain
          ? `Exit code: ${code}\nWall time: 0.2 seconds\nOutput:\n${body}`
          : JSON.stringify({ output: body, metadata: { exit_code: code, duration_seconds: 0.2 } });
        expect(readOutput(output)).toEqual({ body, exitCode: code });
      }),
    );
  });

  it('reads a list of parts as images only when no part holds text', () => {
    const part = fc.oneof(
      fc.record({ type: fc.constant('input_image'), image_url: fc.string() }),
      fc.record({ type: fc.constantFrom('input_text', 'output_text'), text: line }),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), (parts) => {
        const images = parts.some((p) => p.type === 'input_image');
        const texts = parts.some((p) => 'text' in p && p.text.trim() !== '');
        expect(showsOnlyImages(parts)).toBe(images && !texts);
      }),
    );
  });

  it('never throws on arbitrary lines, and every call it keeps has a tool name and arguments', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    const payload = fc.record({
      type: fc.constantFrom(
        'function_call',
        'function_call_output',
        'custom_tool_call',
        'local_shell_call',
        'message',
      ),
      name: fc.constantFrom('shell', 'apply_patch', 'update_plan', 'exec_command'),
      call_id: fc.constantFrom('a', 'b'),
      arguments: fc.oneof(
        fc.string(),
        value.map((v) => JSON.stringify(v)),
      ),
      output: fc.oneof(fc.string(), value),
      input: fc.string(),
    });
    const rolloutLine = fc.oneof(
      payload.map((p) => JSON.stringify({ timestamp: at(1), type: 'response_item', payload: p })),
      fc
        .record({ type: fc.constantFrom('item.started', 'item.completed'), item: value })
        .map((l) => JSON.stringify(l)),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(rolloutLine, { maxLength: 20 }), (lines) => {
        const run = convertCodexRun(lines.join('\n'), SOURCE, 'run', 'run');
        expect(run.events[0]?.type).toBe('meta');
        for (const call of callsOf(run.events)) {
          expect(typeof call.tool).toBe('string');
          expect(call.args).toBeTypeOf('object');
          if (call.tool === 'shell') expect(call.args.command).toBeTypeOf('string');
        }
      }),
    );
  });
});
