export { parseExpectation, type TraceExpectation, unmetExpectations } from './expectations.js';
export {
  createReplayer,
  type ReplayGuard,
  type ReplayOptions,
  type ReplayReport,
  type ReplayStep,
  type ReplaySummary,
  replayTrace,
  TraceReplayer,
} from './replay.js';
