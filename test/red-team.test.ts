import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));

describe('the red team script', () => {
  it('replays every attack within a minute and reports each defence as held', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/red-team.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('FAIL'))).toEqual([]);
    expect(lines.filter((line) => line.startsWith('PASS')).length).toBeGreaterThanOrEqual(15);
    expect(run.status).toBe(0);
  }, 70_000);
});
