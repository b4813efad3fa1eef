import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runForget } from '../../../src/cli/commands/forget.js';
import { parseStoreOption } from '../../../src/cli/commands/store-option.js';
import { openGuard } from '../../../src/guard/open.js';
import { type RedisServer, redisInstalled, startRedis } from '../../stores/redis-server.js';
import { captureIO } from './cli-io.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const missingRead = { tool: 'read_file', args: { path: 'config/prod.yaml' } };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let redis: RedisServer | undefined;
beforeAll(async () => {
  if (redisInstalled) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-forget-skew-'));
  dirs.push(dir);
  return dir;
}

/** Opens a guard on `store` in `dir`, its clock `aheadMs` ahead of this machine's. */
function guardIn(dir: string, store: string | undefined, aheadMs = 0) {
  return openGuard({
    stateDir: join(dir, '.narrowing'),
    workspaceRoot: dir,
    ...(store !== undefined && { store: parseStoreOption(store) }),
    probe: false,
    journal: false,
    clock: { now: () => Date.now() + aheadMs },
    onProblem: () => undefined,
  });
}

const stores: [string, () => string | undefined][] = [
  ['the file store', () => undefined],
  ['the sqlite store', () => 'sqlite'],
  ...(redisInstalled ? ([['a redis store', () => redis?.url]] as [string, () => string | undefined][]) : []),
];

describe('narrowing-guard forget with a ban from a clock that runs ahead', () => {
  it.each(stores)(
    'removes from %s a ban learned a day in the future, so that it blocks no more',
    async (_, store) => {
      const dir = project();
      const ahead = await guardIn(dir, store(), DAY_MS);
      ahead.check(missingRead);
      ahead.record({
        proposal: missingRead,
        success: false,
        content: "ENOENT: no such file or directory, open 'config/prod.yaml'",
      });
      const [ban] = ahead.engine.getActiveConstraints();
      await ahead.close();
      expect(ban).toBeDefined();

      const { io, stdout, stderr } = captureIO();
      const options = store() === undefined ? {} : { store: store() as string };
      const code = await runForget([(ban?.id ?? '').slice(0, 8)], options, io, dir);
      expect(stdout() + stderr()).toMatch(/^Forgot 1 constraint/);
      expect(code).toBe(0);

      const later = await guardIn(dir, store());
      try {
        expect(later.check(missingRead).verdict).toBe('allow');
      } finally {
        await later.close();
      }
    },
    30_000,
  );
});
