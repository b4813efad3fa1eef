import { describe, expect, it } from 'vitest';
import { VERDICT_META_KEY } from '../../src/guard/verdict.js';
import { refusedResult, warnedResult } from '../../src/mcp/verdict-result.js';
import { verdict } from './support/scripted-guard.js';

const REASON =
  'read_text_file {path: "src/missing.ts"} failed once with file_not_found and nothing has changed since.';
const SUGGESTION = 'List the directory or search for the right path.';

describe('refusedResult', () => {
  it('tells the model why the call was blocked and what to do instead', () => {
    const result = refusedResult(verdict('block', REASON, SUGGESTION));
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: `[narrowing blocked this call (scripted)] ${REASON}\n${SUGGESTION}` },
    ]);
  });

  it('says halted for a halt', () => {
    const result = refusedResult(verdict('halt', 'The run is exhausted.', 'Stop and report.'));
    expect(result.content[0]).toMatchObject({ text: expect.stringMatching(/^\[narrowing halted this call/) });
  });

  it('puts the verdict and its violations in _meta for machines', () => {
    const result = refusedResult(verdict('block', REASON, SUGGESTION));
    expect(result._meta?.[VERDICT_META_KEY]).toEqual({
      verdict: 'block',
      rule: 'scripted',
      reason: REASON,
      suggestion: SUGGESTION,
      violations: [
        {
          rule: 'scripted',
          severity: 'block',
          reason: REASON,
          suggestion: SUGGESTION,
          count: 2,
          lastError: 'boom',
        },
      ],
    });
  });
});

describe('warnedResult', () => {
  const upstream = {
    content: [{ type: 'text' as const, text: 'No items matched "gpu quota".' }],
    _meta: { 'dev.narrowing/non-advancing': true, 'dev.example/source': 'catalog' },
  };

  it('keeps the server’s content first and appends the warning', () => {
    const result = warnedResult(
      upstream,
      verdict('warn', 'Third search in a row with nothing new.', 'Ask the user.'),
    );
    expect(result.content).toEqual([
      upstream.content[0],
      {
        type: 'text',
        text: '[narrowing warning (scripted)] Third search in a row with nothing new.\nAsk the user.',
      },
    ]);
  });

  it('keeps the server’s _meta keys next to the verdict', () => {
    const result = warnedResult(upstream, verdict('warn'));
    expect(result._meta).toMatchObject(upstream._meta);
    expect(result._meta?.[VERDICT_META_KEY]).toMatchObject({ verdict: 'warn' });
  });

  it('says when a block was softened to a warning by advisory enforcement', () => {
    const result = warnedResult(upstream, { ...verdict('warn'), softened: true });
    expect(result.content[1]).toMatchObject({
      text: expect.stringMatching(
        /^\[narrowing would have blocked this call; it runs because enforcement is advisory/,
      ),
    });
    expect(result._meta?.[VERDICT_META_KEY]).toMatchObject({ verdict: 'warn', softened: true });
  });

  it('keeps an error an error', () => {
    const result = warnedResult({ ...upstream, isError: true }, verdict('warn'));
    expect(result.isError).toBe(true);
  });
});
