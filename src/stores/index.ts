export type { FileStore, FileStoreOptions, StoreProblem } from './file-store.js';
export { createFileStore, describeStoreProblem } from './file-store.js';
export { createMemoryStore } from './memory-store.js';
export type { LiftedRetention } from './merge.js';
export { EMPTY_STATE, mergePersistedStates, pruneLiftedMarks } from './merge.js';
export { parseStateText, STATE_VERSION } from './schema.js';
