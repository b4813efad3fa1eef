import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isNarrowingError } from '../../src/core/errors.js';
import { openGuard, openGuardSync, resolvedForReuse, resolveGuardPolicy } from '../../src/guard/open.js';
import { createMemoryStore } from '../../src/stores/index.js';
import { cleanupsAfterEach, tempDir } from '../mcp/support/harness.js';

const cleanups = cleanupsAfterEach();

function freshDir(): string {
  const dir = tempDir();
  cleanups.push(dir.remove);
  return dir.path;
}

const quiet = () => undefined;
const missingRead = { tool: 'read_text_file', args: { path: 'src/missing.ts' } };
const missingOutcome = {
  proposal: missingRead,
  success: false,
  content: "ENOENT: no such file or directory, open 'src/missing.ts'",
};

describe('openGuard', () => {
  it('keeps what it learned and its journal in the state directory', async () => {
    const dir = freshDir();
    const guard = await openGuard({ stateDir: dir, onProblem: quiet, probe: false });
    guard.check(missingRead);
    guard.record(missingOutcome);
    await guard.close();

    expect(guard.stateDir).toBe(dir);
    expect(guard.journalPath).toBe(join(dir, 'journal.jsonl'));
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).constraints.length).toBeGreaterThan(0);
    const lines = readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toHaveProperty('hash');
  });

  it('blocks in a new session what an earlier session learned in the same state directory', async () => {
    const dir = freshDir();
    const first = openGuardSync({ stateDir: dir, onProblem: quiet, probe: false });
    first.check(missingRead);
    first.record(missingOutcome);
    await first.close();

    const second = openGuardSync({ stateDir: dir, onProblem: quiet, probe: false });
    try {
      expect(second.check(missingRead).verdict).toBe('block');
    } finally {
      await second.close();
    }
  });

  it('journals without receipts when asked', async () => {
    const dir = freshDir();
    const guard = openGuardSync({ stateDir: dir, receipts: false, onProblem: quiet });
    guard.check(missingRead);
    await guard.close();
    const lines = readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line))).not.toContainEqual(
      expect.objectContaining({ hash: expect.anything() }),
    );
  });

  it('gives a second guard in the same directory its own journal, says whose the first is, and shares what is learned', async () => {
    const dir = freshDir();
    const messages: string[] = [];
    const first = openGuardSync({ stateDir: dir, onProblem: (message) => messages.push(message) });
    const second = openGuardSync({ stateDir: dir, onProblem: (message) => messages.push(message) });
    try {
      expect(second.journalPath).toBe(join(dir, 'journal.2.jsonl'));
      expect(messages).toEqual([
        `${join(dir, 'journal.jsonl')} is in use by another guard of this process; journaling to ${second.journalPath}`,
      ]);
      expect(second.stateDir).toBe(first.stateDir);
    } finally {
      await first.close();
      await second.close();
    }
    expect(existsSync(join(dir, 'journal.2.jsonl'))).toBe(true);
  });

  it('never gives a second guard of this process the journal the first writes, even once its writer file is gone', async () => {
    const dir = freshDir();
    const first = openGuardSync({ stateDir: dir, onProblem: quiet });
    rmSync(join(dir, 'journal.jsonl.writer'));
    const second = openGuardSync({ stateDir: dir, onProblem: quiet });
    try {
      expect(first.journalPath).toBe(join(dir, 'journal.jsonl'));
      expect(second.journalPath).toBe(join(dir, 'journal.2.jsonl'));
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('lets a guard take the journal another guard of this process closed', async () => {
    const dir = freshDir();
    const first = openGuardSync({ stateDir: dir, onProblem: quiet });
    await first.close();
    await first.close();
    const second = openGuardSync({ stateDir: dir, onProblem: quiet });
    await second.close();

    expect(second.journalPath).toBe(join(dir, 'journal.jsonl'));
  });

  it('finds the state directory at the root of the project the workspace belongs to', async () => {
    const project = freshDir();
    mkdirSync(join(project, '.git'));
    mkdirSync(join(project, 'src', 'lib'), { recursive: true });
    const guard = openGuardSync({ workspaceRoot: join(project, 'src', 'lib'), onProblem: quiet });
    await guard.close();
    expect(guard.stateDir).toBe(join(project, '.narrowing'));
  });

  it('writes nothing to disk with the memory store and no journal', async () => {
    const dir = freshDir();
    const guard = openGuardSync({ store: 'memory', workspaceRoot: dir });
    guard.check(missingRead);
    guard.record(missingOutcome);
    await guard.close();
    expect(guard.stateDir).toBeUndefined();
    expect(existsSync(join(dir, '.narrowing'))).toBe(false);
  });

  it('uses a store instance it is given', async () => {
    const store = createMemoryStore();
    const guard = openGuardSync({ store, probe: false });
    guard.check(missingRead);
    guard.record(missingOutcome);
    await guard.close();
    expect(store.load()?.constraints.length).toBeGreaterThan(0);
  });

  it('resolves relative paths against the workspace root when it probes the world', async () => {
    const workspace = freshDir();
    const guard = openGuardSync({ store: 'memory', workspaceRoot: workspace });
    try {
      guard.check(missingRead);
      guard.record(missingOutcome);
      expect(guard.check(missingRead).verdict).toBe('block');
      mkdirSync(join(workspace, 'src'));
      writeFileSync(join(workspace, 'src', 'missing.ts'), 'export {};\n');
      expect(guard.check(missingRead).verdict).not.toBe('block');
    } finally {
      await guard.close();
    }
  });

  it('refuses an unknown store with a usage error', () => {
    let thrown: unknown;
    try {
      openGuardSync({ store: 'cassandra' as 'memory' });
    } catch (error) {
      thrown = error;
    }
    expect(isNarrowingError(thrown) && thrown.code).toBe('USAGE');
  });

  it('goes on in memory, and says why, when the state directory cannot be created', async () => {
    const blocker = join(freshDir(), 'not-a-folder');
    writeFileSync(blocker, 'a file where the project expects a folder\n');
    const problems: string[] = [];
    const guard = openGuardSync({
      stateDir: join(blocker, '.narrowing'),
      probe: false,
      onProblem: (message) => problems.push(message),
    });
    try {
      guard.check(missingRead);
      guard.record(missingOutcome);
      expect(guard.check(missingRead).verdict).toBe('block');
      expect(guard.stateDir).toBeUndefined();
      expect(guard.journalPath).toBeUndefined();
      expect(problems).toEqual([expect.stringMatching(/ENOTDIR[\s\S]*state in memory only/)]);
    } finally {
      await guard.close();
    }
  });

  it('refuses to open when told to, if the state directory cannot be used', () => {
    const blocker = join(freshDir(), 'not-a-folder');
    writeFileSync(blocker, '');
    expect(() =>
      openGuardSync({
        stateDir: join(blocker, '.narrowing'),
        whenStateUnavailable: 'throw',
        onProblem: quiet,
      }),
    ).toThrow(/ENOTDIR/);
  });

  it('closes once however often it is asked', async () => {
    const guard = openGuardSync({ store: 'memory' });
    await Promise.all([guard.close(), guard.close()]);
    await guard.close();
  });
});

describe('resolveGuardPolicy', () => {
  it('lets the caller’s preset and enforcement win over the policy file', () => {
    const file = join(freshDir(), 'narrowing.yaml');
    writeFileSync(file, 'preset: strict\nenforcement: enforce\n');
    expect(resolveGuardPolicy({ policy: file })).toMatchObject({ preset: 'strict', enforcement: 'enforce' });
    expect(resolveGuardPolicy({ policy: file, preset: 'off', enforcement: 'advisory' })).toMatchObject({
      preset: 'off',
      enforcement: 'advisory',
    });
  });

  it('starts from the precise preset, enforced, without a policy', () => {
    expect(resolveGuardPolicy({})).toMatchObject({ preset: 'precise', enforcement: 'enforce' });
  });

  it('takes a policy resolved for reuse as it is, for guards opened one after another', () => {
    const policy = resolvedForReuse({ preset: 'strict' });
    expect(policy).toMatchObject({ preset: 'strict' });
    expect(resolveGuardPolicy({ policy })).toBe(policy);
  });

  it('resolves a policy file with the caller’s preset once, for guards to take as it is', () => {
    const file = join(freshDir(), 'narrowing.yaml');
    writeFileSync(file, 'preset: precise\n');
    const policy = resolvedForReuse(file, 'strict');
    expect(policy).toMatchObject({ preset: 'strict' });
    expect(resolveGuardPolicy({ policy })).toBe(policy);
  });

  it('still applies the caller’s preset to a policy resolved for reuse', () => {
    const policy = resolvedForReuse({ preset: 'strict' });
    expect(resolveGuardPolicy({ policy, preset: 'off' })).toMatchObject({ preset: 'off' });
  });

  it('takes a policy object and validates it', () => {
    expect(resolveGuardPolicy({ policy: { preset: 'strict' } })).toMatchObject({ preset: 'strict' });
    expect(() => resolveGuardPolicy({ policy: { preset: 'relaxed' } as never })).toThrow(/preset/);
  });

  it('names the file and the problem when the policy is invalid, with a stable code', () => {
    const file = join(freshDir(), 'narrowing.yaml');
    writeFileSync(file, 'preset: relaxed\n');
    let thrown: unknown;
    try {
      resolveGuardPolicy({ policy: file });
    } catch (error) {
      thrown = error;
    }
    expect(String(thrown)).toMatch(/narrowing\.yaml[\s\S]*preset/);
    expect(isNarrowingError(thrown) && thrown.code).toBe('POLICY_INVALID');
  });
});
