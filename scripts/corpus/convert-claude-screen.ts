/**
 * Claude Code sessions as a terminal copy shows them: a call is `⏺ Tool(arguments)` (the arguments
 * may run over several lines), answered by `⎿  …` lines; a failed call's answer starts with
 * `Error`; `> ` starts the user's message. The screen names some tools by what they did (`Update` for
 * `Edit`, `Search` for `Grep`, `List` for `LS`): they get the tool's own name back. What the screen
 * folded away (`… +N lines`) stays folded, and a call the user refused, or interrupted before it
 * answered, has no result (as the product's own transcript converter keeps it). Grouped calls of early versions (`⏺ Call(…)`) and to-do list updates show
 * no arguments and are left out. An edit or a write shows only its file, never the text it writes:
 * such a call gets `unshown_input: N`, numbering those calls in the session, so that two edits of one
 * file are never taken for one edit made twice.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { sessionsOf } from './convert-screen.js';
import { type ConvertedRun, clip, metaEvent, type RunSource, result, safeName, toolList } from './events.js';

/** The tool each display name stands for. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  Update: 'Edit',
  Create: 'Write',
  List: 'LS',
  Search: 'Grep',
  Fetch: 'WebFetch',
};

/** Tools that write text into a file, which the screen shows only by the file's name. */
const WRITES_TEXT = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);
/** What an edit's or a write's display may show: where it acts, never what it writes. */
const WHERE = new Set(['file_path', 'notebook_path', 'path']);

/** Whether the screen leaves out the text a call writes, so that two such calls must not look alike. */
export function inputUnshown(call: CallEvent): boolean {
  return WRITES_TEXT.has(call.tool) && Object.keys(call.args).every((key) => WHERE.has(key));
}

/** The argument a display shows unnamed, per tool. */
const UNNAMED_ARGUMENT: Readonly<Record<string, string>> = {
  Bash: 'command',
  Task: 'description',
  WebFetch: 'url',
  WebSearch: 'query',
};

const CALL = /^⏺ ([A-Za-z][\w.:-]*(?: \(MCP\))?)\((.*)$/;
const ANSWER = /^\s{2}⎿\s{2}(.*)$/;
const PROGRESS = /^(Waiting|Running|Initializing)…$/;
/** What a user's own hook printed under a call: the screen's, not the tool's. */
const HOOK_NOTE = /^(PreToolUse|PostToolUse):\S+ \[.*\] completed successfully$/;
const NOT_RUN =
  /^(User rejected|No \(tell Claude what to do differently\)|Interrupted by user|(Error: )?The user doesn't want to (proceed with this tool use|take this action))/;
/** A line that ends what came before it: the next call or message, a prompt box, a session's end. */
const BOUNDARY = /^(⏺ |> |✻ |╭|╰|│ >|Total cost:|\S+@\S+ .*% )/;

/**
 * `key: "value", key: value` as a display writes named arguments, or undefined. The display quotes a
 * value as it is, without escaping, so a quoted value ends at the quote before the next key.
 */
export function namedArguments(shown: string): Record<string, string> | undefined {
  const pair = /\s*([A-Za-z_]\w*): (?:"([\s\S]*?)"|([^,"]*?))\s*(?:, (?=[A-Za-z_]\w*: )|$)/y;
  const args: Record<string, string> = {};
  let matched = 0;
  while (pair.lastIndex < shown.length) {
    const start = pair.lastIndex;
    const found = pair.exec(shown);
    if (!found || pair.lastIndex === start) return undefined;
    args[found[1] as string] = found[2] ?? (found[3] as string).trim();
    matched++;
  }
  return matched > 0 ? args : undefined;
}

/** The arguments of a call from what its display shows between the parentheses. */
export function claudeScreenArgs(tool: string, shown: string): Record<string, unknown> {
  const named = namedArguments(shown);
  const unnamed = UNNAMED_ARGUMENT[tool];
  if (named && (unnamed === undefined || unnamed in named)) return named;
  return { [unnamed ?? (tool.includes('MCP') ? 'input' : 'file_path')]: shown };
}

/** Reads `⏺ Tool(` and the lines after it up to the closing parenthesis. */
function readHeader(lines: readonly string[], at: number): { tool: string; shown: string; next: number } | undefined {
  const call = CALL.exec(lines[at] as string);
  if (!call) return undefined;
  const [, display, first] = call as unknown as [string, string, string];
  const parts = [first];
  let next = at + 1;
  const closed = (part: string) => /\)…?$/.test(part);
  while (!closed(parts[parts.length - 1] as string) && next < lines.length && parts.length < 200) {
    const line = lines[next] as string;
    if (line === '' || ANSWER.test(line) || BOUNDARY.test(line)) break;
    parts.push(line.trim());
    next++;
  }
  const shown = parts.join('\n').replace(/\)…?$/, '');
  const tool = TOOL_NAMES[display] ?? display;
  return { tool, shown, next };
}

/** Reads the answer lines that follow a call, up to what ends them. */
function readAnswer(lines: readonly string[], at: number): { answer: string[]; next: number } {
  const answer: string[] = [];
  let next = at;
  let started = false;
  while (next < lines.length) {
    const line = lines[next] as string;
    if (BOUNDARY.test(line)) break;
    const part = ANSWER.exec(line);
    if (part) {
      started = true;
      const shown = (part[1] as string).trim();
      if (!PROGRESS.test(shown) && !HOOK_NOTE.test(shown)) answer.push(part[1] as string);
    } else if (started) {
      answer.push(line.replace(/^ {5}/, ''));
    }
    next++;
  }
  while (answer.length > 0 && (answer[answer.length - 1] as string).trim() === '') answer.pop();
  while (answer.length > 0 && (answer[0] as string).trim() === '') answer.shift();
  return { answer, next };
}

function userEvent(message: string): TraceEvent {
  const said = message.trim();
  if (/^\/compact\b/.test(said)) return { type: 'compact' };
  if (/^\/clear\b/.test(said)) return { type: 'session' };
  return { type: 'user', text: clip(said).slice(0, 500) };
}

/** The calls and messages of one Claude Code session's lines. */
export function claudeScreenEvents(lines: readonly string[]): TraceEvent[] {
  const events: TraceEvent[] = [];
  let at = 0;
  let unshown = 0;
  while (at < lines.length) {
    const line = lines[at] as string;
    if (line.startsWith('> ')) {
      events.push(userEvent(line.slice(2)));
      at++;
      continue;
    }
    if (/^⏺ Call\(/.test(line) || /^⏺ (Update|Read) Todos/.test(line)) {
      at = readAnswer(lines, at + 1).next;
      continue;
    }
    const header = readHeader(lines, at);
    if (!header) {
      at++;
      continue;
    }
    const { answer, next } = readAnswer(lines, header.next);
    at = Math.max(next, header.next, at + 1);
    const shownArgs = claudeScreenArgs(header.tool, header.shown);
    const args = inputUnshown({ type: 'call', tool: header.tool, args: shownArgs })
      ? { ...shownArgs, unshown_input: ++unshown }
      : shownArgs;
    const output = answer.join('\n');
    const call: CallEvent =
      answer.length === 0 || NOT_RUN.test(output)
        ? { type: 'call', tool: header.tool, args }
        : { type: 'call', tool: header.tool, args, result: result(output, /^Error\b/.test(output)) };
    events.push(call);
  }
  return events;
}

/** Claude Code's runs in one terminal copy: one run per session. */
export function convertClaudeScreen(copy: string, source: RunSource, prefix: string): ConvertedRun[] {
  const shows = (lines: readonly string[]) => lines.some((line) => CALL.test(line));
  return sessionsOf(copy, 'claude', shows).map((session, index) => {
    const events = claudeScreenEvents(session.lines);
    const calls = events.filter((event): event is CallEvent => event.type === 'call');
    const name = safeName(`${prefix}-${index + 1}`);
    const meta = metaEvent(name, `Claude Code session ${index + 1} of ${source.path} (terminal copy)`, source, toolList(calls));
    return { name, events: [meta, ...events] };
  });
}
