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
import { codexHeader, GEMINI_TRAILER, geminiFrame } from '../adapters/tool-call/shell-framing.js';
import type { HookToolResult } from './event.js';

/**
 * Lines a failing command prints about itself. Each is anchored at the start of a line and names
 * the program or the shape only a failure has: `cat notes.md` printing "error" in prose is none.
 */
const FAILURE_LINES: readonly RegExp[] = [
  // npm (7+ and older), pnpm, yarn.
  /^npm (?:error|ERR!) /m,
  /^\s*ERR_PNPM_[A-Z_]+/m,
  /^error Command failed with exit code \d+/m,
  // The shell could not run what it was given.
  /^(?:[\w/.-]*(?:sh|bash|zsh)(?:: line \d+)?|\/bin\/sh: \d+): .+: (?:command not found|not found|No such file or directory|Permission denied)\s*$/m,
  // A tool that could not open what it was told to (`cat: a.txt: No such file or directory`).
  /^[\w.+-]+: (?:cannot (?:access|open|stat) )?.+: No such file or directory\s*$/m,
  // Network clients that could not reach their server.
  /^curl: \(\d+\) /m,
  /^wget: unable to resolve host address/m,
  /^ssh: (?:connect to host|Could not resolve hostname) /m,
  // git and compilers (`fatal: not a git repository`, `error: pathspec …`, `error[E0425]: …`).
  /^fatal: /m,
  /^error(?:\[[A-Z]?\d+\])?: /m,
  /^(?:.+[:(]\d+[,:]\d+\)?:? -? ?)?error TS\d+: /m,
  /^make(?:\[\d+\])?: \*\*\* /m,
  // Uncaught exceptions: Python's traceback, Node's error with its stack.
  /^Traceback \(most recent call last\):\s*$/m,
  /^(?:Uncaught )?[A-Z]\w*Error(?: \[[A-Z_]+\])?: .*\n(?:.*\n){0,3}?\s+at /m,
  // Test runners' verdicts (jest/vitest `FAIL`, pytest `FAILED` and its summary line).
  /^ ?FAIL +\S/m,
  /^FAILED \S/m,
  /^=+ .*\b\d+ failed\b.* =+\s*$/m,
  /^\s*Tests?(?: Files)?:?\s+.*\b\d+ failed\b/m,
  // A count of failed tests alone on its line (Playwright `  1 failed`, Mocha `  1 failing`, bun ` 1 fail`).
  /^ {0,4}[1-9]\d* (?:failed|failing|fail)\s*$/m,
  // go test (`--- FAIL: TestX`, `FAIL<TAB>package`), cargo (`test result: FAILED.`), RSpec
  // (`5 examples, 1 failure`), PHPUnit (`FAILURES!`, `ERRORS!`), dotnet (`Failed!  - Failed: 1`).
  /^--- FAIL: \S/m,
  /^FAIL\t\S/m,
  /^test result: FAILED\./m,
  /^\d+ examples?, [1-9]\d* failures?\b/m,
  /^(?:FAILURES|ERRORS)!\s*$/m,
  /^\s*Failed! +- Failed: +[1-9]/m,
  // Codex's apply_patch refusing a patch.
  /^apply_patch verification failed: /m,
  /^Failed to find expected lines /m,
  /^Invalid patch/m,
];

/** A terminal's control sequences (colours, cursor moves, line erasing): `ESC [ … letter`. */
const TERMINAL_CODES = /\u001b\[[0-?]*[ -/]*[@-~]/g;
/** The longest part of an output read for failure lines: a command's own diagnostics are at its ends. */
const SCAN_CHARS = 16 * 1024;

/** True when the text holds a line only a failing command prints. */
export function hasFailureLine(text: string): boolean {
  const ends =
    text.length <= 2 * SCAN_CHARS ? text : `${text.slice(0, SCAN_CHARS)}\n${text.slice(-SCAN_CHARS)}`;
  // Colours and the cursor moves a reporter redraws its line with come before the line's words.
  const scanned = ends.replace(TERMINAL_CODES, '');
  return FAILURE_LINES.some((pattern) => pattern.test(scanned));
}

/**
 * A shell command's result from its output text alone (Codex's `tool_response`, Cursor's
 * `afterShellExecution` output): the exit status in Codex's header where there is one, else a
 * failure when a failure line is there, else a success.
 */
export function shellOutputResult(text: string): HookToolResult {
  const header = codexHeader(text);
  if (header) {
    const { exitCode, output } = header;
    return exitCode === 0
      ? { ok: true, content: output, exitCode }
      : { ok: false, error: output, content: output, exitCode };
  }
  return hasFailureLine(text) ? { ok: false, error: text, content: text } : { ok: true, content: text };
}

/**
 * Gemini CLI's `run_shell_command` result from its `llmContent`: `Output: …`, then `Exit Code: N`
 * when the command exited non-zero, then the signal, background pids and process group. What is
 * kept is the command's own output (empty when it printed `(empty)`): the pids, new on every run,
 * would make every result differ.
 */
export function geminiShellResult(llmContent: string): HookToolResult {
  const framed = geminiFrame(llmContent);
  if (framed !== undefined) {
    const { exitCode, output } = framed;
    if (exitCode !== undefined && exitCode !== 0)
      return { ok: false, error: output, content: output, exitCode };
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
