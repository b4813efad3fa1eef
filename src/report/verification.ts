/**
 * `verify`: checking a journal's receipt chain, and saying what the result means — which receipt
 * broke first, what that receipt was, and what can still be trusted.
 */
import { existsSync } from 'node:fs';
import {
  type JournalEntry,
  type JournalVerification,
  readJournalSync,
  verifyJournal,
} from '../audit/index.js';
import { writerFilePath } from '../audit/writer.js';
import type { JournalLocation } from './locations.js';
import { dateTime } from './time.js';

export type VerifyReport =
  | { readonly readable: false; readonly problem: string }
  | {
      readonly readable: true;
      readonly result: JournalVerification;
      /** The entry at the first broken receipt, when its line can be read. */
      readonly brokenEntry?: JournalEntry;
    };

export function verifyLocation(location: JournalLocation): VerifyReport {
  if (!existsSync(location.journal) && !existsSync(location.head)) {
    return {
      readable: false,
      problem:
        'the file does not exist; check the path (a journal is written once a guarded agent, through its hooks or the MCP proxy, has made a call)',
    };
  }
  let result: JournalVerification;
  try {
    // A journal that is being written may end in a line still on its way to disk.
    const live = existsSync(writerFilePath(location.journal));
    result = verifyJournal(location.journal, { headPath: location.head, live });
  } catch (error) {
    return { readable: false, problem: `the journal cannot be read: ${(error as Error).message}` };
  }
  if (result.ok || result.brokenAt === undefined) return { readable: true, result };
  return { readable: true, result, ...withEntry(location.journal, result.brokenAt) };
}

function withEntry(path: string, seq: number): { brokenEntry?: JournalEntry } {
  try {
    const entry = readJournalSync(path, { onBadLine: () => undefined }).find(
      (candidate) => candidate.seq === seq,
    );
    return entry ? { brokenEntry: entry } : {};
  } catch {
    return {};
  }
}

export function verifyExitCode(report: VerifyReport): 0 | 1 | 2 {
  if (!report.readable) return 2;
  return report.result.ok ? 0 : 1;
}

export function formatVerifyReport(report: VerifyReport, journalLabel: string, timeZone?: string): string {
  if (!report.readable) return `Cannot verify ${journalLabel}: ${report.problem}.\n`;
  const { result } = report;
  if (result.ok) {
    if (result.count === 0) return `OK: ${journalLabel} is empty; there are no receipts to verify yet.\n`;
    return `OK: ${receipts(result.count)} verified in ${journalLabel}.\n`;
  }
  if (result.brokenAt === undefined) return `NOT VERIFIED: ${journalLabel}: ${result.problem}.\n`;
  const lines = [`BROKEN at receipt ${result.brokenAt} of ${journalLabel}: ${result.problem}.`];
  if (report.brokenEntry)
    lines.push(`  Receipt ${result.brokenAt} reads: ${describeEntry(report.brokenEntry, timeZone)}.`);
  const trusted =
    result.count === 0
      ? '  No receipt before it verified, so nothing in the journal can be trusted.'
      : `  The ${receipts(result.count)} before it verified; nothing from receipt ${result.brokenAt} on can be trusted.`;
  lines.push(trusted);
  return `${lines.join('\n')}\n`;
}

function describeEntry(entry: JournalEntry, timeZone: string | undefined): string {
  const at = isoTime(entry.at) === null ? '' : ` at ${dateTime(entry.at, timeZone)}`;
  switch (entry.type) {
    case 'proposal':
      return `a proposal of ${entry.tool} (${entry.verdict}${entry.rule ? `, ${entry.rule}` : ''})${at}`;
    case 'outcome':
      return `an outcome of ${entry.tool} (${entry.success ? 'success' : `failure: ${entry.signature ?? 'unknown'}`})${at}`;
    case 'constraint_added':
      return `a learned constraint (${entry.constraint?.signature ?? 'unknown'})${at}`;
    case 'constraint_lifted':
      return `a lifted constraint (${entry.constraint?.signature ?? 'unknown'})${at}`;
    case 'session':
      return `the start of session ${entry.sessionId}${at}`;
    case 'run':
      return `a new run (${entry.reason})${at}`;
    default:
      return `an entry of type ${String((entry as { type?: unknown }).type)}${at}`;
  }
}

function receipts(count: number): string {
  return count === 1 ? '1 receipt' : `${count} receipts`;
}

/** The machine form. */
export function verifyJson(report: VerifyReport, journal: string): unknown {
  if (!report.readable) return { ok: false, journal, readable: false, problem: report.problem };
  const { result } = report;
  return {
    ok: result.ok,
    journal,
    receipts: result.count,
    entries: result.entries,
    ...(result.brokenAt !== undefined && { brokenAt: result.brokenAt }),
    ...(result.problem !== undefined && { problem: result.problem }),
    ...(report.brokenEntry && {
      brokenEntry: { type: report.brokenEntry.type, at: isoTime(report.brokenEntry.at) },
    }),
  };
}

/** A tampered entry may carry anything in its time field. */
function isoTime(at: unknown): string | null {
  return typeof at === 'number' && Number.isFinite(at) && Math.abs(at) <= 8.64e15
    ? new Date(at).toISOString()
    : null;
}
