import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll } from 'vitest';
import { bundleHook } from '../../scripts/bundle-hook.js';
import { daemonSocketPath, stopDaemons } from '../../src/hooks/daemon-client.js';

/**
 * The hook bundled as it ships, for one test file: a copy of its own (a test may delete or change files of
 * it, and the helper's socket is named after the bundle's path) of the bundle made once per test run,
 * placed in a new folder under `parent` whose name starts with `prefix`.
 */
export async function buildHook(
  parent = tmpdir(),
  prefix = 'narrowing-hook-bundle-',
): Promise<{ readonly path: string; readonly remove: () => void }> {
  const shared = await bundledOnce();
  const dir = mkdtempSync(join(parent, prefix));
  cpSync(shared, dir, { recursive: true });
  // The entry the bin runs (CommonJS); hook.js beside it is the same entry as an ES module.
  return { path: join(dir, 'hook.cjs'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** How long a test file waits for another one that is bundling the hook. */
const BUNDLE_WAIT_MS = 120_000;

/**
 * The folder of the hook bundled from the sources, made by the first test file of the run that asks (in the
 * run's own temporary folder, see test/global-setup.ts, so that a run never takes an earlier run's bundle);
 * files in other workers wait for it. Bundling costs more than the tests of several files.
 */
async function bundledOnce(): Promise<string> {
  const shared = join(tmpdir(), 'narrowing-hook-bundle');
  const lock = `${shared}.lock`;
  const deadline = Date.now() + BUNDLE_WAIT_MS;
  while (!existsSync(shared)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is bundling: wait for its bundle, or take over if it gave up.
      if (Date.now() > deadline) throw new Error(`no hook bundle after ${BUNDLE_WAIT_MS} ms in ${shared}`);
      await sleep(100);
      continue;
    }
    try {
      if (!existsSync(shared)) {
        const staging = mkdtempSync(join(tmpdir(), 'narrowing-hook-bundling-'));
        await bundleHook(join(staging, 'hook.js'));
        renameSync(staging, shared);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return shared;
}

/**
 * For a file of hook tests: the hook bundled once before its tests, and empty projects made on demand,
 * all removed after them.
 */
export function hookFiles(): { readonly hookPath: () => string; readonly project: () => string } {
  let built: Awaited<ReturnType<typeof buildHook>> | undefined;
  const projects: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    built = await buildHook();
  });
  afterAll(async () => {
    await Promise.all(projects.map((remove) => remove()));
    built?.remove();
  });
  return {
    hookPath: () => {
      if (built === undefined) throw new Error('the hook is bundled before the tests run');
      return built.path;
    },
    project: () => {
      const created = tempProject();
      projects.push(created.remove);
      return created.dir;
    },
  };
}

/** Resolves once `test` holds (checked every 25 ms); throws after `timeoutMs`. */
export async function until(test: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Resolves once the child process has exited. */
export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** A project of `helperProjects`: its folder, its state directory and the bundled hook's helper socket. */
export interface HelperProject {
  readonly dir: string;
  readonly stateDir: string;
  readonly socket: string;
}

/**
 * For a file of tests of the hook helper: the hook bundled once before its tests, projects made on
 * demand, and helpers started as this test's children so that a test can signal them; after the
 * tests, helpers still running are killed and the projects removed.
 */
export function helperProjects(): {
  readonly hookPath: () => string;
  readonly project: () => HelperProject;
  readonly startHelper: (socket: string, stateDir: string) => ChildProcess;
} {
  let built: Awaited<ReturnType<typeof buildHook>> | undefined;
  const projects: (() => Promise<void>)[] = [];
  const helpers: ChildProcess[] = [];
  beforeAll(async () => {
    built = await buildHook();
  });
  afterAll(async () => {
    for (const helper of helpers)
      if (helper.exitCode === null && helper.signalCode === null) helper.kill('SIGKILL');
    await Promise.all(projects.map((remove) => remove()));
    built?.remove();
  });
  const hookPath = () => {
    if (built === undefined) throw new Error('the hook is bundled before the tests run');
    return built.path;
  };
  return {
    hookPath,
    project: () => {
      const created = tempProject();
      projects.push(created.remove);
      const stateDir = join(created.dir, '.narrowing');
      // The socket the bundled hook asks (its build is the bundle's path and time).
      const path = hookPath();
      const socket = daemonSocketPath({ stateDir }, `${path}@${statSync(path).mtimeMs}`);
      return { dir: created.dir, stateDir, socket };
    },
    startHelper: (socket, stateDir) => {
      const helper = spawn(
        process.execPath,
        [hookPath(), 'serve', '--socket', socket, '--state-dir', stateDir, '--idle-ms', '30000'],
        { stdio: 'ignore' },
      );
      helpers.push(helper);
      return helper;
    },
  };
}

/**
 * An empty project with its own state directory, so no folder above it is taken for its root.
 * `remove` stops the hook helpers serving it first, so none writes there after it is gone.
 */
export function tempProject(): { readonly dir: string; readonly remove: () => Promise<void> } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-hook-project-')));
  mkdirSync(join(dir, '.narrowing'));
  return {
    dir,
    remove: async () => {
      // Returns once the helpers have written their last files and exited.
      await stopDaemons(join(dir, '.narrowing'));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Helpers started by a test stop soon after its last event even if nothing stops them. */
const HELPER_IDLE = ['--idle-ms', '5000'];
/**
 * A test of a verdict is not a test of speed: on a loaded machine a check is given this long before
 * it "proceeds unchecked" (under the 20 s a run is killed after). Tests of the deadline set their own.
 */
const VERDICT_DEADLINE = ['--deadline-ms', '15000'];

export interface HookRun {
  /** The hook process's id, for what it left behind under it. */
  readonly pid: number | undefined;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout as JSON, or undefined when it was empty. */
  readonly json: Record<string, unknown> | undefined;
}

/** Runs the hook as an agent does: a process of its own, the event on stdin. Killed after 20 s (`killAfterMs`). */
export function runHookProcess(
  hook: string,
  args: readonly string[],
  payload: unknown,
  {
    cwd,
    env,
    nodeArgs = [],
    killAfterMs = 20_000,
  }: { cwd?: string; env?: NodeJS.ProcessEnv; nodeArgs?: readonly string[]; killAfterMs?: number } = {},
): Promise<HookRun> {
  const deadline = args.includes('--deadline-ms') ? [] : VERDICT_DEADLINE;
  const child = spawn(process.execPath, [...nodeArgs, hook, ...args, ...HELPER_IDLE, ...deadline], {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  child.stdin.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        pid: child.pid,
        code,
        stdout,
        stderr,
        json: stdout.trim() === '' ? undefined : JSON.parse(stdout),
      });
    });
  });
}

/** A deadline far away for a hook run alone: on a busy machine it must not answer without the guard. */
export const SOLO_HOOK_LIMIT_MS = 70_000;

/**
 * Claude Code's events of one session, each handled by a hook process of its own without the helper,
 * as a host runs the hook when the helper cannot start: `hookPath` is the bundle, `dir` the project.
 * `idPrefix` keeps the tool use ids of one test file's sessions apart from another's.
 */
export function soloClaudeSession(hookPath: string, dir: string, session: string, idPrefix: string) {
  let ids = 0;
  const base = () => ({
    session_id: session,
    transcript_path: join(dir, '.claude', 'projects', `${session}.jsonl`),
    cwd: dir,
    permission_mode: 'default',
    tool_use_id: `${idPrefix}${String(++ids).padStart(6, '0')}`,
  });
  const send = (payload: object) =>
    runHookProcess(
      hookPath,
      ['claude-code', '--no-daemon', '--deadline-ms', '60000'],
      { ...base(), ...payload },
      { killAfterMs: SOLO_HOOK_LIMIT_MS },
    );
  return {
    dir,
    pre: (tool: string, input: object) =>
      send({ hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input }),
    post: (tool: string, input: object, response: unknown) =>
      send({ hook_event_name: 'PostToolUse', tool_name: tool, tool_input: input, tool_response: response }),
    failure: (tool: string, input: object, error: string) =>
      send({ hook_event_name: 'PostToolUseFailure', tool_name: tool, tool_input: input, error }),
  };
}
