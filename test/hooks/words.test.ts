/**
 * What a hook user reads: the empty `inspect`, a block reason and the tool-health warning, each for the
 * agent and the tool the user actually has.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInspect } from '../../src/cli/commands/inspect.js';
import { runInstall } from '../../src/cli/commands/install.js';
import { handleHookEvent } from '../../src/hooks/handle.js';
import { HOOK_PROTOCOLS } from '../../src/hooks/protocols.js';
import { captureIO } from '../cli/commands/cli-io.js';
import { tempProject } from './conformance/scenario.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(): string {
  const created = tempProject();
  folders.push(created.dir);
  return created.dir;
}

function emptyHome(): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-words-home-')));
  folders.push(home);
  return home;
}

async function inspectEmpty(cwd: string, homeDir: string): Promise<string> {
  const { io, stdout } = captureIO();
  expect(await runInspect({}, io, { cwd, now: Date.now(), homeDir })).toBe(0);
  return stdout();
}

/** Claude Code's session in `cwd`: each event through its hook protocol, the reply as Claude Code reads it. */
function claudeSession(cwd: string) {
  const base = {
    session_id: 'b6f1d3e2-0c4d-4c53-9a57-3f1c2a7d9e10',
    transcript_path: join(cwd, 't.jsonl'),
    cwd,
  };
  let calls = 0;
  const send = async (payload: Record<string, unknown>) => {
    const protocol = HOOK_PROTOCOLS['claude-code'];
    const event = protocol.parse({ ...base, ...payload });
    const reply = protocol.reply(event, await handleHookEvent(event, { onProblem: () => undefined }));
    if (reply.stdout.trim() === '') return { decision: 'allow', text: '' };
    const specific = JSON.parse(reply.stdout).hookSpecificOutput as Record<string, string>;
    return {
      decision: specific.permissionDecision ?? 'warn',
      text: specific.permissionDecisionReason ?? specific.additionalContext ?? '',
    };
  };
  /** A call the model proposes, then its failure as Claude Code reports it; what the model was told before it. */
  const failing = async (tool_name: string, tool_input: Record<string, unknown>, error: string) => {
    const tool_use_id = `toolu_${++calls}`;
    const before = await send({ hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id });
    if (before.decision !== 'deny') {
      await send({ hook_event_name: 'PostToolUseFailure', tool_name, tool_input, tool_use_id, error });
    }
    return before;
  };
  return { failing };
}

/** What the GitHub MCP server answers `create_issue` without a title (its zod schema's issues). */
const MISSING_TITLE = [
  'MCP error -32602: Invalid arguments for tool create_issue: [',
  '  {',
  '    "code": "invalid_type",',
  '    "expected": "string",',
  '    "received": "undefined",',
  '    "path": [',
  '      "title"',
  '    ],',
  '    "message": "Required"',
  '  }',
  ']',
].join('\n');

/**
 * What Claude Code reports for `npm run tset` in a project whose only script is `test` (npm 10): the
 * error, npm's suggestion, then its footer of pointers to the script list and to its log.
 */
const MISSING_SCRIPT = [
  'Exit code 1',
  'npm error Missing script: "tset"',
  'npm error',
  'npm error Did you mean this?',
  'npm error   npm run test # run the "test" package script',
  'npm error',
  'npm error To see a list of scripts, run:',
  'npm error   npm run',
  'npm error A complete log of this run can be found in: /home/dev/.npm/_logs/2026-11-29T17_52_08_114Z-debug-0.log',
].join('\n');

describe('the words a hook user reads', () => {
  it('inspect says, for a project whose Claude Code hooks run the guard, that a failing call in a session is all it takes', async () => {
    const dir = project();
    const home = emptyHome();
    expect(await runInstall('install', 'claude-code', { cwd: dir, home }, captureIO().io)).toBe(0);
    const text = await inspectEmpty(dir, home);
    expect(text).toContain('the hooks of Claude Code run the guard here');
    expect(text).toContain('once a call fails in a Claude Code session started in this project');
    expect(text).not.toContain('narrowing-guard mcp');
    expect(text).not.toContain('narrowing-guard wrap');
    // docs/cli.md shows this very sentence.
    const docs = readFileSync(join(import.meta.dirname, '../../docs/cli.md'), 'utf8');
    expect(docs).toContain(text.trim());
  });

  it('inspect counts hooks installed for the user among those that guard the project', async () => {
    const dir = project();
    const home = emptyHome();
    expect(await runInstall('install', 'gemini-cli', { cwd: dir, home, scope: 'user' }, captureIO().io)).toBe(
      0,
    );
    expect(await inspectEmpty(dir, home)).toContain('the hooks of Gemini CLI run the guard here');
  });

  it('inspect tells a project nothing guards yet how to guard an agent through its hooks or an MCP server', async () => {
    const text = await inspectEmpty(project(), emptyHome());
    expect(text).toContain('no agent is guarded for it');
    expect(text).toContain('`narrowing-guard install claude-code` (or gemini-cli, codex, cursor)');
    expect(text).toContain('`narrowing-guard wrap <server>`');
    expect(text).not.toMatch(/run an agent through `narrowing-guard mcp`/);
  });

  it("says an MCP server's validation error in its own words: the field and its message, not a signature name or raw JSON", async () => {
    const session = claudeSession(project());
    const input = { owner: 'acme', repo: 'web', body: 'The login page returns 500 since the last deploy.' };
    const attempts = [];
    for (let index = 0; index < 2; index++)
      attempts.push(await session.failing('mcp__github__create_issue', input, MISSING_TITLE));
    const denied = attempts[1];
    expect(denied?.decision).toBe('deny');
    expect(denied?.text).toContain('Invalid arguments for tool create_issue: title: Required');
    expect(denied?.text).not.toMatch(/failed once with|validation_error|invalid_type/);
    expect(denied?.text).not.toMatch(/[{[]\s*"/);
  });

  it("quotes a failed command's error and its suggestion, without the footer that points to the script list or the log", async () => {
    const session = claudeSession(project());
    let denied = { decision: 'allow', text: '' };
    for (let attempt = 0; attempt < 5 && denied.decision !== 'deny'; attempt++)
      denied = await session.failing('Bash', { command: 'npm run tset' }, MISSING_SCRIPT);
    expect(denied.decision).toBe('deny');
    expect(denied.text).toContain(
      'Missing script: "tset" Did you mean this? npm run test # run the "test" package script',
    );
    expect(denied.text).not.toMatch(/To see a list of scripts|complete log|_logs|…/);
  });

  it('never tells an agent whose shell keeps hitting a server that is down to stop using its shell', async () => {
    const session = claudeSession(project());
    const refused = (port: number) =>
      `Exit code 7\ncurl: (7) Failed to connect to localhost port ${port} after 0 ms: Couldn't connect to server`;
    let warning = { decision: 'allow', text: '' };
    for (let port = 8781; port <= 8787 && warning.decision === 'allow'; port++) {
      warning = await session.failing(
        'Bash',
        { command: `curl -sS http://localhost:${port}/health` },
        refused(port),
      );
    }
    expect(warning.decision).toBe('warn');
    expect(warning.text).toContain('(tool-health)');
    expect(warning.text).not.toMatch(/does not need Bash|without Bash|avoid Bash|stop using Bash/i);
    expect(warning.text).toContain('Bash calls that do not depend on it can go on meanwhile');
    expect(warning.text).toContain('is the server or service running');
  });
});
