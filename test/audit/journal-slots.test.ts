/**
 * More processes on one state folder than the journal has slots (a burst of hook processes without
 * the helper): the next one neither falls back to memory nor loses its outcome.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createJournal, JOURNAL_SLOTS, type Journal, openJournalSlot } from '../../src/audit/index.js';
import { openGuardSync } from '../../src/guard/open.js';
import { journalSlotPath } from '../../src/node/index.js';

const dirs: string[] = [];
const held: Journal[] = [];
afterEach(async () => {
  for (const journal of held.splice(0)) await journal.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A state folder whose usual journal slots are all held, as by 16 live processes. */
function busyStateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-slots-'));
  dirs.push(dir);
  const stateDir = join(dir, '.narrowing');
  for (let slot = 1; slot <= JOURNAL_SLOTS; slot += 1) {
    held.push(createJournal({ path: journalSlotPath(join(stateDir, 'journal.jsonl'), slot) }));
  }
  return stateDir;
}

/** A guard on `stateDir` whose problems are collected in `problems`. */
function guardOn(stateDir: string, problems: string[]) {
  return openGuardSync({
    stateDir,
    workspaceRoot: join(stateDir, '..'),
    probe: false,
    onProblem: (message) => problems.push(message),
  });
}

describe('journal slots', () => {
  it('gives a guard opened while every usual slot is held an overflow slot, and keeps its outcome', async () => {
    const stateDir = busyStateDir();
    const problems: string[] = [];
    const guard = guardOn(stateDir, problems);
    const read = { tool: 'read_file', args: { path: 'src/missing.ts' } };
    guard.check(read);
    guard.record({
      proposal: read,
      success: false,
      content: "ENOENT: no such file or directory, open 'src/missing.ts'",
    });
    await guard.close();
    expect(problems.join('\n')).not.toMatch(/in memory/);
    const state = readFileSync(join(stateDir, 'state.json'), 'utf8');
    expect(state).toContain('src/missing.ts');
    const overflow = readFileSync(join(stateDir, `journal.${JOURNAL_SLOTS + 1}.jsonl`), 'utf8');
    expect(overflow).toContain('"type":"outcome"');
  });

  it('says every slot is in use only when the overflow slots are held too', () => {
    const stateDir = busyStateDir();
    const path = join(stateDir, 'journal.jsonl');
    expect(() =>
      openJournalSlot({ path, slots: JOURNAL_SLOTS, maxSlots: JOURNAL_SLOTS, waitMs: 20 }),
    ).toThrow(/every journal slot beside .* is in use \(16 slots: 16 by other journals of this process\)/);
  });

  it('tells a process that opens more guards than slots that its own guards hold them, and what to do', () => {
    const stateDir = busyStateDir();
    const problems: string[] = [];
    const guard = guardOn(stateDir, problems);
    held.push({ close: () => guard.close() } as unknown as Journal);

    expect(problems).toEqual([
      `${join(stateDir, 'journal.jsonl')} is in use by another guard of this process; journaling to ${guard.journalPath}`,
    ]);
    let refusal = '';
    try {
      openJournalSlot({ path: join(stateDir, 'journal.jsonl'), slots: 8, maxSlots: JOURNAL_SLOTS + 1 });
    } catch (error) {
      refusal = (error as Error).message;
    }
    expect(refusal).toContain('(17 slots: 17 by other journals of this process)');
    expect(refusal).toContain('`journal: false`');
    expect(refusal).not.toMatch(/processes\)/);
  });
});
