import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FILE_MISSING } from '../../src/core/types.js';
import { createFileProbe, MAX_DIGEST_BYTES } from '../../src/node/file-probe.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-probe-'));
writeFileSync(join(dir, 'present.txt'), 'here');

describe('the file probe', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const probe = createFileProbe(dir);

  it('sees files by absolute path and relative to its working directory', () => {
    expect(probe.exists(join(dir, 'present.txt'))).toBe(true);
    expect(probe.exists('present.txt')).toBe(true);
    expect(probe.exists('absent.txt')).toBe(false);
  });

  it('cannot tell for URLs and repository-qualified paths', () => {
    expect(probe.exists('https://api.example.com/v1/items')).toBeUndefined();
    expect(probe.exists('octo/hello@main:src/x.ts')).toBeUndefined();
  });
});

describe('the file probe digest and stamp', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'narrowing-probe-digest-'));
  const outside = mkdtempSync(join(tmpdir(), 'narrowing-probe-outside-'));
  afterAll(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  const probe = createFileProbe(workspace);
  const manifest = '{\n  "name": "shop",\n  "scripts": { "test": "vitest run" }\n}\n';

  it('gives the same digest for the same content and another one once the file changes', () => {
    writeFileSync(join(workspace, 'package.json'), manifest);
    const before = probe.digest?.('package.json');
    expect(before).toMatch(/^[0-9a-f]{32}$/);
    expect(probe.digest?.(join(workspace, 'package.json'))).toBe(before);
    writeFileSync(
      join(workspace, 'package.json'),
      manifest.replace('"test"', '"lint": "biome check .", "test"'),
    );
    expect(probe.digest?.('package.json')).not.toBe(before);
  });

  it('says a file that does not exist is missing', () => {
    expect(probe.digest?.('Makefile')).toBe(FILE_MISSING);
    expect(probe.digest?.('packages/web/Makefile')).toBe(FILE_MISSING);
  });

  it('gives no digest of a file outside the workspace', () => {
    writeFileSync(join(outside, 'package.json'), manifest);
    expect(probe.digest?.(join(outside, 'package.json'))).toBeUndefined();
    expect(probe.digest?.(`../${basename(outside)}/package.json`)).toBeUndefined();
  });

  it('follows no link: neither a linked file nor a linked folder leading out of the workspace', () => {
    writeFileSync(join(outside, 'Makefile'), 'deploy:\n\t./deploy.sh\n');
    symlinkSync(join(outside, 'Makefile'), join(workspace, 'Makefile'));
    symlinkSync(outside, join(workspace, 'vendor'));
    expect(probe.digest?.('Makefile')).toBeUndefined();
    expect(probe.digest?.('vendor/package.json')).toBeUndefined();
  });

  it('gives no digest of a file larger than it reads, or of a folder', () => {
    writeFileSync(join(workspace, 'huge.json'), Buffer.alloc(MAX_DIGEST_BYTES + 1, 0x20));
    mkdirSync(join(workspace, 'config.d'));
    expect(probe.digest?.('huge.json')).toBeUndefined();
    expect(probe.digest?.('config.d')).toBeUndefined();
  });

  it('keeps a stamp while the file is left alone and moves it once the file is written', () => {
    writeFileSync(join(workspace, 'notes.md'), '# Notes\n- first\n');
    const before = probe.stamp?.('notes.md');
    expect(before).toBeDefined();
    expect(probe.stamp?.(join(workspace, 'notes.md'))).toBe(before);
    writeFileSync(join(workspace, 'notes.md'), '# Notes\n- first\n- second\n');
    expect(probe.stamp?.('notes.md')).not.toBe(before);
  });

  it('stamps a file that does not exist as missing', () => {
    expect(probe.stamp?.('docs/plan.md')).toBe(FILE_MISSING);
  });

  it('gives no stamp of a file outside the workspace, a linked file or a folder', () => {
    writeFileSync(join(outside, 'notes.md'), 'elsewhere\n');
    symlinkSync(join(outside, 'notes.md'), join(workspace, 'linked.md'));
    mkdirSync(join(workspace, 'docs'));
    expect(probe.stamp?.(join(outside, 'notes.md'))).toBeUndefined();
    expect(probe.stamp?.('linked.md')).toBeUndefined();
    expect(probe.stamp?.('docs')).toBeUndefined();
  });
});
