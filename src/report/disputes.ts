/**
 * Disputes as labels for `replay --judge`: a person's word (`narrowing-guard feedback … --wrong`)
 * that a verdict of the live guard was wrong marks its call, and a replayed block of that call is a
 * false block whatever the recorded run did next. The trace must be the journal's own conversion
 * (`narrowing-guard trace from-journal`): its Nth call is the journal's Nth proposal.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readJournal } from '../audit/index.js';
import { otherJournalSlots } from '../node/index.js';

/** A disputed call, as a step of the journal's trace. */
export interface DisputedStep {
  readonly step: number;
  readonly tool: string;
  /** `journal.jsonl:42`: the disputed entry. */
  readonly entry: string;
}

/** The name of the journal a state directory's first process writes. */
const FIRST_JOURNAL = 'journal.jsonl';

/**
 * The steps of `journalPath`'s trace that a dispute names. Disputes are read from every journal of
 * its folder (`feedback` writes to a journal no process holds); those about another journal are left.
 */
export async function disputedSteps(journalPath: string): Promise<DisputedStep[]> {
  const name = basename(journalPath);
  const first = join(dirname(journalPath), FIRST_JOURNAL);
  // The journal named must be there (reading it says so otherwise); the others are read when they are.
  const beside = [first, ...otherJournalSlots(first)].filter((path) => existsSync(path));
  const journals = [...new Set([journalPath, ...beside])];
  const disputedEntries = new Set<number>();
  for (const path of journals) {
    for await (const entry of readJournal(path, { onBadLine: () => undefined })) {
      if (entry.type === 'dispute' && entry.journal === name) disputedEntries.add(entry.entry);
    }
  }
  const steps: DisputedStep[] = [];
  if (disputedEntries.size === 0) return steps;
  let step = 0;
  for await (const entry of readJournal(journalPath, { onBadLine: () => undefined })) {
    if (entry.type !== 'proposal' || typeof entry.tool !== 'string') continue;
    step++;
    if (disputedEntries.has(entry.seq)) steps.push({ step, tool: entry.tool, entry: `${name}:${entry.seq}` });
  }
  return steps;
}
