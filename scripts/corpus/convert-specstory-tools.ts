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
 */
import type { CallEvent, TraceEvent, TraceResult } from '../../src/trace/types.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, clip, metaEvent, type RunSource, result, safeName, secondsSince, toolList } from './events.js';

/** Calls kept from one session; the longest saved sessions hold a few hundred. */
export const MAX_CALLS_PER_SESSION = 20_000;

const TURN = /^_\*\*(User|Agent|Assistant)\b(.*)\*\*_\s*$/;
const TOOL_USE = /^(?:<summary>\s*)?Tool use: \*\*([^*]+)\*\*(.*)$/;
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
const READ_TOOLS = new Set(['read', 'ls', 'view', 'read_file', 'list_dir', 'notebookread']);

/**
 * Whether the chat leaves out what a call did (an edit's text, a search's pattern): such calls are
 * numbered, so that two of them are never taken for one call made twice.
 */
export function inputUnshown(call: CallEvent): boolean {
  if (call.args.unshown_parameter === true) return true;
  if (READ_TOOLS.has(call.tool.toLowerCase())) return false;
  return Object.keys(call.args).every((key) => WHERE.has(key));
}

/** How the agents' own tools word a failed call, for the layout that does not mark failures. */
const FAILED = /^(<tool_use_error>|Exit code [1-9]\d*\b|File does not exist\b|Error:|error:)/;

/** Tools whose one backticked argument is a command. */
const SHELL_TOOLS = new Set(['bash', 'shell', 'shell_command', 'exec_command', 'run_terminal_cmd', 'run_shell_command', 'local_shell']);
/** Tools whose one backticked argument is a path. */
const PATH_TOOLS = new Set(['read', 'write', 'edit', 'multiedit', 'notebookedit', 'notebookread', 'ls', 'read_file', 'write_file', 'edit_file', 'list_dir', 'view']);

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

/** One `Tool use` block → a call. */
export function specStoryToolCall(pending: Omit<Pending, 'sidechain' | 't'>): CallEvent {
  const tool = safeName(pending.tool.trim()) || 'unknown';
  const args: Record<string, unknown> = {};
  const inline = pending.inline.replace(/<\/summary>\s*$/, '').trim();
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
  let unshown = 0;
  const flushUser = () => {
    const text = said.join('\n').trim();
    if (role === 'User' && !sidechain && text !== '' && !REFUSED.test(text)) events.push({ type: 'user', text: clip(text).slice(0, 500) });
    said = [];
  };
  const flushCall = () => {
    if (!pending) return;
    if (calls < MAX_CALLS_PER_SESSION) {
      const shown = specStoryToolCall(pending);
      const call = inputUnshown(shown) ? { ...shown, args: { ...shown.args, unshown_input: ++unshown } } : shown;
      const t = secondsSince(start, pending.t);
      events.push({ ...call, ...(t !== undefined && { t }), ...(pending.sidechain && { agent: 'sidechain' }) });
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
  return events;
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
