import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinsAsLoaded } from '../../scripts/bundle-hook.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'narrowing-bundle-builtins-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** `source` bundled as the hook's client is (CommonJS, Node's modules taken as loaded). */
async function bundled(source: string): Promise<string> {
  const entry = join(dir, `entry-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
    plugins: [builtinsAsLoaded],
  });
  return result.outputFiles[0]?.text ?? '';
}

describe("the hook client's imports of Node's modules", () => {
  it('reads only the exports it imports, without copying the module onto an object of its own', async () => {
    const text = await bundled(
      "import { join } from 'node:path';\nimport { statSync, constants } from 'node:fs';\n" +
        "import os from 'node:os';\n" +
        'process.stdout.write(JSON.stringify([join("a", "b"), typeof statSync, typeof constants.O_RDONLY, typeof os.tmpdir]));\n',
    );
    expect(text).not.toContain('getOwnPropertyNames');
    // `promises` is a getter of node:fs that loads a module of its own: never read unless imported.
    expect(text).not.toContain('promises');
    const script = join(dir, 'client.cjs');
    writeFileSync(script, text);
    expect(JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8' }))).toEqual([
      join('a', 'b'),
      'function',
      'number',
      'function',
    ]);
  });

  it('fails the build for a name the module does not export', async () => {
    await expect(
      bundled("import { noSuchExport } from 'node:path';\nconsole.log(noSuchExport);\n"),
    ).rejects.toThrow(/noSuchExport/);
  });
});
