/**
 * Two shapes of a call's input in the SpecStory 2026 layout (Markdown v2.1.0) that the element's
 * summary line does not carry:
 *
 * - an `**Input:**` line, then the input as a list: `- key: \`value\`` items, or `- key:` and the
 *   value in the code block below it (an edit's old and new text); then, when the chat kept it, a
 *   `**Result:**` line and the answer in a code block. Claude Code's sessions show some tools so
 *   (a tool search), and GitHub Copilot's chats in VS Code show every call so, with no answer;
 * - GitHub Copilot's earlier shape: a `Parameters:` line and the input as a JSON block (a command as
 *   `commandLine.original`, its text HTML-escaped), an `Additional data:` JSON block that names the
 *   tool (`vscodeToolId`), and a `Result:` JSON block that is the editor's record of the invocation
 *   (its message, whether it was confirmed), not what the tool answered; a file read names its file
 *   in the summary, `• Reading [](file:///PATH)`.
 *
 * Copilot's chats (a `<!-- VS Code Copilot … Session … -->` header) keep no call's answer. A call
 * that changes files (an edit, a created file or folder) ran and answered nothing the chat shows: its
 * result is empty, so that replay still counts the change. Every other call of such a chat (a read, a
 * search, a command, a to-do update) has no result: nothing is known of what it answered.
 */
import type { CallEvent } from '../../src/trace/types.js';
import { clip, isObject } from './events.js';
import { fencedBlock } from './fenced-block.js';

/** The header of a saved Copilot chat. */
export const COPILOT_SESSION = /<!--\s*VS Code Copilot\b[^>]*\bSession\b/;

const INPUT = /^\*\*Input:\*\*\s*$/;
const RESULT = /^\*\*Result:\*\*\s*$/;
const ITEM = /^- ([A-Za-z_][\w.-]*):\s*(?:`(.*)`)?\s*$/;
const FENCE = /^\s*```/;
const PARAMETERS = /^Parameters:\s*$/;
const VSCODE_TOOL = /"vscodeToolId"\s*:/;
const READING = /^•\s*Reading \[[^\]]*\]\(file:\/\/([^)#\s]+)(?:#L?(\d+)(?:-L?(\d+))?)?\)/;
/** Tools that change files: their names say replace, create, insert, edit, patch or write. */
const CHANGES = /(replace|create|insert|edit|patch|write)/i;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' };

/** A call's input read from one of these shapes, and the answer the chat shows, if any. */
export interface ShownInput {
  readonly args: Record<string, unknown>;
  readonly answer?: string;
}

/** Whether a tool's name says it changes files. */
export function changesFiles(tool: string): boolean {
  return CHANGES.test(tool);
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, name: string) => ENTITIES[name] ?? '');
}

function decodedPath(uri: string): string {
  try {
    return decodeURI(uri);
  } catch {
    return uri;
  }
}

/** The `**Input:**` list, up to a `**Result:**` line, and the answer's block after that line. */
function listedInput(lines: readonly string[], start: number): ShownInput {
  const args: Record<string, unknown> = {};
  const resultAt = lines.findIndex((line, index) => index > start && RESULT.test(line.trim()));
  const end = resultAt < 0 ? lines.length : resultAt;
  let index = start + 1;
  while (index < end) {
    const item = ITEM.exec((lines[index] as string).trim());
    index++;
    if (!item) continue;
    const key = item[1] as string;
    if (item[2] !== undefined) {
      args[key] = item[2];
      continue;
    }
    let next = index;
    while (next < end && (lines[next] as string).trim() === '') next++;
    const block = next < end && FENCE.test(lines[next] as string) ? fencedBlock(lines, next) : undefined;
    if (!block) continue;
    args[key] = clip(block.body);
    index = block.next;
  }
  const answer = resultAt < 0 ? undefined : fencedBlock(lines, resultAt + 1);
  return answer ? { args, answer: answer.body.trim() } : { args };
}

/** Copilot's `Parameters:` JSON block: a command's line, or the input's plain fields. */
function parametersInput(lines: readonly string[]): ShownInput {
  const at = lines.findIndex((line) => PARAMETERS.test(line.trim()));
  const block = at < 0 ? undefined : fencedBlock(lines, at + 1);
  if (!block) return { args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(block.body);
  } catch {
    return { args: {} };
  }
  if (!isObject(parsed)) return { args: {} };
  const line = isObject(parsed.commandLine) ? parsed.commandLine.original : undefined;
  if (typeof line === 'string') return { args: { command: unescapeHtml(line) } };
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string') args[key] = unescapeHtml(value);
    else if (typeof value === 'number' || typeof value === 'boolean') args[key] = value;
  }
  return { args };
}

/**
 * The input of a call in one of these shapes (`inline` is its summary's text after the tool's
 * name, `lines` what follows the summary), or undefined when the call is in neither.
 */
export function shownInput(inline: string, lines: readonly string[]): ShownInput | undefined {
  const reading = READING.exec(inline.trim());
  if (reading) {
    const [, path, from, to] = reading;
    const range = from === undefined ? {} : { lines: to === undefined ? from : `${from}-${to}` };
    return { args: { file_path: decodedPath(path as string), ...range } };
  }
  const input = lines.findIndex((line) => INPUT.test(line.trim()));
  if (input >= 0) return listedInput(lines, input);
  if (lines.some((line) => VSCODE_TOOL.test(line))) return parametersInput(lines);
  return undefined;
}

/** A call of a chat that keeps no answer: empty when it changed files, else without a result. */
export function withoutAnswer(call: CallEvent): CallEvent {
  const { result: _answer, ...rest } = call;
  return changesFiles(call.tool) ? { ...rest, result: {} } : rest;
}
