import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CheckpointSession, convertCheckpointSession } from '../../scripts/corpus/convert-entire.js';
import { convertOpenCodeSession, isOpenCodeSession } from '../../scripts/corpus/convert-opencode.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const from = pinnedSource({ path: '3a/91c0d2e4f7/0/full.jsonl', licence: 'MIT', agent: 'OpenCode' });

const created = 1_780_000_000_000;

const toolPart = (tool: string, state: object) => ({
  type: 'tool',
  callID: `call_${tool}`,
  tool,
  state,
  id: `prt_${tool}`,
  sessionID: 'ses_4b2e9f01aa7cQx',
  messageID: 'msg_2',
});

const bash = (command: string, output: string, exit: number, startedAfter: number) =>
  toolPart('bash', {
    status: 'completed',
    input: { command, description: 'Run the package tests', workdir: '/home/dev/shop' },
    output,
    title: 'Run the package tests',
    metadata: { output, exit, description: 'Run the package tests', truncated: false },
    time: { start: created + startedAfter, end: created + startedAfter + 900 },
  });

const session = (...messages: object[]) =>
  JSON.stringify({
    info: {
      id: 'ses_4b2e9f01aa7cQx',
      title: 'Fix the cart totals',
      time: { created, updated: created + 60_000 },
    },
    messages,
  });

const user = (...parts: object[]) => ({ info: { role: 'user', time: { created } }, parts });
const assistant = (...parts: object[]) => ({ info: { role: 'assistant', time: { created } }, parts });

describe("OpenCode's exported session", () => {
  it('reads a shell call that exited non-zero as failed, and one that exited 0 as answered', () => {
    const record = session(
      user({ type: 'text', text: 'The cart total is wrong, fix it' }),
      assistant(
        { type: 'step-start' },
        bash('pnpm test', 'FAIL src/cart.test.ts\n1 failed', 1, 2_000),
        bash('git status --short', ' M src/cart.ts\n', 0, 5_500),
        { type: 'step-finish' },
      ),
    );
    const run = convertOpenCodeSession(record, from, 'demo-4b2e9f01', 'OpenCode run 4b2e9f01');
    expect(run.events.filter((event) => event.type === 'user')).toEqual([
      { type: 'user', text: 'The cart total is wrong, fix it' },
    ]);
    expect(callsOf(run.events).map((call) => [call.tool, call.args.command, call.result, call.t])).toEqual([
      ['bash', 'pnpm test', { isError: true, content: 'FAIL src/cart.test.ts\n1 failed' }, 2],
      ['bash', 'git status --short', { content: ' M src/cart.ts\n' }, 5.5],
    ]);
  });

  it('reads a call whose status is error as failed with its error, and one the user stopped as never answered', () => {
    const record = session(
      assistant(
        toolPart('read', {
          status: 'error',
          input: { filePath: '/home/dev/shop/src/totals.ts' },
          error: 'Error: File not found: /home/dev/shop/src/totals.ts',
          time: { start: created + 1_000, end: created + 1_001 },
        }),
        toolPart('bash', {
          status: 'error',
          input: { command: 'pnpm install', description: 'Install the workspace' },
          error: 'Tool execution aborted',
          time: { start: created + 3_000, end: created + 3_000 },
        }),
        toolPart('grep', { status: 'running', input: { pattern: 'total', path: '/home/dev/shop' } }),
      ),
    );
    const calls = callsOf(convertOpenCodeSession(record, from, 'x', 'x').events);
    expect(calls.map((call) => [call.tool, call.result])).toEqual([
      ['read', { isError: true, content: 'Error: File not found: /home/dev/shop/src/totals.ts' }],
      ['bash', undefined],
      ['grep', undefined],
    ]);
    expect(calls[0]?.args).toEqual({ filePath: '/home/dev/shop/src/totals.ts' });
  });

  it("leaves out OpenCode's own text in a user message, and reads a compaction", () => {
    const record = session(
      user({ type: 'text', text: 'Summarize the task so far', synthetic: true }),
      user({ type: 'compaction', auto: true }),
      user({ type: 'text', text: 'now run the tests' }),
    );
    expect(convertOpenCodeSession(record, from, 'x', 'x').events.slice(1)).toEqual([
      { type: 'compact' },
      { type: 'user', text: 'now run the tests' },
    ]);
  });

  it("is read for a session Entire keeps as OpenCode's, and a text that is no exported session is not one", () => {
    const record = session(assistant(bash('ls', 'src\n', 0, 10)));
    const kept: CheckpointSession = {
      dir: '3a/91c0d2e4f7/0',
      sessionId: 'ses_4b2e9f01aa7cQx',
      agent: 'OpenCode',
      createdAt: '2026-06-01T10:00:00Z',
      transcriptSize: record.length,
    };
    expect(
      callsOf(convertCheckpointSession(kept, record, from, 'y').events).map((call) => call.tool),
    ).toEqual(['bash']);
    expect(isOpenCodeSession(record)).toBe(true);
    expect(isOpenCodeSession('{"type":"session_meta"}')).toBe(false);
  });

  it('never throws on any session, and gives one call per named tool part of an assistant message', () => {
    const state = fc.record(
      {
        status: fc.constantFrom('completed', 'error', 'pending', 'running', 'other'),
        input: fc.oneof(
          fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })),
          fc.string(),
        ),
        output: fc.jsonValue({ maxDepth: 2 }),
        error: fc.oneof(fc.string(), fc.constant('Tool execution aborted')),
        metadata: fc.oneof(
          fc.record({ exit: fc.oneof(fc.integer(), fc.string()) }),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        time: fc.oneof(
          fc.record({ start: fc.oneof(fc.integer(), fc.string()) }),
          fc.jsonValue({ maxDepth: 1 }),
        ),
      },
      { requiredKeys: [] },
    );
    const part = fc.oneof(
      fc.record({
        type: fc.constant('tool'),
        tool: fc.constantFrom('bash', 'read', 'apply_patch', ''),
        state,
      }),
      fc.record({ type: fc.constantFrom('text', 'compaction', 'step-start'), text: fc.string() }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const message = fc.record(
      {
        info: fc.oneof(
          fc.record({ role: fc.constantFrom('user', 'assistant', 'system') }),
          fc.jsonValue({ maxDepth: 1 }),
        ),
        parts: fc.oneof(fc.array(part, { maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 5 }), (messages) => {
        const record = JSON.stringify({ info: { id: 'ses_x', time: { created } }, messages });
        const calls = callsOf(convertOpenCodeSession(record, from, 'prop', 'prop').events);
        const named = messages
          .filter(
            (m) =>
              typeof m.info === 'object' &&
              m.info !== null &&
              !Array.isArray(m.info) &&
              (m.info as { role?: unknown }).role === 'assistant' &&
              Array.isArray(m.parts),
          )
          .flatMap((m) => m.parts as unknown[])
          .filter((p) => {
            const tool =
              typeof p === 'object' && p !== null && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
            return tool.type === 'tool' && typeof tool.tool === 'string' && tool.tool !== '';
          });
        expect(calls).toHaveLength(named.length);
      }),
    );
  });
});
