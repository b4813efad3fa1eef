import type { PersistedState, StateStore } from '../core/types.js';
import { EMPTY_STATE, mergePersistedStates } from './merge.js';

/**
 * State kept in memory, merged like the file store merges: for tests, and for programs that
 * persist the state themselves (`load()` after `flush()` gives what to save).
 */
export function createMemoryStore(initial?: PersistedState): StateStore {
  return new MemoryStore(initial);
}

class MemoryStore implements StateStore {
  private current: PersistedState | undefined;
  private pending: PersistedState[] = [];
  private source: (() => PersistedState) | undefined;

  constructor(initial: PersistedState | undefined) {
    this.current = initial === undefined ? undefined : mergePersistedStates(EMPTY_STATE, initial);
  }

  load(): PersistedState | undefined {
    this.settle();
    return this.current;
  }

  save(state: PersistedState | (() => PersistedState)): void {
    if (typeof state === 'function') {
      this.source = state;
      return;
    }
    this.pending.push(state);
    // Merging is deferred so `save` stays cheap, but the backlog stays bounded.
    if (this.pending.length >= 16) this.settle();
  }

  flush(): Promise<PersistedState | undefined> {
    const changed = this.settle();
    return Promise.resolve(changed ? this.current : undefined);
  }

  close(): Promise<void> {
    this.settle();
    return Promise.resolve();
  }

  private settle(): boolean {
    if (this.source) {
      this.pending.push(this.source());
      this.source = undefined;
    }
    if (this.pending.length === 0) return false;
    let merged = this.current ?? EMPTY_STATE;
    for (const state of this.pending) merged = mergePersistedStates(merged, state);
    this.pending = [];
    this.current = merged;
    return true;
  }
}
