import { describe, expect, it } from 'vitest';
import { IdentityCache } from '../../src/core/identity-cache.js';

describe('IdentityCache', () => {
  it('finds a value by the very key object, not by an equal one', () => {
    const cache = new IdentityCache<object, string>(4);
    const key = { tool: 'read_file' };
    cache.set(key, 'context');
    expect([cache.get(key), cache.get({ tool: 'read_file' })]).toEqual(['context', undefined]);
  });

  it('replaces the oldest key once full', () => {
    const cache = new IdentityCache<object, number>(2);
    const keys = [{}, {}, {}];
    for (const [index, key] of keys.entries()) cache.set(key, index);
    expect(keys.map((key) => cache.get(key))).toEqual([undefined, 1, 2]);
  });

  it('forgets a deleted key and keeps the others', () => {
    const cache = new IdentityCache<object, number>(3);
    const [first, second] = [{}, {}];
    cache.set(first, 1);
    cache.set(second, 2);
    cache.delete(first);
    cache.set(second, 3);
    expect([cache.get(first), cache.get(second)]).toEqual([undefined, 3]);
  });

  it('keeps each key for `capacity` stores, whatever was deleted in between', () => {
    const cache = new IdentityCache<object, number>(4);
    const keys = Array.from({ length: 7 }, () => ({}));
    keys.forEach((key, index) => {
      cache.set(key, index);
      if (index % 2 === 0) cache.delete(key);
    });
    expect(keys.map((key) => cache.get(key))).toEqual([
      undefined,
      undefined,
      undefined,
      3,
      undefined,
      5,
      undefined,
    ]);
  });

  it('holds nothing once cleared', () => {
    const cache = new IdentityCache<object, number>(2);
    const key = {};
    cache.set(key, 1);
    cache.clear();
    expect(cache.get(key)).toBeUndefined();
  });
});

describe('IdentityCache.findKey', () => {
  it('finds the newest key that passes the test, and nothing once it is deleted', () => {
    const cache = new IdentityCache<{ name: string }, number>(4);
    const first = { name: 'a' };
    const second = { name: 'a' };
    cache.set(first, 1);
    cache.set(second, 2);
    cache.set({ name: 'b' }, 3);
    expect(cache.findKey((key) => key.name === 'a')).toBe(second);
    cache.delete(second);
    expect(cache.findKey((key) => key.name === 'a')).toBe(first);
    expect(cache.findKey((key) => key.name === 'c')).toBeUndefined();
  });
});
