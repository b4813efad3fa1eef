import { describe, expect, it } from 'vitest';
import { contextMatches, DEFAULT_SHARING, scopedContext } from '../../src/core/scope.js';

const HERE = { repository: 'github.com/acme/api', host: 'gpu-7', gpu: 'L4', model: 'llama-8b' };

describe('scoped sharing', () => {
  it('keeps the repository and drops the GPU for a fact about a file', () => {
    expect(scopedContext('target', HERE, DEFAULT_SHARING, ['src/a.ts'])).toEqual({
      repository: 'github.com/acme/api',
    });
  });

  it('adds the host to a fact about an absolute path', () => {
    expect(scopedContext('target', HERE, DEFAULT_SHARING, ['/etc/app.conf'])).toEqual({
      host: 'gpu-7',
      repository: 'github.com/acme/api',
    });
  });

  it('keeps the GPU and the model for a parameter ban', () => {
    expect(scopedContext('parameter', HERE, DEFAULT_SHARING)).toEqual({ gpu: 'L4', model: 'llama-8b' });
  });

  it('keeps a dimension no rule names on every kind of constraint', () => {
    expect(scopedContext('parameter', { dataset: 'imagenet', gpu: 'L4' }, DEFAULT_SHARING)).toEqual({
      dataset: 'imagenet',
      gpu: 'L4',
    });
  });

  it('does not apply a constraint learned on another GPU', () => {
    expect(contextMatches({ gpu: 'L4' }, { gpu: 'A100' })).toBe(false);
  });

  it('does not apply a constraint learned on a GPU to an agent that names none', () => {
    expect(contextMatches({ gpu: 'L4' }, { repository: 'github.com/acme/api' })).toBe(false);
  });

  it('applies a constraint whose dimensions all agree, whatever else differs', () => {
    expect(contextMatches({ repository: 'r' }, { repository: 'r', host: 'other' })).toBe(true);
  });
});
