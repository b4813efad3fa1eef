import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answersOf, convertClineTask, toolUses, xmlToolUses } from '../../scripts/corpus/convert-cline.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const from = pinnedSource({
  path: 'tasks/1731000000000/api_conversation_history.json',
  licence: 'MIT',
  agent: 'Cline',
});
const editor = '<environment_details>\n# VSCode Visible Files\nsrc/app.ts\n</environment_details>';
const said = (...texts: string[]) => texts.map((value) => ({ type: 'text', text: value }));
const task = (...messages: object[]) => JSON.stringify(messages);
const convert = (json: string) =>
  convertClineTask(json, from, 'demo-1731000000000', 'Cline task 1731000000000');

describe("Cline's task history", () => {
  it("reads the tool a reply writes as XML, its parameters trimmed and a file's text kept as written", () => {
    const reply =
      '<thinking>\nI should look first: <read_file><path>x</path></read_file>\n</thinking>\n\n' +
      '<write_to_file>\n<path>src/a.ts</path>\n<content>\nconst tag = "<path>b</path>";\n</content>\n</write_to_file>';
    expect(xmlToolUses(reply)).toEqual([
      { tool: 'write_to_file', args: { path: 'src/a.ts', content: 'const tag = "<path>b</path>";' } },
    ]);
  });

  it("pairs a reply's first tool with the result that names it, and leaves out the tools that were not executed", () => {
    const json = task(
      { role: 'user', content: said('<task>\nMake the unit tests pass\n</task>', editor) },
      {
        role: 'assistant',
        content: said(
          '<execute_command>\n<command>npm test</command>\n<requires_approval>false</requires_approval>\n</execute_command>\n\n<read_file>\n<path>src/a.ts</path>\n</read_file>',
        ),
      },
      {
        role: 'user',
        content: said(
          "[execute_command for 'npm test'] Result:",
          'Command executed.\nOutput:\n1 failing',
          'Tool [read_file] was not executed because a tool has already been used in this message.',
          editor,
        ),
      },
    );
    const run = convert(json);
    expect(run.events.filter((event) => event.type === 'user')).toEqual([
      { type: 'user', text: 'Make the unit tests pass' },
    ]);
    expect(callsOf(run.events)).toEqual([
      {
        type: 'call',
        tool: 'execute_command',
        args: { command: 'npm test', requires_approval: 'false' },
        result: { content: 'Command executed.\nOutput:\n1 failing' },
      },
    ]);
  });

  it('reads a tool execution that failed as failed, and a denied call as never answered with the feedback as a user turn', () => {
    const json = task(
      {
        role: 'assistant',
        content: said(
          '<replace_in_file>\n<path>src/a.ts</path>\n<diff>\n<<<<<<< SEARCH\nlet a\n=======\nconst a\n>>>>>>> REPLACE\n</diff>\n</replace_in_file>',
        ),
      },
      {
        role: 'user',
        content: said(
          "[replace_in_file for 'src/a.ts'] Result:",
          'The tool execution failed with the following error:\n<error>\nThe SEARCH block does not match anything in the file.\n</error>',
          editor,
        ),
      },
      {
        role: 'assistant',
        content: said(
          '<write_to_file>\n<path>src/a.ts</path>\n<content>\nconst a = 1;\n</content>\n</write_to_file>',
        ),
      },
      {
        role: 'user',
        content: said(
          "[write_to_file for 'src/a.ts'] Result:",
          'The user denied this operation and provided the following feedback:\n<feedback>\nKeep let, fix the test instead\n</feedback>',
          editor,
        ),
      },
    );
    const run = convert(json);
    expect(
      callsOf(run.events).map((call) => [
        call.tool,
        call.result?.isError ?? false,
        call.result === undefined,
      ]),
    ).toEqual([
      ['replace_in_file', true, false],
      ['write_to_file', false, true],
    ]);
    expect(run.events.at(-1)).toEqual({ type: 'user', text: 'Keep let, fix the test instead' });
  });

  it('keeps a call whose answer the history lost, without a result', () => {
    const json = task(
      { role: 'assistant', content: said('<list_files>\n<path>src</path>\n</list_files>') },
      { role: 'user', content: said(editor) },
    );
    expect(callsOf(convert(json).events)).toEqual([
      { type: 'call', tool: 'list_files', args: { path: 'src' } },
    ]);
  });

  it('pairs native tool_use blocks with their tool_result blocks by id', () => {
    const json = task(
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'src/a.ts' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'const a = 1;', is_error: false }],
      },
    );
    expect(callsOf(convert(json).events)).toEqual([
      { type: 'call', tool: 'read_file', args: { path: 'src/a.ts' }, result: { content: 'const a = 1;' } },
    ]);
  });

  it('leaves the editor details out of a result that holds them inline', () => {
    expect(answersOf(said(`[read_file for 'src/a.ts'] Result:\nconst a = 1;\n${editor}`))).toEqual([
      { tool: 'read_file', output: 'const a = 1;' },
    ]);
  });

  it('never throws on any history, and gives no more calls than the replies wrote', () => {
    const tool = fc.constantFrom('read_file', 'execute_command', 'write_to_file', 'attempt_completion');
    const xml = fc
      .tuple(tool, fc.string({ maxLength: 20 }), fc.constantFrom('path', 'command', 'content'))
      .map(([name, value, param]) => `<${name}>\n<${param}>${value}</${param}>\n</${name}>`);
    const block = fc.oneof(
      fc.string().map((value) => ({ type: 'text', text: value })),
      xml.map((value) => ({ type: 'text', text: value })),
      fc
        .tuple(tool, fc.string({ maxLength: 10 }))
        .map(([name, arg]) => ({ type: 'text', text: `[${name} for '${arg}'] Result:` })),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const message = fc.record({
      role: fc.constantFrom('user', 'assistant', 'system'),
      content: fc.oneof(fc.string(), fc.array(block, { maxLength: 4 })),
    });
    fc.assert(
      fc.property(fc.oneof(fc.array(message, { maxLength: 8 }).map(task), fc.string()), (json) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(json);
        } catch {
          parsed = [];
        }
        const written = (Array.isArray(parsed) ? parsed : [])
          .filter(
            (m): m is { role: string; content: unknown } =>
              typeof m === 'object' && m !== null && m.role === 'assistant',
          )
          .reduce((sum, m) => sum + toolUses(m.content).length, 0);
        expect(callsOf(convert(json).events).length).toBeLessThanOrEqual(written);
      }),
    );
  });
});
