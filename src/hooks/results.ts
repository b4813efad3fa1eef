/**
 * What a finished call returned, from the shapes agents report it in: a plain string, an object
 * with an error (`error`, `is_error`, `success: false`, a non-zero exit code), an MCP tool's
 * `CallToolResult` or content blocks (as they are or as their JSON text), or anything else.
 *
 * An MCP tool's failure is learned in the tool's own words: the text of its content blocks, never
 * the JSON envelope the agent wrapped them in, so a block reason quotes what the tool said.
 */
import type { HookToolResult } from './event.js';
import { isRecord, MAX_PAYLOAD_BYTES, resultText } from './payload.js';

const EXIT_CODE_KEYS = ['exit_code', 'exitCode', 'returncode'] as const;
/** The most content blocks read from one result. */
const MAX_BLOCKS = 256;
/** How deep blocks are read inside blocks (a `tool_result` holding text blocks). */
const MAX_BLOCK_DEPTH = 3;
/**
 * The content block types of MCP (`CallToolResult.content`) and of Anthropic's messages. A list is
 * read as blocks only when it holds one of them: a tool's own JSON answer of typed records (GitHub
 * events, Slack blocks) is the tool's text, not blocks.
 */
const BLOCK_TYPES: ReadonlySet<string> = new Set([
  'text',
  'image',
  'audio',
  'resource',
  'resource_link',
  'tool_result',
  'document',
]);

/** A successful response unless the response itself says it failed. */
export function responseResult(response: unknown): HookToolResult {
  const mcp = mcpContent(typeof response === 'string' ? jsonText(response) : response);
  if (mcp) return fromMcpContent(mcp);
  const content = resultText(response);
  if (!isRecord(response)) return { ok: true, content };
  const error = response.error;
  if (typeof error === 'string' && error !== '') return { ok: false, error: resultText(error), content };
  if (isRecord(error)) {
    const message = typeof error.message === 'string' ? error.message : resultText(error);
    return { ok: false, error: resultText(message), content };
  }
  if (failureFlag(response) || response.success === false) return { ok: false, error: content };
  for (const key of EXIT_CODE_KEYS) {
    const code = response[key];
    if (typeof code === 'number' && code !== 0) return { ok: false, error: `Exit code ${code}\n${content}` };
  }
  return { ok: true, content };
}

/** A failure reported as an error message (an MCP result's JSON is read for its text). */
export function errorResult(error: unknown): HookToolResult {
  const mcp = mcpContent(typeof error === 'string' ? jsonText(error) : error);
  const text = mcp ? mcp.text : resultText(error);
  return { ok: false, error: text === '' ? 'the tool call failed' : text };
}

/**
 * An MCP tool's `CallToolResult`, as an object or as its JSON text (Cursor's `result_json`): its
 * text parts joined, a failure when `isError` says so.
 */
export function mcpResult(value: unknown): HookToolResult {
  const result = typeof value === 'string' ? jsonText(value) : value;
  if (result === undefined) return { ok: true, content: resultText(value) };
  const mcp = mcpContent(result);
  if (mcp) return fromMcpContent(mcp);
  return responseResult(result);
}

/** What an MCP result's content blocks say, and whether the result is flagged as a failure. */
export interface McpContent {
  readonly text: string;
  readonly failed: boolean;
}

/**
 * The text of an MCP result, when `value` is one: a `CallToolResult` (`{ content: [...], isError }`),
 * a list of content blocks, or Anthropic's `tool_result` blocks (`is_error`). Undefined otherwise.
 */
export function mcpContent(value: unknown): McpContent | undefined {
  if (isRecord(value)) {
    if (!Array.isArray(value.content)) return undefined;
    const blocks = readBlocks(value.content, 0);
    if (!blocks) return undefined;
    const structured = blocks.texts.length === 0 ? value.structuredContent : undefined;
    return {
      text: structured === undefined ? blocks.texts.join('\n') : resultText(structured),
      failed: failureFlag(value) || blocks.failed,
    };
  }
  if (!Array.isArray(value)) return undefined;
  const blocks = readBlocks(value, 0);
  return blocks && { text: blocks.texts.join('\n'), failed: blocks.failed };
}

/** The parts' text when `value` is a list of Gemini parts (`[{ text }]`), else `resultText`. */
export function partsText(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return resultText(value);
  const texts: string[] = [];
  for (const part of value.slice(0, MAX_BLOCKS)) {
    if (!isRecord(part) || typeof part.text !== 'string') return resultText(value);
    texts.push(part.text);
  }
  return resultText(texts.join('\n'));
}

/** The value of a text that is JSON (an object or a list), else undefined. */
export function jsonText(text: string): unknown {
  if (text.length > MAX_PAYLOAD_BYTES) return undefined;
  // Every string a tool returns comes here: look at its first visible character without copying it.
  const first = text[text.search(/\S/)];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function fromMcpContent({ text, failed }: McpContent): HookToolResult {
  const content = resultText(text);
  return failed
    ? { ok: false, error: content === '' ? 'the tool call failed' : content, content }
    : { ok: true, content };
}

function failureFlag(value: Readonly<Record<string, unknown>>): boolean {
  return value.isError === true || value.is_error === true;
}

/**
 * The text of a list of content blocks, or undefined when it is not one: every item an object
 * with a string `type`, one of them a block type (see `BLOCK_TYPES`). `text` blocks give their text, `resource` blocks their resource's text,
 * `tool_result` blocks the text of the blocks (or the string) they hold; images and the like
 * give nothing.
 */
function readBlocks(
  items: readonly unknown[],
  depth: number,
): { readonly texts: string[]; readonly failed: boolean } | undefined {
  if (items.length === 0 || depth >= MAX_BLOCK_DEPTH) return undefined;
  const texts: string[] = [];
  let failed = false;
  let known = false;
  for (const block of items.slice(0, MAX_BLOCKS)) {
    if (!isRecord(block) || typeof block.type !== 'string') return undefined;
    known ||= BLOCK_TYPES.has(block.type);
    failed ||= failureFlag(block);
    if (typeof block.text === 'string') texts.push(block.text);
    else if (isRecord(block.resource) && typeof block.resource.text === 'string')
      texts.push(block.resource.text);
    else if (typeof block.content === 'string') texts.push(block.content);
    else if (Array.isArray(block.content)) {
      const inner = readBlocks(block.content, depth + 1);
      if (inner) {
        texts.push(...inner.texts);
        failed ||= inner.failed;
      }
    }
  }
  return known ? { texts, failed } : undefined;
}
