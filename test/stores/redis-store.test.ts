import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isNarrowingError } from '../../src/core/errors.js';
import { type GuardSession, openGuard } from '../../src/guard/index.js';
import { openRedisStore } from '../../src/stores/redis-store.js';
import { redactRedisUrl } from '../../src/stores/redis-url.js';
import { missingRead, readProposal, writeOutcome } from '../fixtures/stores/fleet-calls.js';
import { bundledScript } from '../support/bundled-script.js';
import { freePort, type RedisServer, redisInstalled, startRedis } from './redis-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const REPO = { repository: 'github.com/acme/api', host: 'build-1' };
let server: RedisServer;
let prefix = 0;
const sessions: GuardSession[] = [];
const children: ChildProcess[] = [];

async function agent(context: Record<string, string> = REPO): Promise<GuardSession> {
  const session = await openGuard({
    store: `${server.url}?prefix=test-${prefix}` as `redis://${string}`,
    context,
    probe: false,
    journal: false,
    onProblem: () => undefined,
  });
  sessions.push(session);
  return session;
}

/** An agent in its own process; `send` gives its answer to one command. */
async function agentProcess(context: Record<string, string> = REPO) {
  const child = spawn(
    process.execPath,
    [
      bundledScript('test/fixtures/stores/fleet-agent.ts', { packages: 'external' }),
      `${server.url}?prefix=test-${prefix}`,
      JSON.stringify(context),
    ],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  children.push(child);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
  await next();
  return {
    send: async (command: object) => {
      child.stdin!.write(`${JSON.stringify(command)}\n`);
      return next();
    },
  };
}

async function until(condition: () => boolean, timeoutMs = 3_000): Promise<number> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return Date.now();
}

const verdict = (session: GuardSession, path: string) => session.check(readProposal(path)).verdict;

describe.skipIf(!redisInstalled)('redis store shared by a fleet', () => {
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill();
    for (const session of sessions.splice(0)) await session.close();
    prefix += 1;
  });

  it('blocks in one process, within a second, the call another process learned must fail', async () => {
    const learner = await agentProcess();
    const watcher = await agent();
    expect(verdict(watcher, 'src/missing.ts')).toBe('allow');
    const { at } = (await learner.send({ op: 'fail', path: 'src/missing.ts' })) as { at: number };
    const seen = await until(() => verdict(watcher, 'src/missing.ts') === 'block');
    expect(seen - at).toBeLessThan(1_000);
  }, 30_000);

  it('lifts in every agent a ban one agent lifted', async () => {
    const [first, second] = [await agent(), await agent()];
    first.record(missingRead('src/new.ts'));
    await until(() => verdict(second, 'src/new.ts') === 'block');
    first.record(writeOutcome('src/new.ts'));
    // Waiting on the constraints, not on refused checks: three refusals in a row would halt the run.
    await until(() => second.engine.getActiveConstraints().length === 0);
    expect(verdict(second, 'src/new.ts')).toBe('allow');
  });

  it('shares a file ban only with agents in the same repository', async () => {
    const learner = await agent();
    const sameRepository = await agent({ ...REPO, host: 'build-2' });
    const otherRepository = await agent({ ...REPO, repository: 'github.com/acme/web' });
    learner.record(missingRead('src/missing.ts'));
    await until(() => verdict(sameRepository, 'src/missing.ts') === 'block');
    await otherRepository.flush();
    expect(verdict(otherRepository, 'src/missing.ts')).toBe('allow');
  });

  it('keeps what was learned when Redis dies, and shares it again once Redis is back', async () => {
    const [first, second] = [await agent(), await agent()];
    first.record(missingRead('src/before.ts'));
    await until(() => verdict(second, 'src/before.ts') === 'block');
    await server.kill();
    first.record(missingRead('src/during.ts'));
    expect(verdict(first, 'src/during.ts')).toBe('block');
    expect(verdict(second, 'src/before.ts')).toBe('block');
    await server.restart();
    await until(() => verdict(second, 'src/during.ts') === 'block', 10_000);
    const late = await agent();
    expect([verdict(late, 'src/before.ts'), verdict(late, 'src/during.ts')]).toEqual(['block', 'block']);
  }, 30_000);

  it('says the server cannot be reached, without its password', async () => {
    const url = `redis://agent:s3cret-pass@127.0.0.1:${await freePort()}`;
    const error = await openRedisStore({ url, connectTimeoutMs: 500 }).catch((caught: unknown) => caught);
    expect(isNarrowingError(error) && error.code).toBe('STORE_UNAVAILABLE');
    expect((error as Error).message).toContain('redis://agent:***@127.0.0.1');
    expect((error as Error).message).not.toContain('s3cret-pass');
  });
});

describe('redis URLs', () => {
  it('hides the password of a Redis URL', () => {
    expect(redactRedisUrl('redis://user:hunter2@cache.internal:6380/2')).toBe(
      'redis://user:***@cache.internal:6380/2',
    );
  });
});
