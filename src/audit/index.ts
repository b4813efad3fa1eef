export type {
  ArgsDigest,
  ContentPolicy,
  DisputeEvent,
  JournalEntry,
  JournalRecord,
  ReceiptFields,
} from './entry.js';
export { GENESIS_HASH } from './entry.js';
export type { JournalHead } from './head.js';
export { journalHeadPath } from './head.js';
export type { Journal, JournalOptions, JournalProblem } from './journal.js';
export { createJournal, describeJournalProblem } from './journal.js';
export {
  createJournalKey,
  JOURNAL_KEY_VARIABLE,
  JournalKeyError,
  journalKeyPath,
  resolveJournalKey,
} from './key.js';
export type { ReadJournalOptions } from './read.js';
export { readJournal, readJournalSync } from './read.js';
export type { JsonValue, RedactOptions } from './redact.js';
export { isSecretKey, REDACTED, redact, redactText } from './redact.js';
export type { JournalSlotOptions } from './slots.js';
export { JOURNAL_SLOTS, openJournalSlot } from './slots.js';
export type { JournalVerification, VerifyOptions } from './verify.js';
export { verifyJournal } from './verify.js';
export { JournalInUseError } from './writer.js';
