import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const loader = pathToFileURL(join(root, 'src', 'cli', 'code-cache.ts')).href;

/** A bundle as scripts/bundle-cli.ts writes them: a classic script that sets `module.exports`. */
const BUNDLE = `
function double(value) { return value * 2; }
module.exports.answer = double(21);
module.exports.build = __narrowingDist;
module.exports.importOutside = () => __narrowingImport('node:path');
`;

/** Runs the bundle in a fresh process, as `bin/narrowing.js` does; prints what it saw. */
function runBundle(dir: string, env: NodeJS.ProcessEnv = {}): Record<string, unknown> {
  const program = `
    import { runCachedScript } from ${JSON.stringify(loader)};
    const script = runCachedScript({
      file: ${JSON.stringify(join(dir, 'bundle.cjs'))},
      name: 'cli-test',
      buildUrl: 'file:///the/build/',
      cacheDir: ${JSON.stringify(join(dir, 'cache'))},
      importModule: (specifier) => import(specifier),
    });
    const path = await script.exports.importOutside();
    console.log(JSON.stringify({ ...script.exports, joined: path.join('a', 'b'), cache: script.cache }));
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NARROWING_GUARD_CODE_CACHE: '', ...env },
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe('the code cache of the command line', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'narrowing-code-cache-'));
    mkdirSync(join(dir, 'cache'), { mode: 0o700 });
    writeFileSync(join(dir, 'bundle.cjs'), BUNDLE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the bundle with its build address and the loader import, and keeps the compiled code on exit', () => {
    const first = runBundle(dir);
    expect(first).toEqual({
      answer: 42,
      build: 'file:///the/build/',
      joined: join('a', 'b'),
      cache: 'written',
    });
    expect(readdirSync(join(dir, 'cache'))).toEqual([
      expect.stringMatching(/^cli-test-[0-9a-f]{24}\.v8cache$/),
    ]);
  });

  it('uses the kept code in the next process', () => {
    runBundle(dir);
    expect(runBundle(dir).cache).toBe('hit');
  });

  it('replaces the cache of a bundle that changed, and removes the old one', () => {
    runBundle(dir);
    const [old] = readdirSync(join(dir, 'cache'));
    writeFileSync(join(dir, 'bundle.cjs'), BUNDLE.replace('21', '20'));
    const changed = runBundle(dir);
    expect(changed).toMatchObject({ answer: 40, cache: 'written' });
    const kept = readdirSync(join(dir, 'cache'));
    expect(kept).toHaveLength(1);
    expect(kept).not.toContain(old);
  });

  it('does not read a cache that is a link, even to a good cache', () => {
    runBundle(dir);
    const [name = ''] = readdirSync(join(dir, 'cache'));
    const elsewhere = join(dir, 'elsewhere.v8cache');
    renameSync(join(dir, 'cache', name), elsewhere);
    symlinkSync(elsewhere, join(dir, 'cache', name));
    expect(runBundle(dir)).toMatchObject({ answer: 42, cache: 'written' });
  });

  it('reads and writes no cache when NARROWING_GUARD_CODE_CACHE is off', () => {
    expect(runBundle(dir, { NARROWING_GUARD_CODE_CACHE: 'off' })).toMatchObject({ answer: 42, cache: 'off' });
    expect(readdirSync(join(dir, 'cache'))).toEqual([]);
  });
});
