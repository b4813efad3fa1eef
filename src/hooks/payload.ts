/**
 * Reading an agent's hook payload, which the model controls in part: every field is checked for its
 * type and cut to a bound before the guard sees it.
 */
import { NarrowingError } from '../core/errors.js';

/** The most a hook reads from stdin. */
export const MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;
/** Tool results are learned from by their head and tail; the middle of a huge output says nothing more. */
const MAX_RESULT_CHARS = 64 * 1024;
const RESULT_TAIL_CHARS = 16 * 1024;
const MAX_STRING_CHARS = 64 * 1024;
const MAX_ID_CHARS = 256;
const MAX_DEPTH = 8;
const MAX_KEYS = 256;

export type Payload = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The payload as an object, or a `USAGE` error naming the agent whose payload it should be. */
export function payloadObject(value: unknown, agent: string): Payload {
  if (!isRecord(value)) {
    throw new NarrowingError('USAGE', `the ${agent} hook payload on stdin must be a JSON object`);
  }
  return value;
}

/** A string field, cut to `max` characters; undefined when absent or of another type. */
export function stringField(payload: Payload, key: string, max = MAX_STRING_CHARS): string | undefined {
  const value = payload[key];
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

/** The session id, required: state across processes is keyed by it. */
export function sessionIdField(payload: Payload, keys: readonly string[], agent: string): string {
  for (const key of keys) {
    const value = stringField(payload, key, MAX_ID_CHARS);
    if (value) return value;
  }
  throw new NarrowingError(
    'USAGE',
    `the ${agent} hook payload has no ${keys.join(' or ')}: is this hook installed for the right agent?`,
  );
}

/** The tool's arguments as a bounded copy: an object, or a JSON string of one (older Cursor). */
export function toolInput(value: unknown): Readonly<Record<string, unknown>> {
  let input = value;
  if (typeof value === 'string') {
    try {
      input = JSON.parse(value.slice(0, MAX_PAYLOAD_BYTES));
    } catch {
      return { input: value.slice(0, MAX_STRING_CHARS) };
    }
  }
  if (!isRecord(input)) return input === undefined || input === null ? {} : { input: bounded(input, 0) };
  return bounded(input, 0) as Record<string, unknown>;
}

function bounded(value: unknown, depth: number): unknown {
  if (typeof value === 'string')
    return value.length > MAX_STRING_CHARS ? value.slice(0, MAX_STRING_CHARS) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.slice(0, MAX_KEYS).map((item) => bounded(item, depth + 1));
  const out: Record<string, unknown> = {};
  let keys = 0;
  for (const key of Object.keys(value)) {
    if (keys++ >= MAX_KEYS) break;
    out[key] = bounded((value as Record<string, unknown>)[key], depth + 1);
  }
  return out;
}

/** A tool's response as text: strings as they are, anything else as JSON, head and tail kept. */
export function resultText(value: unknown): string {
  let text: string;
  if (value === undefined || value === null) text = '';
  else if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? '';
    } catch {
      text = String(value);
    }
  }
  if (text.length <= MAX_RESULT_CHARS) return text;
  const head = text.slice(0, MAX_RESULT_CHARS - RESULT_TAIL_CHARS);
  return `${head}\n[… ${text.length - MAX_RESULT_CHARS} characters left out …]\n${text.slice(-RESULT_TAIL_CHARS)}`;
}

/** An MCP tool's name in narrowing's form (`mcp__server__tool`), from the agent's own spelling. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}
