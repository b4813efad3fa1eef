/**
 * Identity of calls and results: canonical JSON, hashing, volatile-value masking and call identity,
 * and the short description of a call. Everything here takes hostile input in bounded time.
 */

export { alignedDifferences } from './aligned-words.js';
export { answersAlike } from './alike-answers.js';
export {
  type CallIdentity,
  digestResult,
  digestWithoutNumbers,
  hashMaskedArgument,
  type IdentifiedCall,
  identifyArguments,
  identifyCall,
  looksRandom,
  type MaskKind,
  type MaskScope,
  maskVolatile,
  maskVolatileExhaustively,
} from './call-identity.js';
export {
  boundedArguments,
  type CanonicalOptions,
  canonicalJson,
  sortKeys,
  UNREADABLE,
} from './canonical-json.js';
export { describeCall, truncate } from './describe.js';
export { withoutFreeText } from './free-text.js';
export {
  HASH_GENERATION,
  hashLanes,
  hashString,
  LONG_TEXT,
  type LongTextHash,
  useLongTextHash,
} from './hashing.js';
export { locationAddresses } from './locations.js';
