import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeCodeHooks } from '../../src/hooks/claude-code.js';
import { codexHooks } from '../../src/hooks/codex.js';
import { cursorHooks } from '../../src/hooks/cursor.js';
import type { HookEvent } from '../../src/hooks/event.js';
import { geminiCliHooks } from '../../src/hooks/gemini-cli.js';
import { errorResult, mcpResult, responseResult } from '../../src/hooks/results.js';

/** What @modelcontextprotocol/server-filesystem answers for a path outside its folders. */
const DENIED = 'Access denied - path outside allowed directories: /etc/passwd not in /home/dev/project';
const DENIED_RESULT = { content: [{ type: 'text', text: DENIED }], isError: true };

function afterResult(event: HookEvent) {
  if (event.action.type !== 'after-call') throw new Error(`not an after-call event: ${event.action.type}`);
  return event.action.result;
}

describe('tool results in the shapes agents report them', () => {
  it("reads an MCP CallToolResult with isError as a failure in the tool's words", () => {
    expect(responseResult(DENIED_RESULT)).toEqual({ ok: false, error: DENIED, content: DENIED });
  });

  it('reads the JSON text of a CallToolResult as the result itself', () => {
    expect(responseResult(JSON.stringify(DENIED_RESULT))).toEqual({
      ok: false,
      error: DENIED,
      content: DENIED,
    });
    expect(mcpResult(JSON.stringify(DENIED_RESULT))).toEqual({ ok: false, error: DENIED, content: DENIED });
  });

  it('reads tool_result blocks flagged is_error as a failure, their text blocks as the error', () => {
    const blocks = [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: DENIED_RESULT.content, is_error: true },
    ];
    expect(responseResult(blocks)).toEqual({ ok: false, error: DENIED, content: DENIED });
  });

  it("reads a tool's JSON answer of typed records as its text, not as content blocks", () => {
    // GitHub's list of a repository's events, as an MCP tool hands it over: the text of one text block.
    const events = JSON.stringify([
      { id: '44120931', type: 'PushEvent', repo: { name: 'acme/api' }, created_at: '2026-11-28T20:58:02Z' },
      { id: '44120877', type: 'IssuesEvent', repo: { name: 'acme/api' }, created_at: '2026-11-28T20:41:19Z' },
    ]);
    expect(responseResult(events)).toEqual({ ok: true, content: events });
    const event = claudeCodeHooks.parse({
      session_id: 's1',
      cwd: '/p',
      hook_event_name: 'PostToolUse',
      tool_name: 'mcp__github__list_repository_events',
      tool_input: { owner: 'acme', repo: 'api' },
      tool_response: events,
    });
    expect(afterResult(event)).toEqual({ ok: true, content: events });
  });

  it('reads content blocks without a failure flag as a success, by their text', () => {
    const blocks = [
      { type: 'text', text: '# Notes' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'text', text: '- ship it' },
    ];
    expect(responseResult(blocks)).toEqual({ ok: true, content: '# Notes\n- ship it' });
  });

  it('reads a failure reported as the JSON of content blocks by their text', () => {
    expect(errorResult(JSON.stringify(DENIED_RESULT.content))).toEqual({ ok: false, error: DENIED });
  });

  it('keeps a plain string, and JSON that is no MCP result, as the text it is', () => {
    expect(responseResult('{"name": "demo", "version": "1.0.0"}')).toEqual({
      ok: true,
      content: '{"name": "demo", "version": "1.0.0"}',
    });
    expect(errorResult('ENOENT: no such file or directory')).toEqual({
      ok: false,
      error: 'ENOENT: no such file or directory',
    });
  });

  it('reads any JSON value and any text without throwing, a failure always with an error', () => {
    const check = (value: unknown) => {
      for (const result of [responseResult(value), mcpResult(value), errorResult(value)]) {
        if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
      }
    };
    fc.assert(fc.property(fc.jsonValue(), (value) => check(value)));
    fc.assert(fc.property(fc.json(), (text) => check(text)));
    fc.assert(fc.property(fc.string(), (text) => check(text)));
  });

  it('reads every flagged CallToolResult as a failure whose error is its text blocks joined', () => {
    const block = fc.record({ type: fc.constant('text'), text: fc.string({ minLength: 1, maxLength: 200 }) });
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 8 }), fc.boolean(), (content, asText) => {
        const result = { content, isError: true };
        const read = responseResult(asText ? JSON.stringify(result) : result);
        expect(read).toMatchObject({ ok: false, error: content.map((part) => part.text).join('\n') });
      }),
    );
  });
});

describe("each agent's MCP failure, learned in the tool's words", () => {
  it("Gemini CLI: the text inside its 'reported tool error' message, not the message's JSON", () => {
    const call = { name: 'read_text_file', args: { path: '/etc/passwd', note: ' with response: [' } };
    const parts = [{ functionResponse: { name: 'read_text_file', response: DENIED_RESULT } }];
    const message = `MCP tool 'read_text_file' reported tool error for function call: ${JSON.stringify(call)} with response: ${JSON.stringify(parts)}`;
    const event = geminiCliHooks.parse({
      session_id: 's1',
      cwd: '/home/dev/project',
      hook_event_name: 'AfterTool',
      tool_name: 'mcp_filesystem_read_text_file',
      tool_input: call.args,
      mcp_context: { server_name: 'filesystem', tool_name: 'read_text_file' },
      tool_response: {
        llmContent: message,
        returnDisplay: 'Error',
        error: { message, type: 'mcp_tool_error' },
      },
    });
    expect(afterResult(event)).toEqual({ ok: false, error: DENIED, content: DENIED });
  });

  it("Gemini CLI: the tool's text when the call's arguments quote Gemini's own words many times", () => {
    // A notes file the agent writes, quoting earlier failures line by line.
    const content = Array.from(
      { length: 40 },
      (_, index) => `- attempt ${index + 1}: fetch_page reported tool error with response: 503`,
    ).join('\n');
    const call = { name: 'write_file', args: { path: '/home/dev/project/NOTES.md', content } };
    const denied = {
      content: [
        {
          type: 'text',
          text: 'Access denied - path outside allowed directories: /home/dev/project/NOTES.md not in /srv/docs',
        },
      ],
      isError: true,
    };
    const parts = [{ functionResponse: { name: 'write_file', response: denied } }];
    const message = `MCP tool 'write_file' reported tool error for function call: ${JSON.stringify(call)} with response: ${JSON.stringify(parts)}`;
    const event = geminiCliHooks.parse({
      session_id: 's1',
      cwd: '/home/dev/project',
      hook_event_name: 'AfterTool',
      tool_name: 'mcp_filesystem_write_file',
      tool_input: call.args,
      mcp_context: { server_name: 'filesystem', tool_name: 'write_file' },
      tool_response: {
        llmContent: message,
        returnDisplay: 'Error',
        error: { message, type: 'mcp_tool_error' },
      },
    });
    const text = denied.content[0]?.text;
    expect(afterResult(event)).toEqual({ ok: false, error: text, content: text });
  });

  it("Gemini CLI: the tool's text, whatever the call's arguments and the text say", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ maxLength: 12 }),
          fc.oneof(
            fc.string({ maxLength: 40 }),
            fc.constantFrom(' with response: [', '"}]} with response: ', '\\"', '{[', ']}'),
            fc.jsonValue({ maxDepth: 3 }),
          ),
          { maxKeys: 4 },
        ),
        fc.string({ minLength: 1, maxLength: 200 }),
        (args, text) => {
          const result = { content: [{ type: 'text', text }], isError: true };
          const parts = [{ functionResponse: { name: 'lookup', response: result } }];
          const message = `MCP tool 'lookup' reported tool error for function call: ${JSON.stringify({ name: 'lookup', args })} with response: ${JSON.stringify(parts)}`;
          const event = geminiCliHooks.parse({
            session_id: 's1',
            cwd: '/p',
            hook_event_name: 'AfterTool',
            tool_name: 'mcp_docs_lookup',
            tool_input: args,
            tool_response: { llmContent: message, error: { message, type: 'mcp_tool_error' } },
          });
          expect(afterResult(event)).toEqual({ ok: false, error: text, content: text });
        },
      ),
    );
  });

  it('Gemini CLI: the message of a call that threw, and the text of parts on success', () => {
    const parts = [
      {
        functionResponse: {
          name: 'x',
          response: { error: { message: 'MCP error -32001: Request timed out', isError: true } },
        },
      },
    ];
    const message = `MCP tool 'x' reported tool error for function call: {"name":"x","args":{}} with response: ${JSON.stringify(parts)}`;
    const base = {
      session_id: 's1',
      cwd: '/p',
      hook_event_name: 'AfterTool',
      tool_name: 'mcp_srv_x',
      tool_input: {},
    };
    const failed = geminiCliHooks.parse({
      ...base,
      tool_response: { llmContent: message, error: { message } },
    });
    expect(afterResult(failed)).toMatchObject({ ok: false, error: 'MCP error -32001: Request timed out' });
    const passed = geminiCliHooks.parse({
      ...base,
      tool_response: {
        llmContent: [{ text: 'line 1' }, { text: 'line 2' }],
        returnDisplay: 'line 1\nline 2',
      },
    });
    expect(afterResult(passed)).toEqual({ ok: true, content: 'line 1\nline 2' });
  });

  it('Codex: a CallToolResult with isError in tool_response', () => {
    const event = codexHooks.parse({
      session_id: 's1',
      cwd: '/p',
      hook_event_name: 'PostToolUse',
      tool_name: 'mcp__filesystem__read_text_file',
      tool_input: { path: '/etc/passwd' },
      tool_response: DENIED_RESULT,
      tool_use_id: 'call_1',
    });
    expect(afterResult(event)).toEqual({ ok: false, error: DENIED, content: DENIED });
  });

  it("Claude Code: PostToolUse's tool_response as JSON text, and PostToolUseFailure's error", () => {
    const base = {
      session_id: 's1',
      cwd: '/p',
      tool_name: 'mcp__filesystem__read_text_file',
      tool_input: {},
    };
    const passed = claudeCodeHooks.parse({
      ...base,
      hook_event_name: 'PostToolUse',
      tool_response: JSON.stringify(DENIED_RESULT),
    });
    expect(afterResult(passed)).toMatchObject({ ok: false, error: DENIED });
    const failed = claudeCodeHooks.parse({ ...base, hook_event_name: 'PostToolUseFailure', error: DENIED });
    expect(afterResult(failed)).toEqual({ ok: false, error: DENIED });
  });

  it("Cursor: postToolUse's tool_output as the JSON text of the result", () => {
    const event = cursorHooks.parse({
      conversation_id: 'c1',
      hook_event_name: 'postToolUse',
      workspace_roots: ['/p'],
      tool_name: 'read_text_file',
      tool_input: { path: '/etc/passwd' },
      tool_output: JSON.stringify(DENIED_RESULT),
    });
    expect(afterResult(event)).toEqual({ ok: false, error: DENIED, content: DENIED });
  });
});
