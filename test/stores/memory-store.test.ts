import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/stores/index.js';
import { missingFile, stateOf } from './sample-state.js';

describe('memory store', () => {
  it('loads nothing until something is saved', () => {
    expect(createMemoryStore().load()).toBeUndefined();
  });

  it('starts from the state it was given', () => {
    const initial = stateOf([missingFile('src/config.ts', 1_000)]);
    expect(createMemoryStore(initial).load()).toEqual(initial);
  });

  it('merges saves the way the file store does, lifted marks included', async () => {
    const store = createMemoryStore(stateOf([missingFile('src/config.ts', 1_000)]));
    store.save(stateOf([missingFile('src/db/pool.ts', 1_100)]));
    store.save(stateOf([], [{ id: 'target-missing:src/config.ts', at: 1_200 }]));
    const merged = await store.flush();
    expect(merged?.constraints.map((constraint) => constraint.id)).toEqual(['target-missing:src/db/pool.ts']);
    expect(store.load()).toEqual(merged);
  });

  it('resolves flush to nothing when nothing changed', async () => {
    const store = createMemoryStore(stateOf([]));
    expect(await store.flush()).toBeUndefined();
  });
});
