import { lstatSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isNarrowingError } from '../../src/core/errors.js';
import type { PersistedState } from '../../src/core/types.js';
import { importOptionalPeer } from '../../src/stores/optional-peer.js';
import { betterSqliteRange, openSqliteStore, type SqliteStore } from '../../src/stores/sqlite-store.js';
import { runScript } from './run-node.js';
import { missingFile, stateOf, temporaryDir } from './sample-state.js';

// Recent: lifted marks older than thirty days are forgotten when a store opens.
const AT = Date.now() - 60_000;
let dir: string;
let remove: () => void;
let path: string;
const opened: SqliteStore[] = [];

async function open(options: { pollMs?: number } = {}): Promise<SqliteStore> {
  const store = await openSqliteStore({ path, debounceMs: 1, ...options });
  opened.push(store);
  return store;
}

beforeEach(() => {
  ({ dir, remove } = temporaryDir());
  path = join(dir, 'state.db');
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  remove();
});

function nextChange(store: SqliteStore): Promise<PersistedState> {
  return new Promise((resolve) => {
    const stop = store.subscribe((changes) => {
      stop();
      resolve(changes);
    });
  });
}

describe('sqlite store', () => {
  it('gives back what was saved after the database is opened again', async () => {
    const first = await open();
    first.save(stateOf([missingFile('src/a.ts', AT)]));
    await first.close();
    const second = await open();
    expect(second.load()?.constraints.map((c) => c.id)).toEqual(['target-missing:src/a.ts']);
  });

  it('keeps a ban that never expires', async () => {
    const first = await open();
    first.save(stateOf([missingFile('src/a.ts', AT, { expiresAt: Number.POSITIVE_INFINITY })]));
    await first.close();
    expect((await open()).load()?.constraints[0]?.expiresAt).toBe(Number.POSITIVE_INFINITY);
  });

  it('writes only the rows that changed when the whole state is saved again', async () => {
    const store = await open();
    const many = Array.from({ length: 500 }, (_, index) => missingFile(`src/${index}.ts`, AT));
    store.save(stateOf(many));
    await store.flush();
    store.save(() => stateOf([...many, missingFile('src/new.ts', AT + 1)]));
    await store.flush();
    const db = new Database(path, { readonly: true });
    const lastWrite = db.prepare(
      'SELECT count(*) FROM constraints WHERE seq = (SELECT max(seq) FROM constraints)',
    );
    expect(lastWrite.pluck().get()).toBe(1);
    db.close();
  });

  it('creates the database readable by its owner only', async () => {
    await open();
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a symbolic link in place of the database', async () => {
    writeFileSync(join(dir, 'elsewhere.db'), '');
    symlinkSync(join(dir, 'elsewhere.db'), path);
    const error = await openSqliteStore({ path }).catch((caught: unknown) => caught);
    expect(isNarrowingError(error) && error.code).toBe('UNSAFE_STATE_FILE');
  });

  it('tells a subscriber what another process learned', async () => {
    const listening = await open({ pollMs: 10 });
    const changed = nextChange(listening);
    const writer = await open();
    writer.save(stateOf([missingFile('src/a.ts', AT)]));
    await writer.flush();
    expect((await changed).constraints.map((c) => c.id)).toEqual(['target-missing:src/a.ts']);
  });

  it('tells a subscriber what another process lifted', async () => {
    const listening = await open({ pollMs: 10 });
    const writer = await open();
    writer.save(stateOf([missingFile('src/a.ts', AT)]));
    await writer.flush();
    await listening.flush();
    const changed = nextChange(listening);
    writer.save(stateOf([], [{ id: 'target-missing:src/a.ts', at: AT + 5 }]));
    await writer.flush();
    expect((await changed).lifted).toEqual([{ id: 'target-missing:src/a.ts', at: AT + 5 }]);
  });

  it('does not bring back a lifted constraint from a stale copy', async () => {
    const store = await open();
    store.save(stateOf([], [{ id: 'target-missing:src/a.ts', at: AT + 5 }]));
    await store.flush();
    const stale = await open();
    stale.save(stateOf([missingFile('src/a.ts', AT)]));
    await stale.close();
    expect((await open()).load()?.constraints).toEqual([]);
  });

  it('keeps a value per session', async () => {
    const store = await open();
    store.sessions.set('session-1', { calls: 3 });
    expect(store.sessions.get('session-1')).toEqual({ calls: 3 });
    expect(store.sessions.get('session-2')).toBeUndefined();
    expect(store.sessions.delete('session-1')).toBe(true);
    expect(store.sessions.get('session-1')).toBeUndefined();
  });

  it('forgets sessions not written for a while', async () => {
    let now = AT;
    const store = await openSqliteStore({ path, now: () => now });
    opened.push(store);
    store.sessions.set('old', 1);
    now += 10_000;
    store.sessions.set('recent', 2);
    expect(store.sessions.prune(5_000)).toBe(1);
    expect([store.sessions.get('old'), store.sessions.get('recent')]).toEqual([undefined, 2]);
  });

  it('opens while another process holds the write lock, without waiting for it', async () => {
    await (await open()).close();
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const store = await openSqliteStore({ path, busyTimeoutMs: 0 });
      opened.push(store);
      expect(store.load()).toBeUndefined();
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });

  it('still forgets old lifted marks when it opens', async () => {
    const first = await openSqliteStore({ path, now: () => AT - 40 * 24 * 60 * 60 * 1000 });
    first.save({
      version: 1,
      savedAt: AT,
      constraints: [],
      lifted: [{ id: 'target-missing:src/a.ts', at: 1 }],
    });
    await first.close();
    const marks = () => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare('SELECT count(*) FROM lifted').pluck().get();
      } finally {
        db.close();
      }
    };
    expect(marks()).toBe(1);
    await (await open()).close();
    expect(marks()).toBe(0);
  });

  it('is opened by eight processes at the same moment while it does not exist yet', async () => {
    const startAt = String(Date.now() + 3_000);
    const workers = [0, 1, 2, 3, 4, 5, 6, 7];
    const exits = await Promise.all(
      workers.map(
        (worker) =>
          runScript('test/fixtures/stores/sqlite-opener.ts', [path, String(worker), startAt]).exited,
      ),
    );
    for (const exit of exits) expect(exit).toMatchObject({ code: 0, stderr: '' });
    const ids = (await open()).load()?.constraints.map((c) => c.id) ?? [];
    expect(new Set(ids).size).toBe(8);
  }, 60_000);

  it('loses no update when eight processes save at the same time', async () => {
    await (await open()).close();
    const startAt = String(Date.now() + 3_000);
    const workers = [0, 1, 2, 3, 4, 5, 6, 7];
    const exits = await Promise.all(
      workers.map(
        (worker) =>
          runScript('test/fixtures/stores/sqlite-writer.ts', [path, String(worker), '40', startAt]).exited,
      ),
    );
    for (const exit of exits) expect(exit).toMatchObject({ code: 0, stderr: '' });
    const ids = (await open()).load()?.constraints.map((c) => c.id) ?? [];
    expect(ids.length).toBe(8 * 40);
    expect(new Set(ids).size).toBe(8 * 40);
  }, 60_000);
});

describe('optional store drivers', () => {
  it('says which package to install when a driver is missing', async () => {
    const error = await importOptionalPeer('narrowing-test-no-such-driver', 'sqlite', '^1.0.0').catch(
      (caught: unknown) => caught,
    );
    expect(isNarrowingError(error) && error.code).toBe('STORE_UNAVAILABLE');
    expect((error as Error).message).toContain('npm install narrowing-test-no-such-driver@^1.0.0');
  });

  it('names better-sqlite3 13 from Node 22 on and 12 on Node 20', () => {
    expect([
      betterSqliteRange('20.19.0'),
      betterSqliteRange('22.12.0'),
      betterSqliteRange('24.21.0'),
    ]).toEqual(['^12.11.1', '^13.2.0', '^13.2.0']);
  });
});
