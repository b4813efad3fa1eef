/**
 * Gemini CLI sessions in Gemini CLI's own chat record, in its two forms:
 *
 * - one JSON document (`chats/session-*.json`): the session's `sessionId`, `projectHash`, times and
 *   its `messages`;
 * - JSONL, as versions from 0.39 (April 2026) write it (`chats/session-*.jsonl`): a first line with
 *   the session's header (`sessionId`, `projectHash`, `startTime`, `kind`), then one line per message
 *   record, written again under the same `id` each time the message grows (the last copy stands, in
 *   the place of the first), `{"$set": {…}}` lines that update the header, and `{"$rewindTo": id}`
 *   lines where the user rewound the conversation to before that message. A `$set` of `messages` is a
 *   checkpoint of the conversation as the model then sees it (after a compression, a cancelled turn or
 *   a masking of old tool output): Gemini CLI reloads only it, but the calls it leaves out, like the
 *   calls a rewind takes back, ran, so they stay, and a message it restates keeps its recorded copy
 *   (with the output the call first answered, not the masked one). Resuming a `.json` session writes
 *   a `.jsonl` beside it that starts with a copy of the whole record, so the `.jsonl` supersedes it.
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
 * `<session_context>`, nor the prompts it sends itself to make the model go on: `Please continue.`
 * when it judges the model has more to say, and `System: Please continue.` after an empty or broken
 * answer in versions before 0.42, both in the user's place and under the same prompt id, so that its
 * `BeforeAgent` hook does not fire for them) is a user turn. A compression records its summary (`<state_snapshot>`) as a
 * user message, then the turns it keeps again as new messages, up to its checkpoint: the summary is a
 * compaction, as the hook's `PreCompress` reports it, and the turns restated after it (up to the
 * checkpoint, or a message with calls, which is the model's again) are neither user turns nor calls.
 *
 * Gemini CLI masks old tool output once the conversation holds a lot of it: the answer of an older
 * call is replaced, in what the model is sent and in the JSON record, by a short preview inside
 * `<tool_output_masked>` with the path of a file holding the whole. The model no longer has that
 * answer, so it is taken out of the agent's context: a compaction naming that call's id. The JSON
 * Lines record says when, by a checkpoint that restates the call masked: the compaction comes there.
 * The JSON record is rewritten, so it says which answers were masked but not when: the compaction
 * comes at the latest moment it can matter, just before the agent asks the same call again.
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
const CONTINUATION = /^\s*(?:System: )?Please continue\.\s*$/;
const COMPRESSION_SUMMARY = /^\s*<state_snapshot>/;
const OUTPUT_HEAD = /^Output:[ \t]?\n?/;
const TRAILER = /^(?:Exit Code|Signal|Background PIDs|Process Group PGID): .*$/;
const EXIT_CODE = /^Exit Code: (-?\d+)\s*$/m;
const MASKED_OUTPUT = /^\s*<tool_output_masked>/;

/** A message of a session, and whether it only restates turns a compression kept. */
export interface ChatEntry {
  readonly message: JsonObject;
  readonly restated: boolean;
  /**
   * The ids of earlier calls whose output a checkpoint before this message restated masked: the
   * model no longer had those answers from there on.
   */
  readonly maskedBefore?: readonly string[];
}

/** A session's messages, each the last copy written under its id, in the order they first came. */
export function chatMessages(record: string): JsonObject[] {
  return chatEntries(record).map((entry) => entry.message);
}

/** A session's messages as `chatMessages` gives them, each with whether it only restates turns. */
export function chatEntries(record: string): ChatEntry[] {
  const whole = parseObject(record.trim());
  if (whole && Array.isArray(whole.messages)) {
    return whole.messages.filter(isObject).map((message) => ({ message, restated: false }));
  }
  const entries = new Map<string, ChatEntry>();
  let unnamed = 0;
  let compressing = false;
  /** Calls a checkpoint restated masked, until the next new message. */
  let masked: string[] = [];
  for (const raw of record.split('\n')) {
    const line = parseObject(raw.trim());
    if (!line) continue;
    if (isObject(line.$set)) {
      if (!Array.isArray(line.$set.messages)) continue;
      // A checkpoint: what it restates keeps its recorded copy, and what it leaves out ran.
      for (const message of line.$set.messages.filter(isObject)) {
        const key = keyOf(message, unnamed++);
        const recorded = entries.get(key);
        if (!recorded) entries.set(key, { message, restated: true });
        else masked.push(...newlyMasked(recorded.message, message));
      }
      compressing = false;
      continue;
    }
    if (typeof line.type !== 'string') continue;
    if (isCompressionSummary(line)) compressing = true;
    // Gemini CLI writes the kept turns again without their calls: a message with calls is the model's.
    else if (Array.isArray(line.toolCalls)) compressing = false;
    const key = keyOf(line, unnamed++);
    const restated = compressing && !isCompressionSummary(line);
    const earlier = entries.get(key);
    const maskedBefore = earlier === undefined && masked.length > 0 ? masked : earlier?.maskedBefore;
    if (earlier === undefined) masked = [];
    entries.set(key, {
      message: line,
      restated: earlier?.restated ?? restated,
      ...(maskedBefore !== undefined && { maskedBefore }),
    });
  }
  return [...entries.values()];
}

/** The ids of the calls of a recorded message whose output a checkpoint's copy of it holds masked. */
function newlyMasked(recorded: JsonObject, restated: JsonObject): string[] {
  if (!Array.isArray(recorded.toolCalls) || !Array.isArray(restated.toolCalls)) return [];
  const maskedIds = new Set(
    restated.toolCalls.filter(isObject).filter(wasMasked).map((call) => text(call.id)),
  );
  return recorded.toolCalls
    .filter(isObject)
    .filter((call) => maskedIds.has(text(call.id)) && text(call.id) !== '' && !wasMasked(call))
    .map((call) => text(call.id));
}

function isCompressionSummary(message: JsonObject): boolean {
  return message.type === 'user' && COMPRESSION_SUMMARY.test(textOf(message));
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

/** Whether Gemini CLI replaced the call's answer by its masking preview. */
function wasMasked(call: JsonObject): boolean {
  const { output } = responseOf(call);
  return output !== undefined && MASKED_OUTPUT.test(output);
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

function textOf(message: JsonObject): string {
  const parts = Array.isArray(message.content) ? message.content : [message.content];
  return parts
    .map((part) => (typeof part === 'string' ? part : isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((part) => part.trim() !== '')
    .join('\n');
}

function userText(message: JsonObject): string | undefined {
  const body = textOf(message);
  return body === '' || SYSTEM_TEXT.test(body) || CONTINUATION.test(body) ? undefined : body;
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
  /** Calls whose answer Gemini CLI masked, by what they asked, until the agent asks it again. */
  const masked = new Map<string, string[]>();
  let maskedCalls = 0;
  /** Where each call of the record is among the events, by its id in the record. */
  const callAt = new Map<string, number>();
  for (const { message, restated, maskedBefore } of chatEntries(record)) {
    const hidden = (maskedBefore ?? []).flatMap((recordId) => {
      const at = callAt.get(recordId);
      const event = at === undefined ? undefined : events[at];
      if (at === undefined || event?.type !== 'call') return [];
      const id = event.id ?? `masked-${++maskedCalls}`;
      events[at] = { ...event, id };
      return [id];
    });
    if (hidden.length > 0) events.push({ type: 'compact', calls: hidden });
    start ??= timeOf(message.timestamp);
    if (isCompressionSummary(message)) {
      if (events.at(-1)?.type !== 'compact') events.push({ type: 'compact' });
      continue;
    }
    if (restated) continue;
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
      const asked = JSON.stringify([tool, args]);
      const hidden = masked.get(asked);
      if (hidden !== undefined) {
        events.push({ type: 'compact', calls: hidden });
        masked.delete(asked);
      }
      const id = wasMasked(call) ? `masked-${++maskedCalls}` : undefined;
      const event: CallEvent = {
        type: 'call',
        tool,
        args,
        ...(outcome !== undefined && { result: outcome }),
        ...(t !== undefined && { t }),
        ...(id !== undefined && { id }),
      };
      events.push(event);
      if (id !== undefined) masked.set(asked, [...(masked.get(asked) ?? []), id]);
      else if (text(call.id) !== '') callAt.set(text(call.id), events.length - 1);
    }
  }
  return convertedRun(name, description, source, events, { [SHELL_TOOL]: 'exec' });
}

/**
 * The chat records of a source worth reading: a `.json` record whose session was resumed under a
 * newer version is left out for the `.jsonl` beside it, which starts with a copy of it.
 */
export function currentChatRecords(paths: readonly string[]): string[] {
  const listed = new Set(paths);
  return paths.filter((path) => !(path.endsWith('.json') && listed.has(`${path}l`)));
}

/** A chat record's path and text, as a source holds it. */
export interface ChatRecordFile {
  readonly path: string;
  readonly content: string;
}

/**
 * One record per conversation where a source holds copies of it (a backup folder and the folder it
 * was copied to, or a record copied again as it grew). A conversation is named by its header's
 * `sessionId` and `startTime` together: Gemini CLI starts a new record under the same session id
 * after `/clear` and for a subagent, and those are conversations of their own. Of the copies, the one
 * with the most messages wins, then the one written last (its `lastUpdated`, or its last message's
 * time), then the first in path order; the winners keep their order. A record without a session id
 * is kept as it is.
 */
export function onePerSession(records: readonly ChatRecordFile[]): ChatRecordFile[] {
  const chosen = new Map<string, { readonly index: number; readonly length: number; readonly last: number }>();
  records.forEach((record, index) => {
    const header = headerOf(record.content);
    if (header === undefined || typeof header.sessionId !== 'string') return;
    const key = `${header.sessionId}\u0000${typeof header.startTime === 'string' ? header.startTime : ''}`;
    const messages = chatMessages(record.content);
    const last = Math.max(
      timeOf(header.lastUpdated) ?? Number.NEGATIVE_INFINITY,
      ...messages.map((message) => timeOf(message.timestamp) ?? Number.NEGATIVE_INFINITY),
    );
    const copy = { index, length: messages.length, last };
    const best = chosen.get(key);
    if (!best || copy.length > best.length || (copy.length === best.length && copy.last > best.last)) {
      chosen.set(key, copy);
    }
  });
  const winners = new Set([...chosen.values()].map((copy) => copy.index));
  return records.filter((record, index) => {
    const header = headerOf(record.content);
    return header === undefined || typeof header.sessionId !== 'string' || winners.has(index);
  });
}

/** A chat record's header: the whole JSON document, or a JSONL record's first line. */
function headerOf(record: string): JsonObject | undefined {
  return parseObject(record.trim()) ?? parseObject((record.trimStart().split('\n', 1)[0] ?? '').trim());
}
