import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { openGuard, openGuardSync } from '../../src/guard/open.js';
import { sessionStatePath, withSessionState } from '../../src/guard/session-state.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-session-state-'));
  dirs.push(dir);
  return dir;
}

const open = (dir: string, sessionId: string) =>
  openGuardSync({ stateDir: dir, sessionId, journal: false, probe: false, workspaceRoot: dir });

const read = { file_path: 'src/app.ts' };
/** One successful read of the same file, checked and recorded. */
function readOnce(guard: ReturnType<typeof open>) {
  const verdict = guard.check(toolCallToProposal('read_file', read));
  guard.record(toolCallToOutcome('read_file', read, 'export const app = 1;\n'));
  return verdict.verdict;
}

describe('withSessionState', () => {
  it('hands a session’s run state from one guard to the next, as hook processes do', async () => {
    const dir = stateDir();
    for (let i = 0; i < 4; i += 1) {
      const guard = open(dir, 'session-a');
      await withSessionState(guard, () => readOnce(guard));
      await guard.close();
    }
    const guard = open(dir, 'session-a');
    const verdict = await withSessionState(guard, ({ resumed }) => {
      expect(resumed).toBe(true);
      return guard.check(toolCallToProposal('read_file', read)).verdict;
    });
    await guard.close();
    expect(verdict).toBe('block');
  });

  it('serves several sessions with one guard, each event in its own session’s run state', async () => {
    const dir = stateDir();
    const guard = open(dir, 'first');
    for (let i = 0; i < 4; i += 1)
      await withSessionState(guard, () => readOnce(guard), { sessionId: 'busy' });
    const other = await withSessionState(
      guard,
      () => guard.check(toolCallToProposal('read_file', read)).verdict,
      {
        sessionId: 'fresh',
      },
    );
    const busy = await withSessionState(
      guard,
      () => guard.check(toolCallToProposal('read_file', read)).verdict,
      {
        sessionId: 'busy',
      },
    );
    await guard.close();
    expect([other, busy]).toEqual(['allow', 'block']);
  });

  it('names session files by a digest, so a session id is never a path', () => {
    const path = sessionStatePath('/state', '../../etc/passwd');
    expect(path).toMatch(/^\/state\/sessions\/[0-9a-f]{32}\.json$/);
  });

  it('keeps the files in the sessions folder of the state directory', async () => {
    const dir = stateDir();
    const guard = open(dir, 'only');
    await withSessionState(guard, () => undefined);
    await guard.close();
    expect(readdirSync(join(dir, 'sessions'))).toHaveLength(1);
  });
});

describe('withSessionState on the SQLite store', () => {
  const openSqlite = (dir: string, sessionId: string) =>
    openGuard({
      store: 'sqlite',
      stateDir: dir,
      sessionId,
      journal: false,
      probe: false,
      workspaceRoot: dir,
    });

  it('hands a session’s run state from one guard to the next through the database', async () => {
    const dir = stateDir();
    for (let i = 0; i < 4; i += 1) {
      const guard = await openSqlite(dir, 'session-a');
      await withSessionState(guard, () => readOnce(guard));
      await guard.close();
    }
    const guard = await openSqlite(dir, 'session-a');
    const verdict = await withSessionState(guard, ({ resumed }) => {
      expect(resumed).toBe(true);
      return guard.check(toolCallToProposal('read_file', read)).verdict;
    });
    await guard.close();
    expect(verdict).toBe('block');
    expect(readdirSync(dir)).not.toContain('sessions');
  });

  it('starts a session over when its saved row is not run state', async () => {
    const dir = stateDir();
    const { openSqliteStore } = await import('../../src/stores/sqlite-store.js');
    const store = await openSqliteStore({ path: join(dir, 'state.db') });
    store.sessions.set('session-b', { version: 99, anything: true });
    await store.close();
    const problems: string[] = [];
    const guard = await openSqlite(dir, 'session-b');
    const resumed = await withSessionState(guard, (context) => context.resumed, {
      onProblem: (message) => problems.push(message),
    });
    await guard.close();
    expect(resumed).toBe(false);
    expect(problems).toEqual([expect.stringContaining('the session starts over')]);
  });
});
