/**
 * Claude Code's hooks: `PreToolUse` can deny a call (`permissionDecision: "deny"` with the reason
 * Claude reads) or add context; `PostToolUse` and `PostToolUseFailure` report what a call did;
 * `UserPromptSubmit`, `SessionStart`, `PreCompact`/`PostCompact` and `Stop` mark runs and sessions.
 */
import { type HostAgent, hostToolKind } from '../adapters/tool-call/host-tools.js';
import { NarrowingError } from '../core/errors.js';
import type { HookAction, HookEvent, HookProtocol, HookReply, HookToolResult, HookVerdict } from './event.js';
import {
  isRecord,
  type Payload,
  payloadObject,
  resultText,
  sessionIdField,
  stringField,
  toolInput,
} from './payload.js';
import { errorResult, responseResult } from './results.js';

export interface ClaudeStyleOptions {
  /** The agent reports a failed call with its own `PostToolUseFailure` event. */
  readonly failureEvent: boolean;
  /** How the agent's `PostToolUse` `tool_response` says what a call returned (default: `responseResult`). */
  readonly readResponse?: (tool: string, response: unknown) => HookToolResult;
}

/** A protocol in Claude Code's shape, for Claude Code itself and for the agents that copied it. */
export function claudeStyleHooks(agent: HostAgent, options: ClaudeStyleOptions): HookProtocol {
  return {
    agent,
    parse(value) {
      const payload = payloadObject(value, agent);
      const name = stringField(payload, 'hook_event_name', 64) ?? '';
      const session = sessionIdField(payload, ['session_id'], agent);
      // A subagent's calls are its own: they keep their own streaks under the same learned constraints.
      const agentId = stringField(payload, 'agent_id', 128);
      const transcriptPath = stringField(payload, 'transcript_path', 4096);
      return {
        agent,
        name,
        sessionId: agentId ? `${session}/${agentId}` : session,
        workspace: stringField(payload, 'cwd', 4096),
        ...(transcriptPath && { transcriptPath }),
        action: claudeStyleAction(name, payload, agent, options),
      };
    },
    reply: replyAsClaudeCode,
  };
}

export const claudeCodeHooks: HookProtocol = claudeStyleHooks('claude-code', { failureEvent: true });

function claudeStyleAction(
  name: string,
  payload: Payload,
  agent: HostAgent,
  options: ClaudeStyleOptions,
): HookAction {
  switch (name) {
    case 'PreToolUse':
      return { type: 'before-call', call: toolCall(payload) };
    case 'PostToolUse': {
      const call = toolCall(payload);
      // An edit held for the owner's review instead of written: nothing changed, nothing to learn.
      if (heldForReview(agent, call.tool, payload.tool_response)) return { type: 'ignored' };
      // A command Claude Code stopped: by the user (nothing to learn), or at its timeout (never narrows);
      // or one still running in the background, which has not ended yet.
      const stopped =
        hostToolKind(agent, call.tool) === 'exec' ? stoppedCommand(payload.tool_response) : undefined;
      if (stopped === 'by-user' || stopped === 'running') return { type: 'ignored' };
      if (stopped !== undefined) return { type: 'after-call', call, result: stopped };
      const read = options.readResponse ?? ((_tool: string, response: unknown) => responseResult(response));
      return { type: 'after-call', call, result: read(call.tool, payload.tool_response) };
    }
    case 'PostToolUseFailure':
      if (!options.failureEvent) return { type: 'ignored' };
      // Interrupted by the user: the call did not finish, so it teaches nothing.
      if (payload.is_interrupt === true) return { type: 'ignored' };
      return { type: 'after-call', call: toolCall(payload), result: failureResult(payload.error) };
    case 'UserPromptSubmit':
      return { type: 'prompt' };
    case 'SessionStart':
      return sessionStart(stringField(payload, 'source', 32));
    case 'PreCompact':
    case 'PostCompact':
      return { type: 'compact' };
    case 'Stop':
      return { type: 'stop' };
    case '':
      throw new NarrowingError('USAGE', `the ${agent} hook payload has no hook_event_name`);
    default:
      return { type: 'ignored' };
  }
}

/**
 * Whether a built-in edit's response says it was held for review rather than written: Claude Code's
 * `Edit` and `Write` answer `staged: true` then, the file unchanged (`FileEditOutput` and
 * `FileWriteOutput` in the Agent SDK's `sdk-tools.d.ts`).
 */
function heldForReview(agent: HostAgent, tool: string, response: unknown): boolean {
  if (!isRecord(response) || response.staged !== true) return false;
  const kind = hostToolKind(agent, tool);
  return kind === 'mutate' || kind === 'create';
}

/** The words Claude Code puts before what a command it stopped at its timeout printed (`ShellCommand`). */
const TIMED_OUT = /^Command timed out after\b/;

/**
 * How Claude Code stopped a command, by `Bash`'s response (`BashOutput` in the Agent SDK's
 * `sdk-tools.d.ts`): `interrupted: true` when Claude Code killed it because the call was aborted
 * (the user pressed Esc, the turn was cancelled), which teaches nothing; `timedOutAfterMs` when the
 * command ran past its timeout and was moved to the background, or a stderr opening with "Command
 * timed out after …" (versions that killed it there), which is a timeout; `backgroundTaskId` alone
 * when it runs on in the background (`run_in_background`, or the user moved it there), and an
 * `Agent` answer whose `status` says the subagent was launched to run on its own (`async_launched`,
 * `remote_launched`): `running`, not ended, so neither a success nor a failure yet. Undefined for a
 * command that ended by itself.
 */
function stoppedCommand(response: unknown): 'by-user' | 'running' | HookToolResult | undefined {
  if (!isRecord(response)) return undefined;
  const stderr = typeof response.stderr === 'string' ? response.stderr : '';
  const stdout = typeof response.stdout === 'string' ? response.stdout : '';
  const timedOutAfter = response.timedOutAfterMs;
  const timedOut =
    (typeof timedOutAfter === 'number' && Number.isFinite(timedOutAfter)) ||
    (response.interrupted === true && TIMED_OUT.test(stderr));
  if (timedOut) {
    const said = resultText([stderr, stdout].filter((text) => text !== '').join('\n'));
    const error = said !== '' ? said : `Command timed out after ${Math.round(Number(timedOutAfter) / 1000)}s`;
    return { ok: false, error, content: said, timedOut: true };
  }
  if (response.interrupted === true) return 'by-user';
  if (typeof response.backgroundTaskId === 'string' && response.backgroundTaskId !== '') return 'running';
  // A subagent launched to run on its own (`AgentOutput`): its work has not ended either.
  return response.status === 'async_launched' || response.status === 'remote_launched'
    ? 'running'
    : undefined;
}

/** Claude Code's Bash error opens with the exit status: `Exit code 1\n<what the command printed>`. */
const EXIT_CODE_LINE = /^Exit code (\d{1,3})(?:\n|$)/;

/** A `PostToolUseFailure` error, with a command's exit status taken out of its text. */
function failureResult(error: unknown): HookToolResult {
  const result = errorResult(error);
  if (result.ok) return result;
  const status = EXIT_CODE_LINE.exec(result.error);
  if (!status) return result;
  const output = result.error.slice(status[0].length);
  const exitCode = Number(status[1]);
  // Killed at its timeout (SIGTERM, exit 143): Claude Code says so before what the command printed.
  if (TIMED_OUT.test(output)) return { ok: false, error: output, exitCode, timedOut: true };
  return { ok: false, error: output.trim() === '' ? result.error : output, exitCode };
}

/** Claude Code's `SessionStart` sources (Codex uses the same ones). */
function sessionStart(source: string | undefined): HookAction {
  if (source === 'compact') return { type: 'compact' };
  if (source === 'resume') return { type: 'session-start', source: 'resume' };
  if (source === 'clear') return { type: 'session-start', source: 'clear' };
  return { type: 'session-start', source: 'startup' };
}

function toolCall(payload: Payload) {
  const tool = stringField(payload, 'tool_name', 256);
  if (!tool) throw new NarrowingError('USAGE', 'the hook payload of a tool event has no tool_name');
  const id = stringField(payload, 'tool_use_id', 256);
  return { tool, input: toolInput(payload.tool_input), ...(id && { id }) };
}

/** Claude Code's answer; Codex reads the same fields and rejects the same things narrowing never sends. */
export function replyAsClaudeCode(event: HookEvent, verdict: HookVerdict): HookReply {
  if (verdict.type === 'none') return { stdout: '', exitCode: 0 };
  if (event.action.type === 'before-call') {
    const output =
      verdict.type === 'deny'
        ? { permissionDecision: 'deny', permissionDecisionReason: verdict.text }
        : { additionalContext: verdict.text };
    return json({ hookSpecificOutput: { hookEventName: event.name, ...output } });
  }
  if (event.action.type === 'after-call' || event.action.type === 'prompt' || event.name === 'SessionStart') {
    return json({ hookSpecificOutput: { hookEventName: event.name, additionalContext: verdict.text } });
  }
  return { stdout: '', exitCode: 0 };
}

function json(value: unknown): HookReply {
  return { stdout: `${JSON.stringify(value)}\n`, exitCode: 0 };
}
