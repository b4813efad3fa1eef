import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StateStore } from '../../src/core/types.js';
import {
  createFileStore,
  createMemoryStore,
  openRedisStore,
  openSqliteStore,
} from '../../src/stores/index.js';
import { type RedisServer, redisInstalled, startRedis } from './redis-server.js';
import { missingFile, stateOf, temporaryDir } from './sample-state.js';

// The engine hands a store only what changed since its last write (`ConstraintIndex.exportChanges`):
// every store must merge a save into what it holds, never replace it.
const AT = Date.now() - 60_000;
const quiet = () => undefined;
let redis: RedisServer | undefined;
let prefix = 0;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  if (redisInstalled) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A store of each kind, its state in a fresh temporary folder (or under a fresh Redis prefix). */
const stores: [string, () => Promise<StateStore>][] = [
  ['memory', async () => createMemoryStore()],
  [
    'file',
    async () => createFileStore({ path: join(folder(), 'state.json'), debounceMs: 1, onProblem: quiet }),
  ],
  ['sqlite', async () => openSqliteStore({ path: join(folder(), 'state.db'), debounceMs: 1 })],
  ...(redisInstalled
    ? [
        [
          'redis',
          async () => {
            prefix += 1;
            return openRedisStore({
              url: redis!.url,
              keyPrefix: `contract-${prefix}`,
              debounceMs: 1,
              onProblem: quiet,
            });
          },
        ] as [string, () => Promise<StateStore>],
      ]
    : []),
];

function folder(): string {
  const { dir, remove } = temporaryDir();
  cleanups.push(remove);
  return dir;
}

async function opened(open: () => Promise<StateStore>): Promise<StateStore> {
  const store = await open();
  cleanups.push(() => store.close());
  return store;
}

describe.each(stores)('the %s store', (_, open) => {
  it('keeps what an earlier save wrote when a later save holds only what changed', async () => {
    const store = await opened(open);
    store.save(stateOf([missingFile('src/config.ts', AT)]));
    await store.flush();
    store.save(() => stateOf([missingFile('src/db/pool.ts', AT + 1)]));
    await store.flush();

    const ids = store.load()?.constraints.map((constraint) => constraint.id);
    expect(ids).toEqual(
      expect.arrayContaining(['target-missing:src/config.ts', 'target-missing:src/db/pool.ts']),
    );
    expect(ids).toHaveLength(2);
  });

  it('drops a constraint only when a save lifts it', async () => {
    const store = await opened(open);
    store.save(stateOf([missingFile('src/config.ts', AT), missingFile('README.md', AT)]));
    await store.flush();
    store.save(stateOf([], [{ id: 'target-missing:README.md', at: AT + 2 }]));
    await store.flush();

    expect(store.load()?.constraints.map((constraint) => constraint.id)).toEqual([
      'target-missing:src/config.ts',
    ]);
  });
});
