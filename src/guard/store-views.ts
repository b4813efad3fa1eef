/**
 * One store shared by several engines of one guard (its scopes, see `scopes.ts`). A store keeps one
 * deferred state to write; each engine hands it its own, so the views gather them and the store
 * writes all of them together. Closing a view writes what it holds; the store itself is closed by
 * its owner, once.
 */
import type { PersistedState, StateStore } from '../core/types.js';

export interface SharedStore {
  /** A store for one more engine. */
  view(): StateStore;
}

export function shareStore(store: StateStore): SharedStore {
  /** Each view's pending states, and the one it gave as a function (exported only when written). */
  const pending = new Map<object, { states: PersistedState[]; source?: () => PersistedState }>();
  const gathered = (): PersistedState => {
    const constraints: PersistedState['constraints'][number][] = [];
    const lifted: PersistedState['lifted'][number][] = [];
    for (const entry of pending.values()) {
      if (entry.source !== undefined) entry.states.push(entry.source());
      entry.source = undefined;
      for (const state of entry.states.splice(0)) {
        constraints.push(...state.constraints);
        lifted.push(...state.lifted);
      }
    }
    return { version: 1, savedAt: Date.now(), constraints, lifted };
  };
  return {
    view() {
      const key = {};
      const entry: { states: PersistedState[]; source?: () => PersistedState } = { states: [] };
      pending.set(key, entry);
      let closed = false;
      return {
        load: () => store.load(),
        save(state) {
          if (closed) return;
          if (typeof state === 'function') entry.source = state;
          else entry.states.push(state);
          store.save(gathered);
        },
        flush: () => store.flush(),
        async close() {
          if (closed) return;
          await store.flush();
          closed = true;
          pending.delete(key);
        },
        ...(store.subscribe && { subscribe: (listener) => store.subscribe!(listener) }),
      };
    },
  };
}
