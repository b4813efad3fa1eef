import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHooks } from '../../src/hooks/daemon.js';
import { askDaemon, stopDaemons } from '../../src/hooks/daemon-client.js';
import { HOOK_PROTOCOLS } from '../../src/hooks/protocols.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Resolves on the first turn of the event loop on which `ready` holds. */
function assoonas(ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const look = () => (ready() ? resolve() : setImmediate(look));
    look();
  });
}

const stopEvent = (dir: string) =>
  HOOK_PROTOCOLS['claude-code'].parse({ session_id: 'cc-start', cwd: dir, hook_event_name: 'Stop' });

describe('the hook helper as it starts', () => {
  it('answers hooks that connect the moment its socket is bound, and still stops when asked', async () => {
    for (let round = 0; round < 5; round += 1) {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-helper-start-')));
      dirs.push(dir);
      const stateDir = join(dir, '.narrowing');
      mkdirSync(stateDir);
      const socketPath = join(stateDir, 'hookd-0000000000000000.sock');
      const served = serveHooks({ socketPath, stateDir, handleSignals: false, idleMs: 60_000 });
      await assoonas(() => existsSync(socketPath));
      // Several hooks at once, as an agent's parallel tool calls send them.
      const answers = await Promise.allSettled(
        Array.from({ length: 4 }, () => askDaemon(socketPath, { event: stopEvent(dir) }, 5_000)),
      );
      await stopDaemons(stateDir);
      const stoppedInTime = await Promise.race([
        served.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual(Array(4).fill('fulfilled'));
      expect(stoppedInTime).toBe(true);
    }
  });
});
