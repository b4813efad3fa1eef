import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { openGuard } from '../../src/guard/open.js';
import { withSessionState } from '../../src/guard/session-state.js';
import { freePort, type RedisServer, redisInstalled, startRedis } from '../stores/redis-server.js';
import { runScript } from '../stores/run-node.js';
import { failedRead, takeTurn } from './session-turns.js';
import { buildHook, type HookRun, runHookProcess, tempProject } from './support.js';

// Bundled inside the repository, so that the hook finds the optional better-sqlite3 as an install does.
const root = fileURLToPath(new URL('../..', import.meta.url));
let bundle: Awaited<ReturnType<typeof buildHook>>;
let hook: string;
const projects: (() => Promise<void>)[] = [];
beforeAll(async () => {
  bundle = await buildHook(root, '.scratch-hook-');
  hook = bundle.path;
});
afterAll(async () => {
  await Promise.all(projects.map((remove) => remove()));
  bundle.remove();
});

const SESSION = '7c2e9a41-5b3d-4f8e-a1c6-0d9b8e7f6a52';
/** Past the hook's deadline of 60 s: what the hook takes under load is its own to decide. */
const HOOK_LIMIT_MS = 70_000;

function sqliteSession(extra: readonly string[], store = 'sqlite') {
  const project = tempProject();
  projects.push(project.remove);
  const dir = project.dir;
  const base = {
    session_id: SESSION,
    transcript_path: join(dir, '.claude', 'projects', `${SESSION}.jsonl`),
    cwd: dir,
    permission_mode: 'default',
  };
  const send = (payload: object) =>
    // A deadline far away: six processes at once on a busy machine must not answer without the guard,
    // and none is killed before the hook's own limit to save an outcome (a killed one saves nothing).
    runHookProcess(
      hook,
      ['claude-code', '--store', store, '--deadline-ms', '60000', ...extra],
      { ...base, ...payload },
      { killAfterMs: HOOK_LIMIT_MS },
    );
  return { dir, send };
}

function denied(run: HookRun): string | undefined {
  const output = run.json?.hookSpecificOutput as Record<string, unknown> | undefined;
  return output?.permissionDecision === 'deny' ? String(output.permissionDecisionReason) : undefined;
}

const readResponse = (path: string) => ({
  type: 'text',
  file: { filePath: path, content: 'export const limit = 10;\n', numLines: 1, startLine: 1, totalLines: 1 },
});

describe.each([
  ['each hook process handling its event itself', ['--no-daemon']],
  ['the hook helper answering', []],
])('narrowing-guard hook --store sqlite, %s', (_, extra) => {
  it(
    'loses no update of one session when its hook processes run at once',
    async () => {
      const session = sqliteSession(extra);
      const readme = join(session.dir, 'README.md');
      const runs = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          session.send({
            hook_event_name: 'PostToolUse',
            tool_name: 'Read',
            tool_input: { file_path: readme },
            tool_use_id: `toolu_sql${i}`,
            tool_response: readResponse(readme),
          }),
        ),
      );
      // Each saved its outcome in the database: none went on unchecked or in memory.
      for (const run of runs) {
        expect(run.stderr).not.toContain('unchecked');
        expect(run.stderr).not.toContain('in memory only');
        expect(run.code).toBe(0);
      }
      const check = await session.send({
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: { file_path: readme },
        tool_use_id: 'toolu_sqlcheck',
      });
      expect(denied(check)).toContain('6 times');
    },
    2 * HOOK_LIMIT_MS,
  );

  it('keeps the session’s run state in the state database, not in session files', async () => {
    const session = sqliteSession(extra);
    const missing = join(session.dir, 'src/config.ts');
    await session.send({
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Read',
      tool_input: { file_path: missing },
      tool_use_id: 'toolu_sqlmiss',
      error: 'File does not exist.',
    });
    const stateDir = join(session.dir, '.narrowing');
    const { stopDaemons } = await import('../../src/hooks/daemon-client.js');
    await stopDaemons(stateDir);
    expect(existsSync(join(stateDir, 'sessions'))).toBe(false);
    const db = new Database(join(stateDir, 'state.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT id FROM sessions').pluck().all()).toEqual([SESSION]);
      expect(db.prepare('SELECT count(*) FROM constraints').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});

describe.skipIf(!redisInstalled)('narrowing-guard hook --store redis://', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it(
    'learns into Redis, keeps run state in session files, and journals in the project',
    async () => {
      const session = sqliteSession(['--no-daemon'], redis.url);
      const missing = join(session.dir, 'src/config.ts');
      const failure = await session.send({
        hook_event_name: 'PostToolUseFailure',
        tool_name: 'Read',
        tool_input: { file_path: missing },
        tool_use_id: 'toolu_redismiss',
        error: 'File does not exist.',
      });
      expect(failure.stderr).not.toContain('unchecked');
      // No state file: the ban comes from Redis.
      const check = await session.send({
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: { file_path: missing },
        tool_use_id: 'toolu_redischeck',
      });
      expect(denied(check)).toContain('config.ts');
      const stateDir = join(session.dir, '.narrowing');
      expect(existsSync(join(stateDir, 'state.json'))).toBe(false);
      expect(existsSync(join(stateDir, 'sessions'))).toBe(true);
      expect(existsSync(join(stateDir, 'journal.jsonl'))).toBe(true);
      // Two hook processes one after the other: a loaded machine takes many seconds to start each.
    },
    2 * HOOK_LIMIT_MS,
  );
});

describe('narrowing-guard hook with a redis store that is down', () => {
  it('goes on in memory at once, its journal kept, when the server refuses the connection', async () => {
    const session = sqliteSession(['--no-daemon'], `redis://127.0.0.1:${await freePort()}`);
    const run = await session.send({
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Read',
      tool_input: { file_path: join(session.dir, 'src/app.ts') },
      tool_use_id: 'toolu_down',
      error: 'File does not exist.',
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/ECONNREFUSED[\s\S]*state in memory only and the journal kept/);
    expect(run.stderr).not.toMatch(/needs a stateDir|proceeds unchecked|took longer/);
    const journal = readFileSync(join(session.dir, '.narrowing', 'journal.jsonl'), 'utf8');
    expect(journal).toContain('"type":"outcome"');
  });
});

describe('one session’s events on the SQLite store, the helper and a hook process side by side', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A guard as the helper or a hook process opens it: its own connection to the project's database. */
  async function openSide(dir: string, busyTimeoutMs?: number) {
    const { openSqliteStore } = await import('../../src/stores/sqlite-store.js');
    // Never polled during the test: what a side knows of the other's writes is what its turn reads.
    const store = await openSqliteStore({
      path: join(dir, 'state.db'),
      pollMs: 3_600_000,
      ...(busyTimeoutMs !== undefined && { busyTimeoutMs }),
    });
    return openGuard({
      store,
      stateDir: dir,
      sessionId: SESSION,
      journal: false,
      probe: false,
      workspaceRoot: dir,
    });
  }

  /** A project folder of this test's own. */
  function newProject(prefix: string): string {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    dirs.push(dir);
    return dir;
  }

  const missingRead = (dir: string, id: string) => failedRead(dir, id, SESSION);
  it('records an outcome whose turn waited longer than the database’s busy timeout', async () => {
    const dir = newProject('narrowing-sqlite-busy-');
    const guard = await openSide(dir, 400);
    // Another process's turn holds the write lock for longer than one wait of this process.
    const holder = runScript('test/fixtures/stores/sqlite-lock-holder.ts', [join(dir, 'state.db'), '700']);
    await new Promise((resolve) => holder.child.stdout.once('data', resolve));
    await takeTurn(guard, missingRead(dir, 'toolu_busy'));
    await guard.close();
    expect(await holder.exited).toMatchObject({ code: 0, stderr: '' });

    const check = await openSide(dir);
    const verdict = await withSessionState(check, () =>
      check.check(toolCallToProposal('Read', { file_path: join(dir, 'src/config.ts') })),
    );
    await check.close();
    expect(verdict.reason).toContain('does not exist');
  });

  it('counts every failure of a call when the helper holds the session open while a hook process records one', async () => {
    const dir = newProject('narrowing-sqlite-turns-');
    const missing = join(dir, 'src/config.ts');
    const failure = (id: string) => missingRead(dir, id);
    // The helper has the session open; a hook process (the helper not up yet for it) opened its guard too.
    const helper = await openSide(dir);
    const hookProcess = await openSide(dir);
    await takeTurn(helper, failure('toolu_first'));
    await helper.flush();
    // The hook process handles its event while the helper keeps the state it read.
    await takeTurn(hookProcess, failure('toolu_second'));
    await hookProcess.close();
    await takeTurn(helper, failure('toolu_third'));
    await helper.close();

    const check = await openSide(dir);
    const verdict = await withSessionState(check, () =>
      check.check(toolCallToProposal('Read', { file_path: missing })),
    );
    await check.close();
    expect(verdict.verdict).toBe('block');
    expect(verdict.reason).toContain('failed 3 times');
  });
});
