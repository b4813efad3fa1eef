/**
 * Codex's rollout file (`transcript_path`, `~/.codex/sessions/…/rollout-….jsonl`) as evidence of how
 * a command ended, which Codex's `PostToolUse` payload leaves out: there `tool_response` is the bare,
 * truncated output (`ExecCommandToolOutput::post_tool_use_response` in codex-rs
 * `core/src/tools/context.rs`).
 *
 * What the rollout holds when `PostToolUse` fires: the call's `function_call_output` is recorded only
 * after the hooks have run, since a hook may change it (codex-rs `rollout/src/policy.rs`, `hooks/src/
 * events/post_tool_use.rs`). Codex 0.171 writes, before the hooks run, an `item_completed` event
 * whose `item` (`CommandExecution` with `exit_code` and `status`, `FileChange` with `status`) has the
 * call id as its `id`, in the default persistence mode (recorded from a run of codex-cli 0.171.0);
 * a command left running in the background gets it when it ends, and its `PostToolUse` then comes
 * with the call id of the command that started it. Versions before wrote only, in the extended
 * persistence mode, an `exec_command_end` event (with `exit_code`) or `patch_apply_end` (with
 * `success`). Where neither is there, the output's own failure lines are the evidence (see
 * `shell-output.ts`).
 *
 * The file is read backwards from its end, a chunk at a time, only as far as the event needs (the
 * line that records the call, the last call Codex reported) and at most `MAX_TAIL_BYTES`, never
 * through a symbolic link, and only when it is a regular file: its path comes from the payload. One
 * event reads it once (`withCodexRollout`), whichever of the two it needs.
 */
import { isAbsolute } from 'node:path';
import { hostToolKind } from '../adapters/tool-call/host-tools.js';
import { codexHeader } from '../adapters/tool-call/shell-framing.js';
import { type LinesFromEndOptions, linesFromEnd } from '../node/lines-from-end.js';
import type { HookEvent, HookToolCall, HookToolResult } from './event.js';
import { isRecord, mcpToolName, resultText, toolInput } from './payload.js';
import { errorResult } from './results.js';

/** The most read of a rollout, from its end: the current call is among its last lines. */
export const MAX_TAIL_BYTES = 512 * 1024;
/** Lines longer than this (in bytes) are skipped unread. */
const MAX_LINE_BYTES = 256 * 1024;
const MAX_CALL_ID_CHARS = 256;

/** How a call ended, by the rollout. */
export interface RolloutStatus {
  readonly exitCode?: number;
  readonly failed: boolean;
}

/** How the rollout is read; tests set a smaller chunk and watch what is read. */
export type RolloutReading = Pick<LinesFromEndOptions, 'chunkBytes' | 'onChunk'> & {
  readonly maxBytes?: number;
};

/** The rollout's lines, last first, as far as the caller goes; nothing when it cannot be read. */
async function* rolloutLines(path: string, reading: RolloutReading = {}): AsyncGenerator<string> {
  try {
    yield* linesFromEnd(path, {
      maxBytes: reading.maxBytes ?? MAX_TAIL_BYTES,
      maxLineBytes: MAX_LINE_BYTES,
      ...(reading.chunkBytes !== undefined && { chunkBytes: reading.chunkBytes }),
      ...(reading.onChunk !== undefined && { onChunk: reading.onChunk }),
    });
  } catch {
    // No such file, not readable: the rollout says nothing.
  }
}

/**
 * The exit status the rollout at `path` records for the call `callId`, or undefined when it has
 * none (not written yet, not kept, no such call, no such file, not a regular file, a symbolic link).
 * Read back from the end until the call's status is found. Never throws.
 */
export async function readRolloutStatus(
  path: string,
  callId: string,
  reading: RolloutReading = {},
): Promise<RolloutStatus | undefined> {
  if (!isAbsolute(path) || callId === '' || callId.length > MAX_CALL_ID_CHARS) return undefined;
  for await (const line of rolloutLines(path, reading)) {
    if (!line.includes(callId)) continue;
    const status = statusOfLine(line, callId);
    if (status) return status;
  }
  return undefined;
}

/**
 * What the rollout adds to one Codex event, read once: before a call, the failures Codex reported
 * to no hook since the last call it did report (`earlier`, to be learned first, as they are: they
 * need no more reading); after a command or a patch whose payload left out its exit status, the
 * event with its result completed from the rollout. Any other event comes back as it is, with
 * nothing read. Meant for the hook helper (in the process that keeps the guard open) and for a hook
 * process that handles its event itself. Never throws.
 */
export async function withCodexRollout(
  event: HookEvent,
  reading: RolloutReading = {},
): Promise<{ readonly earlier: readonly HookEvent[]; readonly event: HookEvent }> {
  if (event.agent !== 'codex' || event.transcriptPath === undefined) return { earlier: [], event };
  if (event.action.type === 'before-call') {
    return { earlier: await unreportedFailures(event, event.transcriptPath, reading), event };
  }
  return { earlier: [], event: await completedFromRollout(event, event.transcriptPath, reading) };
}

/**
 * The event with its result completed from the rollout, when it is a Codex command or patch whose
 * exit status the payload left out and the rollout records; otherwise the event itself.
 */
async function completedFromRollout(
  event: HookEvent,
  path: string,
  reading: RolloutReading,
): Promise<HookEvent> {
  const { action } = event;
  if (action.type !== 'after-call') return event;
  const { call, result } = action;
  if (call.id === undefined || result.exitCode !== undefined) return event;
  if (hostToolKind('codex', call.tool) !== 'exec' && call.tool !== PATCH_TOOL) return event;
  const status = await readRolloutStatus(path, call.id, reading);
  if (status === undefined) return event;
  return { ...event, action: { ...action, result: withStatus(result, status) } };
}

function withStatus(result: HookToolResult, status: RolloutStatus): HookToolResult {
  const content = result.content ?? (result.ok ? '' : result.error);
  const exitCode = status.exitCode !== undefined ? { exitCode: status.exitCode } : {};
  if (!status.failed) return { ok: true, content, ...exitCode };
  return { ok: false, error: result.ok ? content : result.error, content, ...exitCode };
}

/** The most unreported failures taken from one rollout: the latest streak of them, not a history. */
const MAX_UNREPORTED = 16;
/** Items of calls Codex reports to its hooks: the streak of unreported failures ends at one. */
const REPORTED_ITEMS: ReadonlySet<string> = new Set(['CommandExecution', 'McpToolCall', 'FileChange']);
/**
 * How Codex words a patch it refused while reading it, before applying anything (codex-rs
 * `core/src/tools/handlers/apply_patch.rs`: a patch that does not parse or does not match the files,
 * a shell-quoted input it cannot read, an input that is no patch). Each is the agent's: the same
 * patch is refused again. Any other output (a call a `PreToolUse` hook denied, one the user
 * declined) is not taken for such a refusal.
 */
const PATCH_REFUSALS: readonly string[] = [
  'apply_patch verification failed',
  'apply_patch handler received invalid patch input',
  'apply_patch handler received non-apply_patch input',
];
const PATCH_TOOL = 'apply_patch';
/**
 * The shell tool whose failures Codex reports to no hook: `shell_command` (the shell tool where
 * unified exec is off, as on Windows by default) returns a command's non-zero exit as an error of
 * its handler (codex-rs `core/src/tools/events.rs`, `ToolEmitter::finish`), so no `PostToolUse` runs.
 * Its hooks name it `Bash` with `tool_input { command }`, the `command` of its arguments.
 */
const SHELL_COMMAND_TOOL = 'shell_command';
/** The tool name Codex gives every shell tool in its hook payloads. */
const HOOK_SHELL_TOOL = 'Bash';
/** Where a shell tool's command ran, by its `CommandExecution` item: `agent` for `shell_command`. */
const SHELL_COMMAND_SOURCE = 'agent';
/** How Codex opens the output of a command it stopped at its timeout (then `Exit code: 124`). */
const CODEX_TIMED_OUT = /^command timed out after \d+ milliseconds/;

/** Codex's refusal of a patch, when `output` (a recorded call output) is one. */
function patchRefusal(output: unknown): string | undefined {
  if (typeof output !== 'string') return undefined;
  return PATCH_REFUSALS.some((words) => output.startsWith(words)) ? output : undefined;
}

/**
 * The patch of a recorded `apply_patch` call: the freeform tool's `custom_tool_call` carries it as
 * `input`; the JSON tool's `function_call` (the models that take tools as JSON) as the `input` of its
 * `arguments`. It is the `tool_input.command` the call's `PreToolUse` had.
 */
function patchOfCall(call: Readonly<Record<string, unknown>>): string | undefined {
  if (call.name !== PATCH_TOOL) return undefined;
  if (call.type === 'custom_tool_call') return typeof call.input === 'string' ? call.input : undefined;
  if (call.type !== 'function_call' || typeof call.arguments !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return isRecord(parsed) && typeof parsed.input === 'string' ? parsed.input : undefined;
  } catch {
    // Arguments that are not JSON: Codex builds no PreToolUse for them, so there is no call to meet.
    return undefined;
  }
}

/**
 * Failed calls Codex reported to no hook (`earlier` of `withCodexRollout`), as the `PostToolUse`
 * events they would have been, oldest first: codex-cli 0.171 runs no `PostToolUse` for an MCP tool whose result is an error, nor for a
 * patch it refused while reading it, nor for a `shell_command` that exited non-zero (the shell tool
 * where unified exec is off; a timeout among them is read as one) (any error a tool's handler
 * returns fires no `PostToolUse`:
 * codex-rs `core/src/tools/registry.rs` runs it only for a call that succeeded); its rollout records
 * them (an `item_completed` whose `McpToolCall` item has `status: "failed"`, the patch's
 * `custom_tool_call_output` or `function_call_output` with the refusal, see `PATCH_REFUSALS`, the
 * command's `function_call_output` with its exit code, after its `CommandExecution` item). A
 * call whose arguments are not JSON, or of a tool Codex does not have, fires no `PreToolUse` either
 * (its hook input is built from the parsed arguments; an unknown tool is answered before the hooks):
 * no retry of it could be checked, so it is not taken. Read before a Codex call is checked, so
 * that a retry of a failed call meets what the failure taught. Only the latest streak is taken:
 * reading back from the end, it stops at the first call Codex did report (a command, an answered
 * MCP call, an applied patch), and reads no further back, so what an earlier event learned is not
 * learned again and the reading is as long as the streak, not the file; the session's `firstTime`
 * keeps any call id from being learned twice. Never throws.
 */
async function unreportedFailures(
  event: HookEvent,
  path: string,
  reading: RolloutReading,
): Promise<HookEvent[]> {
  if (event.action.type !== 'before-call' || !isAbsolute(path)) return [];
  const current = event.action.call.id;
  const found: { readonly call: HookToolCall; readonly result: HookToolResult }[] = [];
  /** Patches refused, by call id, waiting for the line of the call itself (written before). */
  const refused = new Map<string, string>();
  /** Commands that exited non-zero, by call id, waiting for the line of the call itself. */
  const exited = new Map<string, HookToolResult>();
  for await (const line of rolloutLines(path, reading)) {
    if (found.length >= MAX_UNREPORTED) break;
    const item = line.includes('"item_completed"') ? completedItem(line) : undefined;
    if (item !== undefined) {
      if (item.type === 'McpToolCall' && item.status === 'failed') {
        const failure = mcpFailure(item);
        if (failure && failure.call.id !== current) found.push(failure);
      } else if (
        item.type === 'CommandExecution' &&
        item.source === SHELL_COMMAND_SOURCE &&
        typeof item.id === 'string' &&
        exited.has(item.id)
      ) {
        // A `shell_command` that failed: reported to no hook; its call, further back, says which.
      } else if (REPORTED_ITEMS.has(String(item.type))) break;
      // Anything else (the model's messages and reasoning, a user's message) is no call.
      continue;
    }
    if (line.includes(`"${PATCH_TOOL} `) && line.includes('_call_output"')) {
      const output = payloadOf(line);
      const type = output?.type;
      if (type === 'custom_tool_call_output' || type === 'function_call_output') {
        const refusal = patchRefusal(output?.output);
        if (typeof output?.call_id === 'string' && refusal !== undefined)
          refused.set(output.call_id, refusal);
      }
      continue;
    }
    if (line.includes('"function_call_output"')) {
      const output = payloadOf(line);
      const result = output?.type === 'function_call_output' ? exitedResult(output.output) : undefined;
      if (typeof output?.call_id === 'string' && result !== undefined) exited.set(output.call_id, result);
      continue;
    }
    if (exited.size > 0 && line.includes(`"${SHELL_COMMAND_TOOL}"`)) {
      const call = payloadOf(line);
      const result = typeof call?.call_id === 'string' ? exited.get(call.call_id) : undefined;
      const command = call && result !== undefined ? shellCommandOfCall(call) : undefined;
      if (call && result !== undefined && command !== undefined) {
        exited.delete(call.call_id as string);
        if (call.call_id !== current) {
          found.push({
            call: { tool: HOOK_SHELL_TOOL, input: toolInput({ command }), id: call.call_id as string },
            result,
          });
        }
      }
      continue;
    }
    if (refused.size > 0 && line.includes('_call"')) {
      const call = payloadOf(line);
      const error = typeof call?.call_id === 'string' ? refused.get(call.call_id) : undefined;
      const patch = call && error !== undefined ? patchOfCall(call) : undefined;
      if (call && error !== undefined && patch !== undefined) {
        refused.delete(call.call_id as string);
        if (call.call_id !== current) {
          found.push({
            call: { tool: PATCH_TOOL, input: toolInput({ command: patch }), id: call.call_id as string },
            result: { ok: false, error: resultText(error), content: resultText(error) },
          });
        }
      }
    }
  }
  return found.reverse().map(({ call, result }) => ({
    agent: event.agent,
    name: 'PostToolUse',
    sessionId: event.sessionId,
    workspace: event.workspace,
    ...(event.transcriptPath !== undefined && { transcriptPath: event.transcriptPath }),
    action: { type: 'after-call', call, result },
  }));
}

/**
 * The failure a recorded shell output tells, when the command exited non-zero (see `shellOutput`).
 * A command Codex stopped at its timeout is a timeout. Undefined otherwise.
 */
function exitedResult(output: unknown): HookToolResult | undefined {
  if (typeof output !== 'string') return undefined;
  const shell = shellOutput(output);
  if (shell === undefined || shell.exitCode === 0) return undefined;
  const text = resultText(shell.output);
  const timedOut = CODEX_TIMED_OUT.test(text);
  return { ok: false, error: text, content: text, exitCode: shell.exitCode, ...(timedOut && { timedOut }) };
}

/**
 * A recorded shell output's exit code and the command's own output, read once: the shell tool's
 * JSON `{ output, metadata: { exit_code } }`, or a text with Codex's `Exit code: N` / `Process
 * exited with code N` header over the output. Undefined for any other text.
 */
function shellOutput(output: string): { readonly exitCode: number; readonly output: string } | undefined {
  if (output.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(output);
      if (isRecord(parsed) && isRecord(parsed.metadata) && typeof parsed.metadata.exit_code === 'number') {
        const text = typeof parsed.output === 'string' ? parsed.output : output;
        return { exitCode: parsed.metadata.exit_code, output: text };
      }
    } catch {
      // Not the shell tool's JSON: read as text.
    }
  }
  return codexHeader(output);
}

/** The `command` of a recorded `shell_command` call: the `tool_input.command` of its `PreToolUse`. */
function shellCommandOfCall(call: Readonly<Record<string, unknown>>): string | undefined {
  if (call.type !== 'function_call' || call.name !== SHELL_COMMAND_TOOL) return undefined;
  if (typeof call.arguments !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(call.arguments);
    return isRecord(parsed) && typeof parsed.command === 'string' ? parsed.command : undefined;
  } catch {
    return undefined;
  }
}

/** A rollout line's `payload`, when it is an object. */
function payloadOf(line: string): Readonly<Record<string, unknown>> | undefined {
  try {
    const entry: unknown = JSON.parse(line);
    return isRecord(entry) && isRecord(entry.payload) ? entry.payload : undefined;
  } catch {
    return undefined;
  }
}

/** The item of an `item_completed` line. */
function completedItem(line: string): Readonly<Record<string, unknown>> | undefined {
  const payload = payloadOf(line);
  return payload?.type === 'item_completed' && isRecord(payload.item) ? payload.item : undefined;
}

/** A failed `McpToolCall` item as the call and the failure a `PostToolUse` would have reported. */
function mcpFailure(
  item: Readonly<Record<string, unknown>>,
): { readonly call: HookToolCall; readonly result: HookToolResult } | undefined {
  const { id, server, tool } = item;
  if (typeof id !== 'string' || typeof server !== 'string' || typeof tool !== 'string') return undefined;
  if (id === '' || id.length > MAX_CALL_ID_CHARS) return undefined;
  const error =
    isRecord(item.error) && typeof item.error.message === 'string' ? item.error.message : undefined;
  const failed =
    item.result !== undefined && item.result !== null ? errorResult(item.result) : errorResult(error);
  if (failed.ok) return undefined;
  return {
    call: {
      tool: mcpToolName(server.slice(0, 128), tool.slice(0, 128)),
      input: toolInput(item.arguments),
      id,
    },
    result: { ok: false, error: failed.error, content: failed.error },
  };
}

/** A rollout line's word on the call, if it is about it. */
function statusOfLine(line: string, callId: string): RolloutStatus | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(entry) || !isRecord(entry.payload)) return undefined;
  const { payload } = entry;
  if (payload.type === 'item_completed') {
    return isRecord(payload.item) && payload.item.id === callId ? itemStatus(payload.item) : undefined;
  }
  if (payload.call_id !== callId) return undefined;
  switch (payload.type) {
    case 'exec_command_end':
      return typeof payload.exit_code === 'number'
        ? { exitCode: payload.exit_code, failed: payload.exit_code !== 0 }
        : undefined;
    case 'patch_apply_end':
      return typeof payload.success === 'boolean' ? { failed: !payload.success } : undefined;
    case 'function_call_output':
    case 'custom_tool_call_output':
      return outputStatus(payload.output);
    default:
      return undefined;
  }
}

/**
 * A finished item's status: a command's (`CommandExecution`) `exit_code` and `status`, a patch's
 * (`FileChange`) `status`, `completed` or `failed`. Anything else (declined, still running) says
 * nothing.
 */
function itemStatus(item: Readonly<Record<string, unknown>>): RolloutStatus | undefined {
  if (typeof item.exit_code === 'number' && Number.isInteger(item.exit_code)) {
    return { exitCode: item.exit_code, failed: item.exit_code !== 0 };
  }
  if (item.status === 'failed') return { failed: true };
  if (item.status === 'completed') return { failed: false };
  return undefined;
}

/**
 * A recorded output's exit status: `{"output", "metadata": {"exit_code"}}` (the shell tool), a
 * text with Codex's `Exit code: N` / `Process exited with code N` header (exec), or an object with
 * `success: false`.
 */
function outputStatus(output: unknown): RolloutStatus | undefined {
  if (isRecord(output)) {
    if (typeof output.content === 'string') return outputStatus(output.content);
    if (output.success === false) return { failed: true };
    return undefined;
  }
  if (typeof output !== 'string') return undefined;
  const shell = shellOutput(output);
  return shell ? { exitCode: shell.exitCode, failed: shell.exitCode !== 0 } : undefined;
}
