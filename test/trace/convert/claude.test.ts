import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeTranscriptToTrace } from '../../../src/trace/convert/index.js';
import { type CallEvent, parseTrace } from '../../../src/trace/index.js';

const transcript = readFileSync(
  new URL('../../fixtures/claude/auth-middleware-session.jsonl', import.meta.url),
  'utf8',
).split('\n');
const { events, skipped } = claudeTranscriptToTrace(transcript, 'auth-middleware');
const calls = events.filter((event): event is CallEvent => event.type === 'call');

describe('claudeTranscriptToTrace', () => {
  it('produces the events of the session in order', () => {
    expect(events.map((event) => (event.type === 'call' ? `call ${event.tool}` : event.type))).toEqual([
      'meta',
      'session',
      'user',
      'call Read',
      'call Grep',
      'call Edit',
      'call Edit',
      'call Edit',
      'compact',
      'call Edit',
      'call Bash',
      'user',
      'session',
      'user',
      'call Read',
      'call Edit',
    ]);
  });

  it('pairs each tool_use with its tool_result by id', () => {
    expect(calls[2]).toMatchObject({
      id: 'toolu_01E0',
      args: { file_path: '/home/dev/api/src/middleware/auth.ts' },
      result: { isError: true, content: expect.stringContaining('String to replace not found in file.') },
    });
  });

  it('reads text blocks of a tool_result as the content', () => {
    expect(calls[7]?.result).toEqual({
      content: '     6\t    return res.status(401).json({ error: "unauthorized" });',
    });
  });

  it('leaves a call the user interrupted without a result', () => {
    expect(calls[6]).toMatchObject({ tool: 'Bash' });
    expect(calls[6]?.result).toBeUndefined();
  });

  it('marks calls issued together in one message with a shared turn', () => {
    expect(calls[0]?.turn).toBe('msg_01Hq2');
    expect(calls[1]?.turn).toBe('msg_01Hq2');
    expect(calls[2]?.turn).toBeUndefined();
  });

  it('measures time from the first line of the transcript', () => {
    expect(calls[0]?.t).toBeCloseTo(4.548, 3);
    expect(calls[7]?.t).toBeGreaterThan(300);
  });

  it('leaves out meta messages and subagent calls', () => {
    expect(events.some((event) => event.type === 'user' && event.text?.includes('/clear'))).toBe(false);
    expect(calls.some((call) => call.id === 'toolu_side')).toBe(false);
  });

  it('counts a line cut off mid-write as skipped', () => {
    expect(skipped).toBe(1);
  });

  it('annotates the built-in tools it saw', () => {
    const meta = events[0];
    expect(meta?.type === 'meta' && meta.tools?.map((tool) => tool.name)).toEqual([
      'Bash',
      'Edit',
      'Grep',
      'Read',
    ]);
  });

  it('writes a trace that parses back unchanged', () => {
    expect(parseTrace(events.map((event) => JSON.stringify(event)).join('\n'))).toEqual(events);
  });

  it('annotates no tool for a name that every object has, such as constructor', () => {
    const line = JSON.stringify({
      type: 'assistant',
      timestamp: '2026-03-02T10:15:04.548Z',
      message: {
        id: 'msg_1',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'constructor', input: {} }],
      },
    });
    const [meta, call] = claudeTranscriptToTrace([line], 'hostile').events;
    expect(call).toMatchObject({ type: 'call', tool: 'constructor' });
    expect(meta?.type === 'meta' && (meta.tools ?? [])).toEqual([]);
  });
});
