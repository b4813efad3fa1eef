import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createClient } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyJournal } from '../../src/audit/index.js';
import { openGuard, openGuardSync } from '../../src/guard/open.js';
import { withSessionState } from '../../src/guard/session-state.js';
import { openSqliteStore } from '../../src/stores/sqlite-store.js';
import { STATE_VERSION } from '../../src/stores/state-format.js';
import { redisInstalled, startRedis } from './redis-server.js';
import { temporaryDir } from './sample-state.js';

/** A state directory written by the build before the state format had versions past 1. */
const V1_FIXTURE = join(import.meta.dirname, '../fixtures/stores/state-v1');
/** The secret in the search text of the failed edit the fixture learned. */
const V1_SECRET = 'sk-proj-Zq8Xv2Lm9Tw4Rb7KpL3nQ8sTw1';
const V1_EDIT = {
  tool: 'edit_file',
  args: {
    path: 'src/llm.ts',
    old_string: `const client = new OpenAI({ apiKey: "${V1_SECRET}" });`,
    new_string: 'const client = new OpenAI();',
  },
};
/** Within the fixture ban's lifetime. */
const V1_CLOCK = { now: () => 1_764_000_100_000 };

const TOKEN = `ghp_${'Zq8Xv2Lm9Tw4Rb7KpL3nQ8sTw1Yc5Hd0Jf6Gk'.slice(0, 36)}`;
const KEY_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
const edit = (oldString: string, path = 'src/config.ts') => ({
  tool: 'edit_file',
  args: { path, old_string: oldString, new_string: 'export const token = process.env.TOKEN;' },
});
const notFound = (proposal: ReturnType<typeof edit>) => ({
  proposal,
  success: false,
  content: 'Error: String to replace not found in file.',
});
const quiet = () => undefined;

let dir: string;
let remove: () => void;
beforeEach(() => {
  ({ dir, remove } = temporaryDir());
});
afterEach(() => remove());

/** Every file under `root`, read as text. */
function allText(root: string): string {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'latin1'))
    .join('\n');
}

describe('the search text of a failed edit', () => {
  it('is kept on disk as a hash and a redacted excerpt, never in clear', async () => {
    const searched = `export const token = "${TOKEN}";\n-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY}`;
    const guard = openGuardSync({ stateDir: dir, probe: false, sessionId: 's-1', onProblem: quiet });
    await withSessionState(guard, () => {
      for (let round = 0; round < 2; round++) {
        guard.check(edit(searched));
        guard.record(notFound(edit(searched)));
      }
    });
    await guard.close();
    const text = allText(dir);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(KEY_BODY.slice(0, 24));
    const [ban] = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).constraints;
    expect(ban).not.toHaveProperty('needle');
    expect(ban.needleHash).toMatch(/^[0-9a-f]{16}$/);
    expect(ban.needleExcerpt).toBe('export const token = [REDACTED];');
    expect(verifyJournal(join(dir, 'journal.jsonl'), { key: false }).ok).toBe(true);
  });

  it('still blocks the same edit in a new process', async () => {
    const first = openGuardSync({ stateDir: dir, probe: false, onProblem: quiet });
    for (let round = 0; round < 2; round++) {
      first.check(edit(`const token = "${TOKEN}";`));
      first.record(notFound(edit(`const token = "${TOKEN}";`)));
    }
    await first.close();
    const second = openGuardSync({ stateDir: dir, probe: false, onProblem: quiet });
    try {
      expect(second.check(edit(`const token = "${TOKEN}";`)).verdict).toBe('block');
      expect(second.check(edit('const token = "other";')).verdict).toBe('allow');
    } finally {
      await second.close();
    }
  });

  it('stays in memory for the live session, where only an edit that may add it lifts the ban', async () => {
    const guard = openGuardSync({ stateDir: dir, probe: false, onProblem: quiet });
    const searched = 'const retries = 4;\nconst timeoutMs = 500;';
    const failing = edit(searched, 'src/orders/parse.ts');
    try {
      for (let round = 0; round < 2; round++) {
        guard.check(failing);
        guard.record(notFound(failing));
      }
      await guard.engine.flush();
      const unrelated = {
        tool: 'edit_file',
        args: { path: 'src/orders/parse.ts', old_string: 'import a', new_string: 'import b' },
      };
      guard.check(unrelated);
      guard.record({ proposal: unrelated, success: true, content: 'OK' });
      expect(guard.check(failing).verdict).toBe('block');
      const adding = {
        tool: 'edit_file',
        args: { path: 'src/orders/parse.ts', old_string: 'import b', new_string: searched },
      };
      guard.check(adding);
      guard.record({ proposal: adding, success: true, content: 'OK' });
      expect(guard.check(failing).verdict).toBe('allow');
    } finally {
      await guard.close();
    }
  });
});

describe('a state written in format version 1', () => {
  it('opens, is migrated on first open, and keeps blocking what it blocked', async () => {
    cpSync(V1_FIXTURE, dir, { recursive: true });
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toContain(V1_SECRET);
    const guard = openGuardSync({ stateDir: dir, probe: false, clock: V1_CLOCK, onProblem: quiet });
    try {
      const migrated = readFileSync(join(dir, 'state.json'), 'utf8');
      expect(JSON.parse(migrated).version).toBe(STATE_VERSION);
      expect(migrated).not.toContain(V1_SECRET);
      expect(guard.check(V1_EDIT).verdict).toBe('block');
    } finally {
      await guard.close();
    }
  });

  it('keeps a journal that verifies as written, beside new lines that verify too', async () => {
    cpSync(V1_FIXTURE, dir, { recursive: true });
    const before = readFileSync(join(dir, 'journal.jsonl'), 'utf8');
    expect(verifyJournal(join(dir, 'journal.jsonl'), { key: false }).ok).toBe(true);
    const guard = openGuardSync({ stateDir: dir, probe: false, clock: V1_CLOCK, onProblem: quiet });
    guard.check(V1_EDIT);
    await guard.close();
    const after = readFileSync(join(dir, 'journal.jsonl'), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
    expect(verifyJournal(join(dir, 'journal.jsonl'), { key: false }).ok).toBe(true);
  });

  it('in a SQLite database is migrated when the store opens, and blocks the same edit', async () => {
    const path = join(dir, 'state.db');
    await (await openSqliteStore({ path })).close();
    const [v1] = JSON.parse(readFileSync(join(V1_FIXTURE, 'state.json'), 'utf8')).constraints;
    // As a build of version 1 writes a row: its body as it held it, the sequence moved on.
    const db = new Database(path);
    db.prepare('INSERT INTO constraints (id, last_at, created_at, body, seq) VALUES (?, ?, ?, ?, 1)').run(
      v1.id,
      v1.evidence.lastAt,
      v1.createdAt,
      JSON.stringify(v1),
    );
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'seq'").run();
    db.close();
    const guard = await openGuard({
      store: 'sqlite',
      stateDir: dir,
      probe: false,
      journal: false,
      context: false,
      clock: V1_CLOCK,
      onProblem: quiet,
    });
    try {
      const body = new Database(path).prepare('SELECT body FROM constraints').pluck().get() as string;
      expect(body).not.toContain(V1_SECRET);
      expect(JSON.parse(body)).toHaveProperty('needleHash');
      expect(guard.check(V1_EDIT).verdict).toBe('block');
    } finally {
      await guard.close();
    }
  });
});

describe.skipIf(!redisInstalled)('a state written in format version 1 on Redis', () => {
  it('is migrated when a store opens, and blocks the same edit', async () => {
    const server = await startRedis();
    const client = createClient({ url: server.url });
    try {
      await client.connect();
      const [v1] = JSON.parse(readFileSync(join(V1_FIXTURE, 'state.json'), 'utf8')).constraints;
      await client.hSet('fleet-v1:constraints', v1.id, JSON.stringify(v1));
      const guard = await openGuard({
        store: `${server.url}?prefix=fleet-v1` as `redis://${string}`,
        probe: false,
        journal: false,
        context: false,
        clock: V1_CLOCK,
        onProblem: quiet,
      });
      try {
        const body = (await client.hGet('fleet-v1:constraints', v1.id)) as string;
        expect(body).not.toContain(V1_SECRET);
        expect(JSON.parse(body)).toHaveProperty('needleHash');
        expect(guard.check(V1_EDIT).verdict).toBe('block');
      } finally {
        await guard.close();
      }
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
