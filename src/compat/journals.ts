/**
 * One journal per path for every compat loop of this process. That package's loops have no
 * `close()` and all default to `.narrowing/journal.jsonl`, so a program that creates two loops
 * must not find the journal taken by the first: loops on one path share its writer, and each run
 * of entries a loop writes after another's is introduced by its `session` line. Another process
 * still cannot write the same journal (one writer per journal: its hash chain has one end).
 */
import { resolve } from 'node:path';
import { createJournal, describeJournalProblem, type Journal, type JournalOptions } from '../audit/index.js';
import type { JournalEvent } from '../core/types.js';

interface SharedJournal {
  readonly journal: Journal;
  /** Open handles. */
  users: number;
  /** The session the last entry was stamped with. */
  session: string | undefined;
}

const open = new Map<string, SharedJournal>();

export interface SharedJournalSettings {
  readonly receipts: boolean;
  readonly report: (message: string) => void;
}

/**
 * A handle on the journal at `path`, opened by the first loop that asks and closed with the last
 * handle. A journal whose file was removed while it was open (its folder deleted between two test
 * cases, say) is given up, and a new one starts the file afresh.
 */
export function openSharedJournal(path: string, settings: SharedJournalSettings): Journal {
  const key = resolve(path);
  let shared = open.get(key);
  if (shared?.journal.detached) {
    shared.journal.abandon();
    shared = { journal: createJournal(optionsFor(path, settings)), users: shared.users, session: undefined };
    open.set(key, shared);
  }
  if (shared === undefined) {
    shared = { journal: createJournal(optionsFor(path, settings)), users: 0, session: undefined };
    open.set(key, shared);
  }
  shared.users++;
  return handleOn(key, shared.journal);
}

function optionsFor(path: string, settings: SharedJournalSettings): JournalOptions {
  return {
    path,
    receipts: settings.receipts,
    onProblem: (problem) => settings.report(describeJournalProblem(problem)),
  };
}

function handleOn(key: string, first: Journal): Journal {
  let session: string | undefined;
  let closing: Promise<void> | undefined;
  // The journal open on the path now: another, if the first was given up.
  const current = (): SharedJournal => {
    const shared = open.get(key);
    if (shared === undefined || closing !== undefined)
      throw new Error(`The journal ${first.path} is closed.`);
    return shared;
  };
  return {
    path: first.path,
    headPath: first.headPath,
    get detached() {
      return current().journal.detached;
    },
    record(event: JournalEvent): number {
      const shared = current();
      if (event.type === 'session') session = event.sessionId;
      else if (session !== undefined && shared.session !== session)
        shared.journal.record({ type: 'session', sessionId: session, at: event.at });
      if (session !== undefined) shared.session = session;
      return shared.journal.record(event);
    },
    receiptHash: (sequence) => current().journal.receiptHash(sequence),
    /** What the paper's synchronous journal would show: what is recorded is written first. */
    verify() {
      const { journal } = current();
      journal.flushSync();
      return journal.verify();
    },
    flushSync: () => current().journal.flushSync(),
    abandon: () => undefined,
    flush: () => (closing === undefined ? current().journal.flush() : closing),
    close(): Promise<void> {
      if (closing !== undefined) return closing;
      const shared = current();
      closing = Promise.resolve();
      shared.users--;
      if (shared.users > 0) {
        closing = shared.journal.flush();
        return closing;
      }
      open.delete(key);
      closing = shared.journal.close();
      return closing;
    },
  };
}
