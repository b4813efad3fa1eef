import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { openGuard, openGuardSync } from '../../src/guard/open.js';
import {
  FOLD_EVERY,
  foldSessionLogs,
  sessionLogPath,
  sessionStatePath,
  withSessionState,
} from '../../src/guard/session-state.js';

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

describe('withSessionState appending to the session’s log', () => {
  const logOf = (dir: string, sessionId: string) => sessionLogPath(sessionStatePath(dir, sessionId));

  it('hands each turn appended to the log to the next guard, with no session file written', async () => {
    const dir = stateDir();
    const helper = open(dir, 'logged');
    for (let i = 0; i < 4; i += 1)
      await withSessionState(helper, () => readOnce(helper), { appendToLog: true });
    expect(existsSync(sessionStatePath(dir, 'logged'))).toBe(false);
    const lines = readFileSync(logOf(dir, 'logged'), 'utf8').split('\n');
    expect(lines.filter((line) => line !== '')).toHaveLength(4);
    // Another process of the session, its helper still running (or killed): it reads the log.
    const next = open(dir, 'logged');
    const verdict = await withSessionState(
      next,
      () => next.check(toolCallToProposal('read_file', read)).verdict,
    );
    await next.close();
    await helper.close();
    expect(verdict).toBe('block');
  });

  it('skips a last line cut short by a writer killed mid-append', async () => {
    const dir = stateDir();
    const helper = open(dir, 'torn');
    for (let i = 0; i < 4; i += 1)
      await withSessionState(helper, () => readOnce(helper), { appendToLog: true });
    await helper.close();
    appendFileSync(logOf(dir, 'torn'), '{"version":1,"sessionId":"torn","savedAt":1,"turn":99,"sess');
    const next = open(dir, 'torn');
    const verdict = await withSessionState(
      next,
      () => next.check(toolCallToProposal('read_file', read)).verdict,
    );
    await next.close();
    expect(verdict).toBe('block');
  });

  it('keeps the turn appended after a line cut short by a writer killed mid-append', async () => {
    const dir = stateDir();
    const killed = open(dir, 'restarted');
    for (let i = 0; i < 3; i += 1)
      await withSessionState(killed, () => readOnce(killed), { appendToLog: true });
    await killed.close();
    appendFileSync(logOf(dir, 'restarted'), '{"version":1,"sessionId":"restarted","savedAt":1,"sess');
    // The next helper's turn, then a process that reads the log.
    const helper = open(dir, 'restarted');
    await withSessionState(helper, ({ firstTime }) => firstTime('after:new-helper'), { appendToLog: true });
    await helper.close();
    const next = open(dir, 'restarted');
    const first = await withSessionState(next, ({ firstTime }) => firstTime('after:new-helper'));
    await next.close();
    expect(first).toBe(false);
  });

  it('takes the session file over the log once a process without the log wrote it later', async () => {
    const dir = stateDir();
    const helper = open(dir, 'mixed');
    for (let i = 0; i < 3; i += 1)
      await withSessionState(helper, () => readOnce(helper), { appendToLog: true });
    // A process without the helper starts the session over: its file is newer than the log.
    const other = open(dir, 'mixed');
    await withSessionState(other, ({ restart }) => restart());
    await other.close();
    const verdict = await withSessionState(
      helper,
      () => {
        readOnce(helper);
        return helper.check(toolCallToProposal('read_file', read)).verdict;
      },
      { appendToLog: true },
    );
    await helper.close();
    expect(verdict).toBe('allow');
  });

  it('folds the log into the session file, which then holds the last turn', async () => {
    const dir = stateDir();
    const helper = open(dir, 'folded');
    for (let i = 0; i < 4; i += 1)
      await withSessionState(helper, () => readOnce(helper), { appendToLog: true });
    await foldSessionLogs(helper);
    await helper.close();
    expect(existsSync(logOf(dir, 'folded'))).toBe(false);
    const next = open(dir, 'folded');
    const verdict = await withSessionState(
      next,
      () => next.check(toolCallToProposal('read_file', read)).verdict,
    );
    await next.close();
    expect(verdict).toBe('block');
  });

  it(`folds the log by itself every ${FOLD_EVERY} turns, so it stays bounded`, async () => {
    const dir = stateDir();
    const helper = open(dir, 'long');
    for (let i = 0; i <= FOLD_EVERY; i += 1)
      await withSessionState(helper, () => undefined, { appendToLog: true });
    await helper.close();
    expect(existsSync(sessionStatePath(dir, 'long'))).toBe(true);
    expect(existsSync(logOf(dir, 'long'))).toBe(false);
  });
});
