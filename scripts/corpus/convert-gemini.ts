/**
 * Gemini CLI sessions in Gemini CLI's own chat record, in its two forms:
 *
 * - one JSON document (`chats/session-*.json`): the session's `sessionId`, `projectHash`, times and
 *   its `messages`;
 * - JSONL, as later versions write it: a first line with the session's header (`sessionId`,
 *   `projectHash`, `startTime`, `kind`), then one line per message record, written again under the
 *   same `id` each time the message grows (the last copy stands, in the place of the first), and
 *   `{"$set": {…}}` lines that update the header; a `$set` of `messages` replaces the messages so far.
 *
 * A message is `user`, `gemini`, `info`, `error` or `warning`. A `gemini` message's `toolCalls` are
 * the model's calls, in order: `name`, `args` (kept as the model wrote them), `status` (`success`,
 * `error`, `cancelled`) and `result`, the function responses the model was given (`response.output`,
 * or `response.error` for a failure). A call the user cancelled never ran and has no result. A shell
 * call's output ends with what the shell reported (`Exit Code: N`, `Signal: …`, `Background PIDs: …`,
 * `Process Group PGID: N`) after its `Output:`; since June 2026 the output (and the text an MCP
 * tool or a fetch brought in) is wrapped in Gemini CLI's untrusted marks, read without them as the
 * hook reads them (`withoutUntrustedMarks`). The call failed when the exit code is not 0, and the
 * process numbers, different on every run, are left out of its result. A user message that holds
 * text (not the function responses Gemini CLI sends back as the user's turn, nor its own
 * `<session_context>`) is a user turn.
 */
import { withoutUntrustedMarks } from '../../src/adapters/tool-call/untrusted-marks.js';
import type { CallEvent, TraceEvent, TraceResult } from '../../src/trace/types.js';
import {
  clip,
  type ConvertedRun,
  convertedRun,
  isObject,
  type JsonObject,
  type RunSource,
  secondsSince,
  text,
} from './events.js';

const SHELL_TOOL = 'run_shell_command';
const SYSTEM_TEXT = /^\s*<session_context>/;
const OUTPUT_HEAD = /^Output:[ \t]?\n?/;
const TRAILER = /^(?:Exit Code|Signal|Background PIDs|Process Group PGID): .*$/;
const EXIT_CODE = /^Exit Code: (-?\d+)\s*$/m;

/** A session's messages, each the last copy written under its id, in the order they first came. */
export function chatMessages(record: string): JsonObject[] {
  const whole = parseObject(record.trim());
  if (whole && Array.isArray(whole.messages)) return whole.messages.filter(isObject);
  const messages = new Map<string, JsonObject>();
  let unnamed = 0;
  for (const raw of record.split('\n')) {
    const line = parseObject(raw.trim());
    if (!line) continue;
    if (isObject(line.$set)) {
      if (Array.isArray(line.$set.messages)) {
        messages.clear();
        for (const message of line.$set.messages.filter(isObject)) messages.set(keyOf(message, unnamed++), message);
      }
      continue;
    }
    if (typeof line.type !== 'string') continue;
    messages.set(keyOf(line, unnamed++), line);
  }
  return [...messages.values()];
}

function keyOf(message: JsonObject, unnamed: number): string {
  return typeof message.id === 'string' && message.id !== '' ? `id:${message.id}` : `#${unnamed}`;
}

function parseObject(raw: string): JsonObject | undefined {
  if (!raw.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a transcript is Gemini CLI's chat record: its header names the session and its project. */
export function isGeminiChat(record: string): boolean {
  const first = record.trimStart().split('\n', 1)[0] ?? '';
  const header = parseObject(first.trim()) ?? parseObject(record.trim());
  return (
    header !== undefined &&
    typeof header.sessionId === 'string' &&
    (typeof header.projectHash === 'string' || Array.isArray(header.messages))
  );
}

/** What a shell call's output says: the text it printed and the exit code the shell reported. */
export function shellOutput(output: string): { readonly body: string; readonly exitCode?: number } {
  const lines = output.replace(OUTPUT_HEAD, '').split('\n');
  while (lines.length > 0 && TRAILER.test(lines[lines.length - 1] ?? '')) lines.pop();
  const body = lines.join('\n');
  const exit = EXIT_CODE.exec(output);
  return exit ? { body, exitCode: Number(exit[1]) } : { body };
}

function responseOf(call: JsonObject): { readonly output?: string; readonly error?: string } {
  const parts = Array.isArray(call.result) ? call.result.filter(isObject) : [];
  const outputs: string[] = [];
  const errors: string[] = [];
  for (const part of parts) {
    const response = isObject(part.functionResponse) ? part.functionResponse.response : undefined;
    if (!isObject(response)) continue;
    if (response.error !== undefined) errors.push(withoutUntrustedMarks(text(response.error)));
    else if (response.output !== undefined) outputs.push(withoutUntrustedMarks(text(response.output)));
    else outputs.push(text(response));
  }
  return {
    ...(outputs.length > 0 && { output: outputs.join('\n') }),
    ...(errors.length > 0 && { error: errors.join('\n') }),
  };
}

function callResult(call: JsonObject, tool: string): TraceResult | undefined {
  if (call.status === 'cancelled') return undefined;
  const response = responseOf(call);
  const shown = typeof call.resultDisplay === 'string' ? call.resultDisplay : '';
  if (call.status === 'error' || response.error !== undefined) {
    return { isError: true, content: clip(response.error ?? response.output ?? shown) };
  }
  const output = response.output ?? shown;
  if (tool !== SHELL_TOOL) return { content: clip(output) };
  const { body, exitCode } = shellOutput(output);
  if (exitCode === undefined || exitCode === 0) return { content: clip(body) };
  return { isError: true, content: clip(body.trim() === '' ? `Exit Code: ${exitCode}` : body) };
}

function userText(message: JsonObject): string | undefined {
  const parts = Array.isArray(message.content) ? message.content : [message.content];
  const texts = parts
    .map((part) => (typeof part === 'string' ? part : isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((part) => part.trim() !== '');
  const body = texts.join('\n');
  return body === '' || SYSTEM_TEXT.test(body) ? undefined : body;
}

function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const at = Date.parse(value) / 1000;
  return Number.isFinite(at) ? at : undefined;
}

/** Converts one Gemini CLI session (its chat record, JSON or JSONL) to the trace format. */
export function convertGeminiChat(record: string, source: RunSource, name: string, description: string): ConvertedRun {
  const events: TraceEvent[] = [];
  let start: number | undefined;
  for (const message of chatMessages(record)) {
    start ??= timeOf(message.timestamp);
    if (message.type === 'user') {
      const body = userText(message);
      if (body !== undefined) events.push({ type: 'user', text: clip(body) });
      continue;
    }
    if (message.type !== 'gemini' || !Array.isArray(message.toolCalls)) continue;
    for (const call of message.toolCalls.filter(isObject)) {
      const tool = text(call.name);
      if (tool === '') continue;
      const args = isObject(call.args) ? call.args : {};
      const outcome = callResult(call, tool);
      const t = secondsSince(start, timeOf(call.timestamp) ?? timeOf(message.timestamp));
      const event: CallEvent = {
        type: 'call',
        tool,
        args,
        ...(outcome !== undefined && { result: outcome }),
        ...(t !== undefined && { t }),
      };
      events.push(event);
    }
  }
  return convertedRun(name, description, source, events, { [SHELL_TOOL]: 'exec' });
}
