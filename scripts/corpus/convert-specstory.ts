/**
 * Cursor chats as the SpecStory extension saved them (`.specstory/history/*.md`, its 2025 format):
 * `_**User**_` and `_**Assistant**_` open the turns, and `---` lines part a turn into pieces. A piece
 * of the assistant's that is one tool call reads, by tool:
 *
 * - `Read file: PATH` (`read_file`; the file's text is not shown, so the call has no `result`: the
 *   trace format's one way of saying nothing is known of its answer, which replay learns nothing
 *   from, where an empty result would be read as a read that found nothing);
 * - a `<details>` block whose summary says `Searched codebase "Q"`, `Grep search for "Q"`,
 *   `Searched files "Q"`, `Searched web "Q"`, `Listed directory PATH` or `Listed current directory`,
 *   with `**N** results` and the results inside (`codebase_search`, `grep_search`, `file_search`,
 *   `web_search`, `list_dir`);
 * - a `bash`/`sh`/`shell`/`console` code block that is the whole command, then a plain code block with
 *   what the terminal printed (`run_terminal_cmd`);
 * - `diff` code blocks, the edit as the chat shows it (`edit_file`; the file is not named), or a
 *   `<details>` block whose summary says `Edit file: PATH`, with the edit's `diff` blocks inside
 *   (`edit_file` on that file);
 * - `Could not resolve URI: …` (a listing of a folder that does not exist, failed) and `Model provided
 *   invalid arguments to … tool.` (a call with arguments the tool refused, failed).
 *
 * A `Cancelled` piece right after a call means the user stopped it: that call has no result. The
 * saved chat never shows a command's exit status, so a command fails when a line of its output starts
 * with `error` or `fatal` (in any case); an edit shown in the chat counts as applied.
 *
 * The extension's later chats open each call's piece with a bare `Tool use: **name**` line; such a
 * piece is read by `specstory-tool-use.ts`, the call keeping the tool's own name.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, clip, metaEvent, type RunSource, result, safeName, toolList } from './events.js';
import { BARE_TOOL_USE, toolUseCall } from './specstory-tool-use.js';

/** Calls kept from one chat; the longest saved chats hold a few hundred. */
export const MAX_CALLS_PER_CHAT = 20_000;

const TURN = /^_\*\*(User|Assistant)\b[^*]*\*\*_\s*$/;
const SUMMARY = /<summary>\s*(Searched codebase|Grep search for|Searched files|Searched web|Listed directory|Listed current directory)\s*(.*?)\s*(?:•|‚Ä¢)\s*\*\*(\d+)\*\*\s*(?:results?|files?)/;
const SHELL_FENCE = /^```(?:bash|sh|shell|zsh|console)\s*$/;
const FENCE = /^```/;
/** A block closes at a fence of its own line, or at the end of a last line of text (`text```). */
const CLOSE = /^```|\S```\s*$/;
const INVALID = /^Model provided invalid arguments to (.+?) tool\.?$/;
const EDIT_SUMMARY = /^<details>\s*<summary>\s*Edit file:\s*(.*?)\s*<\/summary>/;
const MISSING = /^Could not resolve URI: (.*?'(.*)'.*)$/;

/** How the chat names a tool in `Model provided invalid arguments to … tool` → the tool's name. */
const INVALID_TOOLS: Readonly<Record<string, string>> = {
  'read file': 'read_file',
  terminal: 'run_terminal_cmd',
  'edit file': 'edit_file',
  'list dir': 'list_dir',
  'codebase search': 'codebase_search',
  'grep search': 'grep_search',
  'file search': 'file_search',
};

const SUMMARY_TOOLS: Readonly<Record<string, { tool: string; key: string }>> = {
  'Searched codebase': { tool: 'codebase_search', key: 'query' },
  'Grep search for': { tool: 'grep_search', key: 'query' },
  'Searched files': { tool: 'file_search', key: 'query' },
  'Searched web': { tool: 'web_search', key: 'search_term' },
  'Listed directory': { tool: 'list_dir', key: 'relative_workspace_path' },
  'Listed current directory': { tool: 'list_dir', key: 'relative_workspace_path' },
};

/** The chat's lines, parted into turns and each turn into the pieces `---` lines part it into. */
interface Piece {
  readonly role: 'User' | 'Assistant';
  readonly lines: readonly string[];
}

export function specStoryPieces(chat: string): Piece[] {
  if (chat.length > MAX_LOG_CHARS) throw new Error(`longer than ${MAX_LOG_CHARS} characters; not a saved chat`);
  const pieces: Piece[] = [];
  let role: Piece['role'] | undefined;
  let lines: string[] = [];
  let fenced = false;
  const flush = () => {
    if (role && lines.some((line) => line.trim() !== '')) pieces.push({ role, lines });
    lines = [];
  };
  for (const raw of chat.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!fenced) {
      const turn = TURN.exec(line);
      if (turn) {
        flush();
        role = turn[1] as Piece['role'];
        continue;
      }
      if (line.trim() === '---') {
        flush();
        continue;
      }
      // A bare `Tool use` line opens a call's piece even where no `---` line parts it from the text.
      if (BARE_TOOL_USE.test(line.trim())) flush();
    }
    if (fenced ? CLOSE.test(line) : FENCE.test(line)) fenced = !fenced;
    lines.push(line);
  }
  flush();
  return pieces;
}

function unquote(shown: string): string {
  return /^".*"$|^`.*`$/s.test(shown) ? shown.slice(1, -1) : shown;
}

/** The code blocks of a piece, in order, each with its opening line. */
function codeBlocks(lines: readonly string[]): { opener: string; body: string[] }[] {
  const blocks: { opener: string; body: string[] }[] = [];
  let open: { opener: string; body: string[] } | undefined;
  for (const line of lines) {
    if (open ? CLOSE.test(line) : FENCE.test(line)) {
      if (open) {
        if (!FENCE.test(line)) open.body.push(line.replace(/```\s*$/, ''));
        blocks.push(open);
        open = undefined;
      } else open = { opener: line.trimEnd(), body: [] };
      continue;
    }
    open?.body.push(line);
  }
  if (open) blocks.push(open);
  return blocks;
}

/** Whether a command's output says it failed: a line of it starts with `error` or `fatal`. */
export function commandFailed(output: string): boolean {
  return /^\s*(?:error|fatal)\b/im.test(output);
}

/** The tool call one assistant piece shows, or undefined when the piece is the model's text. */
export function specStoryCall(lines: readonly string[]): CallEvent | undefined {
  const body = lines.filter((line) => line.trim() !== '');
  const first = (body[0] ?? '').trim();
  if (first.startsWith('Read file: ')) {
    // The chat did not keep what the read answered: unknown, not empty.
    return { type: 'call', tool: 'read_file', args: { target_file: first.slice('Read file: '.length).trim() } };
  }
  const invalid = INVALID.exec(first);
  if (invalid) {
    const shown = (invalid[1] as string).toLowerCase();
    const tool = INVALID_TOOLS[shown] ?? safeName(shown.replace(/\s+/g, '_'));
    return { type: 'call', tool, args: {}, result: result(first, true) };
  }
  const missing = MISSING.exec(first);
  if (missing) {
    return { type: 'call', tool: 'list_dir', args: { relative_workspace_path: missing[2] as string }, result: result(missing[1] as string, true) };
  }
  const edited = EDIT_SUMMARY.exec(first);
  if (edited) {
    const diffs = codeBlocks(lines).filter((block) => block.opener === '```diff');
    const edit = diffs.map((block) => block.body.join('\n')).join('\n…\n');
    return { type: 'call', tool: 'edit_file', args: { target_file: edited[1] as string, code_edit: clip(edit) }, result: {} };
  }
  if (first === '<details>' || first.startsWith('<details>')) {
    const summary = SUMMARY.exec(body.slice(0, 3).join(' '));
    if (!summary) return undefined;
    const known = SUMMARY_TOOLS[summary[1] as string] as { tool: string; key: string };
    const target = summary[1] === 'Listed current directory' ? '.' : unquote(summary[2] as string);
    const end = body.findIndex((line) => line.trim() === '</details>');
    const found = body.slice(body.findIndex((line) => line.includes('</summary>')) + 1, end < 0 ? undefined : end);
    const output = Number(summary[3]) === 0 ? '' : found.join('\n').trim();
    return { type: 'call', tool: known.tool, args: { [known.key]: target }, result: result(output, false) };
  }
  if (!FENCE.test(first)) return undefined;
  const blocks = codeBlocks(lines);
  if (SHELL_FENCE.test(first)) {
    const [command, output] = blocks;
    const text = (command?.body ?? []).join('\n').trim();
    if (text === '') return undefined;
    if (!output) return { type: 'call', tool: 'run_terminal_cmd', args: { command: text }, result: {} };
    const printed = output.body.join('\n').trim();
    return { type: 'call', tool: 'run_terminal_cmd', args: { command: text }, result: result(printed, commandFailed(printed)) };
  }
  if (first === '```diff' && blocks.every((block) => block.opener === '```diff')) {
    const edit = blocks.map((block) => block.body.join('\n')).join('\n…\n');
    return { type: 'call', tool: 'edit_file', args: { code_edit: clip(edit) }, result: {} };
  }
  return undefined;
}

/** The calls and messages of one saved chat. */
export function specStoryEvents(chat: string): TraceEvent[] {
  const events: TraceEvent[] = [];
  let calls = 0;
  let unshown = 0;
  for (const piece of specStoryPieces(chat)) {
    if (piece.role === 'User') {
      events.push({ type: 'user', text: clip(piece.lines.join('\n').trim()).slice(0, 500) });
      continue;
    }
    const said = piece.lines.join('\n').trim();
    const last = events[events.length - 1];
    if (said === 'Cancelled') {
      // The user stopped the call just before: it never finished.
      if (last?.type === 'call') events[events.length - 1] = { type: 'call', tool: last.tool, args: last.args };
      continue;
    }
    const call = pieceCall(piece.lines, () => ++unshown);
    if (call && calls < MAX_CALLS_PER_CHAT) {
      events.push(call);
      calls++;
    }
  }
  return events;
}

/**
 * The call an assistant piece shows, in the 2025 layout or the later one whose pieces open with a
 * bare `Tool use: **name**` line; a call whose input the chat does not show gets the next number.
 */
function pieceCall(lines: readonly string[], next: () => number): CallEvent | undefined {
  const at = lines.findIndex((line) => line.trim() !== '');
  const bare = BARE_TOOL_USE.exec((lines[at] ?? '').trim());
  if (!bare) return specStoryCall(lines);
  const { call, unshown } = toolUseCall(bare[1] as string, lines.slice(at + 1), specStoryCall);
  return unshown ? { ...call, args: { ...call.args, unshown_input: next() } } : call;
}

/** One saved Cursor chat: one run. */
export function convertSpecStory(chat: string, source: RunSource, name: string): ConvertedRun {
  const events = specStoryEvents(chat);
  const calls = events.filter((event): event is CallEvent => event.type === 'call');
  const run = safeName(name);
  const meta = metaEvent(run, `Cursor chat ${source.path} (saved by SpecStory)`, source, toolList(calls, { run_terminal_cmd: 'exec' }));
  return { name: run, events: [meta, ...events] };
}
