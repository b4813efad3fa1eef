/**
 * What a shell command's output says about how it ended, for the agents whose hook payloads give
 * the output but no exit status as a field: Codex (`tool_response` is the bare, truncated output),
 * Gemini CLI (`Exit Code: N` inside `llmContent`), Cursor's `afterShellExecution` (`output` only).
 *
 * Evidence, strongest first: an exit status the agent wrote into the text itself (Codex's
 * `Exit code: N` / `Process exited with code N` header, Gemini CLI's `Exit Code: N` trailer), then
 * the command's own failure lines (`npm error …`, `curl: (7) …`, `bash: x: command not found`),
 * anchored at the start of a line so that a file that merely mentions an error is not one.
 * Nothing found: the command is taken to have succeeded, as the agent itself reported it.
 */
import { hasFailureLine } from '../adapters/tool-call/failure-lines.js';
import { codexHeader, GEMINI_TRAILER, geminiFrame } from '../adapters/tool-call/shell-framing.js';
import type { HookToolResult } from './event.js';

/**
 * A shell command's result from its output text alone (Codex's `tool_response`, Cursor's
 * `afterShellExecution` output): the exit status in Codex's header where there is one, else a
 * failure when a failure line is there, else a success. The `command`, where the payload gives it,
 * tells a program the command runs from one a shell hook runs around it.
 */
export function shellOutputResult(text: string, command?: string): HookToolResult {
  const header = codexHeader(text);
  if (header) {
    const { exitCode, output } = header;
    return exitCode === 0
      ? { ok: true, content: output, exitCode }
      : { ok: false, error: output, content: output, exitCode };
  }
  return hasFailureLine(text, command)
    ? { ok: false, error: text, content: text }
    : { ok: true, content: text };
}

/**
 * How Gemini CLI's `run_shell_command` says it stopped a command that printed nothing for longer
 * than its inactivity timeout (packages/core/src/tools/shell.ts), with no `error` beside it: a
 * timeout, never a failure of the command.
 */
const GEMINI_TIMED_OUT = 'Command was automatically cancelled because it exceeded the timeout of ';
/** How it says the user stopped a command (before it started, or before it completed). */
export const GEMINI_CANCELLED_BY_USER = 'Command was cancelled by user before it could ';
/**
 * How it says a command has not ended yet: asked to run in the background and still running after
 * its short wait, or moved there while it ran (packages/core/src/tools/shell.ts). Its output so far
 * and its pid say nothing of how it will end.
 */
const GEMINI_STILL_RUNNING: readonly string[] = [
  'Command is running in background. PID: ',
  'Command moved to background (PID: ',
];

/** Whether `llmContent` (without its untrusted marks) says the command is still running. */
export function geminiStillRunning(llmContent: string): boolean {
  return GEMINI_STILL_RUNNING.some((words) => llmContent.startsWith(words));
}

/**
 * The signal line Gemini CLI adds when the command's process was ended by a signal (its number),
 * with no `Exit Code` line when the process reported no status: a command killed (out of memory,
 * by another process) or crashed, which did not complete.
 */
const GEMINI_SIGNAL_LINE = /\nSignal: \d+$/;

/**
 * Gemini CLI's `run_shell_command` result from its `llmContent`: `Output: …`, then `Exit Code: N`
 * when the command exited non-zero, then the signal, background pids and process group. What is
 * kept is the command's own output (empty when it printed `(empty)`): the pids, new on every run,
 * would make every result differ.
 */
export function geminiShellResult(llmContent: string): HookToolResult {
  if (llmContent.startsWith(GEMINI_TIMED_OUT)) {
    return { ok: false, error: llmContent, content: llmContent, timedOut: true };
  }
  const framed = geminiFrame(llmContent);
  if (framed !== undefined) {
    const { exitCode, output } = framed;
    if (exitCode !== undefined && exitCode !== 0)
      return { ok: false, error: output, content: output, exitCode };
    // Ended by a signal, with no exit status: it did not complete.
    if (exitCode === undefined && GEMINI_SIGNAL_LINE.test(output))
      return { ok: false, error: output, content: output };
    // Gemini CLI writes `Exit Code` whenever it is not 0: its own format without one is a success.
    return { ok: true, content: output };
  }
  // Not its own format: the exit status of a trailer, else the failure lines of the text.
  const trailer = GEMINI_TRAILER.exec(llmContent);
  const body = trailer ? llmContent.slice(0, trailer.index) : llmContent;
  const exitCode = trailer ? Number(trailer[1]) : undefined;
  if (exitCode !== undefined && exitCode !== 0) return { ok: false, error: body, content: body, exitCode };
  return hasFailureLine(body) ? { ok: false, error: body, content: body } : { ok: true, content: body };
}
