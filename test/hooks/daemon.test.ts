import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runForget } from '../../src/cli/commands/forget.js';
import { sessionStatePath } from '../../src/guard/session-state.js';
import { daemonSocketPath, stopDaemons } from '../../src/hooks/daemon-client.js';
import { claudeMissingRead } from './claude-read.js';
import { exited, helperProjects, runHookProcess, until } from './support.js';

const { hookPath, project, startHelper } = helperProjects();

/** Holds the test session's lock as a live process (this test) would; returns its release. */
function holdSessionLock(stateDir: string): () => void {
  const session = sessionStatePath(stateDir, 'cc-helper');
  mkdirSync(`${session}.lock`, { recursive: true });
  writeFileSync(`${session}.lock.owner`, JSON.stringify({ pid: process.pid, host: hostname() }));
  return () => {
    rmSync(`${session}.lock`, { recursive: true, force: true });
    rmSync(`${session}.lock.owner`, { force: true });
  };
}

const events = (dir: string) => claudeMissingRead('cc-helper', dir, 'docs/setup.md', 'toolu_1');

describe('the hook helper', () => {
  it('has written an acknowledged event when it is killed right after answering', async () => {
    const { dir, stateDir, socket } = project();
    const helper = startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    const { before, failed } = events(dir);
    const learned = await runHookProcess(hookPath(), ['claude-code'], failed);
    expect(learned.stderr).toBe('');
    helper.kill('SIGKILL');
    await exited(helper);
    const again = await runHookProcess(hookPath(), ['claude-code', '--no-daemon'], before);
    expect(again.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it('at SIGTERM writes what it holds, removes its socket and exits', async () => {
    const { dir, stateDir, socket } = project();
    const helper = startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    await runHookProcess(hookPath(), ['claude-code'], events(dir).failed);
    helper.kill('SIGTERM');
    await exited(helper);
    expect(helper.exitCode).toBe(0);
    expect(existsSync(socket)).toBe(false);
    expect(readFileSync(join(stateDir, 'state.json'), 'utf8')).toContain('docs/setup.md');
  });

  it('keeps the code it compiled when it exits, so that the next helper starts without compiling it', async () => {
    const { dir, stateDir, socket } = project();
    // Its own temporary folder, where the helper keeps its code cache (the user's private folder there).
    const temporary = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-helper-cache-')));
    try {
      const helper = spawn(
        process.execPath,
        [hookPath(), 'serve', '--socket', socket, '--state-dir', stateDir],
        {
          stdio: 'ignore',
          env: { ...process.env, TMPDIR: temporary },
        },
      );
      await until(() => existsSync(socket));
      await runHookProcess(hookPath(), ['claude-code'], events(dir).failed);
      helper.kill('SIGTERM');
      await exited(helper);
      const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
      const caches = readdirSync(join(temporary, `narrowing-guard-${uid}`, 'code-cache'));
      expect(caches).toEqual(
        expect.arrayContaining([expect.stringMatching(/^hook-daemon-[0-9a-f]{16}-[0-9a-f]{16}\.v8cache$/)]),
      );
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  });

  it('answers an event it could not handle within the deadline only once it is written', async () => {
    const { dir, stateDir, socket } = project();
    const helper = startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    const release = holdSessionLock(stateDir);
    const { before, failed } = events(dir);
    const learning = runHookProcess(hookPath(), ['claude-code', '--deadline-ms', '300'], failed);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    release();
    const learned = await learning;
    expect(learned.stderr).not.toContain('proceeds unchecked');
    helper.kill('SIGKILL');
    await exited(helper);
    const again = await runHookProcess(hookPath(), ['claude-code', '--no-daemon'], before);
    expect(again.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it('at SIGTERM still handles and writes the events it has received but not yet answered', async () => {
    const { dir, stateDir, socket } = project();
    const helper = startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    const release = holdSessionLock(stateDir);
    const { failed } = events(dir);
    const other = {
      ...failed,
      tool_input: { file_path: join(dir, 'docs/deploy.md') },
      tool_use_id: 'toolu_2',
      error: `File does not exist: ${join(dir, 'docs/deploy.md')}`,
    };
    const first = runHookProcess(hookPath(), ['claude-code'], failed);
    const second = runHookProcess(hookPath(), ['claude-code'], other);
    // Both have reached the helper, which waits for the lock with the first and queues the second.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    helper.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    const runs = await Promise.all([first, second]);
    await exited(helper);
    for (const run of runs) expect(run.stderr).not.toContain('proceeds unchecked');
    const state = readFileSync(join(stateDir, 'state.json'), 'utf8');
    expect(state).toContain('docs/setup.md');
    expect(state).toContain('docs/deploy.md');
  });

  it('stops enforcing a constraint as soon as `forget` lifts it', async () => {
    const { dir, stateDir, socket } = project();
    startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    const { before, failed } = events(dir);
    await runHookProcess(hookPath(), ['claude-code'], failed);
    const denied = await runHookProcess(hookPath(), ['claude-code'], before);
    expect(denied.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    let out = '';
    const io = { stdout: { write: (text: string) => (out += text) }, stderr: { write: () => true }, env: {} };
    expect(await runForget([join(dir, 'docs/setup.md')], { stateDir }, io, dir)).toBe(0);
    expect(out).toMatch(/Forgot 1 constraint/);
    const allowed = await runHookProcess(hookPath(), ['claude-code'], before);
    expect(allowed.stdout).toBe('');
  });

  it('leaves the state file as it is when an event teaches nothing new', async () => {
    const { dir, stateDir, socket } = project();
    startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    const { before, failed } = events(dir);
    await runHookProcess(hookPath(), ['claude-code'], failed);
    const state = join(stateDir, 'state.json');
    const written = statSync(state, { bigint: true });
    writeFileSync(join(dir, 'README.md'), '# Project\n');
    const read = { ...before, tool_input: { file_path: join(dir, 'README.md') }, tool_use_id: 'toolu_2' };
    expect((await runHookProcess(hookPath(), ['claude-code'], read)).stdout).toBe('');
    await runHookProcess(hookPath(), ['claude-code'], {
      ...read,
      hook_event_name: 'PostToolUse',
      tool_response: { type: 'text', file: { filePath: read.tool_input.file_path, content: '# Project\n' } },
    });
    const after = statSync(state, { bigint: true });
    expect([after.ino, after.mtimeNs]).toEqual([written.ino, written.mtimeNs]);
  });

  it('is stopped by stopDaemons, which returns once its process has exited', async () => {
    const { dir, stateDir, socket } = project();
    const helper = startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    await runHookProcess(hookPath(), ['claude-code'], events(dir).failed);
    await stopDaemons(stateDir);
    expect(() => process.kill(helper.pid as number, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(readFileSync(join(stateDir, 'state.json'), 'utf8')).toContain('docs/setup.md');
  });

  it('is stopped by stopDaemons when its socket lives outside a state directory too deep for one', async () => {
    const { dir } = project();
    const stateDir = join(
      dir,
      'a-project-folder-whose-name-is-long-enough-that-no-socket-fits-in-it',
      '.narrowing',
    );
    mkdirSync(stateDir, { recursive: true });
    const socket = daemonSocketPath({ stateDir }, `${hookPath()}@${statSync(hookPath()).mtimeMs}`);
    expect(socket.startsWith(stateDir)).toBe(false);
    const helper = startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    await stopDaemons(stateDir);
    // Gone, as this process sees it once it has reaped its child: a helper that has exited but is not
    // reaped yet still answers `kill(pid, 0)` on a loaded machine.
    await until(() => helper.exitCode !== null || helper.signalCode !== null, 10_000);
    expect(existsSync(socket)).toBe(false);
    // The file that named its socket goes with it.
    expect(readdirSync(stateDir).filter((name) => name.endsWith('.where'))).toEqual([]);
  });

  it('binds one socket path once, however many helpers start at the same time over a stale socket', async () => {
    const { stateDir, socket } = project();
    // What a helper killed without cleaning up leaves: a file no one listens on.
    writeFileSync(socket, '');
    const started = Array.from({ length: 6 }, () => startHelper(socket, stateDir));
    await until(() => started.filter((helper) => helper.exitCode !== null).length >= 5, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(started.filter((helper) => helper.exitCode === null && helper.signalCode === null)).toHaveLength(
      1,
    );
  });
});
