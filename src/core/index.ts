/** The pure engine, with no Node APIs: for browsers, edge runtimes, Bun and Deno. */

export { createDefaultDetectors } from './detectors/index.js';
export type { CallContext, Detector, ObservedOutcome } from './detectors/types.js';
export {
  canonicalJson,
  describeCall,
  digestResult,
  hashString,
  identifyCall,
  maskVolatile,
} from './identity.js';
export { NarrowingLoop, type NarrowingLoopOptions } from './loop.js';
export * from './policy.js';
export type * from './types.js';
