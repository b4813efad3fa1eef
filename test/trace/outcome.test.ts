import { describe, expect, it } from 'vitest';
import { traceResultToOutcome } from '../../src/trace/index.js';

const proposal = { tool: 'read_text_file', args: { path: '/srv/app/config.json' } };

describe('traceResultToOutcome', () => {
  it('turns string content into a successful outcome', () => {
    expect(traceResultToOutcome(proposal, { content: '{"port":8080}' })).toEqual({
      proposal,
      success: true,
      content: '{"port":8080}',
    });
  });

  it('joins MCP text items with newlines', () => {
    const outcome = traceResultToOutcome(proposal, {
      content: [
        { type: 'text', text: 'line one' },
        { type: 'text', text: 'line two' },
      ],
    });
    expect(outcome.content).toBe('line one\nline two');
  });

  it('treats isError as a failure', () => {
    const outcome = traceResultToOutcome(proposal, {
      isError: true,
      content: [
        { type: 'text', text: "Error: ENOENT: no such file or directory, open '/srv/app/config.json'" },
      ],
    });
    expect(outcome).toMatchObject({ success: false, content: expect.stringContaining('ENOENT') });
  });

  it('treats an error message as a failure even without isError', () => {
    const outcome = traceResultToOutcome(proposal, { error: 'MCP error -32001: Request timed out' });
    expect(outcome).toMatchObject({ proposal, success: false, error: 'MCP error -32001: Request timed out' });
  });

  it('passes the result meta through', () => {
    const meta = { 'dev.narrowing/non-advancing': true };
    expect(traceResultToOutcome(proposal, { content: 'No matches', meta }).meta).toEqual(meta);
  });

  it('describes binary content without its bytes', () => {
    const outcome = traceResultToOutcome(
      { tool: 'browser_take_screenshot', args: {} },
      { content: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUgAA' }] },
    );
    expect(outcome.content).toBe('[image image/png, 18 bytes]');
  });

  it('keeps the very proposal object that was checked', () => {
    expect(traceResultToOutcome(proposal, { content: 'x' }).proposal).toBe(proposal);
  });

  it('uses the text of an embedded resource', () => {
    const outcome = traceResultToOutcome(proposal, {
      content: [{ type: 'resource', resource: { uri: 'file:///srv/app/config.json', text: '{}' } }],
    });
    expect(outcome.content).toContain('{}');
  });
});
