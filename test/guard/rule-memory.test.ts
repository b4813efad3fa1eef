import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { openGuard } from '../../src/guard/open.js';
import type { GuardSession } from '../../src/guard/session.js';
import { sessionStatePath, withSessionState } from '../../src/guard/session-state.js';
import { GUESSED_TEXTS, guessedEdit, NEXT_GUESS, notFoundText } from '../fixtures/guesses/unread-file.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-rule-memory-'));
  dirs.push(dir);
  return dir;
}

const SESSION = 'session-rule-memory';

type Step = readonly [tool: string, args: Record<string, unknown>, text: string, isError?: boolean];
type Open = (dir: string) => Promise<GuardSession>;
const openOn =
  (store: 'file' | 'sqlite'): Open =>
  (dir) =>
    openGuard({ store, stateDir: dir, sessionId: SESSION, journal: false, probe: false, workspaceRoot: dir });

/** One process: opens the guard, takes the session's turn for one call, closes. */
async function turn(open: Open, dir: string, [tool, args, text, isError]: Step): Promise<string> {
  const guard = await open(dir);
  try {
    return await withSessionState(guard, () => {
      const verdict = guard.check(toolCallToProposal(tool, args));
      if (verdict.allowed)
        guard.record(toolCallToOutcome(tool, args, { content: [{ type: 'text', text }], isError }));
      return verdict.verdict;
    });
  } finally {
    await guard.close();
  }
}

/** The verdicts of `steps`, each in a process of its own on one store. */
async function processes(
  store: 'file' | 'sqlite',
  steps: readonly Step[],
  dir = stateDir(),
): Promise<string[]> {
  const seen: string[] = [];
  for (const step of steps) seen.push(await turn(openOn(store), dir, step));
  return seen;
}

const SOLVE: Step = ['bash', { command: 'python3 solve.py' }, 'Trying n = 1\nTrying n = 2\nNo key found\n'];
const SCRIPT_RUNS: Step[] = [
  SOLVE,
  ['bash', { command: 'cat solve.py' }, 'for n in range(1, 3):\n    try_key(n)\n'],
  SOLVE,
  ['bash', { command: 'cat output.txt' }, 'ciphertext: 7b2a\n'],
  SOLVE,
];

const FILE = '/srv/api/src/routes/users.ts';
const guess = (old_string: string): Step => [
  'Edit',
  guessedEdit(FILE, old_string),
  notFoundText(old_string),
  true,
];
const GUESSES: Step[] = [...GUESSED_TEXTS, NEXT_GUESS].map(guess);

const SOURCE =
  'export function save(user) {\n  if (!user.email) throw new Error("email required");\n  return db.insert(user);\n}\n';
const change = (old_string: string): Step => [
  'Edit',
  { file_path: 'src/app.js', old_string, new_string: 'replacement' },
  '<tool_use_error>String to replace not found in file.</tool_use_error>',
  true,
];
const EDITS_AFTER_READ: Step[] = [
  ['Read', { file_path: 'src/app.js' }, SOURCE],
  change('function store(user) {'),
  change(
    'export function save(user) {\n  if (!user.name) throw new Error("name required");\n  return db.insert(user);',
  ),
];

const SWEEP: Step[] = Array.from({ length: 8 }, (_, day) => [
  'search_transactions',
  { account: 'acc-1', date: `2026-01-0${day + 1}` },
  '{"transactions": []}',
]);

describe.each([
  ['the file store', 'file'],
  ['the SQLite store', 'sqlite'],
] as const)('rules judging after a restart on %s as in one process', (_, store) => {
  it('blocks the third run of a script that answered alike, other calls in between', async () => {
    expect((await processes(store, SCRIPT_RUNS)).at(-1)).toBe('block');
  });

  it('blocks a third guess at a file never read after two guesses were not found', async () => {
    expect(await processes(store, GUESSES)).toEqual(['allow', 'allow', 'block']);
  });

  it('never blocks a sweep of dates in order returning empty lists', async () => {
    expect(await processes(store, SWEEP)).not.toContain('block');
  });

  it('blocks an edit whose inner line is not in the file read, once an edit of it failed', async () => {
    // A text of one line may be part of a line: only whole lines are judged from what was saved.
    expect(await processes(store, EDITS_AFTER_READ)).toEqual(['allow', 'allow', 'block']);
  });
});

describe('a session saved by the version whose rules saved less', () => {
  it('opens, and judges the next calls as a new run would', async () => {
    const dir = stateDir();
    await processes('file', GUESSES.slice(0, 2), dir);
    const path = sessionStatePath(dir, SESSION);
    const file = JSON.parse(readFileSync(path, 'utf8'));
    file.session.detectors['blind-edit'] = { version: 1 };
    file.session.detectors['non-advancing'] = { version: 1, tools: [] };
    const saved = file.session.detectors['identical-result'];
    file.session.detectors['identical-result'] = { ...saved, version: 1 };
    writeFileSync(path, JSON.stringify(file));
    expect(await processes('file', GUESSES.slice(2), dir)).not.toContain('block');
  });

  it('writes no path, file name or argument of these rules in clear', async () => {
    const dir = stateDir();
    await processes('file', [...GUESSES.slice(0, 2), ...SWEEP.slice(0, 2)], dir);
    const file = JSON.parse(readFileSync(sessionStatePath(dir, SESSION), 'utf8'));
    const memory = JSON.stringify([
      file.session.detectors['blind-edit'],
      (file.session.detectors['non-advancing'].tools as [string, { lastArgs: unknown }][]).map(
        ([, streak]) => streak.lastArgs,
      ),
    ]);
    for (const value of ['users.ts', '/srv/api', 'listUsers', 'acc-1', 'account'])
      expect(memory).not.toContain(value);
  });
});
