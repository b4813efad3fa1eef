import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionStatePath } from '../../src/guard/session-state.js';
import { runHook } from '../../src/hooks/run.js';
import { hookFiles, runHookProcess } from './support.js';

const { hookPath, project } = hookFiles();

const readCall = (dir: string) => ({
  session_id: 'cc-faults',
  cwd: dir,
  hook_event_name: 'PreToolUse',
  tool_name: 'Read',
  tool_input: { file_path: join(dir, 'src/app.ts') },
  tool_use_id: 'toolu_01',
});

describe('a fault of the hook itself never reads as a denial', () => {
  it('a mistyped agent name exits 1, lets the call run and names the agent it most likely meant', async () => {
    const dir = project();
    const run = await runHookProcess(hookPath(), ['claude'], readCall(dir));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('unknown agent "claude"');
    expect(run.stderr).toContain('did you mean claude-code?');
    expect(run.stderr).toContain('proceeds unchecked');
  });

  it('an unknown option exits 1 and lets the call run', async () => {
    const dir = project();
    const run = await runHookProcess(hookPath(), ['claude-code', '--policy-file', 'x.yaml'], readCall(dir));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("Unknown option '--policy-file'");
  });

  it('a missing agent name exits 1', async () => {
    const run = await runHookProcess(hookPath(), [], '{}');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no agent named');
  });

  it('a bad command line with --fail-closed refuses the call with exit 2', async () => {
    const dir = project();
    const run = await runHookProcess(hookPath(), ['gemini', '--fail-closed'], readCall(dir));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('did you mean gemini-cli?');
    expect(run.stderr).toContain('refused (--fail-closed)');
  });

  it('an unparsable payload lets the call run, and is refused with exit 2 under --fail-closed', async () => {
    const open = await runHookProcess(hookPath(), ['codex'], '{"session_id": "s1", ');
    expect(open.code).toBe(0);
    expect(open.stderr).toContain('not JSON');
    const closed = await runHookProcess(hookPath(), ['codex', '--fail-closed'], '{"session_id": "s1", ');
    expect(closed.code).toBe(2);
    expect(closed.stderr).toContain('refusing the call (--fail-closed)');
  });

  it('a payload without a session id is refused with exit 2 under --fail-closed', async () => {
    const dir = project();
    const { session_id: _, ...payload } = readCall(dir);
    const open = await runHookProcess(hookPath(), ['claude-code'], payload);
    expect(open.code).toBe(0);
    expect(open.stderr).toContain('has no session_id');
    const closed = await runHookProcess(hookPath(), ['claude-code', '--fail-closed'], payload);
    expect(closed.code).toBe(2);
    expect(closed.stderr).toContain('has no session_id');
  });

  it("says so when the payload is another agent's", async () => {
    const dir = project();
    const gemini = {
      session_id: 'g-1',
      cwd: dir,
      hook_event_name: 'BeforeTool',
      tool_name: 'read_file',
      tool_input: { absolute_path: join(dir, 'a.md') },
    };
    const run = await runHookProcess(hookPath(), ['claude-code'], gemini);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("looks like one of gemini-cli's");
    expect(run.stderr).toContain('narrowing-guard install gemini-cli');
    const cursor = await runHookProcess(hookPath(), ['codex'], {
      conversation_id: 'c-1',
      hook_event_name: 'beforeShellExecution',
      command: 'npm test',
      workspace_roots: [dir],
    });
    expect(cursor.stderr).toContain("looks like one of cursor's");
  });

  it('--help documents the helper, examples and exit codes', async () => {
    const run = spawnSync(process.execPath, [hookPath(), '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Exit codes:');
    expect(run.stdout).toContain('Examples:');
    expect(run.stdout).toContain('The helper:');
    expect(run.stdout).toContain('--no-daemon');
  });
});

describe('the hook process is bounded in time', () => {
  it('answers when nothing is left to wait for, refusing the call under --fail-closed rather than ending without a word', async () => {
    const said: string[] = [];
    const streams = {
      // A payload that never comes, and nothing else the process waits for: Node would end it now.
      stdin: {
        async *[Symbol.asyncIterator](): AsyncGenerator<string> {
          await new Promise(() => undefined);
        },
      },
      stdout: { write: (text: string) => said.push(text) },
      stderr: { write: (text: string) => said.push(text) },
    };
    const answered = runHook('claude-code', streams, { failClosed: true, deadlineMs: 600_000 });
    await new Promise((resolve) => setImmediate(resolve));
    process.emit('beforeExit', 0);
    expect(await answered).toBe(2);
    expect(said.join('')).toContain(
      'the guard stopped before it answered; refusing the call (--fail-closed)',
    );
  });

  it('--deadline-ms ends the process on time, not only its answer', async () => {
    const dir = project();
    // A live process (this test) holds the session's lock: the hook cannot take its turn.
    const session = sessionStatePath(join(dir, '.narrowing'), 'cc-faults');
    mkdirSync(`${session}.lock`, { recursive: true });
    writeFileSync(`${session}.lock.owner`, JSON.stringify({ pid: process.pid, host: hostname() }));
    // What the same check takes in a project whose lock is free, measured now: this machine's pace.
    const freeStarted = Date.now();
    const free = await runHookProcess(
      hookPath(),
      ['claude-code', '--no-daemon', '--deadline-ms', '700'],
      readCall(project()),
    );
    const baseline = Date.now() - freeStarted;
    expect(free.code).toBe(0);
    const started = Date.now();
    const run = await runHookProcess(
      hookPath(),
      ['claude-code', '--no-daemon', '--deadline-ms', '700'],
      readCall(dir),
    );
    const took = Date.now() - started;
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('took longer than 700 ms');
    // Without the deadline it would wait 11 s for the lock on top of what a free lock takes.
    expect(took).toBeLessThan(baseline + 10_000);
  }, 60_000);

  it('saves an outcome whose handling runs past --deadline-ms before the process exits', async () => {
    const dir = project();
    // A live process (this test) holds the session's lock for longer than the hook's deadline.
    const session = sessionStatePath(join(dir, '.narrowing'), 'cc-faults');
    mkdirSync(`${session}.lock`, { recursive: true });
    writeFileSync(`${session}.lock.owner`, JSON.stringify({ pid: process.pid, host: hostname() }));
    const failed = {
      ...readCall(dir),
      hook_event_name: 'PostToolUseFailure',
      error: `File does not exist: ${join(dir, 'src/app.ts')}`,
    };
    const learning = runHookProcess(
      hookPath(),
      ['claude-code', '--no-daemon', '--deadline-ms', '300'],
      failed,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    rmSync(`${session}.lock`, { recursive: true, force: true });
    rmSync(`${session}.lock.owner`, { force: true });
    const learned = await learning;
    expect(learned.code).toBe(0);
    expect(learned.stderr).not.toContain('proceeds unchecked');
    const again = await runHookProcess(hookPath(), ['claude-code', '--no-daemon'], {
      ...readCall(dir),
      tool_use_id: 'toolu_02',
    });
    expect(again.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it("a lock left by a hook killed before it named itself does not stall the session's next hook", async () => {
    const dir = project();
    const session = sessionStatePath(join(dir, '.narrowing'), 'cc-faults');
    const lock = `${session}.lock`;
    mkdirSync(lock, { recursive: true });
    const planted = statSync(lock).ino;
    // Kept 3 s old for as long as it stands: past the 2.5 s a live holder takes to name itself, and
    // never old enough to go stale. A hook that waited for it would give up after 11 s, unchecked.
    const dateBack = () => {
      try {
        if (statSync(lock).ino !== planted) return;
        const past = new Date(Date.now() - 3_000);
        utimesSync(lock, past, past);
      } catch {
        // Taken over and removed.
      }
    };
    dateBack();
    const keeper = setInterval(dateBack, 100);
    try {
      const run = await runHookProcess(hookPath(), ['claude-code', '--no-daemon'], readCall(dir));
      expect(run.code).toBe(0);
      expect(run.stderr).not.toMatch(/took longer|unchecked/);
    } finally {
      clearInterval(keeper);
    }
  }, 60_000);
});
