/**
 * What a finished call returned, from the shapes agents report it in: a plain string, an object
 * with an error (`error`, `is_error`, `success: false`, a non-zero exit code), or anything else.
 */
import type { HookToolResult } from './event.js';
import { isRecord, MAX_PAYLOAD_BYTES, resultText } from './payload.js';

const EXIT_CODE_KEYS = ['exit_code', 'exitCode', 'returncode'] as const;

/** A successful response unless the response itself says it failed. */
export function responseResult(response: unknown): HookToolResult {
  const content = resultText(response);
  if (!isRecord(response)) return { ok: true, content };
  const error = response.error;
  if (typeof error === 'string' && error !== '') return { ok: false, error: resultText(error), content };
  if (isRecord(error)) {
    const message = typeof error.message === 'string' ? error.message : resultText(error);
    return { ok: false, error: resultText(message), content };
  }
  if (response.is_error === true || response.isError === true || response.success === false) {
    return { ok: false, error: content };
  }
  for (const key of EXIT_CODE_KEYS) {
    const code = response[key];
    if (typeof code === 'number' && code !== 0) return { ok: false, error: `Exit code ${code}\n${content}` };
  }
  return { ok: true, content };
}

/** A failure reported as an error message. */
export function errorResult(error: unknown): HookToolResult {
  const text = resultText(error);
  return { ok: false, error: text === '' ? 'the tool call failed' : text };
}

/**
 * An MCP tool's `CallToolResult`, as an object or as its JSON text (Cursor's `result_json`): its
 * text parts joined, a failure when `isError` says so.
 */
export function mcpResult(value: unknown): HookToolResult {
  let result = value;
  if (typeof value === 'string') {
    try {
      result = JSON.parse(value.slice(0, MAX_PAYLOAD_BYTES));
    } catch {
      return { ok: true, content: resultText(value) };
    }
  }
  if (!isRecord(result) || !Array.isArray(result.content)) return responseResult(result);
  const texts: string[] = [];
  for (const part of result.content.slice(0, 256)) {
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
  }
  const content = resultText(
    texts.length > 0 ? texts.join('\n') : (result.structuredContent ?? result.content),
  );
  return result.isError === true ? { ok: false, error: content, content } : { ok: true, content };
}
