/**
 * Cursor's calls in the SpecStory extension's third layout (its chats from late 2025): a piece opens
 * with a bare `Tool use: **name**` line, with no `<details>` element around it, and what follows is
 * what the chat shows of the call, mostly as the 2025 layout shows it (`Read file: PATH`, a `bash`
 * block and its output, a `<details>` block of a search, a listing or an edit that names its file).
 * The line gives the tool's own name (`search_replace`, `grep`, `glob_file_search`, `todo_write`,
 * `mcp_Server_tool`…), which the call keeps. Shapes only this layout has:
 *
 * - `<summary>Grep for "P" in "PATH" • N matches</summary>`, then `Output mode: M` and what it found;
 * - `<summary>Apply patch for PATH</summary>` and the patch in a `diff` block (applied);
 * - `<summary>Read lints for N files</summary>`, the linted paths as a list, then `Lint results`;
 * - `<summary>MCP tool call</summary>`, then `*Parameters*:` with `* key: value` lines and
 *   `*Result*:` with the server's answer (failed when it opens with an error object or `Error`);
 * - `## Todo List` and the list (a to-do update, applied), `### Rule: NAME` and the rule's text.
 *
 * A `Tool use` line alone, or followed by nothing the reader knows (`undefined`, or the model's note
 * on why it deletes a file), shows neither the call's input nor its answer: the call has no result
 * and is marked `unshown`, for its converter to number, so that two such calls of one tool are never
 * read as one call made twice.
 */
import type { CallEvent } from '../../src/trace/types.js';
import { clip, result } from './events.js';
import { BARE_FENCE, fencedBlock } from './fenced-block.js';

/** The line that opens a call in this layout. */
export const BARE_TOOL_USE = /^Tool use: \*\*([^*]+)\*\*\s*$/;

const GREP = /<summary>\s*Grep for "(.*?)"(?: in "(.*)")?\s*•\s*(\d+) match/;
const OUTPUT_MODE = /^Output mode:\s*(\S+)\s*$/;
const PATCH = /<summary>\s*Apply patch for (.*?)\s*(?:<\/summary>|$)/;
const LINTS = /<summary>\s*Read lints for\b/;
const MCP = /<summary>\s*MCP tool call\s*<\/summary>/;
const PARAMETER = /^\s*\*\s+([^:]+?):\s?(.*)$/;
const RULE = /^### Rule:\s*(.*)$/;
const MCP_FAILED = /^\s*(?:\{\s*"error"|Error\b|error:)/;

/** A call read from the third layout; `unshown` when the chat shows nothing of its input. */
export interface ToolUseCall {
  readonly call: CallEvent;
  readonly unshown: boolean;
}

/** What lies between a `<details>` block's summary and its close. */
function detailsBody(lines: readonly string[]): string {
  const start = lines.findIndex((line) => line.includes('</summary>'));
  const end = lines.findIndex((line) => line.trim() === '</details>');
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
}

function mcpCall(tool: string, lines: readonly string[]): CallEvent {
  const parameters = lines.findIndex((line) => line.trim() === '*Parameters*:');
  const answer = lines.findIndex((line) => line.trim() === '*Result*:');
  const args: Record<string, string> = {};
  if (parameters >= 0) {
    for (const line of lines.slice(parameters + 1, answer < 0 ? undefined : answer)) {
      const pair = PARAMETER.exec(line);
      if (pair) args[(pair[1] as string).trim()] = (pair[2] as string).trim();
    }
  }
  if (answer < 0) return { type: 'call', tool, args };
  const end = lines.findLastIndex((line) => line.trim() === '</details>');
  const output = lines
    .slice(answer + 1, end > answer ? end : undefined)
    .join('\n')
    .trim();
  return { type: 'call', tool, args, result: result(output, MCP_FAILED.test(output)) };
}

/**
 * The call a piece of this layout shows: `tool` is the name on its `Tool use` line, `lines` what
 * follows that line, and `shown` the 2025 layout's reader of the rest (undefined when it finds no call).
 */
export function toolUseCall(
  tool: string,
  lines: readonly string[],
  shown: (lines: readonly string[]) => CallEvent | undefined,
): ToolUseCall {
  const body = lines.filter((line) => line.trim() !== '');
  const head = body.slice(0, 3).join(' ');
  const first = (body[0] ?? '').trim();
  if (MCP.test(head)) return { call: mcpCall(tool, body), unshown: false };
  const grep = GREP.exec(head);
  if (grep) {
    const args: Record<string, string> = { pattern: grep[1] as string };
    if (grep[2] !== undefined) args.path = grep[2];
    const found = detailsBody(body).split('\n');
    const mode = OUTPUT_MODE.exec(found[0] ?? '');
    if (mode) args.output_mode = mode[1] as string;
    const output = Number(grep[3]) === 0 ? '' : found.slice(mode ? 1 : 0).join('\n').trim();
    return { call: { type: 'call', tool, args, result: result(output, false) }, unshown: false };
  }
  const patch = PATCH.exec(head);
  if (patch) {
    const text = fencedBlock(body, 0, /^```diff$/, BARE_FENCE)?.body ?? '';
    return { call: { type: 'call', tool, args: { path: patch[1] as string, patch: clip(text) }, result: {} }, unshown: false };
  }
  if (LINTS.test(head)) {
    const paths = body.flatMap((line) => /^- `(.*)`$/.exec(line.trim())?.slice(1, 2) ?? []);
    const at = body.findIndex((line) => line.trim() === 'Lint results');
    const end = body.findIndex((line) => line.trim() === '</details>');
    const output = at < 0 ? '' : body.slice(at + 1, end < 0 ? undefined : end).join('\n').trim();
    return { call: { type: 'call', tool, args: { paths }, result: result(output, false) }, unshown: false };
  }
  if (first === '## Todo List') {
    return { call: { type: 'call', tool, args: { todos: body.slice(1).join('\n') }, result: {} }, unshown: false };
  }
  const rule = RULE.exec(first);
  if (rule) {
    return { call: { type: 'call', tool, args: { rule: rule[1] as string }, result: result(body.slice(1).join('\n').trim(), false) }, unshown: false };
  }
  const call = body.length > 0 ? shown(lines) : undefined;
  if (call) return { call: { ...call, tool }, unshown: false };
  return { call: { type: 'call', tool, args: {} }, unshown: true };
}
