/**
 * How the coding agents' shell tools frame a command's outcome in the text they return, where no
 * field of the result carries it, so that one outcome reads the same from every host:
 *
 * - Codex: a header above the output, `Exit code: N` (`shell`) or `Process exited with code N`
 *   (`exec_command`), with the wall time, a chunk id and a token count, then `Output:`;
 * - Gemini CLI (`run_shell_command`): `Output: …`, then `Exit Code: N` (always in its older block,
 *   which opens with `Command: …` and `Directory: …`; only when not 0 since), then the signal,
 *   background processes and process group;
 * - Claude Code (`Bash`): a failure's text opens with `Exit code N` (`Error: Exit code N` as its
 *   transcripts keep it).
 *
 * What is read is the exit status, and the command's own output without the frame: the wall time and
 * the process group differ on every run and say nothing about the command.
 */

/** A command's outcome as a host's frame gives it. */
export interface FramedOutcome {
  /** Undefined when the frame shows no status (a success, in a frame that writes only failures). */
  readonly exitCode?: number;
  /** What the command printed, without the frame. */
  readonly output: string;
}

/** Codex's header line with the exit status: `Exit code: 1` (shell), `Process exited with code 1` (exec). */
const CODEX_EXIT_LINE = /^(?:Exit code: |Process exited with code )(-?\d+)\s*$/m;
/** Where Codex's header ends and the command's output begins. */
const CODEX_OUTPUT_MARK = /^Output:\n/m;
/** Codex's header is a few short lines. */
const CODEX_HEADER_CHARS = 512;

/** The exit status and output of a text that opens with Codex's header (`…\nOutput:\n…`). */
export function codexHeader(text: string): (FramedOutcome & { readonly exitCode: number }) | undefined {
  const mark = CODEX_OUTPUT_MARK.exec(text.slice(0, CODEX_HEADER_CHARS));
  if (!mark) return undefined;
  const status = CODEX_EXIT_LINE.exec(text.slice(0, mark.index));
  if (!status) return undefined;
  return { exitCode: Number(status[1]), output: text.slice(mark.index + mark[0].length) };
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

/** A command's outcome from a host's frame around its output; undefined when no host's frame is there. */
export function framedShellOutcome(text: string): FramedOutcome | undefined {
  return codexHeader(text) ?? geminiFrame(text) ?? claudeCodeFrame(text);
}
