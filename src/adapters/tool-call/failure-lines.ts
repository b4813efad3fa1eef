/**
 * What a shell command's output says about how it ended, where nothing else does: the lines a
 * failing command prints about itself, each anchored at the start of a line and naming the program
 * or the shape only a failure has, so that `cat notes.md` printing "error" in prose is none.
 *
 * Two kinds. Lines that say the command could not run or stopped short (the shell found no such
 * program, a file was not there, git's `fatal:`, a compiler's `error:`, Python's traceback, a script
 * Python, Node or PowerShell could not parse): the adapter reads these in any command's result that
 * gives no exit status (Cursor gives the output alone), as the same outcome framed with a status
 * would be a failure. Lines that report failures inside a run that went on (a test runner's failed
 * tests, npm's and pnpm's errors, TypeScript's diagnostics, curl's connection errors) are printed
 * under a success as often (through `| tail`, by a script that carries on, by a run between two
 * edits): only the hooks of the hosts known to give no status at all read them too.
 */

import { programName } from './program-name.js';
import { statusProgram } from './shell-parse.js';
import { endsOf } from './text-ends.js';

/**
 * A line's start is followed by white space that stays on the line (`[^\S\n\r\u2028\u2029]*`), never
 * `\s*`: from each of a run of blank lines, `\s*` would read the rest of the run again (see
 * `LINE_INDENT` in `./signatures/vocabulary.ts`).
 *
 * A kind of line, with words any such line holds: an output without any of them is not read for it
 * (a cheap search for a word, where a pattern anchored at every line's start is tried at every
 * character of the output).
 */
interface FailureLine {
  readonly words: readonly string[];
  readonly line: RegExp;
}

/** A command that could not run, or stopped at once. */
const COULD_NOT_RUN: readonly FailureLine[] = [
  // yarn's own line for a script that failed.
  { words: ['error Command failed'], line: /^error Command failed with exit code \d+/m },
  // pnpm's code for why it stopped (`ERR_PNPM_NO_IMPORTER_MANIFEST_FOUND`, `ERR_PNPM_NO_SCRIPT`,
  // `ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL`): it prints one only as it exits with an error.
  { words: ['ERR_PNPM_'], line: /^[^\S\n\r\u2028\u2029]*ERR_PNPM_[A-Z_]+/m },
  // The shell could not run what it was given, or could not read it.
  {
    words: ['not found', 'No such file or directory', 'Permission denied'],
    line: /^(?:[\w/.-]*(?:sh|bash|zsh)(?:: line \d+)?|\/bin\/sh: \d+): .+: (?:command not found|not found|No such file or directory|Permission denied)\s*$/m,
  },
  {
    words: ['syntax error', 'unexpected EOF'],
    line: /^[\w/.-]*(?:sh|bash|zsh): (?:-c: )?line \d+: (?:syntax error|unexpected EOF while looking for matching)/m,
  },
  // A tool that could not open what it was told to (`cat: a.txt: No such file or directory`,
  // `python3: can't open file 'a.py': [Errno 2] No such file or directory`).
  // The tool may be named by its path, or with the part of it that failed (`/usr/bin/ld: cannot
  // find x: …`, `tar (child): x.tar.gz: Cannot open: …`).
  // Rust's tools add the error's number (`rg: docs: No such file or directory (os error 2)`).
  // A path with a file where a folder should be is the same (`ls: cannot access 'a.sql/': Not a
  // directory`).
  {
    words: ['No such file or directory', 'Not a directory'],
    line: /^[\w./+-]+(?: \([\w -]+\))?: (?:cannot (?:access|open|stat) )?.+: (?:No such file or directory|Not a directory)(?: \(os error \d+\))?\s*$/m,
  },
  // PowerShell's cmdlet that could not find the path it was given (`cd : Cannot find path
  // 'D:\app\src' because it does not exist.`, `Get-Content: Cannot find path …` in PowerShell 7).
  {
    words: ['Cannot find path'],
    line: /^[A-Za-z][\w-]* ?: Cannot find path '[^'\n]+' because it does not exist\./m,
  },
  // A program the system refused what it asked for (`hostname: Operation not permitted`).
  { words: ['Operation not permitted'], line: /^[\w./+-]+: (?:.+: )?Operation not permitted\s*$/m },
  // A program that refused the data it was given (`base64: invalid input`).
  { words: ['invalid input'], line: /^[\w.+-]+: invalid input\s*$/m },
  // sudo, asked for a password nobody can type.
  {
    words: ['sudo: '],
    line: /^sudo: (?:a password is required|no tty present and no askpass program specified|a terminal is required to read the password|\d+ incorrect password attempts?)/m,
  },
  // A program that refused its command line (`grep: unrecognized option '--script'`, `rg:
  // unrecognized flag -`), or said it stopped with an error of its own (`collect2: error: ld
  // returned 1 exit status`, argparse's `prog: error: …`).
  {
    words: ['unrecognized', 'invalid option', 'unknown option'],
    line: /^[A-Za-z][\w.+-]*: (?:unrecognized|invalid|unknown) (?:option|flag)\b/m,
  },
  { words: ['error: '], line: /^[A-Za-z][\w.+-]*: (?:fatal )?error: /m },
  // A compiler's diagnostic on a line of a source file (gcc's and clang's `src/main.c:12:5: error:
  // expected ';'`, javac's `Main.java:5: error: cannot find symbol`): the build stopped there.
  {
    words: [': error: ', ': fatal error: '],
    line: /^[^\s:]+\.[A-Za-z]\w*:\d+(?::\d+)?: (?:fatal )?error: /m,
  },
  // zsh could not change to the folder a command chain starts in (`(eval):cd:1: no such file or
  // directory: x`). Its missing program counts only where the command names it (`missedProgram`): a
  // shell hook prints `zsh:1: command not found: …` under any command.
  {
    words: ['no such file or directory: ', 'not a directory: ', 'permission denied: '],
    line: /^(?:\(eval\)|[\w/.-]*zsh):cd:\d+: (?:no such file or directory|not a directory|permission denied): /m,
  },
  // zsh could not read the command line or expand it (`zsh:1: no matches found: *.log`, `zsh:1:
  // unmatched "`, `zsh:1: parse error near \`)'`), or run the file it names (`zsh:1: permission
  // denied: ./build.sh`): nothing of the command ran.
  {
    words: [
      'no matches found: ',
      'unmatched ',
      'parse error near ',
      'bad pattern: ',
      'permission denied: ',
      'no such file or directory: ',
    ],
    line: /^[\w/.-]*zsh:\d+: (?:no matches found: |unmatched |parse error near |bad pattern: |permission denied: |no such file or directory: )/m,
  },
  { words: ["can't open file"], line: /^[\w.+-]+: can't open file .+: \[Errno \d+\] /m },
  // Network clients that could not resolve or reach their host.
  { words: ['wget: '], line: /^wget: unable to resolve host address/m },
  { words: ['ssh: '], line: /^ssh: (?:connect to host|Could not resolve hostname) /m },
  // git and compilers (`fatal: not a git repository`, `error: pathspec …`, `error[E0425]: …`).
  { words: ['fatal: '], line: /^fatal: /m },
  { words: ['error'], line: /^error(?:\[[A-Z]?\d+\])?: /m },
  { words: ['***'], line: /^make(?:\[\d+\])?: \*\*\* /m },
  // Python's uncaught exception, also after a prompt the script printed without a line's end.
  {
    words: ['Traceback'],
    line: /^Traceback \(most recent call last\):\s*$|Traceback \(most recent call last\):\n\s+File "/m,
  },
  // Python could not compile the script, so none of it ran: the report names the file and the line,
  // shows that line (with a caret under the fault), and ends with the error; it has no traceback's
  // header, which only an error raised while running prints.
  {
    words: ['SyntaxError: ', 'IndentationError: ', 'TabError: '],
    line: /^ {2}File "[^"\n]+", line \d+\r?\n(?:.*\r?\n){0,3}?(?:SyntaxError|IndentationError|TabError): /m,
  },
  // Node could not compile the script it was given, so none of it ran: the error's first frame is
  // Node's own loader (`SyntaxError: missing ) after argument list` over `at wrapSafe
  // (node:internal/modules/cjs/loader:1464:18)`); one a running script threw starts in its code.
  { words: ['SyntaxError: '], line: /^SyntaxError: .*\r?\n[ \t]+at [^\n]*\(?node:internal\//m },
  // PowerShell could not parse the command line, so none of it ran: Windows PowerShell's error record
  // (`+ CategoryInfo : ParserError: (:) [], …`) or PowerShell 7's (`ParserError:` over `Line |`).
  {
    words: ['ParserError'],
    line: /^[ \t]*\+ CategoryInfo[ \t]*: ParserError: |^ParserError:[ \t]*\r?\nLine \|/m,
  },
  // A database's shell that could not run the statement it was given: SQLite's (`Parse error: near
  // "SELEC": syntax error`, `Error: in prepare, no such table: users`, older `Error: near "x": …` and
  // `Error: no such column: x`), MySQL's client's (`ERROR 1146 (42S02) at line 1: Table 'shop.x'
  // doesn't exist`), PostgreSQL's psql (`ERROR:  relation "users" does not exist`, its two spaces,
  // or `psql:init.sql:3: ERROR:  …`).
  {
    words: ['Parse error', 'Runtime error', 'Error: '],
    line: /^(?:(?:Parse|Runtime) error(?: near line \d+)?: |Error: (?:near line \d+: )?(?:in prepare, |near "|no such (?:table|column|function): ))/m,
  },
  { words: ['ERROR '], line: /^ERROR \d{4} \([0-9A-Z]{5}\)(?: at line \d+)?: /m },
  { words: ['ERROR:  '], line: /^(?:psql:[^\n:]+:\d+: )?ERROR: {2}\S/m },
  // Go's build that stopped at a package's errors (`# example.com/shop/cart` over `cart/total.go:12:5:
  // undefined: Discount`).
  { words: ['.go:'], line: /^# \S+\r?\n[^\s:]+\.go:\d+:\d+: /m },
  // pip refusing what it was asked to install (`ERROR: Could not find a version that satisfies the
  // requirement torch==2.9.9`, `ERROR: No matching distribution found for …`).
  {
    words: ['ERROR: '],
    line: /^ERROR: (?:Could not find a version that satisfies|No matching distribution found|Could not open requirements file|Invalid requirement|Could not install packages|Cannot install )/m,
  },
  // Docker's daemon refusing what the command asked of it (`Error response from daemon: No such
  // container: api`, `docker: Error response from daemon: pull access denied for …`).
  { words: ['Error response from daemon: '], line: /^(?:docker: )?Error response from daemon: /m },
  // A build tool's own verdict that the build stopped: Vite's `error during build:`, Rollup's `[!]
  // Error: …`, esbuild's `✘ [ERROR] …`, webpack's `webpack 5.90.1 compiled with 2 errors`, Next.js's
  // `Failed to compile.`, Gradle's `FAILURE: Build failed with an exception.` and `BUILD FAILED in
  // 3s`, Maven's `[INFO] BUILD FAILURE`, MSBuild's `Build FAILED.`, Xcode's `** BUILD FAILED **`,
  // CMake's `CMake Error at …`, Ninja's `ninja: build stopped: …`. Each is printed once, when the
  // build ends without making what it builds.
  {
    words: [
      'error during build',
      '[!] ',
      '[ERROR]',
      'compiled with',
      'Failed to compile',
      'FAIL',
      'Build failed',
      'CMake Error',
      'build stopped',
    ],
    line: /^(?:error during build:|\[!\] (?:\w+)?Error: |✘ \[ERROR\] |webpack(?: [\d.]+)? compiled with [1-9]\d* errors?|Failed to compile\.|FAILURE: Build failed with an exception\.|BUILD FAILED in |\[(?:INFO|ERROR)\] BUILD FAILURE\s*$|Build FAILED\.\s*$|\*\* (?:BUILD|ARCHIVE) FAILED \*\*|CMake Error(?: at |:)|ninja: build stopped: )/m,
  },
  // Codex's apply_patch refusing a patch.
  { words: ['apply_patch'], line: /^apply_patch verification failed: /m },
  { words: ['Failed to find'], line: /^Failed to find expected lines /m },
  { words: ['Invalid patch'], line: /^Invalid patch/m },
];

/** Failures reported by a run that went on: as often printed under a success. */
const REPORTED_FAILURES: readonly RegExp[] = [
  // npm (7+ and older).
  /^npm (?:error|ERR!) /m,
  /^curl: \(\d+\) /m,
  /^(?:.+[:(]\d+[,:]\d+\)?:? -? ?)?error TS\d+: /m,
  // Node's error with its stack.
  /^(?:Uncaught )?[A-Z]\w*Error(?: \[[A-Z_]+\])?: .*\n(?:.*\n){0,3}?\s+at /m,
  // Test runners' verdicts (jest/vitest `FAIL`, pytest `FAILED` and its summary line).
  /^ ?FAIL +\S/m,
  /^FAILED \S/m,
  /^=+ (?=.*?(?<!\w)\d+ failed\b)(?=.* =+\s*$)/m,
  /^[^\S\n\r\u2028\u2029]*Tests?(?: Files)?:?(?=(\s+))\1.*?(?<!\w)\d+ failed\b/m,
  // A count of failed tests alone on its line (Playwright `  1 failed`, Mocha `  1 failing`, bun ` 1 fail`).
  /^ {0,4}[1-9]\d* (?:failed|failing|fail)\s*$/m,
  // go test (`--- FAIL: TestX`, `FAIL<TAB>package`), cargo (`test result: FAILED.`), RSpec
  // (`5 examples, 1 failure`), PHPUnit (`FAILURES!`, `ERRORS!`), dotnet (`Failed!  - Failed: 1`).
  /^--- FAIL: \S/m,
  /^FAIL\t\S/m,
  /^test result: FAILED\./m,
  /^\d+ examples?, [1-9]\d* failures?\b/m,
  /^(?:FAILURES|ERRORS)!\s*$/m,
  /^[^\S\n\r\u2028\u2029]*Failed! +- Failed: +[1-9]/m,
];

const ANY_FAILURE_LINE: readonly FailureLine[] = [
  ...COULD_NOT_RUN,
  ...REPORTED_FAILURES.map((line) => ({ words: [], line })),
];

/** A terminal's control sequences (colours, cursor moves, line erasing): `ESC [ … letter`. */
const TERMINAL_CODES = /\u001b\[[0-?]*[ -/]*[@-~]/g;
/** The longest part of an output read for failure lines: a command's own diagnostics are at its ends. */
const SCAN_CHARS = 16 * 1024;

/** The part of an output read for failure lines, without a terminal's control sequences. */
function scannedPart(text: string): string {
  const ends = endsOf(text, SCAN_CHARS);
  // Colours and the cursor moves a reporter redraws its line with come before the line's words.
  return ends.includes('\u001b') ? ends.replace(TERMINAL_CODES, '') : ends;
}

function hasLine(scanned: string, lines: readonly FailureLine[]): boolean {
  return lines.some(
    ({ words, line }) =>
      (words.length === 0 || words.some((word) => scanned.includes(word))) && line.test(scanned),
  );
}

/**
 * A shell's line for a program it could not find: zsh's (`zsh:1: command not found: vercel`) and
 * PowerShell's (`psql : The term 'psql' is not recognized as the name of a cmdlet, …`).
 */
const NOT_FOUND_LINES: readonly RegExp[] = [
  /^[\w/.-]*zsh:\d+: command not found: (\S+)\s*$/gm,
  /^\S+ : The term '([^'\n]+)' is not recognized as the name of a cmdlet/gm,
];
const NOT_FOUND_WORDS = ['command not found: ', 'is not recognized as the name of a cmdlet'];
/** What may stand on either side of a program's name where a command runs it. */
const BEFORE_PROGRAM = new Set(['', ' ', '\t', '\n', '|', ';', '&', '(', '`']);
const AFTER_PROGRAM = new Set(['', ' ', '\t', '\n', '|', ';', '&', ')', '`']);

/** Whether `name` stands in the command as a word of its own, where a program's name stands. */
function namesProgram(command: string, name: string): boolean {
  for (let at = command.indexOf(name); at >= 0; at = command.indexOf(name, at + 1)) {
    if (BEFORE_PROGRAM.has(command.charAt(at - 1)) && AFTER_PROGRAM.has(command.charAt(at + name.length)))
      return true;
  }
  return false;
}

/**
 * Whether the shell says it could not find a program the command itself names (`vercel --version`,
 * then `zsh:1: command not found: vercel`). A shell hook's own function, missing under any command
 * (`zsh:1: command not found: dump_zsh_state`), is not the command's, and says nothing of it.
 */
function missedProgram(scanned: string, command: string | undefined): boolean {
  if (command === undefined || !NOT_FOUND_WORDS.some((word) => scanned.includes(word))) return false;
  for (const line of NOT_FOUND_LINES) {
    for (const match of scanned.matchAll(line)) {
      if (namesProgram(command, match[1] ?? '')) return true;
    }
  }
  return false;
}

/**
 * Every shell's line for a program it could not find, with the name it looked for: bash's and sh's
 * (`bash: line 1: vercel: command not found`, `/bin/sh: 1: vercel: not found`, `bash: ./run.sh: No
 * such file or directory` for one run by its path), zsh's (`zsh:1: command not found: vercel`, and
 * `(eval):1: …` where a host runs the line through `eval`), fish's, PowerShell's (5 and 7) and cmd's
 * (`'vercel' is not recognized as an internal or external command`). Each reads one line.
 */
const PROGRAM_NOT_FOUND_LINES: readonly RegExp[] = [
  /^(?:[\w/.-]*(?:sh|bash)(?:: line \d+)?|[\w/.-]*sh: \d+): ([^\s:]+): (?:command not found|not found|No such file or directory)\s*$/,
  /^(?:[\w/.-]*zsh|\(eval\)):(?:\d+:)? command not found: (\S+)\s*$/,
  /^fish: Unknown command:? '?([^\s']+)'?\s*$/,
  /^(?:\S+ ?: )?The term '([^'\n]+)' is not recognized as (?:the|a) name of a cmdlet/,
  /^'([^'\n]+)' is not recognized as an internal or external command/,
];
/** Characters of a long output's head, and of its tail, read for a program not found. */
const PROGRAM_NOT_FOUND_READ = 4_096;
/** Lines naming the program that are read, and the longest read. */
const MAX_PROGRAM_LINES = 16;
const MAX_PROGRAM_LINE = 1_000;

/**
 * Whether the shell says it could not find `program`, the one the command line runs (`apply_patch -h`,
 * then `bash: apply_patch: command not found`; by its path, `./bin/apply_patch: No such file or
 * directory`): the agent named a program that is not there. Another program missing (one a script's
 * later line runs, a build's own step, a hook's) is not the command's. Only the lines that name the
 * program are read, so an output that never does costs one search for the name.
 */
export function programNotFound(output: string, program: string): boolean {
  if (program === '') return false;
  // A shell says so first or last: the head and the tail of a long output are read.
  const scanned = endsOf(output, PROGRAM_NOT_FOUND_READ);
  let from = 0;
  for (let lines = 0; lines < MAX_PROGRAM_LINES; lines++) {
    const at = scanned.indexOf(program, from);
    if (at < 0) return false;
    const start = scanned.lastIndexOf('\n', at) + 1;
    const newline = scanned.indexOf('\n', at);
    const end = newline < 0 ? scanned.length : newline;
    if (end - start <= MAX_PROGRAM_LINE && saysNotFound(scanned.slice(start, end), program)) return true;
    from = end + 1;
  }
  return false;
}

/** Whether `line` is a shell's line saying it could not find `program`, by name or by a path to it. */
function saysNotFound(line: string, program: string): boolean {
  for (const pattern of PROGRAM_NOT_FOUND_LINES) {
    const name = pattern.exec(line)?.[1];
    if (name === program || name?.endsWith(`/${program}`) || name?.endsWith(`\\${program}`)) return true;
  }
  return false;
}

/**
 * A line a script prints about one of its own lines (`/opt/homebrew/…/shellenv.sh: line 18: /bin/ps:
 * Operation not permitted`, `/home/dev/.bash_profile: line 1: souce: command not found`), by the
 * script's absolute path.
 */
const SCRIPT_LINE = /^(\/[^\n:]*\/([^\n/:]+)): line \d+: [^\n]*(?:\n|$)/;
/** The shells themselves: their complaints are about the command line they were given. */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);
/** At most this many such lines are read as a start-up's. */
const MAX_STARTUP_LINES = 8;

/**
 * The output without the lines a script the shell ran before the command (a profile, a file it
 * sources at start-up) printed at its head, when the command does not name that script: they are
 * the shell's, printed the same way under every command, and say nothing of how the command went.
 * A shell's own complaint (`/bin/bash: line 1: …`) and a script the command runs by name stay.
 */
export function withoutStartupLines(scanned: string, command: string | undefined): string {
  if (command === undefined || scanned.charAt(0) !== '/') return scanned;
  let rest = scanned;
  for (let lines = 0; lines < MAX_STARTUP_LINES; lines++) {
    const match = SCRIPT_LINE.exec(rest);
    const name = match?.[2];
    if (match === null || name === undefined || SHELLS.has(name) || command.includes(name)) break;
    rest = rest.slice(match[0].length);
  }
  return rest;
}

/**
 * True when the text holds a line only a failing command prints, of either kind; `command`, where
 * known, lets a program the shell could not find count only when the command names it, and leaves
 * out what the shell's start-up printed ahead of the command's output.
 */
export function hasFailureLine(text: string, command?: string): boolean {
  const scanned = withoutStartupLines(scannedPart(text), command);
  return hasLine(scanned, ANY_FAILURE_LINE) || missedProgram(scanned, command);
}

/** True when the text holds a line a command prints when it could not run or stopped at once. */
export function hasCouldNotRunLine(text: string, command?: string): boolean {
  const scanned = withoutStartupLines(scannedPart(text), command);
  return hasLine(scanned, COULD_NOT_RUN) || missedProgram(scanned, command) || clientFailed(scanned, command);
}

/**
 * A network client's own line for a transfer that failed (`curl: (22) The requested URL returned
 * error: 404`, wget's `2026-01-31 10:42:17 ERROR 404: Not Found.`), by the client's name. Such a
 * line is printed under a success as often (a script that goes on, `curl … || echo down`), so it
 * says how the command ended only where the line's status is the client's (see `statusProgram`).
 */
const CLIENT_FAILURE_LINES: ReadonlyMap<string, FailureLine> = new Map([
  ['curl', { words: ['curl: ('], line: /^curl: \(\d+\) /m }],
  ['wget', { words: [' ERROR '], line: /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ERROR \d{3}: /m }],
]);

/** The words one of the clients' lines holds, checked before the command is parsed for its client. */
const CLIENT_FAILURE_WORDS = [...CLIENT_FAILURE_LINES.values()].flatMap((line) => line.words);

/** Whether the client whose status the command's is printed its line for a transfer that failed. */
function clientFailed(scanned: string, command: string | undefined): boolean {
  if (command === undefined || !CLIENT_FAILURE_WORDS.some((word) => scanned.includes(word))) return false;
  const program = statusProgram(command);
  const line = program === undefined ? undefined : CLIENT_FAILURE_LINES.get(programName(program));
  return line !== undefined && hasLine(scanned, [line]);
}
