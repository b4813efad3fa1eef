/**
 * Terminal agents' sessions as the SpecStory CLI saves them (`.specstory/history/*.md` with a
 * `<!-- Claude Code Session … -->`, `<!-- Codex CLI Session … -->` or `<!-- Cursor CLI Session … -->`
 * header). Turns open with `_**User …**_` and `_**Agent (model time)**_` lines (`_**Agent - sidechain
 * …**_` and `… (sidechain)` for a subagent's turns, interleaved with the agent's own). A tool call is a
 * `Tool use: **Name**` block, in one of two layouts:
 *
 * - 2025: the line `Tool use: **Name** REST`, where REST is the call's description (a shell command's),
 *   a path in backticks, or `key \`value\`` pairs; an optional line that is one backticked command;
 *   then `Result:` or `Error:` and a code block with what the tool answered;
 * - 2026 (Markdown v2.1.0): a `<tool-use data-tool-name="Name">` element whose `<summary>` says
 *   `Tool use: **Name**`, followed by the backticked command or path, code blocks with what the call
 *   wrote (a written file's text), and last a code block with what the tool answered. This layout
 *   marks no failure: a call failed when its answer starts as the agent's tools say a failure
 *   (`<tool_use_error>`, `Exit code N` for N ≠ 0, `File does not exist`, `Error:`).
 *
 * What the saved chat leaves out stays out: an edit's old and new text are not shown (its path is,
 * in its answer, and becomes its `file_path`; a failed edit's answer quotes the text it looked for,
 * which becomes its `old_string`), nor a search's pattern in the 2025 layout. A call whose input the
 * chat does not show gets `unshown_input: N`, numbering such calls in the session, so that two edits
 * of one file are not taken for one edit made twice; so does a call whose answer refuses a parameter
 * the chat does not show (`InputValidationError`). A read whose answer starts past line 1 gets the
 * `offset` its first line number says. A call the
 * user rejected or interrupted has no result, as the product's own transcript converter keeps it.
 * Calls of a subagent carry `agent: "sidechain"`; the chat does not say which subagent made them.
 *
 * Cursor's chats in the 2026 layout (`*_v2` tools) open the element's summary on the `<details>` line
 * and name what the call acted on after a bullet: `• Run command: CMD` (the command again in a `bash`
 * block, then a block with what the terminal printed, when the chat kept it), `• Edit file: PATH` and
 * `• Read file: PATH` (no text of either), and a search its pattern, `• Grep for "P" in "PATH"` or
 * `• Searched codebase "P"` (the folder in the text below), with what it found below (a search saved
 * as `Searched codebase ""` in `Directory: ****` kept neither, and is numbered); a listing
 * saved as `• Listed directory, 0 results` names no folder and keeps nothing of its answer, so it is
 * numbered and has no result. Each such call is followed or preceded by a second element
 * of the same tool that shows nothing: it is the same call recorded again, not a call. As in Cursor's
 * 2025 chats, a read's answer is not shown (the call has no result: nothing is known of what it
 * answered), nor is a command's exit status (a command failed when a line of what it printed starts
 * with `error` or `fatal`, or as the agents' tools word a failure), and a command shown without a
 * block of what it printed counts as run, printing nothing, as in Cursor's 2025 chats.
 *
 * A call whose input is listed under an `**Input:**` line (some of Claude Code's tools; every call of
 * GitHub Copilot's chats in VS Code), or held as Copilot's JSON, is read by `specstory-input.ts`;
 * Copilot's chats keep no call's answer.
 */
import type { CallEvent, TraceEvent, TraceResult } from '../../src/trace/types.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { commandFailed } from './convert-specstory.js';
import { COPILOT_SESSION, changesFiles, shownInput, withoutAnswer } from './specstory-input.js';
import { type ConvertedRun, clip, metaEvent, type RunSource, result, safeName, secondsSince, toolList } from './events.js';

/** Calls kept from one session; the longest saved sessions hold a few hundred. */
export const MAX_CALLS_PER_SESSION = 20_000;

const TURN = /^_\*\*(User|Agent|Assistant)\b(.*)\*\*_\s*$/;
const TOOL_USE = /^(?:<details>\s*)?(?:<summary>\s*)?Tool use: \*\*([^*]+)\*\*(.*)$/;
/** What a Cursor call of the 2026 layout acted on, after the bullet of its summary. */
const BULLET = /^•\s*(Run command|Edit file|Read file):\s*(.*)$/;
/** A Cursor listing of the 2026 layout that names no folder and keeps none of what it listed. */
const UNSHOWN_LISTING = /^•\s*Listed directory,/;
/** A Cursor search of the 2026 layout: its pattern (and folder) in the summary, its findings below. */
const SEARCH_BULLET = /^•\s*(?:Grep for "(.*)" in "(.*)"|Grep for "(.*)"|Searched codebase "(.*)")\s*•/;
/** The folder a Cursor file search looked in, as its findings name it. */
const SEARCHED_FOLDER = /^Directory: \*\*(.*)\*\*/;
const TOOL_END = /<\/tool-use>\s*$/;
const FENCE = /^\s*```/;
const TIME = /(\d{4}-\d{2}-\d{2})[ T_](\d{2}):?(\d{2}):?(\d{2})Z/;
const BACKTICKED = /^`([^`].*)`$/;
const PAIRS = /([A-Za-z_][\w-]*) `([^`]*)`/g;
const UPDATED_FILE = /^The file (\S.*?) has been (?:updated|created)\b/;
const CREATED_FILE = /^File created successfully at: (\S.*?)(?: \(|$)/;
/** What the user's refusal or interruption of a call reads as: the call never finished. */
const REFUSED = /^(\[Request interrupted by user( for tool use)?\]|The user doesn't want to (proceed with this tool use|take this action))/;
const MISSED_TEXT = /^<tool_use_error>String to replace not found in file\.\s*\nString: ([\s\S]*?)(?:\n\(note:|<\/tool_use_error>|$)/;
/** The first line number of a file read's answer (`12→text` or `12<TAB>text`). */
const FIRST_LINE = /^\s*(\d+)(?:→|\t)/;
const UNSHOWN_PARAMETER = /InputValidationError|unexpected parameter/;
/** Arguments that only say where a call acted, not what it did there. */
const WHERE = new Set(['file_path', 'path', 'description']);
/** Tools whose whole input is where they read. */
const READ_TOOLS = new Set(['read', 'ls', 'view', 'read_file', 'read_file_v2', 'list_dir', 'notebookread']);

/**
 * Whether the chat leaves out what a call did (an edit's text, a search's pattern): such calls are
 * numbered, so that two of them are never taken for one call made twice.
 */
export function inputUnshown(call: CallEvent): boolean {
  if (call.args.unshown_parameter === true) return true;
  if (READ_TOOLS.has(call.tool.toLowerCase())) return Object.keys(call.args).length === 0;
  // A search saved as `Searched codebase ""` in `Directory: ****` kept its pattern and folder blank.
  return Object.entries(call.args).every(([key, value]) => WHERE.has(key) || value === '');
}

/** How the agents' own tools word a failed call, for the layout that does not mark failures. */
const FAILED = /^(<tool_use_error>|Exit code [1-9]\d*\b|File does not exist\b|Error:|error:)/;

/** Tools whose one backticked argument is a command. */
const SHELL_TOOLS = new Set([
  'bash',
  'shell',
  'shell_command',
  'exec_command',
  'run_terminal_cmd',
  'run_terminal_command_v2',
  'run_shell_command',
  'local_shell',
  'run_in_terminal',
]);
/** Tools whose one backticked argument is a path. */
const PATH_TOOLS = new Set([
  'read',
  'write',
  'edit',
  'multiedit',
  'notebookedit',
  'notebookread',
  'ls',
  'read_file',
  'read_file_v2',
  'write_file',
  'edit_file',
  'edit_file_v2',
  'list_dir',
  'view',
]);

interface Block {
  readonly opener: string;
  readonly body: string[];
}

interface Pending {
  readonly tool: string;
  readonly inline: string;
  readonly lines: string[];
  readonly sidechain: boolean;
  readonly t: number | undefined;
}

/** The code blocks of a call's lines, each with its opening fence; text outside them apart. */
function split(lines: readonly string[]): { blocks: Block[]; outside: string[] } {
  const blocks: Block[] = [];
  const outside: string[] = [];
  let open: Block | undefined;
  for (const line of lines) {
    if (FENCE.test(line)) {
      if (open) {
        blocks.push(open);
        open = undefined;
      } else open = { opener: line.trim(), body: [] };
      continue;
    }
    if (open) open.body.push(line);
    else outside.push(line);
  }
  if (open) blocks.push(open);
  return { blocks, outside };
}

/** Whether the 2026 layout's answer reads as a failure. */
export function answerFailed(output: string): boolean {
  return FAILED.test(output.trimStart());
}

function mainKey(tool: string): string | undefined {
  const name = tool.toLowerCase();
  if (SHELL_TOOLS.has(name)) return 'command';
  if (PATH_TOOLS.has(name)) return 'file_path';
  return undefined;
}

/** A code block that shows the command a Cursor call ran. */
const COMMAND_BLOCK = /^```(?:bash|sh|shell|zsh|powershell|pwsh|console)\s*$/;

/** One Cursor call of the 2026 layout, whose summary names what it acted on after a bullet. */
function cursorCall(tool: string, verb: string, target: string, lines: readonly string[]): CallEvent {
  if (verb === 'Read file') return { type: 'call', tool, args: { file_path: target } };
  if (verb === 'Edit file') return { type: 'call', tool, args: { file_path: target }, result: {} };
  const { blocks } = split(lines);
  const shown = blocks[0] && COMMAND_BLOCK.test(blocks[0].opener) ? blocks[0] : undefined;
  const command = shown ? shown.body.join('\n') : target;
  const printed = shown ? blocks[1] : blocks[0];
  if (!printed) return { type: 'call', tool, args: { command }, result: {} };
  const output = printed.body.join('\n').trim();
  return { type: 'call', tool, args: { command }, result: result(output, answerFailed(output) || commandFailed(output)) };
}

/** One Cursor search of the 2026 layout: the text below its summary is what it found. */
function cursorSearch(tool: string, found: RegExpExecArray, lines: readonly string[]): CallEvent {
  const text = lines.filter((line) => !/^<\/?details>$/.test(line.trim()));
  const folder = text.map((line) => SEARCHED_FOLDER.exec(line.trim())?.[1]).find((name) => name !== undefined);
  const path = found[2] ?? folder;
  const args = { pattern: (found[1] ?? found[3] ?? found[4]) as string, ...(path !== undefined && { path }) };
  return { type: 'call', tool, args, result: result(text.join('\n').trim(), false) };
}

/** Whether a `Tool use` element shows nothing but its tool's name. */
function showsNothing(pending: Omit<Pending, 'sidechain' | 't'>): boolean {
  const inline = pending.inline.replace(/<\/summary>\s*$/, '').trim();
  return inline === '' && pending.lines.every((line) => line.trim() === '' || /^<\/?details>$/.test(line.trim()));
}

/** One `Tool use` block → a call. */
export function specStoryToolCall(pending: Omit<Pending, 'sidechain' | 't'>): CallEvent {
  const tool = safeName(pending.tool.trim()) || 'unknown';
  const args: Record<string, unknown> = {};
  const inline = pending.inline.replace(/<\/summary>\s*$/, '').trim();
  const shown = shownInput(inline, pending.lines);
  if (shown) {
    const { args: input, answer } = shown;
    if (answer === undefined || REFUSED.test(answer)) {
      return answer === undefined && changesFiles(tool) ? { type: 'call', tool, args: input, result: {} } : { type: 'call', tool, args: input };
    }
    return { type: 'call', tool, args: input, result: result(answer, answerFailed(answer)) };
  }
  const bullet = BULLET.exec(inline);
  if (bullet) return cursorCall(tool, bullet[1] as string, (bullet[2] as string).trim(), pending.lines);
  // The chat names neither the folder nor what was in it: nothing is known of the call but its tool.
  if (UNSHOWN_LISTING.test(inline)) return { type: 'call', tool, args: {} };
  const search = SEARCH_BULLET.exec(inline);
  if (search) return cursorSearch(tool, search, pending.lines);
  const key = mainKey(tool);
  for (const [, name, value] of inline.matchAll(PAIRS)) args[name as string] = value;
  const lone = BACKTICKED.exec(inline);
  if (lone && Object.keys(args).length === 0) args[key ?? 'input'] = lone[1];
  else if (inline !== '' && Object.keys(args).length === 0) args.description = inline;
  // The 2025 layout says `Result:` or `Error:` before the answer's block; text after that block is
  // the agent's. The 2026 layout's answer is the element's last block.
  const at = pending.lines.findIndex((line) => line.trim() === 'Result:' || line.trim() === 'Error:');
  const marker = at < 0 ? undefined : (pending.lines[at] as string).trim();
  const before = split(at < 0 ? pending.lines : pending.lines.slice(0, at));
  const answer = at < 0 ? before.blocks[before.blocks.length - 1] : split(pending.lines.slice(at + 1)).blocks[0];
  const written = (at < 0 ? before.blocks.slice(0, -1) : before.blocks).map((block) => block.body.join('\n'));
  for (const raw of before.outside) {
    const line = raw.trim();
    const shown = BACKTICKED.exec(line);
    if (shown) {
      args[key ?? 'input'] = shown[1];
      break;
    }
    for (const [, name, value] of line.matchAll(PAIRS)) args[name as string] = value;
    // The 2026 layout shows a subagent's task as one line of text.
    if (line !== '' && Object.keys(args).length === 0 && !line.startsWith('<')) args.description = line;
  }
  if (written.length > 0) {
    if (key === 'command' && args.command === undefined) args.command = written.join('\n');
    else if (args.content === undefined) args.content = clip(written.join('\n'));
  }
  if (!answer) return { type: 'call', tool, args, result: {} };
  const output = answer.body.join('\n').trim();
  if (REFUSED.test(output)) return { type: 'call', tool, args };
  const file = UPDATED_FILE.exec(output) ?? CREATED_FILE.exec(output);
  if (file && key === 'file_path' && args.file_path === undefined) args.file_path = file[1];
  const failed = marker === 'Error:' || (marker === undefined && answerFailed(output));
  // A failed edit's answer quotes the text it looked for: the one input of it the chat shows.
  const missed = failed ? MISSED_TEXT.exec(output) : null;
  if (missed && args.old_string === undefined) args.old_string = (missed[1] as string).trim();
  // A read that starts past the file's first line was given an offset the chat does not show: its
  // answer's first line number says which.
  const first = !failed && READ_TOOLS.has(tool.toLowerCase()) ? FIRST_LINE.exec(output) : null;
  if (first && Number(first[1]) > 1 && args.offset === undefined) args.offset = Number(first[1]);
  // An answer that refuses a parameter the chat does not show says the input was more than shown.
  if (failed && UNSHOWN_PARAMETER.test(output)) args.unshown_parameter = true;
  const answered: TraceResult = result(output, failed);
  return { type: 'call', tool, args, result: answered };
}

function secondsOf(header: string): number | undefined {
  const time = TIME.exec(header);
  if (!time) return undefined;
  const at = Date.parse(`${time[1]}T${time[2]}:${time[3]}:${time[4]}Z`);
  return Number.isFinite(at) ? at / 1000 : undefined;
}

/** The calls and the user's messages of one saved session. */
export function specStoryToolEvents(chat: string): TraceEvent[] {
  if (chat.length > MAX_LOG_CHARS) throw new Error(`longer than ${MAX_LOG_CHARS} characters; not a saved session`);
  const events: TraceEvent[] = [];
  let role: 'User' | 'Agent' | undefined;
  let sidechain = false;
  let said: string[] = [];
  let pending: Pending | undefined;
  let fenced = false;
  let start: number | undefined;
  let now: number | undefined;
  let calls = 0;
  /** Elements that show nothing but their tool's name. */
  const bare = new Set<CallEvent>();
  const keepsNoAnswers = COPILOT_SESSION.test(chat.slice(0, 2000));
  const flushUser = () => {
    const text = said.join('\n').trim();
    if (role === 'User' && !sidechain && text !== '' && !REFUSED.test(text)) events.push({ type: 'user', text: clip(text).slice(0, 500) });
    said = [];
  };
  const flushCall = () => {
    if (!pending) return;
    if (calls < MAX_CALLS_PER_SESSION) {
      const t = secondsSince(start, pending.t);
      const read = specStoryToolCall(pending);
      const call: CallEvent = {
        ...(keepsNoAnswers ? withoutAnswer(read) : read),
        ...(t !== undefined && { t }),
        ...(pending.sidechain && { agent: 'sidechain' }),
      };
      if (showsNothing(pending)) bare.add(call);
      events.push(call);
      calls++;
    }
    pending = undefined;
  };
  for (const raw of chat.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!fenced) {
      const turn = TURN.exec(line);
      if (turn) {
        flushCall();
        flushUser();
        role = turn[1] === 'User' ? 'User' : 'Agent';
        sidechain = /sidechain/i.test(turn[2] as string);
        now = secondsOf(turn[2] as string) ?? now;
        start ??= now;
        continue;
      }
      const use = role === 'Agent' ? TOOL_USE.exec(line.trim()) : null;
      if (use) {
        flushCall();
        pending = { tool: use[1] as string, inline: use[2] as string, lines: [], sidechain, t: now };
        continue;
      }
      if (pending && TOOL_END.test(line)) {
        flushCall();
        continue;
      }
      if (/^<tool-use\b/.test(line.trim()) || line.trim() === '---') continue;
    }
    if (FENCE.test(line)) fenced = !fenced;
    if (pending) pending.lines.push(line);
    else if (role === 'User') said.push(line);
  }
  flushCall();
  flushUser();
  return numberUnshown(withoutRepeatedRecords(events, bare));
}

/**
 * Without the elements that show nothing but their tool's name when the call next to them (before or
 * after) is of the same tool and shows what it did: such an element records that call again.
 */
function withoutRepeatedRecords(events: readonly TraceEvent[], bare: ReadonlySet<CallEvent>): TraceEvent[] {
  if (bare.size === 0) return [...events];
  const calls = events.filter((event): event is CallEvent => event.type === 'call');
  const paired = new Set<CallEvent>();
  const dropped = new Set<CallEvent>();
  calls.forEach((call, index) => {
    if (!bare.has(call)) return;
    const partner = [calls[index - 1], calls[index + 1]].find(
      (near) => near !== undefined && near.tool === call.tool && !bare.has(near) && !paired.has(near),
    );
    if (!partner) return;
    paired.add(partner);
    dropped.add(call);
  });
  return events.filter((event) => !(event.type === 'call' && dropped.has(event)));
}

/** Numbers the calls whose input the chat does not show, in the session's order. */
function numberUnshown(events: readonly TraceEvent[]): TraceEvent[] {
  let unshown = 0;
  return events.map((event) =>
    event.type === 'call' && inputUnshown(event) ? { ...event, args: { ...event.args, unshown_input: ++unshown } } : event,
  );
}

const AGENT_OF = /<!--\s*(.+?) Session\b/;

/** One saved session: one run. */
export function convertSpecStoryTools(chat: string, source: RunSource, name: string): ConvertedRun {
  const events = specStoryToolEvents(chat);
  const calls = events.filter((event): event is CallEvent => event.type === 'call');
  const run = safeName(name);
  const agent = AGENT_OF.exec(chat.slice(0, 2000))?.[1] ?? 'agent';
  const shells = Object.fromEntries([...new Set(calls.map((call) => call.tool))].filter((tool) => mainKey(tool) === 'command').map((tool) => [tool, 'exec']));
  const meta = metaEvent(run, `${agent} session ${source.path} (saved by SpecStory)`, source, toolList(calls, shells));
  return { name: run, events: [meta, ...events] };
}
