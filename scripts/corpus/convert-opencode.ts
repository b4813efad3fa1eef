/**
 * OpenCode sessions as `opencode export` writes one (and as the Entire CLI keeps an OpenCode session's
 * transcript): one JSON document, the session's `info` (`id`, `time.created`…) and its `messages`,
 * each an `info` (`role`: `user` or `assistant`) and its `parts`.
 *
 * A user message's `text` parts, other than the ones OpenCode writes itself (`synthetic`), are a user
 * turn. An assistant message's `tool` parts are the model's calls, in order: `tool` (its name),
 * `callID`, and `state`: `status` (`completed`, `error`, `pending`, `running`), `input` (the arguments
 * as the model wrote them), `output` or `error`, and `time.start`. A completed call answered its
 * output; a shell call (`bash`) failed when its `metadata.exit` is not 0. A call whose status is
 * `error` failed with that error, except one the user stopped (`Tool execution aborted`), which has
 * no result, as a call that never ran or never finished (`pending`, `running`). A message holding a
 * `compaction` part is a compaction. Steps, reasoning, text and the patches OpenCode records beside an edit are no calls.
 */
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

const SHELL_TOOL = 'bash';
const ABORTED = /^\s*Tool execution aborted\b/;

/** The exported session, or undefined when the text is not one. */
export function openCodeSession(record: string): JsonObject | undefined {
  const trimmed = record.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return isObject(parsed) && isObject(parsed.info) && Array.isArray(parsed.messages) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a transcript is an exported OpenCode session: a session `info` beside its `messages`. */
export function isOpenCodeSession(record: string): boolean {
  return openCodeSession(record) !== undefined;
}

function seconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value / 1000 : undefined;
}

function callResult(tool: string, state: JsonObject): TraceResult | undefined {
  if (state.status === 'error') {
    const error = text(state.error);
    return ABORTED.test(error) ? undefined : { isError: true, content: clip(error) };
  }
  if (state.status !== 'completed') return undefined;
  const output = text(state.output);
  const metadata = isObject(state.metadata) ? state.metadata : {};
  const exit = metadata.exit;
  if (tool === SHELL_TOOL && typeof exit === 'number' && exit !== 0) {
    return { isError: true, content: clip(output.trim() === '' ? `Exit code ${exit}` : output) };
  }
  return { content: clip(output) };
}

function userText(parts: readonly JsonObject[]): string | undefined {
  const body = parts
    .filter((part) => part.type === 'text' && part.synthetic !== true && typeof part.text === 'string')
    .map((part) => part.text as string)
    .filter((part) => part.trim() !== '')
    .join('\n');
  return body === '' ? undefined : body;
}

/** Converts one exported OpenCode session to the trace format. */
export function convertOpenCodeSession(
  record: string,
  source: RunSource,
  name: string,
  description: string,
): ConvertedRun {
  const session = openCodeSession(record);
  const events: TraceEvent[] = [];
  if (!session) return convertedRun(name, description, source, events, { [SHELL_TOOL]: 'exec' });
  const info = session.info as JsonObject;
  const start = seconds(isObject(info.time) ? info.time.created : undefined);
  for (const message of (session.messages as unknown[]).filter(isObject)) {
    const role = isObject(message.info) ? message.info.role : undefined;
    const parts = Array.isArray(message.parts) ? message.parts.filter(isObject) : [];
    if (parts.some((part) => part.type === 'compaction')) events.push({ type: 'compact' });
    if (role === 'user') {
      const body = userText(parts);
      if (body !== undefined) events.push({ type: 'user', text: clip(body) });
      continue;
    }
    if (role !== 'assistant') continue;
    for (const part of parts) {
      if (part.type !== 'tool' || typeof part.tool !== 'string' || part.tool === '') continue;
      const state = isObject(part.state) ? part.state : {};
      const outcome = callResult(part.tool, state);
      const t = secondsSince(start, seconds(isObject(state.time) ? state.time.start : undefined));
      const event: CallEvent = {
        type: 'call',
        tool: part.tool,
        args: isObject(state.input) ? state.input : {},
        ...(outcome !== undefined && { result: outcome }),
        ...(t !== undefined && { t }),
      };
      events.push(event);
    }
  }
  return convertedRun(name, description, source, events, { [SHELL_TOOL]: 'exec' });
}
