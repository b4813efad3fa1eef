/**
 * A Redis server whose hashes hold entries this store did not write (another program, an older
 * build, a hand edit): they are skipped and reported, and never stop an agent from sharing.
 */
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type GuardSession, openGuard } from '../../src/guard/index.js';
import { missingRead, readProposal } from '../fixtures/stores/fleet-calls.js';
import { type RedisServer, redisInstalled, startRedis } from './redis-server.js';

const REPO = { repository: 'github.com/acme/api', host: 'build-1' };
let server: RedisServer;
let round = 0;
const sessions: GuardSession[] = [];

async function agent(problems: string[] = []): Promise<GuardSession> {
  const session = await openGuard({
    store: `${server.url}?prefix=bad-${round}` as `redis://${string}`,
    context: REPO,
    probe: false,
    journal: false,
    onProblem: (message) => problems.push(message),
  });
  sessions.push(session);
  return session;
}

/** The id a ban on reading `path` gets, learned in memory. */
async function banIdFor(path: string): Promise<string> {
  const scratch = await openGuard({ store: 'memory', context: REPO, probe: false, journal: false });
  scratch.check(readProposal(path));
  const [id] = scratch.record(missingRead(path)).newConstraints.map((constraint) => constraint.id);
  await scratch.close();
  return id as string;
}

async function plant(entries: Record<string, string>, hash: 'constraints' | 'lifted'): Promise<void> {
  const client = createClient({ url: server.url });
  await client.connect();
  try {
    await client.hSet(`bad-${round}:${hash}`, entries);
  } finally {
    await client.close();
  }
}

async function until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const blocks = (session: GuardSession, path: string) =>
  session.engine.getActiveConstraints().some((constraint) => constraint.target === path);

describe.skipIf(!redisInstalled)('redis store with malformed entries', () => {
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.close();
    round += 1;
  });

  it('goes on sharing every later ban when the id an agent learns holds a malformed entry', async () => {
    const poisoned = await banIdFor('src/poisoned.ts');
    await plant({ [poisoned]: '{"evidence": "not an object"' }, 'constraints');
    const problems: string[] = [];
    const [learner, watcher] = [await agent(problems), await agent()];
    learner.record(missingRead('src/poisoned.ts'));
    const later = Array.from({ length: 10 }, (_, index) => `src/later-${index}.ts`);
    for (const path of later) learner.record(missingRead(path));
    await until(() => later.every((path) => blocks(watcher, path)));
    await until(() => blocks(watcher, 'src/poisoned.ts'));
    expect(problems.join('\n')).toMatch(/malformed/);
  }, 20_000);

  it('skips and reports malformed constraints and lifted marks it reads at start', async () => {
    const lifted = await banIdFor('src/lifted.ts');
    await plant({ c_0123456789abcdef: 'not json at all', c_fedcba9876543210: '{"id":3}' }, 'constraints');
    await plant({ [lifted]: 'yesterday' }, 'lifted');
    const problems: string[] = [];
    const learner = await agent(problems);
    expect(problems.join('\n')).toMatch(/3 malformed entries/);
    const watcher = await agent();
    learner.record(missingRead('src/lifted.ts'));
    await until(() => blocks(watcher, 'src/lifted.ts'));
  }, 20_000);
});
