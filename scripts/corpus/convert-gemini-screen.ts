/**
 * Gemini CLI sessions as a terminal copy shows them: each call is a box whose first line is
 * `│ ✔  Tool arguments` (`-` when the user declined it, `x` when it failed), then its output inside
 * the box; a failed call's output starts with `Error:`; `> ` starts the user's message, also inside a
 * box in later versions. The box names tools for display (`Shell`, `ReadFile`, `Edit`); they get the
 * names the model called (`run_shell_command`, `read_file`, `replace`). The screen clips a long first
 * line and never shows a shell command's exit code, so a failing command that printed no `Error:`
 * looks like a success, and a box that shows no output (a quiet command) gives a result without
 * content. A call the user declined or aborted never finished and has no result.
 *
 * What the screen leaves out stays out. An edit's first line previews the first line of each text,
 * cut at 30 characters and ended with `...` when the text is longer, and a written file's text is not
 * in its first line: such a call gets `unshown_input: N`, numbering those calls in the session, so
 * that two edits of one file are never taken for one edit made twice. A file read shows nothing of
 * what it returned: its result says so in a stand-in text, the same for every read, rather than
 * being replayed as an empty answer (a read that found an empty file).
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { sessionsOf } from './convert-screen.js';
import {
  type ConvertedRun,
  clip,
  isObject,
  metaEvent,
  type RunSource,
  result,
  safeName,
  toolList,
} from './events.js';

/** Display name → the tool's name and how its first line reads. */
const TOOLS: Readonly<Record<string, { name: string; args: (shown: string) => Record<string, unknown> }>> = {
  Shell: { name: 'run_shell_command', args: (shown) => shellArgs(shown) },
  Edit: { name: 'replace', args: (shown) => editArgs(shown) },
  ReadFile: { name: 'read_file', args: (shown) => ({ absolute_path: shown }) },
  WriteFile: { name: 'write_file', args: (shown) => ({ file_path: shown.replace(/^Writing to /, '') }) },
  ReadManyFiles: { name: 'read_many_files', args: (shown) => ({ paths: shown }) },
  ReadFolder: { name: 'list_directory', args: (shown) => ({ path: shown }) },
  FindFiles: { name: 'glob', args: (shown) => ({ pattern: unquote(shown) }) },
  SearchText: { name: 'search_file_content', args: (shown) => searchArgs(shown) },
  GoogleSearch: { name: 'google_web_search', args: (shown) => ({ query: shown.replace(/^Searching the web for: /, '') }) },
  WebFetch: { name: 'web_fetch', args: (shown) => ({ prompt: shown.replace(/^Processing URLs and instructions from prompt: /, '') }) },
  SaveMemory: { name: 'save_memory', args: (shown) => ({ fact: shown }) },
};

/** `│ ✔  Tool arguments` at the top level of a box (a box nested in the output has a second `│`). */
const HEADER = /^ ?│ ([✔✓xX✖\-o⊷])  ([A-Za-z_]\w*)(?: (.*))?$/;
const BOX_LINE = /^ ?│(.*)$/;
const BOX_END = /^ ?╰/;
const PROMPT = /^(?:│ {2})?> (.*)$/;

function unquote(shown: string): string {
  return /^'.*'$/s.test(shown) ? shown.slice(1, -1) : shown;
}

/** `command (description)`: the description Gemini CLI adds ends the line in parentheses. */
export function shellArgs(shown: string): Record<string, unknown> {
  if (!shown.endsWith(')')) return { command: shown };
  let depth = 0;
  for (let index = shown.length - 1; index > 0; index--) {
    const char = shown[index];
    if (char === ')') depth++;
    else if (char === '(' && --depth === 0) {
      if (shown[index - 1] !== ' ') return { command: shown };
      return { command: shown.slice(0, index - 1).trimEnd(), description: shown.slice(index + 1, -1) };
    }
  }
  return { command: shown };
}

/** A preview cut short: Gemini CLI ends a text longer than 30 characters with `...`. */
const CUT = /\.\.\.$/;

/**
 * `path: old => new`, as the edit box's first line previews an edit; `Create path` when the edit
 * creates its file, `No file changes to path` when both texts are the same. A preview that was cut
 * short is not the text, so only the path is kept.
 */
export function editArgs(shown: string): Record<string, unknown> {
  const created = /^Create (\S.*)$/s.exec(shown);
  if (created) return { file_path: created[1], old_string: '' };
  const unchanged = /^No file changes to (\S.*)$/s.exec(shown);
  if (unchanged) return { file_path: unchanged[1] };
  const edit = /^(\S+?): (.*?) => (.*)$/s.exec(shown);
  if (!edit) return { file_path: shown };
  const [, path, before, after] = edit as unknown as [string, string, string, string];
  if (CUT.test(before) || CUT.test(after)) return { file_path: path };
  return { file_path: path, old_string: before, new_string: after };
}

/** The texts a call writes that its first line does not show: the call is numbered instead. */
export function inputUnshown(call: CallEvent): boolean {
  if (call.tool === 'write_file') return !('content' in call.args);
  if (call.tool === 'replace') return !('new_string' in call.args);
  return false;
}

/** What a file read returned, which the screen never shows: one stand-in for every read. */
export const READ_NOT_SHOWN = '[the terminal copy does not show what the read returned]';

/** `'pattern' within path`, or `'pattern'`. */
function searchArgs(shown: string): Record<string, unknown> {
  const search = /^'(.*)'(?: within (.*))?$/s.exec(shown);
  if (!search) return { pattern: shown };
  return search[2] ? { pattern: search[1], path: search[2] } : { pattern: search[1] };
}

/** Whether a shell command leaves a quote open: its first line was only the start of it. */
export function opensQuote(command: string): boolean {
  let quote: string | undefined;
  for (let index = 0; index < command.length; index++) {
    const char = command[index];
    if (quote === "'") {
      if (char === "'") quote = undefined;
    } else if (char === '\\') index++;
    else if (quote === '"') {
      if (char === '"') quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
  }
  return quote !== undefined;
}

/** A failed call's box names the tool as the model did, with the arguments as JSON (maybe clipped). */
function rawArgs(shown: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(shown);
    if (isObject(parsed)) return parsed;
  } catch {
    // clipped at the screen's width
  }
  return shown === '' ? {} : { input: shown };
}

/** A box line without its frame: the left border, the output's indent, the right border. */
function unframe(inner: string): string {
  return inner
    .replace(/[│�]\s*$/, '')
    .trimEnd()
    .replace(/^ {1,4}/, '');
}

export function geminiScreenCall(status: string, display: string, shown: string, output: readonly string[]): CallEvent {
  const known = TOOLS[display];
  const tool = known?.name ?? display;
  const args = known ? known.args(shown) : rawArgs(shown);
  if (status === '-' || /^\s*The user aborted a request\./.test(output.join('\n'))) return { type: 'call', tool, args };
  const body = [...output];
  while (body.length > 0 && (body[0] as string) === '') body.shift();
  while (body.length > 0 && (body[body.length - 1] as string) === '') body.pop();
  const text = body.join('\n');
  const failed = /^[xX✖]$/.test(status) || /^Error\b/.test(text);
  // A file read's box never shows what it read; any other box that shows nothing (a quiet command)
  // says nothing of what the model got back: its result has no content, rather than an empty one.
  if (text === '' && !failed && tool === 'read_file') return { type: 'call', tool, args, result: { content: READ_NOT_SHOWN } };
  if (text === '' && !failed) return { type: 'call', tool, args, result: {} };
  return { type: 'call', tool, args, result: result(text, failed) };
}

function userEvent(message: string): TraceEvent {
  const said = message.trim();
  if (/^\/compress\b|^\/compact\b/.test(said)) return { type: 'compact' };
  if (/^\/clear\b/.test(said)) return { type: 'session' };
  return { type: 'user', text: clip(said).slice(0, 500) };
}

/** The calls and messages of one Gemini CLI session's lines. */
export function geminiScreenEvents(lines: readonly string[]): TraceEvent[] {
  const events: TraceEvent[] = [];
  let open: { status: string; display: string; shown: string; output: string[]; command: boolean } | undefined;
  let unshown = 0;
  const close = () => {
    if (open) {
      const call = geminiScreenCall(open.status, open.display, open.shown, open.output);
      events.push(inputUnshown(call) ? { ...call, args: { ...call.args, unshown_input: ++unshown } } : call);
    }
    open = undefined;
  };
  for (const line of lines) {
    const header = HEADER.exec(line.replace(/\s*[│�]$/, '').trimEnd());
    if (header) {
      close();
      const [, status, display, shown] = header as unknown as [string, string, string, string | undefined];
      const first = (shown ?? '').trim();
      open = { status, display, shown: first, output: [], command: display === 'Shell' && opensQuote(first) };
      continue;
    }
    if (open) {
      if (BOX_END.test(line)) {
        close();
        continue;
      }
      const inner = BOX_LINE.exec(line);
      if (inner && open.command) {
        // A multi-line command goes on inside the box until its quote closes.
        open.shown = `${open.shown}\n${unframe(inner[1] as string)}`;
        open.command = opensQuote(open.shown) && open.shown.length < 100_000;
        continue;
      }
      if (inner) {
        if (open.output.length < 100_000) open.output.push(unframe(inner[1] as string));
        continue;
      }
      close();
    }
    const prompt = PROMPT.exec(line.replace(/\s*[│�]$/, '').trimEnd());
    if (prompt) events.push(userEvent(prompt[1] as string));
  }
  close();
  return events;
}

/** Gemini CLI's runs in one terminal copy: one run per session. */
export function convertGeminiScreen(copy: string, source: RunSource, prefix: string): ConvertedRun[] {
  const shows = (lines: readonly string[]) => lines.some((line) => HEADER.test(line.replace(/\s*[│�]$/, '').trimEnd()));
  return sessionsOf(copy, 'gemini', shows).map((session, index) => {
    const events = geminiScreenEvents(session.lines);
    const calls = events.filter((event): event is CallEvent => event.type === 'call');
    const name = safeName(`${prefix}-${index + 1}`);
    const meta = metaEvent(name, `Gemini CLI session ${index + 1} of ${source.path} (terminal copy)`, source, toolList(calls, { run_shell_command: 'exec' }));
    return { name, events: [meta, ...events] };
  });
}
