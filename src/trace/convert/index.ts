export { claudeTranscriptToTrace } from './claude.js';
export { journalToTrace } from './journal.js';
export type { ConversionResult } from './types.js';
