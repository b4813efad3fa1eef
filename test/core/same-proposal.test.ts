import { describe, expect, it } from 'vitest';
import { sameProposal } from '../../src/core/same-proposal.js';

describe('sameProposal', () => {
  it('holds for a proposal converted afresh from the same decoded call', () => {
    const args = { path: 'src/a.ts', edits: [{ oldText: 'a', newText: 'b' }] };
    const decoded = JSON.parse(JSON.stringify(args));
    expect(sameProposal({ tool: 'edit_file', args }, { tool: 'edit_file', args: decoded })).toBe(true);
  });

  it('fails when an argument differs, however deep', () => {
    const a = { tool: 'edit_file', args: { path: 'a.ts', edits: [{ oldText: 'a', newText: 'b' }] } };
    const b = { tool: 'edit_file', args: { path: 'a.ts', edits: [{ oldText: 'a', newText: 'c' }] } };
    expect(sameProposal(a, b)).toBe(false);
  });

  it('fails when the same arguments come in another order, which descriptions show', () => {
    expect(
      sameProposal(
        { tool: 'bash', args: { command: 'ls', cwd: '/' } },
        { tool: 'bash', args: { cwd: '/', command: 'ls' } },
      ),
    ).toBe(false);
  });

  it('fails when the tool, the step or the annotations differ', () => {
    const base = { tool: 'read_file', args: { path: 'a' } };
    expect(sameProposal(base, { ...base, tool: 'read_text_file' })).toBe(false);
    expect(sameProposal(base, { ...base, step: 2 })).toBe(false);
    expect(sameProposal(base, { ...base, annotations: { readOnlyHint: true } })).toBe(false);
  });

  it('tells an array from an object with the same entries', () => {
    expect(sameProposal({ tool: 't', args: { x: ['a'] } }, { tool: 't', args: { x: { 0: 'a' } } })).toBe(
      false,
    );
  });
});
