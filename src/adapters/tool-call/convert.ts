/**
 * From whatever a tool-calling loop has in hand (a name, arguments, an MCP result, a thrown error)
 * to the engine's `Proposal` and `Outcome`.
 */
import type { Mutable, Outcome, Proposal, ToolAnnotations } from '../../core/types.js';
import { isRecord } from './action-classes.js';
import { parseRetryAfter } from './signatures.js';

export interface ToolCallExtras {
  readonly annotations?: ToolAnnotations;
  readonly inputSchema?: unknown;
  readonly step?: string | number;
  readonly callId?: string;
}

export interface ToolOutcomeExtras extends ToolCallExtras {
  readonly durationMs?: number;
  readonly tokens?: number;
  readonly costUsd?: number;
  readonly score?: number;
  /** HTTP status of the transport, when the caller knows it. */
  readonly status?: number;
  readonly retryAfterSeconds?: number;
}

/**
 * Arguments as an object. A JSON string (OpenAI function-call arguments) is parsed; any other value
 * is kept under `input` (Codex's free-form `apply_patch`).
 */
function argumentsOf(args: unknown): Readonly<Record<string, unknown>> {
  if (isRecord(args)) return args;
  if (typeof args === 'string') {
    const trimmed = args.trim();
    if (trimmed.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (isRecord(parsed)) return parsed;
      } catch {
        // Not JSON after all: keep the text as it is.
      }
    }
  }
  return args === undefined || args === null ? {} : { input: args };
}

export function toolCallToProposal(toolName: string, args: unknown, extras: ToolCallExtras = {}): Proposal {
  const proposal: { -readonly [K in keyof Proposal]: Proposal[K] } = {
    tool: toolName,
    args: argumentsOf(args),
  };
  if (extras.annotations !== undefined) proposal.annotations = extras.annotations;
  if (extras.inputSchema !== undefined) proposal.inputSchema = extras.inputSchema;
  if (extras.step !== undefined) proposal.step = extras.step;
  if (extras.callId !== undefined) proposal.callId = extras.callId;
  return proposal;
}

type MutableOutcome = Mutable<Outcome>;

/**
 * `result` may be an MCP `CallToolResult`, a plain string (success), an `Error` (failure), or
 * `{ error }` (failure). Anything else is a successful result, kept as JSON.
 */
export function toolCallToOutcome(
  toolName: string,
  args: unknown,
  result: unknown,
  extras: ToolOutcomeExtras = {},
): Outcome {
  const outcome: MutableOutcome = { proposal: toolCallToProposal(toolName, args, extras), success: true };
  readResult(outcome, result);
  if (extras.status !== undefined) outcome.status = extras.status;
  if (extras.retryAfterSeconds !== undefined) outcome.retryAfterSeconds = extras.retryAfterSeconds;
  if (extras.durationMs !== undefined) outcome.durationMs = extras.durationMs;
  if (extras.tokens !== undefined) outcome.tokens = extras.tokens;
  if (extras.costUsd !== undefined) outcome.costUsd = extras.costUsd;
  if (extras.score !== undefined) outcome.score = extras.score;
  return outcome;
}

function readResult(outcome: MutableOutcome, result: unknown): void {
  if (result === undefined || result === null) {
    outcome.content = '';
  } else if (typeof result === 'string') {
    outcome.content = result;
  } else if (result instanceof Error) {
    readError(outcome, result);
  } else if (isRecord(result) && Array.isArray(result.content)) {
    readCallToolResult(outcome, result);
  } else if (
    isRecord(result) &&
    result.error !== undefined &&
    result.error !== null &&
    result.error !== false
  ) {
    outcome.success = false;
    outcome.error = errorMessage(result.error);
    if (typeof result.content === 'string') outcome.content = result.content;
  } else if (isRecord(result) && typeof result.content === 'string') {
    outcome.content = result.content;
  } else {
    outcome.content = safeJson(result);
  }
}

function readError(outcome: MutableOutcome, error: Error): void {
  outcome.success = false;
  outcome.error = error.message || error.name;
  if (error.name && error.name !== 'Error') outcome.exceptionName = error.name;
  const details = error as Error & {
    code?: unknown;
    status?: unknown;
    statusCode?: unknown;
    cause?: unknown;
    headers?: unknown;
  };
  // `fetch failed` hides the socket error in `cause`.
  const cause = isRecord(details.cause) ? details.cause : undefined;
  const code = details.code ?? cause?.code;
  if (typeof code === 'string' || typeof code === 'number') outcome.errorCode = String(code);
  const status = details.status ?? details.statusCode;
  if (typeof status === 'number' && Number.isInteger(status)) outcome.status = status;
  const headers = details.headers;
  if (isRecord(headers)) {
    const retryAfter = headers['retry-after'] ?? headers['Retry-After'];
    if (typeof retryAfter === 'string' || typeof retryAfter === 'number') {
      const seconds = parseRetryAfter(`retry-after: ${retryAfter}`);
      if (seconds !== undefined) outcome.retryAfterSeconds = seconds;
    }
  }
}

function readCallToolResult(outcome: MutableOutcome, result: Readonly<Record<string, unknown>>): void {
  const texts: string[] = [];
  for (const item of result.content as unknown[]) {
    const text = contentText(item);
    if (text !== undefined) texts.push(text);
  }
  let content = texts.join('\n');
  const hasText = (result.content as unknown[]).some((item) => isRecord(item) && item.type === 'text');
  if (!hasText && result.structuredContent !== undefined) {
    const structured = safeJson(result.structuredContent);
    content = content === '' ? structured : `${content}\n${structured}`;
  }
  outcome.content = content;
  if (result.isError === true) {
    outcome.success = false;
  }
  if (isRecord(result._meta)) outcome.meta = result._meta;
}

/** Text items as they are; anything else as its type and size, so the digest sees it without its bytes. */
function contentText(item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? item.text : undefined;
    case 'image':
    case 'audio':
      return `[${item.type} ${typeof item.mimeType === 'string' ? item.mimeType : 'unknown'}, ${base64Bytes(item.data)} bytes]`;
    case 'resource': {
      const resource = isRecord(item.resource) ? item.resource : {};
      const uri = typeof resource.uri === 'string' ? resource.uri : '';
      if (typeof resource.text === 'string') return `[resource ${uri}]\n${resource.text}`;
      return `[resource ${uri}, ${base64Bytes(resource.blob)} bytes]`;
    }
    case 'resource_link':
      return `[resource_link ${typeof item.uri === 'string' ? item.uri : ''}]`;
    default:
      return `[${typeof item.type === 'string' ? item.type : 'unknown'}]`;
  }
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function errorMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return safeJson(error);
}

function safeJson(value: unknown): string {
  try {
    return (
      JSON.stringify(value, (_key, inner) => (typeof inner === 'bigint' ? inner.toString() : inner)) ?? ''
    );
  } catch {
    return String(Object.prototype.toString.call(value));
  }
}
