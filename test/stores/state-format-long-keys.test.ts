/**
 * A state written in format version 2 (before keys hashed long texts with SHA-256): it opens, is
 * migrated, and keeps blocking what it blocked, though the keys of its bans on calls with long texts
 * cannot be recomputed from the hashes it holds.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createClient } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyJournal } from '../../src/audit/index.js';
import type { Constraint } from '../../src/core/types.js';
import { openGuard, openGuardSync } from '../../src/guard/open.js';
import { openSqliteStore } from '../../src/stores/sqlite-store.js';
import { STATE_VERSION } from '../../src/stores/state-format.js';
import { redisInstalled, startRedis } from './redis-server.js';
import { temporaryDir } from './sample-state.js';

/** A state directory written by the build of format version 2, from the calls below. */
const V2_FIXTURE = join(import.meta.dirname, '../fixtures/stores/state-v2');
/** The same calls' bans, written by the build of format version 3. */
const V3_FIXTURE = join(import.meta.dirname, '../fixtures/stores/state-v3');
/** Within the lifetime of the fixture's bans. */
const V2_CLOCK = { now: () => 1_764_000_100_000 };

const retryLines = Array.from(
  { length: 24 },
  (_, step) => `  const retryDelayMs${step} = computeBackoff(attempt, ${step * 250}); // step ${step}`,
);
/** A failed edit whose search text (1,634 characters) is in its key by its hash. */
const LONG_EDIT = {
  tool: 'edit_file',
  args: {
    path: 'src/retry.ts',
    old_string: `export function scheduleRetries(attempt: number) {\n${retryLines.join('\n')}\n}`,
    new_string: 'export function scheduleRetries() {}',
  },
};
/** A call refused by its service, whose arguments are written in 350 characters. */
const LONG_CALL = {
  tool: 'create_issue',
  args: {
    repo: 'acme/orders',
    title: 'Export stops at the first unknown currency',
    body: 'The nightly export job fails when the orders table holds a currency code that is not in the currency table. Steps: run the export with --strict on a copy of production data from the 3rd; the job stops at the first unknown code instead of reporting all of them. Expected: a report listing every unknown code.',
    labels: 'bug,export',
  },
};
/** A read of a missing file: a ban on its target, whose key is the path itself. */
const SHORT_CALL = { tool: 'read_file', args: { path: 'src/missing-module.ts' } };
const quiet = () => undefined;

function fixtureBans(): Constraint[] {
  return JSON.parse(readFileSync(join(V2_FIXTURE, 'state.json'), 'utf8')).constraints;
}

const callKeyOf = (bans: readonly Constraint[], tool: string) =>
  bans.find((ban) => ban.tool === tool && ban.scope === 'call')?.callKey;

let dir: string;
let remove: () => void;
beforeEach(() => {
  ({ dir, remove } = temporaryDir());
});
afterEach(() => remove());

describe('a state written in format version 2', () => {
  it('opens, is migrated on first open, and keeps blocking what it blocked', async () => {
    cpSync(V2_FIXTURE, dir, { recursive: true });
    const guard = openGuardSync({ stateDir: dir, probe: false, clock: V2_CLOCK, onProblem: quiet });
    try {
      expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).version).toBe(STATE_VERSION);
      expect(guard.check(LONG_EDIT).verdict).toBe('block');
      expect(guard.check(LONG_CALL).verdict).toBe('block');
      expect(guard.check(SHORT_CALL).verdict).toBe('block');
      expect(guard.check({ ...LONG_EDIT, args: { ...LONG_EDIT.args, path: 'src/other.ts' } }).verdict).toBe(
        'allow',
      );
    } finally {
      await guard.close();
    }
  });

  it('keys a ban found by its older key anew, and saves it so, blocking in the next process too', async () => {
    cpSync(V2_FIXTURE, dir, { recursive: true });
    const first = openGuardSync({ stateDir: dir, probe: false, clock: V2_CLOCK, onProblem: quiet });
    first.check(LONG_EDIT);
    await first.close();
    const saved: Constraint[] = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).constraints;
    const older = callKeyOf(fixtureBans(), 'edit_file');
    const newer = saved.find((ban) => ban.tool === 'edit_file');
    expect(newer?.callKey).not.toBe(older);
    expect(newer?.keyHash).toBe(3);
    // Never looked up since, the other one keeps the key it was written with.
    expect(saved.find((ban) => ban.tool === 'create_issue')).toMatchObject({
      callKey: callKeyOf(fixtureBans(), 'create_issue'),
    });
    expect(saved.find((ban) => ban.tool === 'create_issue')).not.toHaveProperty('keyHash');
    const second = openGuardSync({ stateDir: dir, probe: false, clock: V2_CLOCK, onProblem: quiet });
    try {
      expect(second.check(LONG_EDIT).verdict).toBe('block');
      expect(second.check(LONG_CALL).verdict).toBe('block');
    } finally {
      await second.close();
    }
  });

  it('keeps a journal that verifies as written, beside new lines that verify too', async () => {
    cpSync(V2_FIXTURE, dir, { recursive: true });
    const before = readFileSync(join(dir, 'journal.jsonl'), 'utf8');
    expect(verifyJournal(join(dir, 'journal.jsonl'), { key: false }).ok).toBe(true);
    const guard = openGuardSync({ stateDir: dir, probe: false, clock: V2_CLOCK, onProblem: quiet });
    guard.check(LONG_EDIT);
    guard.record({ proposal: LONG_CALL, success: false, content: 'Error: 422 Unprocessable Entity' });
    await guard.close();
    const after = readFileSync(join(dir, 'journal.jsonl'), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
    expect(verifyJournal(join(dir, 'journal.jsonl'), { key: false }).ok).toBe(true);
  });

  it('in a SQLite database opens and blocks the same calls', async () => {
    const path = join(dir, 'state.db');
    await (await openSqliteStore({ path })).close();
    // As a build of version 2 writes its rows.
    const db = new Database(path);
    const insert = db.prepare(
      'INSERT INTO constraints (id, last_at, created_at, body, seq) VALUES (?, ?, ?, ?, ?)',
    );
    fixtureBans().forEach((ban, index) => {
      insert.run(ban.id, ban.evidence.lastAt, ban.createdAt, JSON.stringify(ban), index + 1);
    });
    db.prepare(`UPDATE meta SET value = '${fixtureBans().length}' WHERE key = 'seq'`).run();
    db.close();
    const guard = await openGuard({
      store: 'sqlite',
      stateDir: dir,
      probe: false,
      journal: false,
      context: false,
      clock: V2_CLOCK,
      onProblem: quiet,
    });
    try {
      expect(guard.check(LONG_EDIT).verdict).toBe('block');
      expect(guard.check(LONG_CALL).verdict).toBe('block');
      expect(guard.check(SHORT_CALL).verdict).toBe('block');
    } finally {
      await guard.close();
    }
  });
});

describe('a state written in format version 3', () => {
  it('blocks the same calls by the keys it holds, which this build computes as they were written', async () => {
    cpSync(V3_FIXTURE, dir, { recursive: true });
    const written: Constraint[] = JSON.parse(
      readFileSync(join(V3_FIXTURE, 'state.json'), 'utf8'),
    ).constraints;
    const guard = openGuardSync({ stateDir: dir, probe: false, clock: V2_CLOCK, onProblem: quiet });
    try {
      expect(guard.check(LONG_EDIT).verdict).toBe('block');
      expect(guard.check(LONG_CALL).verdict).toBe('block');
      expect(guard.check(SHORT_CALL).verdict).toBe('block');
    } finally {
      await guard.close();
    }
    const saved: Constraint[] = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).constraints;
    for (const tool of ['edit_file', 'create_issue']) {
      expect(callKeyOf(saved, tool)).toBe(callKeyOf(written, tool));
      expect(callKeyOf(written, tool)).not.toBe(callKeyOf(fixtureBans(), tool));
    }
    expect(verifyJournal(join(dir, 'journal.jsonl'), { key: false }).ok).toBe(true);
  });
});

describe.skipIf(!redisInstalled)('a state written in format version 2 on Redis', () => {
  it('opens and blocks the same calls, its rows left readable by builds of version 2', async () => {
    const server = await startRedis();
    const client = createClient({ url: server.url });
    try {
      await client.connect();
      for (const ban of fixtureBans()) await client.hSet('fleet-v2:constraints', ban.id, JSON.stringify(ban));
      const guard = await openGuard({
        store: `${server.url}?prefix=fleet-v2` as `redis://${string}`,
        probe: false,
        journal: false,
        context: false,
        clock: V2_CLOCK,
        onProblem: quiet,
      });
      try {
        expect(guard.check(LONG_EDIT).verdict).toBe('block');
        expect(guard.check(LONG_CALL).verdict).toBe('block');
        expect(guard.check(SHORT_CALL).verdict).toBe('block');
      } finally {
        await guard.close();
      }
      const rows = Object.values(await client.hGetAll('fleet-v2:constraints')).map(
        (body) => JSON.parse(body) as Constraint,
      );
      expect(rows.map((row) => row.id).sort()).toEqual(
        fixtureBans()
          .map((ban) => ban.id)
          .sort(),
      );
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
