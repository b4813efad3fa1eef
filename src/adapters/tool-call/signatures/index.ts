/**
 * The blame catalogue: failure kinds and what they mean (`kinds.ts`), the words that recognise them
 * by family (one table per family), and the structured codes read before any text (`structured.ts`).
 */
export * from './kinds.js';
export { parseRetryAfter } from './retry-after.js';
export * from './structured.js';
export type { FailureKind, FamilyTable, Vocabulary } from './vocabulary.js';
