export {
  type ClaudeConversionReport,
  type ClaudeConversionResult,
  ClaudeTranscriptConverter,
  claudeTranscriptToTrace,
  isClaudeTranscriptLine,
  MAX_RESULT_TEXT,
  MAX_TRANSCRIPT_LINE,
} from './claude.js';
export { journalToTrace } from './journal.js';
export type { ConversionResult } from './types.js';
