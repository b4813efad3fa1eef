import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionStatePath } from '../../src/guard/session-state.js';
import { claudeMissingRead } from './claude-read.js';
import { exited, helperProjects, runHookProcess, until } from './support.js';

const { hookPath, project, startHelper } = helperProjects();

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const events = (dir: string, file = 'docs/setup.md', id = 'toolu_1') =>
  claudeMissingRead('cc-locks', dir, file, id);

/** The locks of the session's run state and of the state file, as folders on disk. */
function locks(stateDir: string): { readonly session: string; readonly state: string } {
  return {
    session: `${sessionStatePath(stateDir, 'cc-locks')}.lock`,
    state: join(stateDir, 'state.json.lock'),
  };
}

/** A project whose helper has answered one event: a failed read. */
async function afterOneEvent() {
  const { dir, stateDir, socket } = project();
  const helper = startHelper(socket, stateDir);
  await until(() => existsSync(socket));
  await runHookProcess(hookPath(), ['claude-code'], events(dir).failed);
  return { stateDir, helper };
}

describe('the locks the hook helper keeps between events', () => {
  it('are the session’s and the state file’s, given back at SIGTERM', async () => {
    const { stateDir, helper } = await afterOneEvent();
    const { session, state } = locks(stateDir);
    expect([existsSync(session), existsSync(state)]).toEqual([true, true]);
    helper.kill('SIGTERM');
    await exited(helper);
    expect(helper.exitCode).toBe(0);
    expect([session, state, `${session}.owner`, `${state}.owner`].filter((path) => existsSync(path))).toEqual(
      [],
    );
  });

  it('are given back once no event has come for a moment', async () => {
    const { stateDir, helper } = await afterOneEvent();
    const { session, state } = locks(stateDir);
    expect(existsSync(session)).toBe(true);
    await until(() => !existsSync(session) && !existsSync(state), 10_000);
    expect(helper.exitCode).toBeNull();
  });

  it('are given back within a moment of another process saying it waits for one', async () => {
    const { dir, stateDir, socket } = project();
    startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    const { state } = locks(stateDir);
    // The first event has the helper read the whole state after its answer, a turn of its own.
    await runHookProcess(hookPath(), ['claude-code'], events(dir).failed);
    const gaps: number[] = [];
    for (const id of ['toolu_1', 'toolu_2', 'toolu_3', 'toolu_4', 'toolu_5']) {
      await runHookProcess(hookPath(), ['claude-code'], events(dir, `docs/${id}.md`, id).failed);
      expect(existsSync(state)).toBe(true);
      // What a process waiting for the state file's lock writes.
      writeFileSync(`${state}.wanted`, '1\n');
      const marked = Date.now();
      while (existsSync(state) && Date.now() - marked < 5_000) await pause(2);
      gaps.push(Date.now() - marked);
      rmSync(`${state}.wanted`, { force: true });
    }
    // Told of the mark by the system, not found at its next look for idleness (every 250 ms): the
    // median, so that one slow wake-up of a loaded machine does not decide.
    expect(gaps.sort((a, b) => a - b)[2]).toBeLessThan(150);
  });

  it('let a hook without the helper save its outcome while the helper keeps serving the session', async () => {
    const { dir, stateDir, socket } = project();
    startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    const setup = events(dir);
    await runHookProcess(hookPath(), ['claude-code'], setup.failed);
    // The agent's events keep coming through the helper: it is never idle while the other waits.
    let serving = true;
    const through = (async () => {
      while (serving) await runHookProcess(hookPath(), ['claude-code'], setup.before);
    })();
    const deploy = events(dir, 'docs/deploy.md', 'toolu_2');
    const alone = await runHookProcess(hookPath(), ['claude-code', '--no-daemon'], deploy.failed);
    serving = false;
    await through;
    // The helper holds the journal: the hook says so, and writes to a journal of its own.
    expect([alone.code, alone.stderr]).toEqual([0, expect.not.stringMatching(/unchecked|lock/)]);
    expect(readFileSync(join(stateDir, 'state.json'), 'utf8')).toContain('docs/deploy.md');
    const denied = await runHookProcess(hookPath(), ['claude-code'], deploy.before);
    expect(denied.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });
});
