import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeClaudeConversion } from '../../../src/trace/convert/claude-report.js';
import { ClaudeTranscriptConverter, claudeTranscriptToTrace } from '../../../src/trace/convert/index.js';
import { parseTrace } from '../../../src/trace/index.js';
import { boundedLines } from '../../../src/trace/lines.js';

const id = fc.constantFrom('toolu_1', 'toolu_2', 'toolu_3', 'constructor', '__proto__');
const text = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '[Request interrupted by user for tool use]',
    '[Request interrupted by user]',
    "The user doesn't want to proceed with this tool use.",
  ),
);
const block = fc.oneof(
  fc.record({ type: fc.constant('tool_use'), id, name: fc.string(), input: fc.jsonValue() }),
  fc.record({
    type: fc.constant('tool_result'),
    tool_use_id: id,
    content: fc.oneof(text, fc.array(fc.record({ type: fc.constantFrom('text', 'image'), text }))),
    is_error: fc.boolean(),
  }),
  fc.record({ type: fc.constant('text'), text }),
  fc.jsonValue(),
);
/** Lines in Claude Code's shape, with every field free to be wrong. */
const transcriptLine = fc.oneof(
  fc
    .record({
      type: fc.constantFrom(
        'user',
        'assistant',
        'system',
        'summary',
        'progress',
        'file-history-snapshot',
        'x',
      ),
      sessionId: fc.option(fc.constantFrom('s1', 's2'), { nil: undefined }),
      isSidechain: fc.boolean(),
      isMeta: fc.boolean(),
      agentId: fc.option(fc.string(), { nil: undefined }),
      subtype: fc.option(fc.constantFrom('compact_boundary', 'local_command'), { nil: undefined }),
      timestamp: fc.option(
        fc.oneof(
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
          fc.string(),
        ),
        { nil: undefined },
      ),
      message: fc.oneof(
        fc.record({
          id: fc.option(fc.string(), { nil: undefined }),
          content: fc.oneof(text, fc.array(block)),
        }),
        fc.jsonValue(),
      ),
    })
    .map((entry) => JSON.stringify(entry)),
  fc.json(),
  fc.string(),
  fc.string({ unit: 'binary' }),
);

describe('the Claude Code transcript reader on arbitrary input', () => {
  it('never throws, and always writes a trace that parses', () => {
    fc.assert(
      fc.property(fc.array(transcriptLine, { maxLength: 40 }), (lines) => {
        const { events, report } = claudeTranscriptToTrace(lines);
        expect(parseTrace(events.map((event) => JSON.stringify(event)).join('\n'))).toEqual(events);
        expect(describeClaudeConversion(report).length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('merges subagent lines of any shape into a trace that parses', () => {
    fc.assert(
      fc.property(
        fc.array(transcriptLine, { maxLength: 20 }),
        fc.array(transcriptLine, { maxLength: 20 }),
        (main, subagent) => {
          const converter = new ClaudeTranscriptConverter('merged');
          for (const line of main) converter.add(line);
          for (const line of subagent) converter.addSubagent('a1', line);
          const { events } = converter.finish();
          expect(parseTrace(events.map((event) => JSON.stringify(event)).join('\n'))).toEqual(events);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('splits any text into the same lines as split does, however it is cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.array(fc.nat(), { maxLength: 8 }), async (whole, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, index) =>
          whole.slice(start, [...points, whole.length][index]),
        );
        const lines: string[] = [];
        for await (const line of boundedLines(Readable.from(chunks), 1 << 20)) lines.push(line as string);
        const expected = whole.split('\n');
        if (expected.at(-1) === '') expected.pop();
        expect(lines).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('reports a line past the bound by its length and holds no more than the bound of it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 5, max: 64 }),
        fc.integer({ min: 1, max: 400 }),
        async (bound, size) => {
          const chunks = ['short\n', ...Array.from({ length: size }, () => 'x'.repeat(bound)), '\nafter\n'];
          const lines = [];
          for await (const line of boundedLines(Readable.from(chunks), bound)) lines.push(line);
          expect(lines).toEqual([
            'short',
            bound * size > bound ? { tooLong: bound * size } : 'x'.repeat(bound),
            'after',
          ]);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('reads a 64 MiB line of a transcript as one line too long, and the lines after it', async () => {
    const big = Buffer.alloc(64 * 1024 * 1024, 0x61);
    const after = Buffer.from('\n{"type":"user","message":{"content":"next"}}\n');
    const converter = new ClaudeTranscriptConverter();
    for await (const line of boundedLines(Readable.from([big, after]), 32 * 1024 * 1024)) {
      if (typeof line === 'string') converter.add(line);
      else converter.skipTooLong();
    }
    const { events, report } = converter.finish();
    expect(report.tooLong).toBe(1);
    expect(events.at(-1)).toEqual({ type: 'user', text: 'next' });
  });
});
