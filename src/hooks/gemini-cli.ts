/**
 * Gemini CLI's hooks: `BeforeTool` denies with `{"decision": "deny", "reason": …}` (the reason
 * reaches the model as the tool's error), `AfterTool` reports `tool_response.llmContent` and
 * `.error`, `BeforeAgent` starts a run, `SessionStart` a session, `PreCompress` a compaction.
 * MCP tools are `mcp_<server>_<tool>` (`mcp__<server>__<tool>` before): both become narrowing's
 * `mcp__<server>__<tool>` where the payload names the server.
 */
import { withoutUntrustedMarks } from '../adapters/tool-call/untrusted-marks.js';
import { NarrowingError } from '../core/errors.js';
import type { HookAction, HookEvent, HookProtocol, HookReply, HookToolResult, HookVerdict } from './event.js';
import {
  isRecord,
  mcpToolName,
  type Payload,
  payloadObject,
  resultText,
  sessionIdField,
  stringField,
  toolInput,
} from './payload.js';
import { errorResult, jsonText, mcpContent, partsText } from './results.js';
import { GEMINI_CANCELLED_BY_USER, geminiShellResult, geminiStillRunning } from './shell-output.js';

const AGENT = 'gemini-cli';
const SHELL_TOOL = 'run_shell_command';

export const geminiCliHooks: HookProtocol = {
  agent: AGENT,
  parse(value) {
    const payload = payloadObject(value, AGENT);
    const name = stringField(payload, 'hook_event_name', 64) ?? '';
    return {
      agent: AGENT,
      name,
      sessionId: sessionIdField(payload, ['session_id'], AGENT),
      workspace: stringField(payload, 'cwd', 4096),
      action: geminiAction(name, payload),
    };
  },
  reply(event: HookEvent, verdict: HookVerdict): HookReply {
    if (verdict.type === 'none') return { stdout: '', exitCode: 0 };
    if (verdict.type === 'deny' && event.action.type === 'before-call') {
      return json({ decision: 'deny', reason: verdict.text });
    }
    return json({ hookSpecificOutput: { hookEventName: event.name, additionalContext: verdict.text } });
  },
};

function geminiAction(name: string, payload: Payload): HookAction {
  switch (name) {
    case 'BeforeTool':
      return { type: 'before-call', call: toolCall(payload) };
    case 'AfterTool': {
      const call = toolCall(payload);
      // Stopped by the user, not failed, or not ended yet: nothing for the agent to learn.
      if (call.tool === SHELL_TOOL && notEnded(payload.tool_response)) return { type: 'ignored' };
      return { type: 'after-call', call, result: afterToolResult(call.tool, payload.tool_response) };
    }
    case 'BeforeAgent':
      return { type: 'prompt' };
    case 'SessionStart': {
      const source = stringField(payload, 'source', 32);
      return {
        type: 'session-start',
        source: source === 'resume' || source === 'clear' ? source : 'startup',
      };
    }
    case 'PreCompress':
      return { type: 'compact' };
    case 'AfterAgent':
      return { type: 'stop' };
    case '':
      throw new NarrowingError('USAGE', 'the gemini-cli hook payload has no hook_event_name');
    default:
      return { type: 'ignored' };
  }
}

function toolCall(payload: Payload) {
  const name = stringField(payload, 'tool_name', 256);
  if (!name)
    throw new NarrowingError('USAGE', 'the gemini-cli hook payload of a tool event has no tool_name');
  return { tool: toolName(name, payload.mcp_context), input: toolInput(payload.tool_input) };
}

/** One name for an MCP tool whichever way this version of Gemini CLI spells it. */
function toolName(name: string, context: unknown): string {
  if (name.startsWith('mcp__')) return name;
  if (isRecord(context)) {
    const server = typeof context.server_name === 'string' ? context.server_name.slice(0, 128) : undefined;
    const tool = typeof context.tool_name === 'string' ? context.tool_name.slice(0, 128) : undefined;
    if (server && tool) return mcpToolName(server, tool);
  }
  return name;
}

/** A command the user stopped, or one still running in the background when Gemini CLI answered. */
function notEnded(response: unknown): boolean {
  if (!isRecord(response)) return false;
  const llmContent = withoutUntrustedTags(response.llmContent);
  if (typeof llmContent !== 'string') return false;
  return llmContent.startsWith(GEMINI_CANCELLED_BY_USER) || geminiStillRunning(llmContent);
}

/**
 * `tool_response: { llmContent, returnDisplay, error? }`. `error` is set only when the tool could not
 * run (for `run_shell_command`: the process could not start); a command that ran and exited
 * non-zero says so only as `Exit Code: N` inside `llmContent` (packages/core/src/tools/shell.ts).
 */
function afterToolResult(tool: string, response: unknown): HookToolResult {
  if (!isRecord(response)) return { ok: true, content: resultText(response) };
  const llmContent = withoutUntrustedTags(response.llmContent);
  // An MCP tool's result comes as parts (`[{ text }]`): its text is what the tool said.
  const content = partsText(llmContent ?? response.returnDisplay);
  const error = response.error;
  if (error === undefined || error === null || error === '') {
    return tool === SHELL_TOOL && typeof llmContent === 'string'
      ? geminiShellResult(content)
      : { ok: true, content };
  }
  const message = isRecord(error) && typeof error.message === 'string' ? error.message : error;
  const mcpError = typeof message === 'string' ? mcpToolError(message) : undefined;
  if (mcpError !== undefined) return { ok: false, error: mcpError, content: mcpError };
  const failed = errorResult(message);
  return { ...failed, content } as HookToolResult;
}

/**
 * `llmContent` without the untrusted marks Gemini CLI puts around what a tool brought in
 * (`withoutUntrustedMarks`): a string's, or each text part's of a list of parts.
 */
function withoutUntrustedTags(llmContent: unknown): unknown {
  if (typeof llmContent === 'string') return withoutUntrustedMarks(llmContent);
  if (!Array.isArray(llmContent)) return llmContent;
  return llmContent.map((part) =>
    isRecord(part) && typeof part.text === 'string'
      ? { ...part, text: withoutUntrustedMarks(part.text) }
      : part,
  );
}

/** Gemini CLI's words around an MCP tool's failure (packages/core/src/tools/mcp-tool.ts). */
const MCP_ERROR_HEAD = /^MCP tool '[^'\n]{1,256}' reported tool error for function call: /;
const MCP_ERROR_RESPONSE = ' with response: ';
/** A longer message is not parsed: it is learned as the text it is. */
const MCP_ERROR_MAX_CHARS = 512 * 1024;

/**
 * The tool's own words in Gemini CLI's MCP failure message: `MCP tool 'x' reported tool error for
 * function call: <the call as JSON> with response: <the response parts as JSON>`, whose parts hold
 * the `CallToolResult` (`{ functionResponse: { response: { content, isError } } }`), or, when the
 * call itself threw, `{ error: { message, isError } }`. Undefined for any other message. The call's
 * JSON is walked once to find its end (its arguments may hold the words that follow it); only the
 * response is parsed.
 */
function mcpToolError(message: string): string | undefined {
  const head = message.length <= MCP_ERROR_MAX_CHARS ? MCP_ERROR_HEAD.exec(message) : null;
  if (!head) return undefined;
  const callEnd = jsonEnd(message, head[0].length);
  if (callEnd === undefined || !message.startsWith(MCP_ERROR_RESPONSE, callEnd)) return undefined;
  const parts = jsonText(message.slice(callEnd + MCP_ERROR_RESPONSE.length));
  return Array.isArray(parts) ? partsErrorText(parts) : undefined;
}

/**
 * Where the JSON object or list that opens at `start` ends (the index after its closing bracket),
 * walking its strings and brackets once; undefined when none opens there or it never closes. Only
 * finds the end: the text is JSON that `JSON.stringify` wrote, so brackets nest as they should.
 * Strings, where most of the text is, are crossed by searching for their closing quote.
 */
function jsonEnd(text: string, start: number): number | undefined {
  const first = text[start];
  if (first !== '{' && first !== '[') return undefined;
  const structural = /["{}[\]]/g;
  structural.lastIndex = start;
  let depth = 0;
  for (let found = structural.exec(text); found !== null; found = structural.exec(text)) {
    const at = found.index;
    if (text[at] === '"') {
      const close = stringEnd(text, at + 1);
      if (close === undefined) return undefined;
      structural.lastIndex = close + 1;
    } else if (text[at] === '{' || text[at] === '[') depth += 1;
    else {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  return undefined;
}

/** The index of the quote that closes the JSON string whose text starts at `from` (one not escaped). */
function stringEnd(text: string, from: number): number | undefined {
  for (let quote = text.indexOf('"', from); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
  }
  return undefined;
}

const BACKSLASH = 0x5c;

function partsErrorText(parts: readonly unknown[]): string | undefined {
  const texts: string[] = [];
  for (const part of parts.slice(0, 16)) {
    const response =
      isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse.response : undefined;
    if (!isRecord(response)) continue;
    const mcp = mcpContent(response) ?? mcpContent(response.error);
    if (mcp && mcp.text !== '') texts.push(mcp.text);
    else if (isRecord(response.error) && typeof response.error.message === 'string') {
      texts.push(response.error.message);
    }
  }
  return texts.length > 0 ? resultText(texts.join('\n')) : undefined;
}

function json(value: unknown): HookReply {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}
