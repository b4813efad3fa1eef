/**
 * An event the helper has answered is on disk, whatever happens to the helper next. The test holds
 * the state file's lock while the hook waits for its answer, so the helper cannot write: a helper
 * that answers before it writes is caught answering while the lock is held, then killed before it
 * could write. One that writes first answers only once the lock is given back.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { stateLayout } from '../../src/node/state-dir.js';
import { claudeMissingRead } from './claude-read.js';
import { exited, type HookRun, helperProjects, runHookProcess, until } from './support.js';

const { hookPath, project, startHelper } = helperProjects();

/** How long a hook that gets no answer while the lock is held is taken to be waiting for the write. */
const HELD_MS = 2_000;

/**
 * Holds the state file's lock as a live process (this test) holds it, once whoever holds it now
 * gives it back; returns its release.
 */
async function holdStateLock(stateDir: string): Promise<() => void> {
  const state = stateLayout(stateDir).state;
  await until(() => {
    try {
      mkdirSync(`${state}.lock`);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  });
  writeFileSync(`${state}.lock.owner`, JSON.stringify({ pid: process.pid, host: hostname() }));
  return () => {
    rmSync(`${state}.lock.owner`, { force: true });
    rmSync(`${state}.lock`, { recursive: true, force: true });
  };
}

/** Claude Code reading a file that is not there: the call, and its failure. */
const readMissing = (dir: string, file: string, id: string) =>
  claudeMissingRead('cc-acknowledged', dir, file, id);

/** Resolves to the run, or to undefined when the hook is still waiting after `ms`. */
function within(run: Promise<HookRun>, ms: number): Promise<HookRun | undefined> {
  return Promise.race([run, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]);
}

describe('an event the hook helper has answered', () => {
  it.each(['SIGKILL', 'SIGTERM'] as const)(
    'is written before the answer, so a helper stopped by %s right after answering has lost nothing',
    async (signal) => {
      const { dir, stateDir, socket } = project();
      const helper = startHelper(socket, stateDir);
      await until(() => existsSync(socket));
      // The helper learns a first failure and then holds the whole state, as in a session under way.
      const warm = readMissing(dir, 'docs/deploy.md', 'toolu_1');
      await runHookProcess(hookPath(), ['claude-code'], warm.failed);
      const setup = readMissing(dir, 'docs/setup.md', 'toolu_2');
      expect((await runHookProcess(hookPath(), ['claude-code'], setup.before)).stdout).toBe('');

      const release = await holdStateLock(stateDir);
      let answeredWhileLocked = false;
      try {
        const learning = runHookProcess(hookPath(), ['claude-code'], setup.failed);
        const early = await within(learning, HELD_MS);
        answeredWhileLocked = early !== undefined;
        if (answeredWhileLocked) {
          // Answered with nothing written: stopped now, as an agent's machine may stop it. A killed
          // helper is gone before the lock is given back; one asked to stop may write on its way out.
          helper.kill(signal);
          if (signal === 'SIGKILL') await exited(helper);
          release();
          await exited(helper);
        } else {
          release();
          const learned = await learning;
          expect(learned.stderr).not.toContain('proceeds unchecked');
          helper.kill(signal);
          await exited(helper);
        }
      } finally {
        release();
      }

      const again = await runHookProcess(hookPath(), ['claude-code', '--no-daemon'], {
        ...setup.before,
        tool_use_id: 'toolu_3',
      });
      expect(again.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
      expect(answeredWhileLocked).toBe(false);
    },
  );
});
