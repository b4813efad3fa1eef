import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileProbe } from '../../src/node/file-probe.js';

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
