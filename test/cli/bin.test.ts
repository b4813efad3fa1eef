import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/**
 * The real bin script and start-up in front of a command entry that fails the way `main` can: a
 * build without the bundle, so the start-up loads the modules.
 */
function binFailingWith(dir: string, body: string): string {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
  mkdirSync(join(dir, 'dist', 'node'), { recursive: true });
  copyFileSync(join(root, 'bin', 'narrowing.js'), join(dir, 'bin', 'narrowing.js'));
  for (const module of ['cli/start.js', 'node/code-cache.js', 'node/text-key.js', 'node/user-dirs.js'])
    copyFileSync(join(root, 'dist', module), join(dir, 'dist', module));
  const errors = pathToFileURL(join(root, 'dist', 'core', 'errors.js')).href;
  writeFileSync(
    join(dir, 'dist', 'cli', 'main.js'),
    `import { NarrowingError } from ${JSON.stringify(errors)};\nexport async function main() {\n${body}\n}\n`,
  );
  return join(dir, 'bin', 'narrowing.js');
}

describe('the narrowing-guard command', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(join(root, 'dist', 'core', 'errors.js')))
      spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'narrowing-bin-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints what to do, without a stack trace, for an error it raised on purpose', () => {
    const bin = binFailingWith(
      join(dir, 'on-purpose'),
      "throw new NarrowingError('DEPENDENCY_MISSING', 'The demo runs the MCP filesystem server, which is not installed here.');",
    );
    const run = spawnSync(process.execPath, [bin, 'demo'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'narrowing-guard: The demo runs the MCP filesystem server, which is not installed here.\n',
    );
  });

  it("starts `replay` without Node's ES module loader: no module of it beyond those every process loads", () => {
    const esm = (modules: string[]) => modules.filter((name) => name.includes('modules/esm/'));
    expect(esm(modulesOfReplay('no-module-loader'))).toEqual(esm(modulesOf(['-e', '0'])));
  });

  /** Node's own modules a `replay` of a one-call trace loaded, start to exit. */
  function modulesOfReplay(name: string): string[] {
    const work = join(dir, name);
    mkdirSync(work, { recursive: true });
    const trace = join(work, 'trace.jsonl');
    writeFileSync(
      trace,
      `${JSON.stringify({ type: 'call', tool: 'read_file', args: { path: 'src/app.ts' }, result: { content: [{ type: 'text', text: 'export {};' }] }, t: 0 })}\n`,
    );
    return modulesOf([join(root, 'bin', 'narrowing.js'), 'replay', trace, '--json'], (stdout) =>
      expect(stdout).toContain('"verdict":"allow"'),
    );
  }

  /** Node's own modules a process of `node ARGS` loaded, start to exit; `check` reads what it printed. */
  function modulesOf(args: string[], check?: (stdout: string) => void): string[] {
    const loaded = join(dir, 'loaded-modules.cjs');
    writeFileSync(
      loaded,
      "process.on('exit', () => require('node:fs').writeSync(2, JSON.stringify(process.moduleLoadList)));\n",
    );
    const run = spawnSync(process.execPath, ['-r', loaded, ...args], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    check?.(run.stdout);
    return JSON.parse(run.stderr) as string[];
  }

  it('starts `replay` without loading child_process, which only a subcommand run as a program of its own would need', () => {
    expect(modulesOfReplay('no-child-process')).not.toContain('NativeModule child_process');
  });

  it('starts `replay` without setting up the lock of shared files, whose exit handler loads assert', () => {
    expect(modulesOfReplay('no-lock')).not.toContain('NativeModule assert');
  });

  it('still shows the stack of an error nobody expected', () => {
    const bin = binFailingWith(join(dir, 'unexpected'), "throw new TypeError('x is not a function');");
    const run = spawnSync(process.execPath, [bin, 'demo'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/TypeError: x is not a function\n\s+at /);
  });
});
