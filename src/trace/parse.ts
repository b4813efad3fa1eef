import { ACTION_KINDS, type ActionKind, type ToolAnnotations } from '../core/types.js';
import { TraceError } from './errors.js';
import {
  type CallEvent,
  type CompactEvent,
  type McpContent,
  type MetaEvent,
  type ToolInfo,
  TRACE_EVENT_TYPES,
  type TraceEvent,
  type TraceResult,
} from './types.js';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** A field with the wrong shape; the line parser adds the line number. */
class FieldError extends Error {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (isObject(value)) return 'an object';
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function optionalString(object: Json, field: string, where: string): string | undefined {
  const value = object[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw new FieldError(`${where}${field} must be a string (got ${describeValue(value)})`);
  return value;
}

/** Ids are compared, never computed with: a number id is kept as its decimal string. */
function optionalId(object: Json, field: string, where: string): string | undefined {
  const value = object[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') {
    throw new FieldError(`${where}${field} must be a string or a number (got ${describeValue(value)})`);
  }
  return value;
}

function optionalBoolean(object: Json, field: string, where: string): boolean | undefined {
  const value = object[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw new FieldError(`${where}${field} must be true or false (got ${describeValue(value)})`);
  return value;
}

function readAnnotations(value: unknown, where: string): ToolAnnotations | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new FieldError(`${where} must be an object (got ${describeValue(value)})`);
  const annotations: Record<string, unknown> = {};
  const title = optionalString(value, 'title', `${where}.`);
  if (title !== undefined) annotations.title = title;
  for (const hint of HINTS) {
    const flag = optionalBoolean(value, hint, `${where}.`);
    if (flag !== undefined) annotations[hint] = flag;
  }
  const own = value.narrowing;
  if (own !== undefined && own !== null) {
    if (!isObject(own))
      throw new FieldError(`${where}.narrowing must be an object (got ${describeValue(own)})`);
    const kind = own.kind;
    if (kind !== undefined && !ACTION_KINDS.includes(kind as ActionKind)) {
      const allowed = ACTION_KINDS.map((name) => `"${name}"`).join(', ');
      throw new FieldError(`${where}.narrowing.kind must be one of ${allowed} (got ${describeValue(kind)})`);
    }
    const freeText = own.freeText;
    if (
      freeText !== undefined &&
      (!Array.isArray(freeText) || freeText.some((field) => typeof field !== 'string'))
    ) {
      throw new FieldError(
        `${where}.narrowing.freeText must be a list of argument names (got ${describeValue(freeText)})`,
      );
    }
    annotations.narrowing = {
      ...(kind !== undefined && { kind }),
      ...(freeText !== undefined && { freeText: (freeText as string[]).slice(0, 64) }),
    };
  }
  return annotations as ToolAnnotations;
}

function readTools(value: unknown): ToolInfo[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new FieldError(`tools must be a list (got ${describeValue(value)})`);
  return value.map((entry, index) => {
    const where = `tools[${index}]`;
    if (!isObject(entry)) throw new FieldError(`${where} must be an object (got ${describeValue(entry)})`);
    if (typeof entry.name !== 'string' || entry.name === '') {
      throw new FieldError(`${where}.name must be a non-empty string (got ${describeValue(entry.name)})`);
    }
    const tool: { -readonly [K in keyof ToolInfo]: ToolInfo[K] } = { name: entry.name };
    const description = optionalString(entry, 'description', `${where}.`);
    if (description !== undefined) tool.description = description;
    const annotations = readAnnotations(entry.annotations, `${where}.annotations`);
    if (annotations) tool.annotations = annotations;
    if (entry.inputSchema !== undefined) tool.inputSchema = entry.inputSchema;
    return tool;
  });
}

function readContent(value: unknown): string | McpContent[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) {
    throw new FieldError(
      `result.content must be a string or a list of MCP content items (got ${describeValue(value)})`,
    );
  }
  // Checked item by item and kept as parsed: the list is the line's own, nobody else holds it.
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    if (!isObject(item) || typeof item.type !== 'string') {
      throw new FieldError(
        `result.content[${index}] must be an MCP content item with a "type" (got ${describeValue(item)})`,
      );
    }
    if (item.type === 'text' && typeof item.text !== 'string') {
      throw new FieldError(
        `result.content[${index}].text must be a string (got ${describeValue(item.text)})`,
      );
    }
  }
  return value as McpContent[];
}

function readResult(value: unknown): TraceResult | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new FieldError(`result must be an object (got ${describeValue(value)})`);
  const result: { -readonly [K in keyof TraceResult]: TraceResult[K] } = {};
  const isError = optionalBoolean(value, 'isError', 'result.');
  if (isError !== undefined) result.isError = isError;
  const content = readContent(value.content);
  if (content !== undefined) result.content = content;
  const error = optionalString(value, 'error', 'result.');
  if (error !== undefined) result.error = error;
  if (value.meta !== undefined && value.meta !== null) {
    if (!isObject(value.meta))
      throw new FieldError(`result.meta must be an object (got ${describeValue(value.meta)})`);
    result.meta = value.meta;
  }
  return result;
}

function readCall(object: Json): CallEvent {
  if (typeof object.tool !== 'string' || object.tool === '') {
    throw new FieldError(`a call needs "tool", the tool's name (got ${describeValue(object.tool)})`);
  }
  if (!isObject(object.args)) {
    throw new FieldError(`a call needs "args", an object of arguments (got ${describeValue(object.args)})`);
  }
  const call: { -readonly [K in keyof CallEvent]: CallEvent[K] } = {
    type: 'call',
    tool: object.tool,
    args: object.args,
  };
  const result = readResult(object.result);
  if (result !== undefined) call.result = result;
  if (object.t !== undefined && object.t !== null) {
    if (typeof object.t !== 'number' || !Number.isFinite(object.t) || object.t < 0) {
      throw new FieldError(`t must be a number of seconds of at least 0 (got ${describeValue(object.t)})`);
    }
    call.t = object.t;
  }
  const id = optionalId(object, 'id', '');
  if (id !== undefined) call.id = id;
  const turn = optionalId(object, 'turn', '');
  if (turn !== undefined) call.turn = turn;
  const agent = optionalId(object, 'agent', '');
  if (agent !== undefined && agent !== '') call.agent = agent;
  // Only `true` marks a call; any other value says nothing (unknown values are ignored).
  if (object.coalesced === true) call.coalesced = true;
  return call;
}

function readMeta(object: Json): MetaEvent {
  const meta: { -readonly [K in keyof MetaEvent]: MetaEvent[K] } = { type: 'meta' };
  const name = optionalString(object, 'name', '');
  if (name !== undefined) meta.name = name;
  const description = optionalString(object, 'description', '');
  if (description !== undefined) meta.description = description;
  const tools = readTools(object.tools);
  if (tools !== undefined) meta.tools = tools;
  if (object.expect !== undefined) meta.expect = object.expect;
  return meta;
}

function readCompact(object: Json): CompactEvent {
  const calls = object.calls;
  if (calls === undefined || calls === null) return { type: 'compact' };
  if (!Array.isArray(calls)) {
    throw new FieldError(`calls must be a list of call ids (got ${describeValue(calls)})`);
  }
  const ids = calls.map((id, index) => {
    if (typeof id === 'number' && Number.isFinite(id)) return String(id);
    if (typeof id !== 'string' || id === '') {
      throw new FieldError(`calls[${index}] must be the id of an earlier call (got ${describeValue(id)})`);
    }
    return id;
  });
  return { type: 'compact', calls: ids };
}

function readEvent(object: Json): TraceEvent {
  switch (object.type) {
    case 'call':
      return readCall(object);
    case 'meta':
      return readMeta(object);
    case 'session': {
      const id = optionalId(object, 'id', '');
      return id === undefined ? { type: 'session' } : { type: 'session', id };
    }
    case 'user': {
      const text = optionalString(object, 'text', '');
      return text === undefined ? { type: 'user' } : { type: 'user', text };
    }
    case 'compact':
      return readCompact(object);
    default: {
      const known = TRACE_EVENT_TYPES.map((type) => `"${type}"`).join(', ');
      if (object.type === undefined) throw new FieldError(`every event needs a "type": one of ${known}`);
      throw new FieldError(`unknown event type ${describeValue(object.type)} (known types: ${known})`);
    }
  }
}

/**
 * Reads a trace one line at a time, so that a file of any size can be streamed. Blank lines and
 * `//` comments are skipped; anything else that is wrong is a `TraceError` naming the line.
 */
export interface TraceReadOptions {
  /**
   * Told about lines that are read but look wrong, such as a `t` earlier than the one before
   * (replay keeps the later time). Each warning names its line.
   */
  readonly onWarning?: (warning: TraceError) => void;
  /**
   * The longest line a trace file may hold, in bytes (default 64 MiB): a longer one is a
   * `TraceError` naming it, found before more than this much of it is held in memory.
   */
  readonly maxLineBytes?: number;
}

export class TraceLineParser {
  private lineNumber = 0;
  private seenEvent = false;
  private lastT = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly source?: string,
    private readonly options: TraceReadOptions = {},
  ) {}

  /** The event on the next line, or `undefined` for a blank or comment line. */
  next(rawLine: string): TraceEvent | undefined {
    this.lineNumber++;
    let line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (this.lineNumber === 1 && line.startsWith('\uFEFF')) line = line.slice(1);
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('//')) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      const reason = (error as Error).message.split('\n')[0];
      throw new TraceError(`not valid JSON (${reason})`, this.lineNumber, this.source);
    }
    if (!isObject(parsed)) {
      throw new TraceError(
        `an event must be a JSON object (got ${describeValue(parsed)})`,
        this.lineNumber,
        this.source,
      );
    }
    let event: TraceEvent;
    try {
      event = readEvent(parsed);
    } catch (error) {
      if (error instanceof FieldError) {
        const prefix = typeof parsed.type === 'string' && TRACE_EVENT_TYPES.includes(parsed.type as never);
        const detail = prefix ? `${parsed.type} event: ${error.message}` : error.message;
        throw new TraceError(detail, this.lineNumber, this.source);
      }
      throw error;
    }
    if (event.type === 'meta' && this.seenEvent) {
      throw new TraceError('a meta event must come before every other event', this.lineNumber, this.source);
    }
    this.seenEvent = true;
    if (event.type === 'call' && event.t !== undefined) {
      if (event.t < this.lastT) {
        this.options.onWarning?.(
          new TraceError(
            `t goes backwards (${event.t} after ${this.lastT}): the call is replayed at ${this.lastT}, ` +
              'as time never runs backwards',
            this.lineNumber,
            this.source,
          ),
        );
      } else {
        this.lastT = event.t;
      }
    }
    return event;
  }
}

/** Parses a whole trace held in memory. Throws `TraceError` for the first line that is wrong. */
export function parseTrace(text: string, source?: string, options: TraceReadOptions = {}): TraceEvent[] {
  const parser = new TraceLineParser(source, options);
  const events: TraceEvent[] = [];
  for (const line of text.split('\n')) {
    const event = parser.next(line);
    if (event) events.push(event);
  }
  return events;
}
