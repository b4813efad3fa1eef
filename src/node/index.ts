/**
 * What the outer layers need from Node's file system: atomic files, locks, exit hooks, where a
 * project keeps its state, and the file probe that checks existence bans against the disk.
 */
export { asideName, moveAside, writeFileAtomic, writeFileAtomicSync } from './atomic-file.js';
export { onProcessExit } from './exit-hook.js';
export { createFileProbe } from './file-probe.js';
export { type SyncLockResult, withFileLock, withFileLockSync } from './lock.js';
export { installNativeHash, nativeLongTextHash } from './native-hash.js';
export {
  defaultStateDir,
  findProjectRoot,
  hostProjectDir,
  JOURNAL_FILE,
  JOURNAL_HEAD_FILE,
  journalSlotPath,
  NoProjectRootError,
  otherJournalSlots,
  type ProjectRootOptions,
  prepareFolder,
  prepareFolderFor,
  prepareStateDir,
  refuseUnsafeStateDir,
  STATE_DIR_NAME,
  STATE_FILE,
  type StateLayout,
  stateLayout,
  UnsafeStateDirError,
} from './state-dir.js';
