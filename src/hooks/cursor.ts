/**
 * Cursor's hooks: `preToolUse` (and the older `beforeShellExecution`, `beforeMCPExecution`,
 * `beforeReadFile`) answer `{"permission": "allow" | "deny", "agent_message", "user_message"}`;
 * `postToolUse` / `postToolUseFailure` (and the older `afterShellExecution`, `afterMCPExecution`,
 * `afterFileEdit`) report what a call did;
 * `beforeSubmitPrompt` starts a run; `stop` ends the agent's turn. State is keyed by
 * `conversation_id`, the project is found from `workspace_roots`.
 */
import { NarrowingError } from '../core/errors.js';
import type { HookAction, HookEvent, HookProtocol, HookReply, HookToolCall, HookVerdict } from './event.js';
import { type Payload, payloadObject, sessionIdField, stringField, toolInput } from './payload.js';
import { errorResult, mcpResult, responseResult } from './results.js';
import { shellOutputResult } from './shell-output.js';

const AGENT = 'cursor';
const BEFORE_EVENTS = new Set(['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile']);

export const cursorHooks: HookProtocol = {
  agent: AGENT,
  parse(value) {
    const payload = payloadObject(value, AGENT);
    const name = stringField(payload, 'hook_event_name', 64) ?? '';
    return {
      agent: AGENT,
      name,
      sessionId: sessionIdField(payload, ['conversation_id', 'session_id'], AGENT),
      workspace: workspaceOf(payload),
      action: cursorAction(name, payload),
    };
  },
  reply(event: HookEvent, verdict: HookVerdict): HookReply {
    if (BEFORE_EVENTS.has(event.name)) {
      if (verdict.type === 'deny') {
        return json({
          permission: 'deny',
          agent_message: verdict.text,
          user_message: userMessage(verdict.text),
        });
      }
      // `beforeReadFile` takes a permission only.
      if (verdict.type === 'warn' && event.name !== 'beforeReadFile') {
        return json({ permission: 'allow', agent_message: verdict.text });
      }
      return json({ permission: 'allow' });
    }
    if (event.name === 'beforeSubmitPrompt') return json({ continue: true });
    if (verdict.type !== 'none' && event.action.type === 'after-call') {
      return json({ additional_context: verdict.text });
    }
    return event.name === 'stop' ? json({}) : { stdout: '', exitCode: 0 };
  },
};

function cursorAction(name: string, payload: Payload): HookAction {
  switch (name) {
    case 'preToolUse':
      return { type: 'before-call', call: toolCall(payload) };
    case 'postToolUse':
      return {
        type: 'after-call',
        call: toolCall(payload),
        result: responseResult(payload.tool_output ?? payload.tool_response),
      };
    case 'postToolUseFailure': {
      // Refused or stopped by the user, not failed: nothing for the agent to learn.
      if (payload.failure_type === 'permission_denied' || payload.is_interrupt === true) {
        return { type: 'ignored' };
      }
      const result = errorResult(payload.error_message ?? payload.error ?? payload.failure_type);
      // Stopped by Cursor for running too long: a timeout, whatever its message says.
      const timedOut = payload.failure_type === 'timeout' && !result.ok;
      return {
        type: 'after-call',
        call: toolCall(payload),
        result: timedOut ? { ...result, timedOut } : result,
      };
    }
    case 'beforeShellExecution':
      return { type: 'before-call', call: { tool: 'Shell', input: shellInput(payload) } };
    case 'beforeMCPExecution':
      return { type: 'before-call', call: toolCall(payload) };
    // The older after-events (docs-only: cursor.com/docs/agent/hooks): a command's `output` with no
    // exit status, read for its failure lines; an MCP tool's `result_json`, a CallToolResult.
    case 'afterShellExecution':
      return {
        type: 'after-call',
        call: { tool: 'Shell', input: shellInput(payload) },
        result: shellOutputResult(stringField(payload, 'output') ?? '', stringField(payload, 'command')),
      };
    case 'afterMCPExecution':
      return { type: 'after-call', call: toolCall(payload), result: mcpResult(payload.result_json) };
    case 'beforeReadFile':
      return { type: 'before-call', call: { tool: 'Read', input: fileInput(payload) } };
    case 'afterFileEdit':
      return {
        type: 'after-call',
        call: { tool: 'Edit', input: fileInput(payload) },
        result: { ok: true, content: '' },
      };
    case 'beforeSubmitPrompt':
      return { type: 'prompt' };
    case 'sessionStart':
      return { type: 'session-start', source: 'startup' };
    case 'preCompact':
      return { type: 'compact' };
    case 'stop':
      return { type: 'stop' };
    case '':
      throw new NarrowingError('USAGE', 'the cursor hook payload has no hook_event_name');
    default:
      return { type: 'ignored' };
  }
}

function toolCall(payload: Payload): HookToolCall {
  const tool = stringField(payload, 'tool_name', 256);
  if (!tool) throw new NarrowingError('USAGE', 'the cursor hook payload of a tool event has no tool_name');
  const id = stringField(payload, 'tool_use_id', 256) ?? stringField(payload, 'tool_call_id', 256);
  return { tool, input: toolInput(payload.tool_input), ...(id && { id }) };
}

function shellInput(payload: Payload): Record<string, unknown> {
  const command = stringField(payload, 'command');
  const cwd = stringField(payload, 'cwd', 4096);
  return { ...(command !== undefined && { command }), ...(cwd !== undefined && { cwd }) };
}

function fileInput(payload: Payload): Record<string, unknown> {
  const path = stringField(payload, 'file_path', 4096);
  return path === undefined ? {} : { file_path: path };
}

function workspaceOf(payload: Payload): string | undefined {
  const roots = payload.workspace_roots;
  if (Array.isArray(roots) && typeof roots[0] === 'string') return roots[0].slice(0, 4096);
  return stringField(payload, 'cwd', 4096);
}

/** The user sees a short line; the agent reads the whole reason. */
function userMessage(text: string): string {
  const first = text.split('\n', 1)[0] ?? text;
  return first.length > 300 ? `${first.slice(0, 297)}...` : first;
}

function json(value: unknown): HookReply {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}
