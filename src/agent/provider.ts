/**
 * One model request through the AI SDK's provider interface (`LanguageModelV3`, or a
 * `LanguageModelV2` adapted by `asLanguageModelV3`), streaming or not,
 * with retries: exponential back-off with jitter on what may pass (429, honouring Retry-After;
 * 408 and 5xx; a dropped connection; a stream that breaks off), a `PROVIDER_ERROR` on anything else
 * or when the retries run out. Every stream ends with exactly one `stream-end` event, also when it
 * throws or closes without a `finish` part.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { NarrowingError } from '../core/errors.js';
import { type AgentModel, asLanguageModelV3 } from './model.js';

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ModelToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments as the model wrote them: JSON text. */
  readonly input: string;
}

export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly finishReason: FinishReason;
  readonly usage: TokenUsage;
  /** The stream closed without a `finish` part: the finish reason was inferred from the content. */
  readonly incomplete: boolean;
  /** Requests made, retries included. */
  readonly attempts: number;
}

export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  readonly maxRetries: number;
  /** The first back-off; each retry doubles it. Default 500 ms. */
  readonly baseDelayMs: number;
  /** No wait is longer; a Retry-After beyond it ends the request with an error. Default 60 s. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 60_000 };

export type StreamEndStatus = 'finished' | 'incomplete' | 'error' | 'aborted';

export type ProviderEvent =
  | { readonly type: 'request'; readonly attempt: number; readonly stream: boolean }
  | { readonly type: 'text-delta'; readonly delta: string }
  | {
      readonly type: 'stream-end';
      readonly attempt: number;
      readonly status: StreamEndStatus;
      readonly error?: string;
    }
  | {
      readonly type: 'retry';
      readonly attempt: number;
      readonly delayMs: number;
      readonly reason: string;
      readonly status?: number;
    };

export interface ProviderRunnerOptions {
  readonly stream?: boolean;
  readonly retry?: Partial<RetryOptions>;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: ProviderEvent) => void;
  /** Waits between attempts; tests pass one that does not wait. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter. Default `Math.random`. */
  readonly random?: () => number;
}

/** What went wrong with a request, and whether another attempt may succeed. */
export interface ProviderFailure {
  readonly kind: 'rate_limit' | 'server' | 'network' | 'fatal';
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly message: string;
}

/**
 * Sends `call` to `model`, retrying what may pass; throws `PROVIDER_ERROR`, or the abort reason, or
 * `MODEL_UNSUPPORTED` for a model of a version other than `v3` and `v2`.
 */
export async function requestModel(
  agentModel: AgentModel,
  call: LanguageModelV3CallOptions,
  options: ProviderRunnerOptions = {},
): Promise<ModelResponse> {
  const model = asLanguageModelV3(agentModel);
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const sleep = options.sleep ?? sleepFor;
  const random = options.random ?? Math.random;
  const emit = options.onEvent ?? (() => {});
  const stream = options.stream ?? true;
  const withSignal = options.signal ? { ...call, abortSignal: options.signal } : call;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(options.signal);
    emit({ type: 'request', attempt, stream });
    try {
      const response = stream
        ? await streamOnce(model, withSignal, attempt, emit, options.signal)
        : await generateOnce(model, withSignal);
      return { ...response, attempts: attempt };
    } catch (error) {
      throwIfAborted(options.signal);
      const failure = error instanceof StreamBroke ? error.failure : classifyProviderError(error);
      if (!failure.retryable) throw providerError(`the model request failed: ${failure.message}`, error);
      if (attempt > retry.maxRetries) {
        throw providerError(
          `the model request failed ${attempt} times, the last time with: ${failure.message}`,
          error,
        );
      }
      if (failure.retryAfterMs !== undefined && failure.retryAfterMs > retry.maxDelayMs) {
        throw providerError(
          `the provider asks to wait ${Math.ceil(failure.retryAfterMs / 1000)} s before the next request, ` +
            `longer than the ${Math.ceil(retry.maxDelayMs / 1000)} s this run waits: ${failure.message}`,
          error,
        );
      }
      const delayMs = backoff(attempt, retry, random, failure.retryAfterMs);
      emit({
        type: 'retry',
        attempt,
        delayMs,
        reason: failure.message,
        ...(failure.status !== undefined && { status: failure.status }),
      });
      await sleep(delayMs, options.signal);
    }
  }
}

/**
 * The wait before retry number `attempt`: the exponential step, half of it fixed and half jittered
 * so that many clients do not come back together, and never shorter than the provider's Retry-After.
 */
export function backoff(
  attempt: number,
  retry: RetryOptions,
  random: () => number,
  retryAfterMs?: number,
): number {
  const step = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.round(step / 2 + random() * (step / 2));
  return Math.min(retry.maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
}

const NETWORK_CODES =
  /^(ECONNRESET|ECONNREFUSED|ECONNABORTED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|UND_ERR_\w+)$/;

/**
 * From a provider's error to a decision. Structured data first (the AI SDK's `APICallError` carries
 * the status, the headers and `isRetryable`; Node's network errors a `code`), the message last.
 */
export function classifyProviderError(error: unknown): ProviderFailure {
  const message = describe(error);
  const fields = isObject(error) ? error : {};
  const status = typeof fields.statusCode === 'number' ? fields.statusCode : undefined;
  if (status !== undefined) {
    const retryAfterMs = retryAfter(fields.responseHeaders);
    const timing = retryAfterMs === undefined ? {} : { retryAfterMs };
    if (status === 429) return { kind: 'rate_limit', retryable: true, status, message, ...timing };
    if (status === 408 || status >= 500)
      return { kind: 'server', retryable: true, status, message, ...timing };
    return { kind: 'fatal', retryable: fields.isRetryable === true, status, message, ...timing };
  }
  if (isNetworkError(error)) return { kind: 'network', retryable: true, message };
  if (fields.isRetryable === true) return { kind: 'server', retryable: true, message };
  return { kind: 'fatal', retryable: false, message };
}

function isNetworkError(error: unknown, depth = 0): boolean {
  if (!isObject(error) || depth > 3) return false;
  if (typeof error.code === 'string' && NETWORK_CODES.test(error.code)) return true;
  if (error.name === 'TypeError' && /^(fetch failed|terminated)$/.test(String(error.message))) return true;
  return isNetworkError(error.cause, depth + 1);
}

/** `Retry-After` (seconds or an HTTP date) or `retry-after-ms`, in milliseconds. */
function retryAfter(headers: unknown): number | undefined {
  if (!isObject(headers)) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const ms = Number(lower['retry-after-ms']);
  if (typeof lower['retry-after-ms'] === 'string' && Number.isFinite(ms) && ms >= 0) return ms;
  const value = lower['retry-after'];
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

async function generateOnce(
  model: LanguageModelV3,
  call: LanguageModelV3CallOptions,
): Promise<Omit<ModelResponse, 'attempts'>> {
  const result = await model.doGenerate(call);
  const collected = collectContent(result.content);
  return {
    ...collected,
    finishReason: result.finishReason.unified,
    usage: tokenUsage(result.usage),
    incomplete: false,
  };
}

/** A stream that failed after it started: retried as a dropped connection unless it says otherwise. */
class StreamBroke extends Error {
  constructor(
    readonly failure: ProviderFailure,
    options: { cause: unknown },
  ) {
    super(failure.message, options);
  }
}

async function streamOnce(
  model: LanguageModelV3,
  call: LanguageModelV3CallOptions,
  attempt: number,
  emit: (event: ProviderEvent) => void,
  signal: AbortSignal | undefined,
): Promise<Omit<ModelResponse, 'attempts'>> {
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let finish: { reason: FinishReason; usage: TokenUsage } | undefined;
  let status: StreamEndStatus = 'error';
  let failure: string | undefined;
  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
  try {
    reader = (await model.doStream(call)).stream.getReader();
    for (;;) {
      const next = await reader.read().catch((error: unknown) => {
        throw brokenStream(error);
      });
      if (next.done) break;
      const part = next.value;
      if (part.type === 'text-delta') {
        text += part.delta;
        emit({ type: 'text-delta', delta: part.delta });
      } else if (part.type === 'tool-call' && !part.providerExecuted) {
        toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
      } else if (part.type === 'finish') {
        finish = { reason: part.finishReason.unified, usage: tokenUsage(part.usage) };
      } else if (part.type === 'error') {
        throw brokenStream(part.error);
      }
    }
    status = finish ? 'finished' : 'incomplete';
  } catch (error) {
    status = signal?.aborted ? 'aborted' : 'error';
    failure = describe(error);
    throw error;
  } finally {
    // A stream given up on is cancelled, so the connection under it closes too.
    if (reader && status !== 'finished' && status !== 'incomplete') reader.cancel().catch(() => {});
    reader?.releaseLock();
    emit({ type: 'stream-end', attempt, status, ...(failure !== undefined && { error: failure }) });
  }
  return {
    text,
    toolCalls,
    // Closed without a finish part: what came decides, as it would have.
    finishReason: finish?.reason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
    usage: finish?.usage ?? { inputTokens: 0, outputTokens: 0 },
    incomplete: finish === undefined,
  };
}

function brokenStream(error: unknown): StreamBroke {
  const failure = classifyProviderError(error);
  // The AI SDK names its own errors `AI_…` (a JSON part it could not parse, say): those do not pass.
  const ownError = isObject(error) && typeof error.name === 'string' && error.name.startsWith('AI_');
  const retryable = failure.retryable || !ownError;
  return new StreamBroke(
    retryable && !failure.retryable ? { ...failure, kind: 'network', retryable: true } : failure,
    { cause: error },
  );
}

function collectContent(content: readonly LanguageModelV3Content[]): {
  text: string;
  toolCalls: ModelToolCall[];
} {
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  for (const part of content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool-call' && !part.providerExecuted) {
      toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
    }
  }
  return { text, toolCalls };
}

function tokenUsage(usage: LanguageModelV3Usage): TokenUsage {
  return { inputTokens: usage.inputTokens.total ?? 0, outputTokens: usage.outputTokens.total ?? 0 };
}

function providerError(message: string, cause: unknown): NarrowingError {
  return new NarrowingError('PROVIDER_ERROR', message, { cause });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const status =
      isObject(error) && typeof error.statusCode === 'number' ? ` (HTTP ${error.statusCode})` : '';
    return `${error.message || error.name}${status}`;
  }
  if (isObject(error) && typeof error.message === 'string') return error.message;
  return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
