export { parseExpectation, type TraceExpectation, unmetExpectations } from './expectations.js';
export { checkPredictions, type PredictionCheck, type PredictionOutcome } from './predictions.js';
export {
  createReplayer,
  type ReplayGuard,
  type ReplayOptions,
  type ReplayReport,
  type ReplayStep,
  type ReplaySummary,
  replayTrace,
  type SubagentGuards,
  TraceReplayer,
} from './replay.js';
