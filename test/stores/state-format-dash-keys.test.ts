/**
 * A state written by the build before a command's attempt key kept a `--` that follows an operand
 * (`npm test -- tests/api.test.ts` was keyed as `npm test tests/api.test.ts`): it opens and keeps
 * blocking what it blocked, in every store, beside bans this build learns under the new keys.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createClient } from 'redis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../src/adapters/tool-call/index.js';
import { withLegacyHash } from '../../src/core/identity/hashing.js';
import type { Constraint } from '../../src/core/types.js';
import { openGuard, openGuardSync } from '../../src/guard/open.js';
import { openSqliteStore } from '../../src/stores/sqlite-store.js';
import { bansIn, type EarlierBuildProject, earlierBuildProject, earlierState } from './earlier-build.js';
import { redisInstalled, startRedis } from './redis-server.js';

/** The state directory the earlier build wrote after the two commands below failed twice each. */
const EARLIER_FIXTURE = earlierState('state-v3-dash');

/** Its key changed: the `--` after `test` parts npm's arguments from the script's. */
const DASHED = { tool: 'Bash', args: { command: 'npm test -- tests/api.test.ts' } };
/** Its key did not change. */
const PLAIN = { tool: 'Bash', args: { command: 'npm run lint' } };
/** Learned by this build, under the key it gives. */
const LEARNED_NOW = { tool: 'Bash', args: { command: 'npm run e2e -- tests/login.spec.ts' } };
const MISSING_E2E =
  'npm error Missing script: "e2e"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run';
const earlierBans = () => bansIn(EARLIER_FIXTURE);

let project: EarlierBuildProject;
beforeEach(() => {
  project = earlierBuildProject();
});
afterEach(() => project.remove());

const options = (more: Parameters<EarlierBuildProject['options']>[0]) => project.options(more);

describe('a store written before `--` after an operand was kept in a command’s key', () => {
  it('in a state file keeps blocking the command it blocked, and the one whose key did not change', async () => {
    project.copyState(EARLIER_FIXTURE);
    const guard = openGuardSync(options({ stateDir: project.stateDir }));
    try {
      expect(guard.check(DASHED).verdict).toBe('block');
      expect(guard.check(PLAIN).verdict).toBe('block');
    } finally {
      await guard.close();
    }
  });

  it('in a state file keys the ban anew once found, and the next process finds it by the new key', async () => {
    project.copyState(EARLIER_FIXTURE);
    const first = openGuardSync(options({ stateDir: project.stateDir }));
    first.check(DASHED);
    await first.close();
    const saved = project.savedBans();
    const earlier = earlierBans().find((ban) => ban.target === DASHED.args.command);
    const rekeyed = saved.find((ban) => ban.target === DASHED.args.command);
    expect(rekeyed?.id).toBe(earlier?.id);
    expect(rekeyed?.callKey).not.toBe(earlier?.callKey);
    expect(rekeyed?.keyHash).toBe(3);
    const second = openGuardSync(options({ stateDir: project.stateDir }));
    try {
      expect(second.check(DASHED).verdict).toBe('block');
    } finally {
      await second.close();
    }
  });

  it('in a SQLite database keeps blocking the command it blocked', async () => {
    const path = join(project.dir, 'state.db');
    await (await openSqliteStore({ path })).close();
    // As the earlier build writes its rows.
    const db = new Database(path);
    const insert = db.prepare(
      'INSERT INTO constraints (id, last_at, created_at, body, seq) VALUES (?, ?, ?, ?, ?)',
    );
    earlierBans().forEach((ban, index) => {
      insert.run(ban.id, ban.evidence.lastAt, ban.createdAt, JSON.stringify(ban), index + 1);
    });
    db.prepare(`UPDATE meta SET value = '${earlierBans().length}' WHERE key = 'seq'`).run();
    db.close();
    const guard = await openGuard(options({ store: 'sqlite', stateDir: project.dir }));
    try {
      expect(guard.check(DASHED).verdict).toBe('block');
      expect(guard.check(PLAIN).verdict).toBe('block');
    } finally {
      await guard.close();
    }
  });

  it('in a state file shared with this build blocks both the earlier build’s ban and one learned now', async () => {
    project.copyState(EARLIER_FIXTURE);
    const learner = openGuardSync(options({ stateDir: project.stateDir }));
    for (let failure = 0; failure < 2; failure++) {
      learner.check(LEARNED_NOW);
      learner.record({ proposal: LEARNED_NOW, success: false, content: MISSING_E2E });
    }
    await learner.close();
    const saved = project.savedBans();
    expect(saved.find((ban) => ban.target === LEARNED_NOW.args.command)?.keyHash).toBe(3);
    // Not looked up by the learner, the earlier build's ban keeps the key it was written with.
    expect(saved.find((ban) => ban.target === DASHED.args.command)?.keyHash).toBe(2);
    const reader = openGuardSync(options({ stateDir: project.stateDir }));
    try {
      expect(reader.check(DASHED).verdict).toBe('block');
      expect(reader.check(LEARNED_NOW).verdict).toBe('block');
      expect(reader.check(PLAIN).verdict).toBe('block');
    } finally {
      await reader.close();
    }
  });
});

describe('a state of format version 2 with a ban on a long command with `--` after an operand', () => {
  it('keeps blocking it, found by the key both older rules gave it', async () => {
    const files = Array.from({ length: 12 }, (_, index) => `tests/orders/checkout-step-${index}.test.ts`);
    const command = `npm test -- ${files.join(' ')}`;
    expect(command.length).toBeGreaterThan(256);
    // As a build of version 2 keyed it: every text by the 64-bit hash, the `--` left out.
    const olderKey = withLegacyHash(
      () =>
        createToolCallAdapter().describeCall({
          tool: 'Bash',
          args: { command: `npm test ${files.join(' ')}` },
        }).failureKey,
    );
    const { keyHash: _, ...earlier } = earlierBans()[0] as Constraint;
    const ban = { ...earlier, id: 'c_5d0c6a1e9b2f4873', callKey: olderKey, target: command };
    mkdirSync(project.stateDir);
    writeFileSync(
      join(project.stateDir, 'state.json'),
      JSON.stringify({ version: 2, savedAt: ban.createdAt, constraints: [ban], lifted: [] }),
    );
    const guard = openGuardSync(options({ stateDir: project.stateDir }));
    try {
      expect(guard.check({ tool: 'Bash', args: { command } }).verdict).toBe('block');
    } finally {
      await guard.close();
    }
  });
});

describe.skipIf(!redisInstalled)('a Redis store written before `--` after an operand was kept', () => {
  it('keeps blocking the command it blocked, beside a ban this build learns', async () => {
    const server = await startRedis();
    const client = createClient({ url: server.url });
    const store = `${server.url}?prefix=fleet-dash` as `redis://${string}`;
    try {
      await client.connect();
      for (const ban of earlierBans())
        await client.hSet('fleet-dash:constraints', ban.id, JSON.stringify(ban));
      const learner = await openGuard(options({ store }));
      try {
        for (let failure = 0; failure < 2; failure++) {
          learner.check(LEARNED_NOW);
          learner.record({ proposal: LEARNED_NOW, success: false, content: MISSING_E2E });
        }
      } finally {
        await learner.close();
      }
      const reader = await openGuard(options({ store }));
      try {
        expect(reader.check(DASHED).verdict).toBe('block');
        expect(reader.check(PLAIN).verdict).toBe('block');
        expect(reader.check(LEARNED_NOW).verdict).toBe('block');
      } finally {
        await reader.close();
      }
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
