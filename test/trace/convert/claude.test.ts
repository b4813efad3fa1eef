import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeClaudeConversion } from '../../../src/trace/convert/claude-report.js';
import {
  ClaudeTranscriptConverter,
  claudeTranscriptToTrace,
  MAX_RESULT_TEXT,
  MAX_TRANSCRIPT_LINE,
} from '../../../src/trace/convert/index.js';
import { type CallEvent, parseTrace } from '../../../src/trace/index.js';

const transcript = readFileSync(
  new URL('../../fixtures/claude/auth-middleware-session.jsonl', import.meta.url),
  'utf8',
).split('\n');
const { events, skipped, report } = claudeTranscriptToTrace(transcript, 'auth-middleware');
/** The agent's own calls; the subagent's carry `agent`. */
const calls = events.filter(
  (event): event is CallEvent => event.type === 'call' && event.agent === undefined,
);

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
      'call Glob',
      'compact',
      'call Edit',
      'call Bash',
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

  it('leaves out meta messages', () => {
    expect(events.some((event) => event.type === 'user' && event.text?.includes('/clear'))).toBe(false);
  });

  it('keeps a sidechain call in its place, marked as a subagent call', () => {
    expect(events.find((event) => event.type === 'call' && event.id === 'toolu_side')).toMatchObject({
      tool: 'Glob',
      agent: 'sidechain',
    });
    expect(report).toMatchObject({ subagentCalls: 1, subagents: 1 });
  });

  it('reads an interruption notice as the end of the running call, not as a user message', () => {
    expect(
      events.some((event) => event.type === 'user' && event.text?.startsWith('[Request interrupted')),
    ).toBe(false);
    expect(report.cancelled).toBe(1);
  });

  it('counts a line cut off mid-write as skipped', () => {
    expect(skipped).toBe(1);
  });

  it('annotates the built-in tools it saw', () => {
    const meta = events[0];
    expect(meta?.type === 'meta' && meta.tools?.map((tool) => tool.name)).toEqual([
      'Bash',
      'Edit',
      'Glob',
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

const subagentFixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/claude/${name}`, import.meta.url), 'utf8').split('\n');

describe('ClaudeTranscriptConverter', () => {
  const converter = new ClaudeTranscriptConverter('checkout');
  for (const line of subagentFixture('subagent-session.jsonl')) converter.add(line);
  for (const line of subagentFixture('subagent-session-agent.jsonl')) converter.addSubagent('a4f19c2', line);
  const { events: merged, report: mergedReport } = converter.finish();
  const mergedCalls = merged.filter((event): event is CallEvent => event.type === 'call');

  it("places a subagent's calls from its own file where they ran, marked with its id", () => {
    expect(mergedCalls.map((call) => `${call.agent ?? 'main'} ${call.tool}`)).toEqual([
      'main Task',
      'a4f19c2 Grep',
      'a4f19c2 Read',
      'a4f19c2 Read',
      'main Bash',
      'main Edit',
      'main Edit',
    ]);
  });

  it('keeps time running forward across the merged files', () => {
    const times = mergedCalls.map((call) => call.t ?? -1);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[1]).toBe(5.9);
  });

  it('keeps a call interrupted while it ran without a result, and starts no run for the notice', () => {
    expect(mergedCalls[4]).toMatchObject({ tool: 'Bash' });
    expect(mergedCalls[4]?.result).toBeUndefined();
    expect(
      merged.filter((event) => event.type === 'user').map((event) => event.type === 'user' && event.text),
    ).toEqual([
      'Find where the shipping fee is added and why the total is off.',
      "Don't run the whole suite, just fix summary.ts.",
      'Go ahead.',
    ]);
  });

  it('keeps a call the user rejected without a result', () => {
    expect(mergedCalls[5]?.result).toBeUndefined();
    expect(mergedCalls[6]?.result).toEqual({
      content: 'The file /home/dev/shop/src/checkout/summary.ts has been updated.',
    });
    expect(mergedReport.cancelled).toBe(2);
  });

  it('counts lines of a type it does not know, by type, and the bookkeeping lines it leaves out', () => {
    expect(mergedReport.unknownTypes).toEqual({ 'x-future-line': 1 });
    expect(mergedReport.bookkeeping).toEqual({
      summary: 1,
      'file-history-snapshot': 1,
      progress: 1,
      system: 1,
      'queue-operation': 1,
    });
  });

  it('says on a few lines what it converted and what it left out', () => {
    expect(describeClaudeConversion(mergedReport)).toEqual([
      '7 calls converted (3 by 1 subagent, marked with "agent"); 2 cancelled by the user, kept without a result',
      'skipped: 1 line of unknown type (1 x-future-line)',
      'left out, as they hold no message: 1 file-history-snapshot, 1 progress, 1 queue-operation, 1 summary, 1 system',
    ]);
  });

  it('writes a trace that parses back unchanged, subagent calls included', () => {
    expect(parseTrace(merged.map((event) => JSON.stringify(event)).join('\n'))).toEqual(merged);
  });

  it('counts a line longer than the bound as too long without reading it', () => {
    const { report: long } = claudeTranscriptToTrace([
      `{"type":"user","x":"${'a'.repeat(MAX_TRANSCRIPT_LINE)}"}`,
    ]);
    expect(long.tooLong).toBe(1);
  });

  it('keeps the head and the tail of a result longer than the bound', () => {
    const huge = `Error: first line\n${'x'.repeat(MAX_RESULT_TEXT * 2)}\nlast line says why`;
    const { events: cut } = claudeTranscriptToTrace([
      JSON.stringify({
        type: 'assistant',
        message: { id: 'm', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] },
      }),
      JSON.stringify({
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 't', content: huge }] },
      }),
    ]);
    const content = String((cut[1] as CallEvent).result?.content);
    expect(content.length).toBeLessThan(MAX_RESULT_TEXT + 100);
    expect(content.startsWith('Error: first line')).toBe(true);
    expect(content.endsWith('last line says why')).toBe(true);
  });
});
