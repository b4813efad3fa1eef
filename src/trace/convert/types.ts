import type { TraceEvent } from '../types.js';

export interface ConversionResult {
  readonly events: TraceEvent[];
  /** Input lines that could not be used (not JSON, torn writes, results without a call). */
  readonly skipped: number;
}
