/**
 * When the state cannot be kept (a store that is down, a state folder that cannot be made), the
 * guard goes on in memory: it still learns and enforces, says so once, and does not wait out a
 * connect timeout on every process start.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type GuardSession, openGuard } from '../../src/guard/index.js';
import { freePort } from '../stores/redis-server.js';

const read = { tool: 'read_file', args: { path: 'config/prod.yaml' } };
const missing = "ENOENT: no such file or directory, open 'config/prod.yaml'";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-unavailable-'));
  dirs.push(dir);
  return dir;
}

/** Fails the same read twice, as an agent would, and returns the verdict on a third. */
async function learnsAndBlocks(guard: GuardSession): Promise<string> {
  for (let round = 0; round < 2; round++) {
    guard.check(read);
    guard.record({ proposal: read, success: false, content: missing });
  }
  const { verdict } = guard.check(read);
  await guard.close();
  return verdict;
}

beforeAll(async () => {
  // Loaded once here, so that the timing below is the store's, not the module loader's.
  await import('redis');
});

describe('a guard whose state cannot be kept', () => {
  it.each(['file', 'sqlite'] as const)(
    'goes on in memory with the %s store and a journal asked for, when a file stands where the state folder goes',
    async (store) => {
      const dir = project();
      const stateDir = join(dir, '.narrowing');
      writeFileSync(stateDir, 'not a folder\n');
      const problems: string[] = [];
      const guard = await openGuard({
        stateDir,
        workspaceRoot: dir,
        store,
        journal: true,
        probe: false,
        onProblem: (message) => problems.push(message),
      });
      expect(await learnsAndBlocks(guard)).toBe('block');
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/Running with state in memory only and no journal/);
    },
  );

  it('goes on in memory, its journal kept, at once when the redis store refuses the connection', async () => {
    const dir = project();
    const stateDir = join(dir, '.narrowing');
    const problems: string[] = [];
    const guard = await openGuard({
      stateDir,
      workspaceRoot: dir,
      store: `redis://127.0.0.1:${await freePort()}`,
      journal: true,
      probe: false,
      onProblem: (message) => problems.push(message),
    });
    expect(await learnsAndBlocks(guard)).toBe('block');
    expect(problems).toHaveLength(1);
    // A refused connection is an answer, not a reason to wait out the 3 s connect timeout: the
    // store gave up on the refusal itself, which a wait ended by the timeout would not name.
    expect(problems[0]).toMatch(/ECONNREFUSED.*Running with state in memory only and the journal kept/);
    expect(problems[0]).not.toMatch(/no answer within/);
    expect(existsSync(join(stateDir, 'journal.jsonl'))).toBe(true);
  });
});
