import type { CallToolResult } from '@modelcontextprotocol/client';

/** A `tools/call` result read by hand, or why it is not one. */
export type ToolResultCheck =
  | { readonly ok: true; readonly result: CallToolResult }
  | { readonly ok: false; readonly message: string };

/** More content blocks than this is not a result any client meant to read: it is refused, not walked. */
export const MAX_CONTENT_BLOCKS = 100_000;

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

/** Dropped on the way in, as the SDK's 2025-era codec drops it: it belongs to the 2026 era's wire. */
const RESULT_TYPE_KEY = 'resultType';

/**
 * Checks a server's answer to `tools/call` for what the proxy reads and relays, without walking
 * schemas: an object whose `content` (an empty list when absent, as the SDK reads it) is a bounded
 * list of blocks of a known type, text blocks with text; `structuredContent` and `_meta` objects
 * when present; `isError` a boolean when present. A text block loses members the SDK does not
 * know, as it does through the SDK; the rest of the result, and the other kinds of block, reach the
 * client as the server sent them, for the client to read. Everything the SDK's
 * schema accepts is accepted; it reads at most three levels deep, and never throws.
 */
export function checkToolResult(raw: unknown): ToolResultCheck {
  if (!isPlainObject(raw)) return invalid('the result is not an object');
  const { content, structuredContent, isError, _meta } = raw;
  if (content !== undefined) {
    const why = contentProblem(content);
    if (why) return invalid(why);
  }
  if (structuredContent !== undefined && !isPlainObject(structuredContent)) {
    return invalid('structuredContent is not an object');
  }
  if (isError !== undefined && typeof isError !== 'boolean') return invalid('isError is not a boolean');
  if (_meta !== undefined && !isPlainObject(_meta)) return invalid('_meta is not an object');
  const plainContent = content === undefined ? [] : withPlainTextBlocks(content as unknown[]);
  if (plainContent === content && !(RESULT_TYPE_KEY in raw))
    return { ok: true, result: raw as CallToolResult };
  const result: Record<string, unknown> = { content: plainContent, ...raw };
  result.content = plainContent;
  delete result[RESULT_TYPE_KEY];
  return { ok: true, result: result as CallToolResult };
}

function contentProblem(content: unknown): string | undefined {
  if (!Array.isArray(content)) return 'content is not a list';
  if (content.length > MAX_CONTENT_BLOCKS) return `content has more than ${MAX_CONTENT_BLOCKS} blocks`;
  for (let index = 0; index < content.length; index += 1) {
    const block: unknown = content[index];
    if (!isPlainObject(block) || typeof block.type !== 'string' || !CONTENT_TYPES.has(block.type)) {
      return `content[${index}] is not a content block`;
    }
    if (block.type === 'text' && typeof block.text !== 'string') return `content[${index}] has no text`;
  }
  return undefined;
}

/** The members of a text block; the SDK drops any other, and so does the check (the others are the client's to read). */
const TEXT_BLOCK_KEYS = new Set(['type', 'text', 'annotations', '_meta']);

/** The content with each text block reduced to its members, copied only when one has more. */
function withPlainTextBlocks(content: readonly unknown[]): readonly unknown[] {
  let copied: unknown[] | undefined;
  for (let index = 0; index < content.length; index += 1) {
    const block = content[index] as Record<string, unknown>;
    if (block.type !== 'text' || hasOnly(block, TEXT_BLOCK_KEYS)) continue;
    copied ??= [...content];
    const plain: Record<string, unknown> = {};
    for (const key of TEXT_BLOCK_KEYS) if (block[key] !== undefined) plain[key] = block[key];
    copied[index] = plain;
  }
  return copied ?? content;
}

function hasOnly(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

function invalid(why: string): ToolResultCheck {
  return { ok: false, message: why };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
