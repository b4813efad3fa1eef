import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookFiles, runHookProcess } from './support.js';

const { hookPath, project } = hookFiles();

describe('narrowing-guard hook gemini-cli', () => {
  const base = (dir: string) => ({
    session_id: 'gemini-5d2c',
    transcript_path: join(dir, '.gemini', 'chats', 'session.json'),
    cwd: dir,
    timestamp: '2026-11-24T09:12:03.412Z',
  });
  const send = (payload: object) => runHookProcess(hookPath(), ['gemini-cli'], payload);

  it('denies reading a missing file again with {"decision": "deny", "reason"}', async () => {
    const dir = project();
    const input = { absolute_path: join(dir, 'docs/setup.md') };
    const before = { ...base(dir), hook_event_name: 'BeforeTool', tool_name: 'read_file', tool_input: input };
    expect((await send(before)).stdout).toBe('');
    await send({
      ...base(dir),
      hook_event_name: 'AfterTool',
      tool_name: 'read_file',
      tool_input: input,
      tool_response: {
        llmContent: `File not found: ${input.absolute_path}`,
        returnDisplay: 'File not found.',
        error: { message: `File not found: ${input.absolute_path}`, type: 'file_not_found' },
      },
    });
    const again = await send(before);
    expect(again.json).toMatchObject({ decision: 'deny' });
    expect(String(again.json?.reason)).toContain('identical-failure');
  });

  it('takes mcp_<server>_<tool> and the older mcp__<server>__<tool> for the same tool', async () => {
    const dir = project();
    const args = { owner: 'acme', repo: 'api', issue_number: 404 };
    await send({
      ...base(dir),
      hook_event_name: 'AfterTool',
      tool_name: 'mcp__github__get_issue',
      tool_input: args,
      tool_response: {
        llmContent: 'Not Found',
        returnDisplay: 'Not Found',
        error: 'MCP error 404: Not Found',
      },
    });
    const again = await send({
      ...base(dir),
      hook_event_name: 'BeforeTool',
      tool_name: 'mcp_github_get_issue',
      tool_input: args,
      mcp_context: { server_name: 'github', tool_name: 'get_issue', command: 'github-mcp-server' },
    });
    expect(again.json).toMatchObject({ decision: 'deny' });
  });
});

describe('narrowing-guard hook codex', () => {
  const base = (dir: string) => ({
    session_id: '019a6b2e-codex',
    turn_id: 'turn-3',
    transcript_path: null,
    cwd: dir,
    model: 'gpt-5.1-codex',
    permission_mode: 'default',
  });
  const send = (payload: object) => runHookProcess(hookPath(), ['codex'], payload);

  it('denies a failing command run again with a non-empty reason, and never answers allow or ask', async () => {
    const dir = project();
    const input = { command: 'cat config/production.yml' };
    const pre = {
      ...base(dir),
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: input,
      tool_use_id: 'call_1',
    };
    const first = await send(pre);
    expect(first.stdout).toBe('');
    await send({
      ...base(dir),
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: input,
      tool_use_id: 'call_1',
      tool_response: { exit_code: 1, output: 'cat: config/production.yml: No such file or directory' },
    });
    const again = await send({ ...pre, tool_use_id: 'call_2' });
    const output = again.json?.hookSpecificOutput as Record<string, unknown>;
    expect(output).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    expect(String(output.permissionDecisionReason).length).toBeGreaterThan(0);
    expect(again.stdout).not.toMatch(/"(allow|ask)"/);
  });

  it('denies a check run again whose traceback `|| true` let pass with exit status 0', async () => {
    const dir = project();
    const input = { command: 'python3 -c "from app.tools import commands" 2>&1 || true' };
    const pre = { ...base(dir), hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: input };
    await send({
      ...pre,
      hook_event_name: 'PostToolUse',
      tool_use_id: 'call_1',
      // Codex's header above the output, its exit status that of `true`.
      tool_response:
        'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nTraceback (most recent call last):\n  File "<string>", line 1, in <module>\nModuleNotFoundError: No module named \'app\'\n',
    });
    const again = await send({ ...pre, tool_use_id: 'call_2' });
    expect(again.json?.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
  });
});

describe('narrowing-guard hook cursor', () => {
  const base = (dir: string) => ({
    conversation_id: 'c7e1-cursor',
    generation_id: 'g-2',
    workspace_roots: [dir],
    cursor_version: '2.1.0',
  });
  const send = (payload: object) => runHookProcess(hookPath(), ['cursor'], payload);

  it('denies a failing shell command run again with permission, agent_message and user_message', async () => {
    const dir = project();
    const input = { command: 'python scripts/migrate.py', cwd: dir };
    const pre = {
      ...base(dir),
      hook_event_name: 'preToolUse',
      tool_name: 'Shell',
      tool_input: input,
      tool_use_id: 'tu_1',
    };
    expect((await send(pre)).json).toEqual({ permission: 'allow' });
    const failure = 'python: can\'t open file "scripts/migrate.py": [Errno 2] No such file or directory';
    // Cursor reports a failed shell call twice; it is learned once.
    await send({
      ...base(dir),
      hook_event_name: 'postToolUse',
      tool_name: 'Shell',
      tool_input: input,
      tool_use_id: 'tu_1',
      tool_output: { exit_code: 2, output: failure },
    });
    await send({
      ...base(dir),
      hook_event_name: 'postToolUseFailure',
      tool_name: 'Shell',
      tool_input: input,
      tool_use_id: 'tu_1',
      error_message: failure,
      failure_type: 'error',
    });
    const again = await send({ ...pre, tool_use_id: 'tu_2' });
    expect(again.json).toMatchObject({ permission: 'deny' });
    expect(String(again.json?.agent_message)).toContain(' failed and ');
    expect(String(again.json?.user_message)).not.toContain('\n');
  });

  it('answers beforeSubmitPrompt with continue and keeps learned bans across prompts', async () => {
    const dir = project();
    const read = {
      ...base(dir),
      hook_event_name: 'beforeReadFile',
      file_path: join(dir, 'src/env.ts'),
      content: '',
    };
    const learned = await send({
      ...base(dir),
      hook_event_name: 'postToolUseFailure',
      tool_name: 'Read',
      tool_input: { file_path: read.file_path },
      error_message: 'File not found',
      failure_type: 'error',
    });
    expect(learned.stderr).toBe('');
    expect(
      await send({ ...base(dir), hook_event_name: 'beforeSubmitPrompt', prompt: 'try again' }),
    ).toMatchObject({ json: { continue: true }, stderr: '' });
    const again = await send(read);
    expect(again.stderr).toBe('');
    expect(again.json).toEqual({
      permission: 'deny',
      agent_message: expect.any(String),
      user_message: expect.any(String),
    });
  });
});
