import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGuard, resolveGuardPolicy } from '../../src/mcp/guard-factory.js';
import { cleanupsAfterEach, tempDir } from './support/harness.js';

const cleanups = cleanupsAfterEach();

function stateDir(): string {
  const dir = tempDir();
  cleanups.push(dir.remove);
  return dir.path;
}

const missingRead = { tool: 'read_text_file', args: { path: 'src/missing.ts' } };
const missingOutcome = {
  proposal: missingRead,
  success: false,
  content: "ENOENT: no such file or directory, open 'src/missing.ts'",
};

describe('createGuard', () => {
  it('keeps what it learned and its journal in the state directory', async () => {
    const dir = stateDir();
    const guard = createGuard({ stateDir: dir, log: () => undefined });
    guard.checkProposal(missingRead);
    guard.recordOutcome(missingOutcome);
    await guard.close();

    expect(guard.statePath).toBe(join(dir, 'state.json'));
    expect(guard.journalPath).toBe(join(dir, 'journal.jsonl'));
    expect(JSON.parse(readFileSync(guard.statePath, 'utf8')).constraints.length).toBeGreaterThan(0);
    const lines = readFileSync(guard.journalPath, 'utf8').trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toHaveProperty('hash');
  });

  it('journals without receipts when asked', async () => {
    const guard = createGuard({ stateDir: stateDir(), receipts: false, log: () => undefined });
    guard.checkProposal(missingRead);
    await guard.close();
    const lines = readFileSync(guard.journalPath, 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line))).not.toContainEqual(
      expect.objectContaining({ hash: expect.anything() }),
    );
  });

  it('gives a second proxy in the same directory its own journal and shares what is learned', async () => {
    const dir = stateDir();
    const messages: string[] = [];
    const first = createGuard({ stateDir: dir, log: (message) => messages.push(message) });
    const second = createGuard({ stateDir: dir, log: (message) => messages.push(message) });
    try {
      expect(second.journalPath).toBe(join(dir, 'journal.2.jsonl'));
      expect(messages).toEqual([
        `${join(dir, 'journal.jsonl')} is in use by another process; journaling to ${second.journalPath}`,
      ]);
      expect(second.statePath).toBe(first.statePath);
    } finally {
      await first.close();
      await second.close();
    }
    expect(existsSync(second.journalPath)).toBe(true);
  });
});

describe('resolveGuardPolicy', () => {
  it('lets the command line’s preset and enforcement win over the policy file', () => {
    const file = join(stateDir(), 'narrowing.yaml');
    writeFileSync(file, 'preset: strict\nenforcement: enforce\n');
    expect(resolveGuardPolicy({ policyFile: file })).toMatchObject({
      preset: 'strict',
      enforcement: 'enforce',
    });
    expect(resolveGuardPolicy({ policyFile: file, preset: 'off', enforcement: 'advisory' })).toMatchObject({
      preset: 'off',
      enforcement: 'advisory',
    });
  });

  it('starts from the precise preset, enforced, without a file', () => {
    expect(resolveGuardPolicy({})).toMatchObject({ preset: 'precise', enforcement: 'enforce' });
  });

  it('names the file and the problem when the policy is invalid', () => {
    const file = join(stateDir(), 'narrowing.yaml');
    writeFileSync(file, 'preset: relaxed\n');
    expect(() => resolveGuardPolicy({ policyFile: file })).toThrow(/narrowing\.yaml[\s\S]*preset/);
  });
});
