import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CheckpointSession, convertCheckpointSession } from '../../scripts/corpus/convert-entire.js';
import {
  chatEntries,
  chatMessages,
  convertGeminiChat,
  currentChatRecords,
  isGeminiChat,
  onePerSession,
  shellOutput,
} from '../../scripts/corpus/convert-gemini.js';
import { replayTrace } from '../../src/replay/replay.js';
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

  it('takes the prompts Gemini CLI sends itself to make the model go on for no user turn', () => {
    const record = jsonl(
      header,
      {
        id: 'u1',
        timestamp: '2026-05-04T10:00:01.000Z',
        type: 'user',
        content: [{ text: 'Fix the failing test' }],
      },
      {
        id: 'u2',
        timestamp: '2026-05-04T10:00:05.000Z',
        type: 'user',
        content: [{ text: 'Please continue.' }],
      },
      {
        id: 'u3',
        timestamp: '2026-05-04T10:00:09.000Z',
        type: 'user',
        content: [{ text: 'System: Please continue.' }],
      },
      {
        id: 'u4',
        timestamp: '2026-05-04T10:00:12.000Z',
        type: 'user',
        content: [{ text: 'please continue with the docs' }],
      },
    );
    const events = convertGeminiChat(record, from, 'demo', 'demo').events;
    expect(events.filter((event) => event.type === 'user')).toEqual([
      { type: 'user', text: 'Fix the failing test' },
      { type: 'user', text: 'please continue with the docs' },
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

  it('reads a session written as JSON Lines, each message written again as it grows, as the same run as one JSON document', () => {
    // packages/core/src/services/chatRecordingService.ts (0.39): the header, then each message appended
    // whole every time it changes, with a `$set` of `lastUpdated` after each.
    const started = {
      ...header,
      startTime: '2026-05-15T22:26:22.442Z',
      lastUpdated: '2026-05-15T22:26:22.442Z',
    };
    const prompt = {
      id: '7c2e1f40',
      timestamp: '2026-05-15T22:27:35.675Z',
      type: 'user',
      content: [{ text: 'commit the worker and push it' }],
    };
    const reply = {
      id: '9d3a6b12',
      timestamp: '2026-05-15T22:27:40.629Z',
      type: 'gemini',
      content: '',
      thoughts: [],
      tokens: { input: 30052, output: 64, cached: 26462, thoughts: 0, tool: 0, total: 30116 },
      model: 'gemini-3-flash-preview',
    };
    const commit = {
      id: 'run_shell_command_1778300000000_0',
      name: 'run_shell_command',
      args: {
        command: 'git init && git add . && git commit -m "Initial commit"',
        description: 'Commit the project.',
      },
      result: response('run_shell_command_1778300000000_0', 'run_shell_command', {
        output:
          "Output: Author identity unknown\n\nfatal: unable to auto-detect email address (got 'dev@localhost.(none)')\nExit Code: 128\nProcess Group PGID: 4187",
      }),
      status: 'success',
      timestamp: '2026-05-15T22:27:43.139Z',
      resultDisplay:
        "Author identity unknown\n\nfatal: unable to auto-detect email address (got 'dev@localhost.(none)')",
      description: 'git init && git add . && git commit -m "Initial commit"',
      displayName: 'Shell',
      renderOutputAsMarkdown: false,
    };
    const lines = jsonl(
      started,
      prompt,
      { $set: { lastUpdated: '2026-05-15T22:27:35.677Z' } },
      reply,
      { $set: { lastUpdated: '2026-05-15T22:27:40.629Z' } },
      { ...reply, toolCalls: [commit] },
    );
    const document = JSON.stringify({ ...started, messages: [prompt, { ...reply, toolCalls: [commit] }] });
    const events = convertGeminiChat(lines, from, 'demo', 'demo').events;
    expect(isGeminiChat(lines)).toBe(true);
    expect(events).toEqual(convertGeminiChat(document, from, 'demo', 'demo').events);
    expect(callsOf(events).map((call) => [call.args.command, call.result, call.t])).toEqual([
      [
        'git init && git add . && git commit -m "Initial commit"',
        {
          isError: true,
          content:
            "Author identity unknown\n\nfatal: unable to auto-detect email address (got 'dev@localhost.(none)')",
        },
        7.464,
      ],
    ]);
  });

  it('keeps the calls of a turn that a checkpoint of the messages leaves out, since they ran', () => {
    const user = {
      id: 'u1',
      timestamp: '2026-05-04T10:00:01.000Z',
      type: 'user',
      content: [{ text: 'run the tests' }],
    };
    const ran = modelTurn(
      shellCall('c1', 'npm test', 'Output: 1 failed\nExit Code: 1', '2026-05-04T10:00:06.000Z'),
    );
    // The turn was cancelled: Gemini CLI rolls its history back and checkpoints what is left.
    const record = jsonl(header, user, ran, {
      $set: { messages: [user], lastUpdated: '2026-05-04T10:00:09.000Z' },
    });
    expect(
      callsOf(convertGeminiChat(record, from, 'demo', 'demo').events).map((call) => call.args.command),
    ).toEqual(['npm test']);
  });

  it('keeps the output a call first answered when a checkpoint restates it masked', () => {
    const read = {
      id: 'r1',
      name: 'read_file',
      args: { file_path: 'src/app.ts' },
      result: response('r1', 'read_file', { output: 'export const a = 1;' }),
      status: 'success',
      timestamp: '2026-05-04T10:00:06.000Z',
    };
    const masked = {
      ...read,
      result: response('r1', 'read_file', {
        output: '<tool_output_masked>\nOutput saved to r1.txt\n</tool_output_masked>',
      }),
    };
    const record = jsonl(header, modelTurn(read), { $set: { messages: [modelTurn(masked)] } });
    expect(
      callsOf(convertGeminiChat(record, from, 'demo', 'demo').events).map((call) => call.result),
    ).toEqual([{ content: 'export const a = 1;' }]);
  });

  it('takes a masked answer out of the context just before the agent asks the same call again, and leaves an answer kept in place', () => {
    const readFile = (id: string, path: string, output: string, second: number) => ({
      id,
      name: 'read_file',
      args: { file_path: path },
      result: response(id, 'read_file', { output }),
      status: 'success',
      timestamp: `2026-05-04T10:00:${String(second).padStart(2, '0')}.000Z`,
    });
    const masked = (path: string) =>
      `<tool_output_masked>\n{\n  "output": "import { db } from './config';\\r\\n... [TRUNCATED] ..."\n}\n\nOutput too large. Full output available at: ${path}.txt\n</tool_output_masked>`;
    const document = JSON.stringify({
      ...header,
      messages: [
        modelTurn(
          readFile('r1', 'src/firebase/dbActions.js', masked('read_file_r1'), 6),
          readFile('r2', 'vite.config.js', "import { defineConfig } from 'vite'", 7),
          readFile('r3', 'src/firebase/dbActions.js', masked('read_file_r3'), 40),
          readFile('r4', 'vite.config.js', "import { defineConfig } from 'vite'", 41),
        ),
      ],
    });
    const events = convertGeminiChat(document, from, 'demo', 'demo').events.filter(
      (event) => event.type !== 'meta',
    );
    expect(events.map((event) => (event.type === 'call' ? `${event.args.file_path}` : event))).toEqual([
      'src/firebase/dbActions.js',
      'vite.config.js',
      { type: 'compact', calls: ['masked-1'] },
      'src/firebase/dbActions.js',
      'vite.config.js',
    ]);
    expect(callsOf(events).map((call) => call.id)).toEqual(['masked-1', undefined, 'masked-2', undefined]);
  });

  it('takes an answer out of the context where a checkpoint of the JSON Lines record restates it masked', () => {
    const readFile = (id: string, path: string, output: string) => ({
      id,
      name: 'read_file',
      args: { file_path: path },
      result: response(id, 'read_file', { output }),
      status: 'success',
      timestamp: '2026-05-04T10:00:06.000Z',
    });
    const first = { ...modelTurn(readFile('r1', 'src/app.ts', 'export const a = 1;')), id: 'm1' };
    const other = { ...modelTurn(readFile('r2', 'src/util.ts', 'export const b = 2;')), id: 'm2' };
    const maskedFirst = {
      ...first,
      toolCalls: [
        readFile('r1', 'src/app.ts', '<tool_output_masked>\nexport const a = 1;\n</tool_output_masked>'),
      ],
    };
    const again = { ...modelTurn(readFile('r3', 'src/app.ts', 'export const a = 1;')), id: 'm3' };
    const record = jsonl(header, first, other, { $set: { messages: [maskedFirst, other] } }, again);
    const events = convertGeminiChat(record, from, 'demo', 'demo').events.filter(
      (event) => event.type !== 'meta',
    );
    expect(
      events.map((event) => (event.type === 'call' ? `${event.args.file_path} ${event.id}` : event)),
    ).toEqual([
      'src/app.ts masked-1',
      'src/util.ts undefined',
      { type: 'compact', calls: ['masked-1'] },
      'src/app.ts undefined',
    ]);
  });

  it('lets an agent read again, without a halt, the files whose answers Gemini CLI masked', () => {
    const paths = Array.from({ length: 20 }, (_, index) => `src/components/Card${index}.jsx`);
    const readFile = (path: string, index: number) => ({
      id: `read_file_${index}`,
      name: 'read_file',
      args: { file_path: path },
      result: response(`read_file_${index}`, 'read_file', {
        output: `<tool_output_masked>\n{\n  "output": "// ${path}\\nexport default function Card() {"\n}\n</tool_output_masked>`,
      }),
      status: 'success',
      timestamp: '2026-05-04T10:00:06.000Z',
    });
    const document = JSON.stringify({
      ...header,
      // One model turn per call, as an agent reading files one after another makes them.
      messages: [...paths, ...paths].map((path, index) => ({
        ...modelTurn(readFile(path, index)),
        id: `m${index}`,
      })),
    });
    const { summary } = replayTrace(convertGeminiChat(document, from, 'demo', 'demo').events);
    expect(summary).toMatchObject({ calls: 40, allow: 40, block: 0, halt: 0 });
  });

  it('reads a compression as a compaction, and the turns it writes again before its checkpoint as neither user turns nor calls', () => {
    const user = {
      id: 'u1',
      timestamp: '2026-05-04T10:00:01.000Z',
      type: 'user',
      content: [{ text: 'fix the build' }],
    };
    const build = modelTurn(shellCall('c1', 'npm run build', 'Output: ok', '2026-05-04T10:00:06.000Z'));
    const summary = {
      id: 's1',
      timestamp: '2026-05-04T10:30:00.000Z',
      type: 'user',
      content: [{ text: '<state_snapshot>\n<overall_goal>Fix the build.</overall_goal>\n</state_snapshot>' }],
    };
    const ack = {
      id: 's2',
      timestamp: '2026-05-04T10:30:00.001Z',
      type: 'gemini',
      content: [{ text: 'Got it. Thanks for the additional context!' }],
    };
    const keptPrompt = { ...user, id: 's3', timestamp: '2026-05-04T10:30:00.002Z' };
    const keptCall = {
      id: 's4',
      timestamp: '2026-05-04T10:30:00.003Z',
      type: 'gemini',
      content: [{ functionCall: { name: 'run_shell_command', args: { command: 'npm run build' } } }],
    };
    const next = {
      id: 'u2',
      timestamp: '2026-05-04T10:31:00.000Z',
      type: 'user',
      content: [{ text: 'now deploy' }],
    };
    const record = jsonl(
      header,
      user,
      build,
      summary,
      ack,
      keptPrompt,
      keptCall,
      {
        $set: { messages: [summary, ack, keptPrompt, keptCall] },
      },
      next,
    );
    const events = convertGeminiChat(record, from, 'demo', 'demo').events.filter(
      (event) => event.type !== 'meta',
    );
    expect(
      events.map((event) =>
        event.type === 'call' ? event.args.command : event.type === 'user' ? event.text : event.type,
      ),
    ).toEqual(['fix the build', 'npm run build', 'compact', 'now deploy']);
  });

  it("takes the turns after a compression summary that no checkpoint follows as the model's again from its next calls", () => {
    const summary = {
      id: 's1',
      timestamp: '2026-05-04T10:30:00.000Z',
      type: 'user',
      content: [{ text: '<state_snapshot>\n<overall_goal>Fix the build.</overall_goal>\n</state_snapshot>' }],
    };
    const next = {
      ...modelTurn(shellCall('c2', 'npm run lint', 'Output: ok', '2026-05-04T10:31:00.000Z')),
      id: 'm2',
    };
    const record = jsonl(header, summary, next);
    const events = convertGeminiChat(record, from, 'demo', 'demo').events.filter(
      (event) => event.type !== 'meta',
    );
    expect(events.map((event) => (event.type === 'call' ? event.args.command : event.type))).toEqual([
      'compact',
      'npm run lint',
    ]);
  });

  it('keeps the calls a rewind takes back, since they ran', () => {
    const first = modelTurn(shellCall('c1', 'rm -rf dist', 'Output: ', '2026-05-04T10:00:06.000Z'));
    const again = {
      ...modelTurn(shellCall('c2', 'npm run build', 'Output: ok', '2026-05-04T10:02:00.000Z')),
      id: 'm2',
    };
    const record = jsonl(header, first, { $rewindTo: 'm1' }, again);
    expect(
      callsOf(convertGeminiChat(record, from, 'demo', 'demo').events).map((call) => call.args.command),
    ).toEqual(['rm -rf dist', 'npm run build']);
  });

  it('leaves out a JSON chat record whose session was resumed into a JSONL record beside it', () => {
    const chats = '.gemini/tmp/home/chats';
    expect(
      currentChatRecords([
        `${chats}/session-2026-03-02T09-10-4b1e2c3d.json`,
        `${chats}/session-2026-03-02T09-10-4b1e2c3d.jsonl`,
        `${chats}/session-2026-03-05T17-44-9a8b7c6d.json`,
        `${chats}/session-2026-05-15T22-26-51c0d2e8.jsonl`,
      ]),
    ).toEqual([
      `${chats}/session-2026-03-02T09-10-4b1e2c3d.jsonl`,
      `${chats}/session-2026-03-05T17-44-9a8b7c6d.json`,
      `${chats}/session-2026-05-15T22-26-51c0d2e8.jsonl`,
    ]);
  });

  it('keeps the copy of a session with the most messages when a source holds it in two folders', () => {
    const ask = { id: 'u1', timestamp: '2026-01-10T01:57:46.952Z', type: 'user', content: 'open the repo' };
    const answer = {
      ...modelTurn(shellCall('c1', 'git status', 'Output: clean', '2026-01-10T01:58:00.000Z')),
      id: 'g1',
    };
    const more = { id: 'u2', timestamp: '2026-01-10T03:23:18.025Z', type: 'user', content: 'now pull' };
    const record = (messages: object[], lastUpdated: string) =>
      JSON.stringify({ ...header, startTime: ask.timestamp, lastUpdated, messages }, null, 2);
    const early = {
      path: 'chat_logs/session-2026-01-10T01-55-7d1e0c2a.json',
      content: record([ask, answer], '2026-01-10T02:13:07.815Z'),
    };
    const grown = {
      path: 'Archives/session-2026-01-10T01-55-7d1e0c2a.json',
      content: record([ask, answer, more], '2026-01-11T00:25:40.929Z'),
    };
    expect(onePerSession([grown, early]).map((file) => file.path)).toEqual([grown.path]);
  });

  it('keeps the copy written last when two copies of a session hold as many messages', () => {
    const ask = {
      id: 'u1',
      timestamp: '2025-12-24T06:27:12.000Z',
      type: 'user',
      content: 'list my home folder',
    };
    const record = (lastUpdated: string) =>
      JSON.stringify({ ...header, startTime: ask.timestamp, lastUpdated, messages: [ask] });
    const older = {
      path: 'Archives/session-2025-12-24T06-27-7d1e0c2a.json',
      content: record('2025-12-24T06:30:00.000Z'),
    };
    const newer = {
      path: 'chat_logs/session-2025-12-24T06-27-7d1e0c2a.json',
      content: record('2025-12-24T06:40:49.587Z'),
    };
    expect(onePerSession([older, newer]).map((file) => file.path)).toEqual([newer.path]);
  });

  it('keeps the records Gemini CLI starts under one session id after /clear as conversations of their own', () => {
    const record = (startTime: string, text: string) =>
      JSON.stringify({
        ...header,
        startTime,
        lastUpdated: startTime,
        messages: [{ id: `u-${startTime}`, timestamp: startTime, type: 'user', content: text }],
      });
    const before = {
      path: 'Archives/session-2025-12-30T18-12-7d1e0c2a.json',
      content: record('2025-12-30T18:12:33.620Z', 'restart the desktop panel'),
    };
    const after = {
      path: 'Archives/session-2025-12-30T21-46-7d1e0c2a.json',
      content: record('2025-12-30T21:55:16.352Z', 'remove the editor installed with flatpak'),
    };
    expect(onePerSession([before, after]).map((file) => file.path)).toEqual([before.path, after.path]);
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

  it('never throws on any record, and gives one call per distinct named tool call in the messages it did not restate', () => {
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
    const summary = fc.record({
      id: fc.constantFrom('m1', 's1'),
      type: fc.constant('user'),
      content: fc.string().map((body) => [{ text: `<state_snapshot>${body}` }]),
    });
    const line = fc.oneof(
      message.map((value) => JSON.stringify(value)),
      summary.map((value) => JSON.stringify(value)),
      fc
        .record({ $set: fc.record({ messages: fc.array(message, { maxLength: 2 }) }) })
        .map((value) => JSON.stringify(value)),
      fc.constantFrom('m1', 'm2', 'x').map((id) => JSON.stringify({ $rewindTo: id })),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        const record = [JSON.stringify(header), ...lines].join('\n');
        const run = convertGeminiChat(record, from, 'prop', 'prop');
        const named = chatEntries(record)
          .filter((entry) => !entry.restated)
          .map((entry) => entry.message)
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
