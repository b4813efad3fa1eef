import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveHooks } from '../../src/hooks/daemon.js';
import { claimHelperStart, startingMarkerPath, stopDaemons } from '../../src/hooks/daemon-client.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-helper-start-')));
  dirs.push(dir);
  const state = join(dir, '.narrowing');
  mkdirSync(state);
  return state;
}

describe('starting the hook helper', () => {
  it('is left to the first of a burst of hook processes that find no helper', () => {
    const socket = join(stateDir(), 'hookd-0000000000000000.sock');
    const claims = Array.from({ length: 6 }, () => claimHelperStart(socket));
    expect(claims).toEqual([true, false, false, false, false, false]);
  });

  it('is tried again when the helper started did not come up within 10 s', () => {
    const socket = join(stateDir(), 'hookd-0000000000000000.sock');
    const start = 1_700_000_000_000;
    expect(claimHelperStart(socket, start)).toBe(true);
    utimesSync(startingMarkerPath(socket), new Date(start), new Date(start));
    expect(claimHelperStart(socket, start + 9_000)).toBe(false);
    expect(claimHelperStart(socket, start + 10_500)).toBe(true);
    expect(claimHelperStart(socket, start + 11_000)).toBe(false);
  });

  it('never follows a link planted where the marker goes', () => {
    const state = stateDir();
    const socket = join(state, 'hookd-0000000000000000.sock');
    const target = join(state, 'elsewhere');
    symlinkSync(target, startingMarkerPath(socket));
    expect(claimHelperStart(socket, Date.now() + 60_000)).toBe(false);
    expect(existsSync(target)).toBe(false);
  });

  it('is open to the next hook process once the helper listens', async () => {
    const state = stateDir();
    const socket = join(state, 'hookd-0000000000000000.sock');
    expect(claimHelperStart(socket)).toBe(true);
    // Served in this process until idle: it listens, then stops by itself.
    await serveHooks({ socketPath: socket, stateDir: state, handleSignals: false, idleMs: 200 });
    expect(existsSync(startingMarkerPath(socket))).toBe(false);
    expect(claimHelperStart(socket)).toBe(true);
  });

  it('is stopped without waiting for this process to exit when it serves from this process', async () => {
    const state = stateDir();
    const socket = join(state, 'hookd-0000000000000000.sock');
    const served = serveHooks({ socketPath: socket, stateDir: state, handleSignals: false, idleMs: 60_000 });
    while (!existsSync(socket)) await new Promise((resolve) => setTimeout(resolve, 10));
    // The helper answers with this process's pid, which never exits: the wait must end with its socket.
    await stopDaemons(state, 600_000);
    await served;
    expect(existsSync(socket)).toBe(false);
  }, 60_000);
});
