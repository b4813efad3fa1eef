export type { FileStore, FileStoreOptions, StoreProblem } from './file-store.js';
export { createFileStore, describeStoreProblem } from './file-store.js';
export { combineChanges, LocalCopy } from './local-copy.js';
export { createMemoryStore } from './memory-store.js';
export type { LiftedRetention } from './merge.js';
export { EMPTY_STATE, mergePersistedStates, pruneLiftedMarks } from './merge.js';
export { importOptionalPeer } from './optional-peer.js';
export type { RedisStore, RedisStoreOptions } from './redis-store.js';
export { openRedisStore } from './redis-store.js';
export { redactRedisUrl } from './redis-url.js';
export { parseStateText } from './schema.js';
export type { SessionTable, SqliteStore, SqliteStoreOptions } from './sqlite-store.js';
export { openSqliteStore } from './sqlite-store.js';
export {
  isReadableStateVersion,
  OLDEST_STATE_VERSION,
  STATE_VERSION,
  toStoredConstraint,
} from './state-format.js';
