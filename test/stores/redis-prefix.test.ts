import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStore, type RedisStore } from '../../src/stores/redis-store.js';
import { repositoryKeyPrefix } from '../../src/stores/redis-url.js';
import { type RedisServer, redisInstalled, startRedis } from './redis-server.js';
import { missingFile, stateOf } from './sample-state.js';

const API = 'github.com/acme/api';
const WEB = 'github.com/acme/web';
let server: RedisServer;
let db = 0;
const stores: RedisStore[] = [];

/** A store as `openGuard` opens one in a repository; each test has a database of its own. */
async function open(options: { repository?: string; keyPrefix?: string; prefix?: string } = {}) {
  const problems: string[] = [];
  const query = options.prefix === undefined ? '' : `?prefix=${options.prefix}`;
  const store = await openRedisStore({
    url: `${server.url}/${db}${query}`,
    ...(options.repository !== undefined && { repository: options.repository }),
    ...(options.keyPrefix !== undefined && { keyPrefix: options.keyPrefix }),
    onProblem: (problem) => problems.push(problem),
  });
  stores.push(store);
  return { store, problems };
}

const ids = (store: RedisStore) =>
  (store.load()?.constraints ?? []).map((constraint) => constraint.id).sort();
const learnedAt = Date.now() - 60_000;

describe.skipIf(!redisInstalled)('redis key prefix per repository', () => {
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    db += 1;
  });

  it('keeps a ban learned without a context in one repository away from another on the same server', async () => {
    const api = (await open({ repository: API })).store;
    api.save(stateOf([missingFile('config/prod.yaml', learnedAt)]));
    await api.flush();
    const web = (await open({ repository: WEB })).store;
    expect(web.keyPrefix).not.toBe(api.keyPrefix);
    expect(ids(web)).toEqual([]);
  });

  it('shares bans between agents of the same repository', async () => {
    const first = (await open({ repository: API })).store;
    first.save(stateOf([missingFile('config/prod.yaml', learnedAt)]));
    await first.flush();
    const second = (await open({ repository: API })).store;
    expect(second.keyPrefix).toBe(repositoryKeyPrefix(API));
    expect(ids(second)).toEqual(['target-missing:config/prod.yaml']);
  });

  it('shares bans between repositories given the same prefix', async () => {
    const api = (await open({ repository: API, prefix: 'team-a' })).store;
    api.save(stateOf([missingFile('config/prod.yaml', learnedAt)]));
    await api.flush();
    const web = (await open({ repository: WEB, keyPrefix: 'team-a' })).store;
    expect(ids(web)).toEqual(['target-missing:config/prod.yaml']);
  });

  it('copies once, from the prefix every repository shared before, the bans that hold for this repository', async () => {
    const shared = (await open({ keyPrefix: 'narrowing' })).store;
    shared.save(
      stateOf(
        [
          missingFile('src/api.ts', learnedAt, { context: { repository: API } }),
          missingFile('src/web.ts', learnedAt, { context: { repository: WEB } }),
          missingFile('config/prod.yaml', learnedAt),
        ],
        [{ id: 'target-missing:src/old.ts', at: learnedAt }],
      ),
    );
    await shared.flush();

    const { store: api, problems } = await open({ repository: API });
    expect(ids(api)).toEqual(['target-missing:config/prod.yaml', 'target-missing:src/api.ts'].sort());
    expect(api.load()?.lifted).toEqual([{ id: 'target-missing:src/old.ts', at: learnedAt }]);
    expect(problems).toEqual([
      `copied 2 bans of this repository from the shared prefix narrowing on redis://127.0.0.1:${server.port}/${db} to its own, ${repositoryKeyPrefix(API)}`,
    ]);

    // Copied once: a ban an older build adds to the shared prefix later stays there.
    shared.save(stateOf([missingFile('src/later.ts', learnedAt)]));
    await shared.flush();
    const again = await open({ repository: API });
    expect(ids(again.store)).not.toContain('target-missing:src/later.ts');
    expect(again.problems).toEqual([]);
  });
});
