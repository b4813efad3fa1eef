import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import type { PersistedState } from '../../src/core/types.js';
import { openGuard } from '../../src/guard/open.js';
import { withSessionState } from '../../src/guard/session-state.js';
import type { HookEvent } from '../../src/hooks/event.js';
import { createFileStore } from '../../src/stores/file-store.js';
import { failedRead as claudeFailedRead, takeTurn } from '../hooks/session-turns.js';
import { missingFile, stateOf } from './sample-state.js';

const SESSION = '7c2e9a41-5b3d-4f8e-a1c6-0d9b8e7f6a52';
const OTHER_SESSION = 'b41f0d2e-93a7-4c5e-8f16-2d7e0c9a5b38';
const quiet = () => undefined;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-file-turns-')));
  dirs.push(dir);
  return dir;
}

/** A guard as the helper or a hook process opens it on the project's state file. */
function openSide(dir: string, sessionId = SESSION) {
  return openGuard({
    store: createFileStore({ path: join(dir, 'state.json'), onProblem: quiet }),
    stateDir: dir,
    sessionId,
    journal: false,
    probe: false,
    workspaceRoot: dir,
  });
}

function failedRead(dir: string, id: string, sessionId = SESSION): HookEvent {
  return claudeFailedRead(dir, id, sessionId);
}

async function verdictOnRead(dir: string) {
  const check = await openSide(dir);
  try {
    return await withSessionState(check, () =>
      check.check(toolCallToProposal('Read', { file_path: join(dir, 'src/config.ts') })),
    );
  } finally {
    await check.close();
  }
}

describe('file store turns: a process that learns builds on what the others wrote', () => {
  it('counts every failure of a call when the helper holds the state while a hook process records one', async () => {
    const dir = project();
    const helper = await openSide(dir);
    const hookProcess = await openSide(dir);
    await takeTurn(helper, failedRead(dir, 'toolu_first'));
    await helper.flush();
    // The hook process handles its event while the helper keeps the state it read before.
    await takeTurn(hookProcess, failedRead(dir, 'toolu_second'));
    await hookProcess.close();
    await takeTurn(helper, failedRead(dir, 'toolu_third'));
    await helper.close();
    const verdict = await verdictOnRead(dir);
    expect(verdict.verdict).toBe('block');
    expect(verdict.reason).toContain('failed 3 times');
  });

  it('keeps both failures when two sessions, each opened before the other wrote, record the same one', async () => {
    const dir = project();
    // Two agents in one project, their hook processes opened at once: neither has read the other's write.
    const first = await openSide(dir, SESSION);
    const second = await openSide(dir, OTHER_SESSION);
    await takeTurn(first, failedRead(dir, 'toolu_a1', SESSION));
    await first.close();
    await takeTurn(second, failedRead(dir, 'toolu_b1', OTHER_SESSION));
    await second.close();
    const verdict = await verdictOnRead(dir);
    expect(verdict.reason).toContain('failed twice');
  });
});

describe('file store turn', () => {
  const at = Date.now() - 60_000;

  it("hands the subscribers another store's write made since this one read the file", async () => {
    const path = join(project(), 'state.json');
    const mine = createFileStore({ path, onProblem: quiet });
    mine.load();
    const other = createFileStore({ path, onProblem: quiet });
    other.load();
    other.save(stateOf([missingFile('src/config.ts', at)]));
    await other.close();
    const heard: PersistedState[] = [];
    mine.subscribe((changes) => heard.push(changes));
    const seen = await mine.turn(() => heard.flatMap((state) => state.constraints.map((c) => c.id)));
    expect(seen).toEqual(['target-missing:src/config.ts']);
    await mine.close();
  });

  it('writes what it was given before it resolves, with no flush', async () => {
    const path = join(project(), 'state.json');
    const mine = createFileStore({ path, debounceMs: 60_000, onProblem: quiet });
    mine.load();
    await mine.turn(() => mine.save(stateOf([missingFile('src/db/pool.ts', at)])));
    const reader = createFileStore({ path, onProblem: quiet });
    expect(reader.load()?.constraints.map((c) => c.id)).toEqual(['target-missing:src/db/pool.ts']);
    await reader.close();
    await mine.close();
  });

  it('lets a flush inside the turn write without waiting for the lock the turn holds', async () => {
    const path = join(project(), 'state.json');
    const mine = createFileStore({ path, onProblem: quiet });
    mine.load();
    const merged = await mine.turn(async () => {
      mine.save(stateOf([missingFile('src/config.ts', at)]));
      return mine.flush();
    });
    expect(merged?.constraints).toHaveLength(1);
    await mine.close();
  });
});
