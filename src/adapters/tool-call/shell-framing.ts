/**
 * How the coding agents' shell tools frame a command's outcome in the text they return, where no
 * field of the result carries it, so that one outcome reads the same from every host:
 *
 * - Codex: a header above the output, `Exit code: N` (`shell`) or `Process exited with code N`
 *   (`exec_command`, and `write_stdin` once the command it types into has ended), or `Process running
 *   with session ID N` while it runs, with the wall time, a chunk id and a token count, then
 *   `Output:`; in its older versions a JSON object, `{"output": "…", "metadata": {"exit_code": N,
 *   "duration_seconds": …}}`;
 * - Gemini CLI (`run_shell_command`): `Output: …`, then `Exit Code: N` (always in its older block,
 *   which opens with `Command: …` and `Directory: …`; only when not 0 since), then the signal,
 *   background processes and process group;
 * - Claude Code (`Bash`): a failure's text opens with `Exit code N` (`Error: Exit code N` as its
 *   transcripts keep it);
 * - OpenHands (`execute_bash`, `terminal`): lines in brackets after the output, `[The command
 *   completed with exit code N.]`, the working directory, the Python interpreter and `[Command
 *   finished with exit code N]` (none of the exit lines while the command still runs), the whole
 *   behind `EXECUTION RESULT of [execute_bash]:` when the model calls tools in its text;
 * - mini-swe-agent (`bash`): `<returncode>N</returncode>`, then the output inside `<output>…</output>`
 *   (the head and tail of a long one inside tags of their own); a command it killed at its time limit
 *   `The last command <command>…</command> timed out and has been killed.`, then its output;
 * - Roo Code and the agents built on it (`execute_command`): `Command executed in terminal … within
 *   working directory '…'.`, then `Exit code: N` (on a line of its own after a failure's sentence
 *   saying it was not successful), then `Output:`;
 * - any other host that writes the status on a line of its own after the output (`Command exited
 *   with code 1`, `Process finished with exit code 2`, `Exit status: 127`), as an editor's terminal
 *   tool or an agent's own shell tool does.
 *
 * What is read is the exit status, and the command's own output without the frame: the wall time and
 * the process group differ on every run and say nothing about the command.
 */
import { isRecord } from './action-classes.js';

/** A command's outcome as a host's frame gives it. */
export interface FramedOutcome {
  /** Undefined when the frame shows no status (a success, in a frame that writes only failures). */
  readonly exitCode?: number;
  /** What the command printed, without the frame. */
  readonly output: string;
  /**
   * The frame says the host killed the command at its time limit: a failure with no status, whose
   * text (the frame's words included) says it timed out.
   */
  readonly timedOut?: true;
}

/** Codex's header line with the exit status: `Exit code: 1` (shell), `Process exited with code 1` (exec). */
const CODEX_EXIT_LINE = /^(?:Exit code: |Process exited with code )(-?\d+)\s*$/m;
/** Where Codex's header ends and the command's output begins. */
const CODEX_OUTPUT_MARK = /^Output:\n/m;
/** Codex's header is a few short lines. */
const CODEX_HEADER_CHARS = 512;

/** Codex's header line of a command still running when the call returned (`exec_command`, `write_stdin`). */
const CODEX_RUNNING_LINE = /^Process running with session ID \d+\s*$/m;

/** Codex's header and the output under it, for a text that opens with one (`…\nOutput:\n…`). */
function splitCodexHeader(text: string): { readonly header: string; readonly output: string } | undefined {
  const mark = CODEX_OUTPUT_MARK.exec(text.slice(0, CODEX_HEADER_CHARS));
  if (!mark) return undefined;
  return { header: text.slice(0, mark.index), output: text.slice(mark.index + mark[0].length) };
}

/** The exit status and output of a text that opens with Codex's header (`…\nOutput:\n…`). */
export function codexHeader(text: string): (FramedOutcome & { readonly exitCode: number }) | undefined {
  const frame = codexFrame(text);
  return frame?.exitCode === undefined ? undefined : { exitCode: frame.exitCode, output: frame.output };
}

/**
 * A command's outcome in Codex's header: its exit status and output once it ended; while it still
 * runs, only what it printed since it was last asked. The header's chunk id and wall time differ on
 * every call, and would make a poll whose command printed nothing new look answered anew.
 */
function codexFrame(text: string): FramedOutcome | undefined {
  const split = splitCodexHeader(text);
  if (split === undefined) return undefined;
  const status = CODEX_EXIT_LINE.exec(split.header);
  if (status !== null) return { exitCode: Number(status[1]), output: split.output };
  return CODEX_RUNNING_LINE.test(split.header) ? { output: split.output } : undefined;
}

/**
 * Gemini CLI's trailer after the output: `Exit Code: N` (after `Error: …` in the older block), then
 * only the signal, background processes and process group lines it may add.
 */
export const GEMINI_TRAILER =
  /\n(?:Error: [^\n]*\n)?Exit Code: (-?\d+)(?:\n(?:Signal: [^\n]*|Background PIDs: [^\n]*|Process Group PGID: (?:\d+|\(none\))))*\s*$/;
/** Lines of Gemini CLI's trailer that differ on every run and say nothing about the command. */
const GEMINI_VOLATILE_TRAILER = /\n(?:Background PIDs: [^\n]*|Process Group PGID: (?:\d+|\(none\)))(?=\n|$)/g;
/** The older block's first lines: the command as run and where. */
const GEMINI_COMMAND_LINE = 'Command: ';
const GEMINI_DIRECTORY_LINE = '\nDirectory: ';
const GEMINI_OUTPUT = 'Output: ';
/** What Gemini CLI writes for a command that printed nothing. */
const GEMINI_EMPTY = '(empty)';

/**
 * The exit status and output of a text in Gemini CLI's frame: `Output: …` after the older block's
 * `Command:` and `Directory:` lines if any, then its trailer. Undefined for any other text.
 */
export function geminiFrame(text: string): FramedOutcome | undefined {
  let start = 0;
  if (text.startsWith(GEMINI_COMMAND_LINE)) {
    const directory = text.indexOf(GEMINI_DIRECTORY_LINE);
    if (directory < 0) return undefined;
    const lineEnd = text.indexOf('\n', directory + 1);
    if (lineEnd < 0) return undefined;
    start = lineEnd + 1;
  }
  if (!text.startsWith(GEMINI_OUTPUT, start)) return undefined;
  const trailer = GEMINI_TRAILER.exec(text);
  const end = trailer && trailer.index >= start ? trailer.index : undefined;
  const body =
    end === undefined ? text.slice(start).replace(GEMINI_VOLATILE_TRAILER, '') : text.slice(start, end);
  const output = body.slice(GEMINI_OUTPUT.length);
  return {
    ...(end !== undefined && trailer && { exitCode: Number(trailer[1]) }),
    output: output === GEMINI_EMPTY ? '' : output,
  };
}

/** Claude Code's first line of a failed command's text (`Exit code 1`; `Error: Exit code 1` in its transcripts). */
const CLAUDE_CODE_EXIT_LINE = /^(?:Error: )?Exit code (-?\d+)(?:\n|$)/;

/** The exit status and output of a text that opens with Claude Code's `Exit code N` line. */
function claudeCodeFrame(text: string): FramedOutcome | undefined {
  const line = CLAUDE_CODE_EXIT_LINE.exec(text);
  return line ? { exitCode: Number(line[1]), output: text.slice(line[0].length) } : undefined;
}

/** mini-swe-agent's words for a command it killed at its time limit, the command between them. */
const MINI_TIMEOUT_OPENING = 'The last command <command>';
const MINI_TIMEOUT_CLOSING = '</command> timed out and has been killed.';

function miniSweAgentTimeout(text: string): FramedOutcome | undefined {
  if (!text.startsWith(MINI_TIMEOUT_OPENING)) return undefined;
  return text.includes(MINI_TIMEOUT_CLOSING, MINI_TIMEOUT_OPENING.length)
    ? { output: text, timedOut: true }
    : undefined;
}

/** Codex's older answer: a JSON object with the output and, in its metadata, the exit status. */
const CODEX_JSON_OPENING = '{"output":';

function codexJsonFrame(text: string): FramedOutcome | undefined {
  if (!text.startsWith(CODEX_JSON_OPENING)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const { output, metadata } = parsed;
  const exitCode = isRecord(metadata) ? metadata.exit_code : undefined;
  if (typeof output !== 'string' || typeof exitCode !== 'number' || !Number.isInteger(exitCode)) {
    return undefined;
  }
  return { exitCode, output };
}

/** OpenHands' opening when the model calls its tools in its text rather than as tool calls. */
const OPENHANDS_PROMPTED = /^EXECUTION RESULT of \[[\w.-]{1,64}\]:\n/;
/** One of the bracketed lines OpenHands writes after a command's output; the exit status in the first two. */
const OPENHANDS_LINE =
  /^\[(?:The command completed with exit code (-?\d+)\.|Command finished with exit code (-?\d+)|Current working directory: [^\n]*|Python interpreter: [^\n]*)\]$/;
/** OpenHands writes four such lines at most, each short but for a long path. */
const OPENHANDS_TRAILER_LINES = 4;
const OPENHANDS_LINE_CHARS = 1_024;

/**
 * The exit status and output of a text that ends with OpenHands' bracketed lines, at least one of
 * them an exit line. Undefined for any other text, and for a command that has not ended (its lines
 * say it timed out or printed nothing new, and give no status).
 */
function openHandsFrame(text: string): FramedOutcome | undefined {
  let end = text.trimEnd().length;
  let exitCode: number | undefined;
  for (let lines = 0; lines < OPENHANDS_TRAILER_LINES && text.charAt(end - 1) === ']'; lines++) {
    const window = text.slice(Math.max(0, end - OPENHANDS_LINE_CHARS), end);
    const newline = window.lastIndexOf('\n');
    if (newline < 0 && window.length < end) break;
    const start = end - window.length + newline + 1;
    const line = OPENHANDS_LINE.exec(text.slice(start, end));
    if (!line) break;
    const code = line[1] ?? line[2];
    if (code !== undefined) exitCode ??= Number(code);
    end = Math.max(0, start - 1);
  }
  if (exitCode === undefined) return undefined;
  const prompted = OPENHANDS_PROMPTED.exec(text);
  return { exitCode, output: text.slice(prompted ? Math.min(prompted[0].length, end) : 0, end) };
}

/** mini-swe-agent's status line, and the tags around an output short enough to be shown whole. */
const MINI_RETURN_CODE = /^<returncode>(-?\d+)<\/returncode>\n?/;
const MINI_OUTPUT = /^<output>\n?([\s\S]*?)\n?<\/output>\s*$/;

function miniSweAgentFrame(text: string): FramedOutcome | undefined {
  const status = MINI_RETURN_CODE.exec(text);
  if (!status) return undefined;
  const body = text.slice(status[0].length);
  const whole = MINI_OUTPUT.exec(body);
  return { exitCode: Number(status[1]), output: whole ? (whole[1] ?? '') : body };
}

/** Roo Code's header, up to `Output:`: the terminal, the working directory, and how the command ended. */
const ROO_CODE_OPENING = 'Command executed in terminal';
const ROO_CODE_HEADER =
  /^Command executed in terminal\b[^\n]* within working directory '[^\n]*'\. (?:Command execution was not successful, inspect the cause and adjust as needed\.\n)?(?:Exit code: (?:(-?\d+)|[^\n]*)\n|Process terminated by signal [^\n]*\n)?Output:(?:\n|$)/;
/** The header is two lines; the working directory is the only long part. */
const ROO_CODE_HEADER_CHARS = 2_048;

function rooCodeFrame(text: string): FramedOutcome | undefined {
  if (!text.startsWith(ROO_CODE_OPENING)) return undefined;
  const header = ROO_CODE_HEADER.exec(text.slice(0, ROO_CODE_HEADER_CHARS));
  if (!header) return undefined;
  const output = text.slice(header[0].length);
  return header[1] === undefined ? { output } : { exitCode: Number(header[1]), output };
}

/**
 * A last line that says how the command ended, after its output: `Command exited with code 1`,
 * `[Process completed with exit code 2]`, `Exit code: 127`, `exit status 1`. Read from the last
 * characters only; a line of the command's own that says so is read alike, as its status. A text
 * that is that line alone is left as it is: no output was framed.
 */
const TRAILING_STATUS =
  /\n[^\S\n]*\[?(?:(?:the )?(?:command|process|program|script) (?:exited|finished|completed|ended|terminated|failed) with (?:an? )?(?:exit )?(?:code|status)|exit (?:code|status))[:=]?[^\S\n]*(-?\d{1,3})\.?\]?[^\S\n]*\n*$/i;
const TRAILING_STATUS_CHARS = 160;

function trailingStatusFrame(text: string): FramedOutcome | undefined {
  const from = Math.max(0, text.length - TRAILING_STATUS_CHARS);
  const status = TRAILING_STATUS.exec(text.slice(from));
  if (!status) return undefined;
  return { exitCode: Number(status[1]), output: text.slice(0, from + status.index).trimEnd() };
}

/** How the frames that open the text begin: `Exit code`, `Chunk ID`, `Command`, `Wall time`, `Process exited`, `Output:`, `<returncode>`, `The last command`, `{"output":`. */
const FRAME_OPENINGS = new Set(['E', 'C', 'W', 'P', 'O', '<', 'T', '{']);

/**
 * A command's outcome from a host's frame around its output; undefined when no host's frame is there.
 * OpenHands' lines come after everything else the text holds, so they are read first; a status line
 * of any other host's after the output, last.
 */
export function framedShellOutcome(text: string): FramedOutcome | undefined {
  const trailed = openHandsFrame(text);
  if (trailed !== undefined) return trailed;
  const opened = FRAME_OPENINGS.has(text.charAt(0))
    ? (rooCodeFrame(text) ??
      codexFrame(text) ??
      geminiFrame(text) ??
      claudeCodeFrame(text) ??
      miniSweAgentFrame(text) ??
      miniSweAgentTimeout(text) ??
      codexJsonFrame(text))
    : undefined;
  return opened ?? trailingStatusFrame(text);
}
