import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the test run', () => {
  it('puts its temporary files in a folder of its own, which the processes it starts share', () => {
    expect(basename(tmpdir())).toMatch(/^narrowing-tests-/);
    const child = spawnSync(process.execPath, ['-p', 'require("node:os").tmpdir()'], { encoding: 'utf8' });
    expect(child.stdout.trim()).toBe(tmpdir());
  });
});
