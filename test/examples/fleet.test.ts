import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, redisInstalled, startRedis } from '../stores/redis-server.js';

const root = resolve(import.meta.dirname, '..', '..');
const example = join(root, 'examples', 'fleet.mjs');

describe.skipIf(!redisInstalled)('the README fleet example', () => {
  let dir: string;
  let server: RedisServer;
  beforeAll(async () => {
    if (!existsSync(join(root, 'dist', 'stores', 'redis-store.js')))
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'narrowing-fleet-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'narrowing-guard'), 'dir');
    copyFileSync(example, join(dir, 'fleet.mjs'));
    server = await startRedis();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is the very code the README shows', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(readFileSync(example, 'utf8').trim());
  });

  it('runs as written: what one agent learned blocks the other', () => {
    const output = execFileSync('node', ['fleet.mjs'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, REDIS_URL: server.url },
    });
    expect(output).toMatch(
      /^bob: block: read_file \{path: "config\/prod\.yaml"\} failed and nothing it depends on has changed since: ENOENT/,
    );
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(output.trim());
  });
});
