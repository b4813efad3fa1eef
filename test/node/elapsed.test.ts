import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { elapsed } from '../../src/node/elapsed.js';

const MODULE = fileURLToPath(new URL('../../src/node/elapsed.ts', import.meta.url));

describe('a wait that ends after a time', () => {
  it('resolves once its time has passed', async () => {
    await expect(elapsed(5)).resolves.toBeUndefined();
  });

  it('resolves at once for no time at all', async () => {
    await expect(elapsed(0)).resolves.toBeUndefined();
  });

  it('keeps no process alive that has nothing else to wait for', () => {
    // An hour's wait: the process ends as soon as its script has run, and the wait's end never comes.
    const script = `import { elapsed } from ${JSON.stringify(MODULE)};\nelapsed(3_600_000).then(() => console.log('ended'));\nconsole.log('waiting');\n`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('waiting\n');
  });
});
