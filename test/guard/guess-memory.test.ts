import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { openGuard } from '../../src/guard/open.js';
import type { GuardSession } from '../../src/guard/session.js';
import { sessionStatePath, withSessionState } from '../../src/guard/session-state.js';
import { FIRST, RETRY, UNAVAILABLE_TEXT } from '../fixtures/guesses/airline.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-guess-memory-'));
  dirs.push(dir);
  return dir;
}

const SESSION = 'session-guesses';
const CHANGE = 'update_reservation_flights';
const UNAVAILABLE = {
  content: [{ type: 'text', text: UNAVAILABLE_TEXT }],
  isError: true,
};

type Open = (dir: string) => Promise<GuardSession>;
const openOn =
  (store: 'file' | 'sqlite'): Open =>
  (dir) =>
    openGuard({ store, stateDir: dir, sessionId: SESSION, journal: false, probe: false, workspaceRoot: dir });

/** One process: opens the guard, takes the session's turn, closes. */
async function turn<T>(open: Open, dir: string, work: (guard: GuardSession) => T): Promise<T> {
  const guard = await open(dir);
  try {
    return await withSessionState(guard, () => work(guard));
  } finally {
    await guard.close();
  }
}

function refused(guard: GuardSession): void {
  guard.check(toolCallToProposal(CHANGE, FIRST));
  guard.record(toolCallToOutcome(CHANGE, FIRST, UNAVAILABLE));
}

describe.each([
  ['the file store', 'file'],
  ['the SQLite store', 'sqlite'],
] as const)('unavailable-value after a restart on %s', (_, store) => {
  it('blocks the retry still asking for the unavailable flight', async () => {
    const dir = stateDir();
    const open = openOn(store);
    await turn(open, dir, refused);
    const verdict = await turn(open, dir, (guard) => guard.check(toolCallToProposal(CHANGE, RETRY)));
    expect(verdict).toMatchObject({ verdict: 'block', rule: 'unavailable-value' });
  });
});

describe('a session saved by the version whose unavailable-value rule saved nothing', () => {
  const read = { file_path: 'src/app.ts' };
  const readOnce = (guard: GuardSession) => {
    const verdict = guard.check(toolCallToProposal('read_file', read)).verdict;
    guard.record(toolCallToOutcome('read_file', read, 'export const app = 1;\n'));
    return verdict;
  };

  it('opens, keeps blocking what it blocked, and forgets only the refusal it never held', async () => {
    const dir = stateDir();
    const open = openOn('file');
    await turn(open, dir, refused);
    for (let i = 0; i < 4; i += 1) await turn(open, dir, readOnce);
    // The file as that version wrote it: the rule's part of it held nothing but its version.
    const path = sessionStatePath(dir, SESSION);
    const file = JSON.parse(readFileSync(path, 'utf8'));
    file.session.detectors['unavailable-value'] = { version: 1 };
    writeFileSync(path, JSON.stringify(file));
    const verdicts = await turn(open, dir, (guard) => [
      guard.check(toolCallToProposal('read_file', read)).verdict,
      guard.check(toolCallToProposal(CHANGE, RETRY)).verdict,
    ]);
    expect(verdicts).toEqual(['block', 'allow']);
  });
});

describe('the session file this version writes', () => {
  it('keeps the format earlier versions read, the rule’s part in a version of its own', async () => {
    const dir = stateDir();
    await turn(openOn('file'), dir, refused);
    const file = JSON.parse(readFileSync(sessionStatePath(dir, SESSION), 'utf8'));
    expect(file.version).toBe(1);
    expect(file.session.detectors['unavailable-value'].version).toBe(2);
  });
});
