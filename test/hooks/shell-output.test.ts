import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { codexHooks, codexResponseResult } from '../../src/hooks/codex.js';
import { type RolloutReading, readRolloutStatus, withCodexRollout } from '../../src/hooks/codex-rollout.js';
import type { HookEvent } from '../../src/hooks/event.js';
import { geminiShellResult, shellOutputResult } from '../../src/hooks/shell-output.js';

/** The failures the rollout adds before a call: what the helper learns first. */
async function unreportedCodexFailures(event: HookEvent, reading?: RolloutReading) {
  return (await withCodexRollout(event, reading)).earlier;
}

/** The event after a call, its result completed from the rollout. */
async function withRolloutEvidence(event: HookEvent) {
  return (await withCodexRollout(event)).event;
}

describe('shell output as evidence of failure', () => {
  it("reads npm's Missing script error as a failure", () => {
    const result = shellOutputResult('npm error Missing script: "tset"\nnpm error\nnpm error   npm run');
    expect(result.ok).toBe(false);
  });

  it('reads curl that could not connect as a failure', () => {
    const text = "curl: (7) Failed to connect to localhost port 8787: Couldn't connect to server";
    expect(shellOutputResult(text).ok).toBe(false);
  });

  it('reads a file that merely mentions an error as a success', () => {
    expect(shellOutputResult('# Notes\nWhen the build fails, npm prints an error and exits 1.\n').ok).toBe(
      true,
    );
  });

  it("takes the exit status from Codex's header when there is one", () => {
    const result = shellOutputResult('Wall time: 0.2 seconds\nProcess exited with code 2\nOutput:\nboom');
    expect(result).toEqual({ ok: false, error: 'boom', content: 'boom', exitCode: 2 });
  });

  it("reads a Codex patch's response, whose header gives its exit status (codex-cli 0.171.0)", () => {
    const response =
      'Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA notes.txt\n';
    expect(codexResponseResult('apply_patch', response)).toEqual({
      ok: true,
      content: 'Success. Updated the following files:\nA notes.txt\n',
      exitCode: 0,
    });
  });

  it("reads Gemini CLI's Exit Code line, and keeps its process group id out of the content", () => {
    const failed = geminiShellResult('Output: (empty)\nExit Code: 3\nProcess Group PGID: 4242');
    expect(failed).toMatchObject({ ok: false, exitCode: 3 });
    const passed = geminiShellResult('Output: ok\nProcess Group PGID: 4243');
    expect(passed).toEqual({ ok: true, content: 'ok' });
  });

  it('reads any text without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 4000 }), (text) => {
        expect(typeof shellOutputResult(text).ok).toBe('boolean');
        expect(typeof geminiShellResult(text).ok).toBe('boolean');
      }),
    );
  });
});

describe("Codex's rollout as evidence of an exit status", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'narrowing-rollout-'));
    dirs.push(dir);
    return dir;
  };
  const line = (type: string, payload: unknown) => `${JSON.stringify({ timestamp: 't', type, payload })}\n`;

  it('finds the exit code of exec_command_end by call id', async () => {
    const path = join(folder(), 'rollout.jsonl');
    writeFileSync(path, line('event_msg', { type: 'exec_command_end', call_id: 'call_1', exit_code: 1 }));
    expect(await readRolloutStatus(path, 'call_1')).toEqual({ exitCode: 1, failed: true });
    expect(await readRolloutStatus(path, 'call_2')).toBeUndefined();
  });

  it("finds a command's exit status in the item_completed Codex 0.171 writes before the hooks run", async () => {
    const path = join(folder(), 'rollout.jsonl');
    writeFileSync(
      path,
      line('event_msg', {
        type: 'item_completed',
        thread_id: '01a22ea8-fa08-7cd3-8699-f2888d3f314a',
        turn_id: '01a22ea8-fa97-7143-9178-6d286ac36c03',
        item: {
          type: 'CommandExecution',
          id: 'call_long',
          process_id: '58488',
          command: ['/bin/bash', '-lc', 'sleep 1; echo finished; exit 4'],
          source: 'unified_exec_startup',
          status: 'failed',
          aggregated_output: 'finished\n',
          exit_code: 4,
        },
      }),
    );
    expect(await readRolloutStatus(path, 'call_long')).toEqual({ exitCode: 4, failed: true });
  });

  it("reads a patch's status in Codex's item_completed", async () => {
    const path = join(folder(), 'rollout.jsonl');
    const item = (id: string, status: string) =>
      line('event_msg', {
        type: 'item_completed',
        item: { type: 'FileChange', id, changes: {}, status, stdout: '', stderr: '' },
      });
    writeFileSync(path, `${item('call_patch_ok', 'completed')}${item('call_patch_bad', 'failed')}`);
    expect(await readRolloutStatus(path, 'call_patch_ok')).toEqual({ failed: false });
    expect(await readRolloutStatus(path, 'call_patch_bad')).toEqual({ failed: true });
  });

  it("reads the exit status in a recorded function_call_output's header", async () => {
    const path = join(folder(), 'rollout.jsonl');
    writeFileSync(
      path,
      line('response_item', {
        type: 'function_call_output',
        call_id: 'call_9',
        output: 'Wall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nok',
      }),
    );
    expect(await readRolloutStatus(path, 'call_9')).toEqual({ exitCode: 0, failed: false });
  });

  /** A Codex PreToolUse of `tool_use_id` whose rollout is at `path` (codex-cli 0.171.0's fields). */
  const preToolUse = (path: string, dir: string, id: string, toolName: string, toolInput: unknown) =>
    codexHooks.parse({
      session_id: '01a22ea9-a1bd-7ae0-9fd7-ed44d5837a76',
      turn_id: '01a22ea9-a1cb-74a1-aaa4-a0a77cb4aed4',
      transcript_path: path,
      cwd: dir,
      hook_event_name: 'PreToolUse',
      model: 'gpt-5.1-codex',
      permission_mode: 'bypassPermissions',
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: id,
    });

  it('finds the MCP failures and refused patches Codex ran no PostToolUse for, oldest first', async () => {
    const dir = folder();
    const path = join(dir, 'rollout.jsonl');
    const patch = '*** Begin Patch\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch';
    const refusal = `apply_patch verification failed: Failed to read file to update ${dir}/missing.txt: No such file or directory (os error 2)`;
    writeFileSync(
      path,
      [
        line('event_msg', {
          type: 'item_completed',
          item: { type: 'CommandExecution', id: 'call_npm', status: 'failed', exit_code: 1 },
        }),
        line('response_item', {
          type: 'custom_tool_call',
          call_id: 'call_patch',
          name: 'apply_patch',
          input: patch,
        }),
        line('response_item', { type: 'custom_tool_call_output', call_id: 'call_patch', output: refusal }),
        line('event_msg', {
          type: 'item_completed',
          item: {
            type: 'McpToolCall',
            id: 'call_mcp',
            server: 'filesystem',
            tool: 'read_text_file',
            arguments: { path: `${dir}/notes/todo.md` },
            status: 'failed',
            result: {
              content: [
                { type: 'text', text: `ENOENT: no such file or directory, open '${dir}/notes/todo.md'` },
              ],
              isError: true,
            },
          },
        }),
      ].join(''),
    );
    const events = await unreportedCodexFailures(
      preToolUse(path, dir, 'call_next', 'mcp__filesystem__read_text_file', { path: `${dir}/notes/todo.md` }),
    );
    expect(events.map((event) => event.action)).toEqual([
      {
        type: 'after-call',
        call: { tool: 'apply_patch', input: { command: patch }, id: 'call_patch' },
        result: { ok: false, error: refusal, content: refusal },
      },
      {
        type: 'after-call',
        call: {
          tool: 'mcp__filesystem__read_text_file',
          input: { path: `${dir}/notes/todo.md` },
          id: 'call_mcp',
        },
        result: {
          ok: false,
          error: `ENOENT: no such file or directory, open '${dir}/notes/todo.md'`,
          content: `ENOENT: no such file or directory, open '${dir}/notes/todo.md'`,
        },
      },
    ]);
  });

  it('finds a patch Codex refused as it read it, from its freeform tool and from its JSON tool alike', async () => {
    const dir = folder();
    const path = join(dir, 'rollout.jsonl');
    // The model wrote a bare line in the hunk: codex-apply-patch's parser refuses it.
    const unparsable =
      '*** Begin Patch\n*** Update File: src/cart.ts\n@@\nexport function total(\n*** End Patch';
    const parseError =
      "apply_patch verification failed: invalid hunk at line 4, Unexpected line found in update hunk: 'export function total('. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)";
    // The patch handed over shell-quoted in a way Codex cannot read (codex-rs apply_patch.rs).
    const quoted = "*** Begin Patch\n*** Add File: notes.txt\n+it's done\n*** End Patch";
    const invalidInput = 'apply_patch handler received invalid patch input';
    writeFileSync(
      path,
      [
        line('response_item', {
          type: 'custom_tool_call',
          call_id: 'call_freeform',
          name: 'apply_patch',
          input: unparsable,
        }),
        line('response_item', {
          type: 'custom_tool_call_output',
          call_id: 'call_freeform',
          output: parseError,
        }),
        line('response_item', {
          type: 'function_call',
          call_id: 'call_json',
          name: 'apply_patch',
          arguments: JSON.stringify({ input: quoted }),
        }),
        line('response_item', { type: 'function_call_output', call_id: 'call_json', output: invalidInput }),
      ].join(''),
    );
    const events = await unreportedCodexFailures(
      preToolUse(path, dir, 'call_next', 'apply_patch', { command: unparsable }),
    );
    expect(events.map((event) => event.action)).toEqual([
      {
        type: 'after-call',
        call: { tool: 'apply_patch', input: { command: unparsable }, id: 'call_freeform' },
        result: { ok: false, error: parseError, content: parseError },
      },
      {
        type: 'after-call',
        call: { tool: 'apply_patch', input: { command: quoted }, id: 'call_json' },
        result: { ok: false, error: invalidInput, content: invalidInput },
      },
    ]);
  });

  it('never takes a patch a PreToolUse hook denied for a patch Codex refused', async () => {
    const dir = folder();
    const path = join(dir, 'rollout.jsonl');
    const patch = '*** Begin Patch\n*** Delete File: .env\n*** End Patch';
    writeFileSync(
      path,
      [
        line('response_item', {
          type: 'custom_tool_call',
          call_id: 'call_denied',
          name: 'apply_patch',
          input: patch,
        }),
        line('response_item', {
          type: 'custom_tool_call_output',
          call_id: 'call_denied',
          // codex-rs registry.rs: the words of a call a PreToolUse hook denied.
          output: `Command blocked by PreToolUse hook: .env is protected. Command: ${patch}`,
        }),
      ].join(''),
    );
    expect(
      await unreportedCodexFailures(preToolUse(path, dir, 'call_next', 'Bash', { command: 'ls' })),
    ).toEqual([]);
  });

  /**
   * A `shell_command` call as Codex records it where unified exec is off (Windows by default): the
   * call, its `CommandExecution` item (`source: "agent"`), then the output the model read. Its
   * handler returns a non-zero exit as an error, so no PostToolUse runs for it.
   */
  const shellCommandLines = (dir: string, id: string, command: string, exitCode: number, output: string) =>
    [
      line('response_item', {
        type: 'function_call',
        name: 'shell_command',
        arguments: JSON.stringify({ command, workdir: dir, timeout_ms: 120000 }),
        call_id: id,
      }),
      line('event_msg', {
        type: 'item_completed',
        item: {
          type: 'CommandExecution',
          id,
          command: ['C:\\Program Files\\PowerShell\\7\\pwsh.exe', '-NoProfile', '-Command', command],
          cwd: dir,
          source: 'agent',
          status: exitCode === 0 ? 'completed' : 'failed',
          aggregated_output: output,
          exit_code: exitCode,
        },
      }),
      line('response_item', {
        type: 'function_call_output',
        call_id: id,
        output: `Exit code: ${exitCode}\nWall time: 0.6 seconds\nOutput:\n${output}`,
      }),
    ].join('');

  it('finds a shell_command that exited non-zero, which Codex reports to no hook', async () => {
    const dir = folder();
    const path = join(dir, 'rollout.jsonl');
    const said =
      'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n';
    writeFileSync(path, shellCommandLines(dir, 'call_lint', 'npm run lint', 1, said));
    const events = await unreportedCodexFailures(
      preToolUse(path, dir, 'call_next', 'Bash', { command: 'npm run lint' }),
    );
    expect(events.map((event) => event.action)).toEqual([
      {
        type: 'after-call',
        call: { tool: 'Bash', input: { command: 'npm run lint' }, id: 'call_lint' },
        result: { ok: false, error: said, content: said, exitCode: 1 },
      },
    ]);
  });

  it('takes a shell_command Codex stopped at its timeout for a timeout', async () => {
    const dir = folder();
    const path = join(dir, 'rollout.jsonl');
    const said = 'command timed out after 120000 milliseconds\nWaiting for the database at localhost:5432...';
    writeFileSync(path, shellCommandLines(dir, 'call_wait', 'npm run db:wait', 124, said));
    const [event] = await unreportedCodexFailures(
      preToolUse(path, dir, 'call_next', 'Bash', { command: 'npm run db:wait' }),
    );
    expect(event?.action.type === 'after-call' && event.action.result).toMatchObject({
      ok: false,
      timedOut: true,
    });
  });

  it('takes nothing from a shell_command that succeeded, which Codex reported to its hooks', async () => {
    const dir = folder();
    const path = join(dir, 'rollout.jsonl');
    writeFileSync(path, shellCommandLines(dir, 'call_ls', 'ls', 0, 'package.json\nsrc\n'));
    expect(
      await unreportedCodexFailures(preToolUse(path, dir, 'call_next', 'Bash', { command: 'ls' })),
    ).toEqual([]);
  });

  it('takes no failure from before the last call Codex reported to its hooks, past what the model said', async () => {
    const dir = folder();
    const path = join(dir, 'rollout.jsonl');
    const mcpFailed = (id: string) =>
      line('event_msg', {
        type: 'item_completed',
        item: {
          type: 'McpToolCall',
          id,
          server: 'github',
          tool: 'get_issue',
          arguments: { owner: 'acme', repo: 'api', issue_number: 404 },
          status: 'failed',
          result: { content: [{ type: 'text', text: 'Not Found' }], isError: true },
        },
      });
    const answered = line('event_msg', {
      type: 'item_completed',
      item: {
        type: 'McpToolCall',
        id: 'call_ok',
        server: 'github',
        tool: 'list_issues',
        status: 'completed',
      },
    });
    const said = line('event_msg', {
      type: 'item_completed',
      item: { type: 'AgentMessage', id: 'msg_1', text: 'The issue was not found; trying again.' },
    });
    writeFileSync(path, `${mcpFailed('call_old')}${answered}${mcpFailed('call_new')}${said}`);
    const events = await unreportedCodexFailures(
      preToolUse(path, dir, 'call_next', 'Bash', { command: 'ls' }),
    );
    expect(events.map((event) => (event.action.type === 'after-call' ? event.action.call.id : ''))).toEqual([
      'call_new',
    ]);
  });

  it('reads a long rollout back only as far as the last call Codex reported', async () => {
    const dir = folder();
    const path = join(dir, 'rollout.jsonl');
    const reasoning = line('response_item', {
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Checking the tests.' }],
    });
    const failedMcp = line('event_msg', {
      type: 'item_completed',
      item: {
        type: 'McpToolCall',
        id: 'call_mcp',
        server: 'github',
        tool: 'get_issue',
        arguments: { owner: 'acme', repo: 'api', issue_number: 404 },
        status: 'failed',
        result: { content: [{ type: 'text', text: 'Not Found' }], isError: true },
      },
    });
    const reported = line('event_msg', {
      type: 'item_completed',
      item: { type: 'CommandExecution', id: 'call_npm', status: 'completed', exit_code: 0 },
    });
    writeFileSync(path, `${reasoning.repeat(4000)}${reported}${failedMcp}`);
    let read = 0;
    const events = await unreportedCodexFailures(
      preToolUse(path, dir, 'call_next', 'Bash', { command: 'ls' }),
      {
        chunkBytes: 16 * 1024,
        onChunk: (bytes) => {
          read += bytes;
        },
      },
    );
    expect(events.map((event) => (event.action.type === 'after-call' ? event.action.call.id : ''))).toEqual([
      'call_mcp',
    ]);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThanOrEqual(16 * 1024);
  });

  it('never reads a rollout through a symbolic link', async () => {
    const dir = folder();
    const real = join(dir, 'real.jsonl');
    writeFileSync(real, line('event_msg', { type: 'exec_command_end', call_id: 'call_1', exit_code: 1 }));
    const link = join(dir, 'link.jsonl');
    symlinkSync(real, link);
    expect(await readRolloutStatus(link, 'call_1')).toBeUndefined();
  });

  it('reads only the tail of a huge rollout', async () => {
    const path = join(folder(), 'rollout.jsonl');
    const early = line('event_msg', { type: 'exec_command_end', call_id: 'call_old', exit_code: 1 });
    writeFileSync(path, `${early}${'x'.repeat(600 * 1024)}\n`);
    expect(await readRolloutStatus(path, 'call_old')).toBeUndefined();
  });

  it('turns a Codex PostToolUse that looked like a success into the failure the rollout records', async () => {
    const dir = folder();
    const path = join(dir, 'rollout.jsonl');
    writeFileSync(path, line('event_msg', { type: 'exec_command_end', call_id: 'call_5', exit_code: 1 }));
    const event = codexHooks.parse({
      session_id: 's',
      turn_id: 't',
      transcript_path: path,
      cwd: dir,
      hook_event_name: 'PostToolUse',
      model: 'gpt-5.1-codex',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: './check.sh' },
      tool_response: '',
      tool_use_id: 'call_5',
    });
    const completed = await withRolloutEvidence(event);
    expect(completed.action).toMatchObject({ type: 'after-call', result: { ok: false, exitCode: 1 } });
  });
});
