import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CheckpointSession, convertCheckpointSession } from '../../scripts/corpus/convert-entire.js';
import {
  chatMessages,
  convertGeminiChat,
  isGeminiChat,
  shellOutput,
} from '../../scripts/corpus/convert-gemini.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const from = pinnedSource({ path: '5e/0a71c2d4b9/0/full.jsonl', licence: 'MIT', agent: 'Gemini CLI' });

const header = {
  sessionId: '7d1e0c2a-4b6f-4e21-9a0d-3c5b8f2e1a77',
  projectHash: 'c0ffee',
  startTime: '2026-05-04T10:00:00.000Z',
  lastUpdated: '2026-05-04T10:00:00.000Z',
  kind: 'main',
};

const response = (id: string, name: string, body: { output?: string; error?: string }) => [
  { functionResponse: { id, name, response: body } },
];

const shellCall = (id: string, command: string, output: string, at: string) => ({
  id,
  name: 'run_shell_command',
  args: { command, description: 'Run the unit tests' },
  result: response(id, 'run_shell_command', { output }),
  status: 'success',
  timestamp: at,
});

const modelTurn = (...toolCalls: object[]) => ({
  id: 'm1',
  timestamp: '2026-05-04T10:00:05.000Z',
  type: 'gemini',
  content: '',
  toolCalls,
});

const jsonl = (...lines: object[]) => lines.map((line) => JSON.stringify(line)).join('\n');

describe("Gemini CLI's chat record", () => {
  it('keeps the last copy of a message written again under its id, in the place of the first', () => {
    const first = { id: 'm1', timestamp: '2026-05-04T10:00:05.000Z', type: 'gemini', content: '' };
    const grown = {
      ...first,
      toolCalls: [shellCall('c1', 'npm test', 'Output: ok\nExit Code: 0', '2026-05-04T10:00:06.000Z')],
    };
    const user = {
      id: 'u2',
      timestamp: '2026-05-04T10:01:00.000Z',
      type: 'user',
      content: [{ text: 'thanks' }],
    };
    const record = jsonl(header, first, { $set: { lastUpdated: 'x' } }, user, grown);
    expect(chatMessages(record).map((message) => [message.id, Array.isArray(message.toolCalls)])).toEqual([
      ['m1', true],
      ['u2', false],
    ]);
  });

  it("reads a shell call that exited non-zero as failed, without the shell's process numbers", () => {
    const failing = 'Output: FAIL src/app.test.ts\n1 failed\nExit Code: 1\nProcess Group PGID: 30412';
    const record = jsonl(
      header,
      modelTurn(
        shellCall('c1', 'npm test', failing, '2026-05-04T10:00:07.000Z'),
        shellCall(
          'c2',
          'git status --short',
          'Output: M src/app.ts\nProcess Group PGID: 30588',
          '2026-05-04T10:00:09.000Z',
        ),
      ),
    );
    const calls = callsOf(convertGeminiChat(record, from, 'demo-7d1e0c2a', 'Gemini CLI run 7d1e0c2a').events);
    expect(calls.map((call) => [call.tool, call.args.command, call.result, call.t])).toEqual([
      ['run_shell_command', 'npm test', { isError: true, content: 'FAIL src/app.test.ts\n1 failed' }, 2],
      ['run_shell_command', 'git status --short', { content: 'M src/app.ts' }, 4],
    ]);
  });

  it('reads a shell call whose output Gemini CLI marked as untrusted as the same call unmarked', () => {
    // packages/core/src/utils/textUtils.ts `wrapUntrusted`: the function response the model was given.
    const mark = (output: string) => `<untrusted_context>\n${output}\n</untrusted_context>`;
    const failing = 'Output: FAIL src/app.test.ts\n1 failed\nExit Code: 1\nProcess Group PGID: 30412';
    const passing = 'Output: see &lt;/untrusted_context&gt; in README.md\nProcess Group PGID: 30588';
    const record = jsonl(
      header,
      modelTurn(
        shellCall('c1', 'npm test', mark(failing), '2026-05-04T10:00:07.000Z'),
        shellCall('c2', 'grep -l untrusted README.md', mark(passing), '2026-05-04T10:00:09.000Z'),
      ),
    );
    const calls = callsOf(convertGeminiChat(record, from, 'demo', 'demo').events);
    expect(calls.map((call) => call.result)).toEqual([
      { isError: true, content: 'FAIL src/app.test.ts\n1 failed' },
      { content: 'see </untrusted_context> in README.md' },
    ]);
  });

  it("reads a call whose status is error as failed with the tool's error, and a cancelled one as never answered", () => {
    const editError = 'Failed to edit, 0 occurrences found for old_string in src/app.ts.';
    const record = jsonl(
      header,
      modelTurn(
        {
          id: 'r1',
          name: 'replace',
          args: { file_path: 'src/app.ts', old_string: 'let a = 1;', new_string: 'const a = 1;' },
          result: response('r1', 'replace', { error: editError }),
          status: 'error',
          timestamp: '2026-05-04T10:00:06.000Z',
        },
        {
          id: 'w1',
          name: 'write_file',
          args: { file_path: 'notes.md', content: '# Notes' },
          status: 'cancelled',
          timestamp: '2026-05-04T10:00:08.000Z',
        },
      ),
    );
    const calls = callsOf(convertGeminiChat(record, from, 'demo', 'demo').events);
    expect(calls.map((call) => [call.tool, call.args.file_path, call.result])).toEqual([
      ['replace', 'src/app.ts', { isError: true, content: editError }],
      ['write_file', 'notes.md', undefined],
    ]);
  });

  it("takes the user's text as a user turn, but not the function responses sent back nor the session context", () => {
    const record = jsonl(
      header,
      {
        id: 'u0',
        timestamp: '2026-05-04T10:00:00.000Z',
        type: 'user',
        content: [{ text: '<session_context>\nThis is the Gemini CLI.' }],
      },
      {
        id: 'u1',
        timestamp: '2026-05-04T10:00:01.000Z',
        type: 'user',
        content: [{ text: 'Fix the failing test' }],
      },
      {
        id: 'u2',
        timestamp: '2026-05-04T10:00:09.000Z',
        type: 'user',
        content: response('c1', 'run_shell_command', { output: 'ok' }),
      },
    );
    const events = convertGeminiChat(record, from, 'demo', 'demo').events;
    expect(events.filter((event) => event.type === 'user')).toEqual([
      { type: 'user', text: 'Fix the failing test' },
    ]);
  });

  it('reads the one-document form that earlier versions wrote', () => {
    const document = JSON.stringify({
      ...header,
      messages: [
        modelTurn({
          id: 'g1',
          name: 'glob',
          args: { pattern: '**/*.test.ts' },
          result: response('g1', 'glob', { output: 'No files found' }),
          status: 'success',
          timestamp: '2026-05-04T10:00:06.000Z',
        }),
      ],
    });
    expect(isGeminiChat(document)).toBe(true);
    expect(
      callsOf(convertGeminiChat(document, from, 'demo', 'demo').events).map((call) => call.result),
    ).toEqual([{ content: 'No files found' }]);
  });

  it("reads an Entire session of Gemini CLI as Gemini CLI's record, and one holding a Claude Code transcript as Claude Code's", () => {
    const session: CheckpointSession = {
      dir: '5e/0a71c2d4b9/0',
      sessionId: header.sessionId,
      agent: 'Gemini CLI',
      createdAt: '2026-05-04T10:05:00Z',
      transcriptSize: 1,
    };
    const gemini = jsonl(
      header,
      modelTurn(shellCall('c1', 'npm test', 'Output: ok', '2026-05-04T10:00:06.000Z')),
    );
    const claude = jsonl({
      type: 'assistant',
      uuid: 'a1',
      sessionId: 's',
      timestamp: '2026-05-04T10:00:01.000Z',
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }],
      },
    });
    expect(
      callsOf(convertCheckpointSession(session, gemini, from, 'x').events).map((call) => call.tool),
    ).toEqual(['run_shell_command']);
    expect(
      callsOf(convertCheckpointSession(session, claude, from, 'y').events).map((call) => call.tool),
    ).toEqual(['Bash']);
  });

  it('never throws on any record, and gives one call per distinct named tool call in its messages', () => {
    const call = fc.record(
      {
        id: fc.constantFrom('a', 'b', 'c'),
        name: fc.constantFrom('run_shell_command', 'read_file', 'replace', ''),
        args: fc.oneof(
          fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })),
          fc.string(),
        ),
        status: fc.constantFrom('success', 'error', 'cancelled', 'other'),
        result: fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.string().map((output) => response('a', 'x', { output })),
        ),
        timestamp: fc.oneof(fc.string(), fc.constant('2026-05-04T10:00:06.000Z')),
      },
      { requiredKeys: ['name'] },
    );
    const message = fc.record(
      {
        id: fc.constantFrom('m1', 'm2', 'm3'),
        type: fc.constantFrom('user', 'gemini', 'info'),
        content: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 2 })),
        toolCalls: fc.oneof(fc.array(call, { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
        timestamp: fc.string(),
      },
      { requiredKeys: ['type'] },
    );
    const line = fc.oneof(
      message.map((value) => JSON.stringify(value)),
      fc
        .record({ $set: fc.record({ messages: fc.array(message, { maxLength: 2 }) }) })
        .map((value) => JSON.stringify(value)),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        const record = [JSON.stringify(header), ...lines].join('\n');
        const run = convertGeminiChat(record, from, 'prop', 'prop');
        const named = chatMessages(record)
          .filter((entry) => entry.type === 'gemini' && Array.isArray(entry.toolCalls))
          .flatMap((entry) =>
            (entry.toolCalls as unknown[]).filter(
              (c) => typeof c === 'object' && c !== null && !Array.isArray(c),
            ),
          )
          .filter(
            (c) => typeof (c as { name?: unknown }).name === 'string' && (c as { name: string }).name !== '',
          );
        expect(callsOf(run.events)).toHaveLength(named.length);
      }),
    );
  });

  it("keeps what a shell printed whatever it was, and takes the exit code only from the shell's own line", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.integer({ min: -255, max: 255 }),
        fc.nat({ max: 99999 }),
        (printed, code, pgid) => {
          const body = printed
            .split('\n')
            .filter((line) => !/^(?:Exit Code|Signal|Background PIDs|Process Group PGID):/.test(line))
            .join('\n');
          const read = shellOutput(`Output: ${body}\nExit Code: ${code}\nProcess Group PGID: ${pgid}`);
          expect(read.exitCode).toBe(code);
          expect(read.body).toBe(body.replace(/^\n/, ''));
        },
      ),
    );
  });
});
