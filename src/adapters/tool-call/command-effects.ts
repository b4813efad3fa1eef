/**
 * What a shell command may write. Test runners, type checkers and builds read the sources and write
 * reports, caches and build outputs; they never rewrite the files they read, so a file the agent
 * read in full before the run is still what it read after it. Anything else (a formatter, `sed -i`,
 * a script, `make`) may rewrite any file.
 */

import { squashArgumentName } from './action-classes.js';
import { readOncePerName } from './by-name.js';
import { CommandReading, commandReading } from './command-reading.js';
import { programName } from './program-name.js';
import { PACKAGE_RUNNERS, programIndex } from './shell-effects.js';
import { pipelinesOf } from './shell-parse.js';
import { normalizePath } from './targets.js';
import { nameReadings } from './tool-names.js';

/** `program subcommand` pairs, and programs whose every run only checks or builds. */
const CHECKS: ReadonlyMap<string, ReadonlySet<string> | true> = new Map<string, ReadonlySet<string> | true>([
  ['npm', new Set(['test', 't', 'run-script test', 'run test', 'run build', 'run typecheck', 'run check'])],
  ['pnpm', new Set(['test', 'run test', 'run build', 'build', 'run typecheck'])],
  ['yarn', new Set(['test', 'run test', 'build', 'run build', 'typecheck'])],
  ['bun', new Set(['test', 'run test', 'run build'])],
  ['cargo', new Set(['test', 'build', 'check', 'bench'])],
  ['go', new Set(['test', 'build', 'vet'])],
  ['dotnet', new Set(['test', 'build'])],
  ['mvn', new Set(['test', 'compile', 'package', 'verify'])],
  ['gradle', new Set(['test', 'build', 'check'])],
  ['./gradlew', new Set(['test', 'build', 'check'])],
  ['mix', new Set(['test', 'compile'])],
  ['pytest', true],
  ['tsc', true],
  ['vitest', true],
  ['jest', true],
  ['mocha', true],
  ['rspec', true],
  ['tox', true],
  ['ctest', true],
]);

/** Flags that turn a check into a rewrite: `--fix`, `--write`, snapshot updates. */
const REWRITING_FLAG =
  /(?:^|\s)(?:--fix\b|--write\b|-w\b|-u\b|--update(?:Snapshot)?\b|--update-snapshots?\b)/;
/** Several commands in one line: each would have to be judged. */
const SEVERAL = /[;&|<>`$\n]/;

/**
 * Whether `command` is a test run or build that leaves every source file as it was. Describing a
 * command asks twice, for the line and for the program's words in the attempt key, which are the
 * same text for a line of one plain command: the answer is kept on the line's reading.
 */
export function leavesSourcesAlone(command: string): boolean {
  const reading = commandReading(command);
  reading.leavesSourcesAlone ??= judgeLeavesSourcesAlone(reading);
  return reading.leavesSourcesAlone;
}

/** The first word of a line, as `command.trim().split(/\s+/)[0]` gives it. */
const FIRST_WORD = /^\s*(\S*)/;
/** First words after which a check can still follow: a runner, or Python running a module. */
const BEFORE_A_CHECK = new Set(['npx', 'uvx', 'python', 'python3']);

function judgeLeavesSourcesAlone(line: CommandReading): boolean {
  const command = line.text;
  // Most lines start with a program that is no check: known from the first word, without a split.
  const start = FIRST_WORD.exec(command)?.[1] ?? '';
  if (!CHECKS.has(start) && !BEFORE_A_CHECK.has(start)) return false;
  if (SEVERAL.test(command) || REWRITING_FLAG.test(command)) return false;
  const words = line.words;
  const first = words[0] === 'npx' || words[0] === 'uvx' ? words[1] : words[0];
  const rest = words[0] === 'npx' || words[0] === 'uvx' ? words.slice(2) : words.slice(1);
  if (first === undefined) return false;
  if ((first === 'python' || first === 'python3') && rest[0] === '-m')
    return CHECKS.get(rest[1] ?? '') === true;
  const known = CHECKS.get(first);
  if (known === undefined) return false;
  if (known === true) return true;
  return known.has(rest.slice(0, 2).join(' ')) || known.has(rest[0] ?? '');
}

/**
 * The configuration file a command's failure is about, when the tool says what it looked for there
 * and did not find: a missing npm script is cured by `package.json`, a missing Make target by the
 * `Makefile` (not one "needed by" another target, which is a missing source file, nor a target that
 * names a file, `build/app.o`, which a pattern rule may make once its source exists).
 */
const CONFIGURATION_FAILURES: readonly [RegExp, string][] = [
  [/\bmissing script: ["']?[\w:.@/-]+/i, 'package.json'],
  [/\bNo rule to make target ['`"][^'`"\n./]+['`"](?!, needed by)/, 'Makefile'],
];

export function configurationNamedBy(failure: string): string[] | undefined {
  for (const [pattern, file] of CONFIGURATION_FAILURES) if (pattern.test(failure)) return [file];
  return undefined;
}

/**
 * `sleep 30`, `sleep 1.5m`, as one command of a list (`sleep 30 && gh run view 42`). After a
 * separator, white space that stays on its line (`[^\S\n]*`): `\s*` would read a run of blank lines
 * again from each of them.
 */
const SLEEP = /(?:^|&&|;|\|\||\n)[^\S\n]*sleep\s+(\d+(?:\.\d+)?)([smhd]?)\s*(?=$|&&|;|\|\||\n)/g;
const UNIT_SECONDS: Readonly<Record<string, number>> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 };
/**
 * PowerShell's `Start-Sleep` (`Start-Sleep 30`, `Start-Sleep -Seconds 30`, `-s 30`, `-Milliseconds
 * 500`, `-m 500`), in any case, as one command of a list; its `sleep` alias is read as `sleep` is.
 */
const START_SLEEP =
  /(?:^|&&|;|\|\||\n)[^\S\n]*start-sleep[^\S\n]+(?:-(seconds|s|milliseconds|m)[^\S\n]+)?(\d+(?:\.\d+)?)[^\S\n]*(?=$|&&|;|\|\||\n)/gi;
/**
 * cmd's `timeout /t 30` (`/nobreak`, its prompt sent to `nul`), as one command of a list. Never
 * `timeout 30 npm test`, GNU's limit on how long a command may run.
 */
const CMD_TIMEOUT =
  /(?:^|&&|&|;|\|\||\n)[^\S\n]*timeout(?:\.exe)?[^\S\n]+\/t[^\S\n]+(\d+)(?:[^\S\n]+\/nobreak)?(?:[^\S\n]*>[^\S\n]*nul)?[^\S\n]*(?=$|&&|&|;|\|\||\n)/gi;
/** Longer waits say no more about pacing; bounded so a hostile number stays a number. */
const MAX_WAIT_SECONDS = 86_400;

/**
 * The seconds a command waits with `sleep` (PowerShell's `Start-Sleep`, cmd's `timeout /t`) before,
 * between or instead of what it runs.
 */
export function waitSecondsOf(command: string): number | undefined {
  // Most lines wait for nothing: one search for each word instead of a match of the whole patterns.
  const sleeps = /sleep/i.test(command);
  const times = /timeout/i.test(command);
  if (!sleeps && !times) return undefined;
  let total = 0;
  if (sleeps) {
    for (const match of command.matchAll(SLEEP))
      total += Number(match[1]) * (UNIT_SECONDS[match[2] ?? ''] ?? 1);
    for (const match of command.matchAll(START_SLEEP))
      total += Number(match[2]) / (match[1]?.toLowerCase().startsWith('m') ? 1000 : 1);
  }
  if (times) for (const match of command.matchAll(CMD_TIMEOUT)) total += Number(match[1]);
  if (total >= MAX_WAIT_SECONDS) return MAX_WAIT_SECONDS;
  return total > 0 ? total : undefined;
}

/**
 * An argument that says how long the call itself waits for what it asks about before it answers, as
 * a Codex code-mode `wait {cell_id, yield_time_ms: 10000}` or a `wait_for_job {wait_seconds: 30}`
 * does: the name says waiting (`yield`, `wait`, `block`, `sleep`, `delay`), then its unit. A limit
 * on how long the call may run (`timeout_ms`) is not one: it returns as soon as it is done.
 */
const WAIT_ARGUMENT =
  /^(?:yield|wait|block|sleep|delay)(?:time|for|duration|interval)?(ms|millis|milliseconds|s|sec|secs|seconds)$/;

/** The seconds a call waits inside itself by its own arguments (see `WAIT_ARGUMENT`). */
export function waitSecondsOfArguments(args: Readonly<Record<string, unknown>>): number | undefined {
  // The first keys only: a model's arguments may hold any number of them.
  for (const key of Object.keys(args).slice(0, 64)) {
    const value = args[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) continue;
    const unit = WAIT_ARGUMENT.exec(squashArgumentName(key))?.[1];
    if (unit === undefined) continue;
    const seconds = unit.startsWith('m') ? value / 1000 : value;
    return Math.min(seconds, MAX_WAIT_SECONDS);
  }
  return undefined;
}

const NAVIGATION = new Set([
  'cd',
  'pushd',
  'popd',
  'export',
  'source',
  '.',
  'set',
  'unset',
  'Set-Location',
  'Push-Location',
  'Pop-Location',
]);
const SUBCOMMAND = /^[a-z][a-z0-9:_-]*$/;
/** What can separate commands or start a pipe: a line without any of these is one command. */
const LIST_MARK = /[&|;\n]/;
/** What separates the commands of a list or of lines: `&&`, `||`, `;`, a line break. */
const COMMAND_SEPARATORS = /&&|\|\||;|\n/;

/** Programs that only print the words they are given: piped into another, that other does the work. */
const PRINTERS = new Set(['echo', 'printf']);
/** Quoted text, which may hold a `|` that is no pipe. */
const QUOTED = /'[^']*'|"(?:[^"\\]|\\.)*"/g;

/**
 * The program and subcommand a command line runs (`cargo build`, `npm run`, `git push`): the last
 * command of a `&&`/`;` list that is not navigation, before any pipe, past environment assignments
 * and wrappers (`sudo`, `timeout 60`, `npx`). A command that only prints its words into a pipe
 * (`echo -n secret | sha256sum`) runs the program it feeds.
 */
export function programOf(command: string): string | undefined {
  const reading = commandReading(command);
  if (!reading.programRead) {
    reading.program = readProgram(reading);
    reading.programRead = true;
  }
  return reading.program;
}

function readProgram(line: CommandReading): string | undefined {
  const command = line.text;
  const commands = commandsOfLine(line);
  for (let index = commands.length - 1; index >= 0; index--) {
    let words = commands[index] as readonly string[];
    let program = words[0];
    if (program === undefined || program === '' || NAVIGATION.has(program)) continue;
    if (program === 'sleep') continue;
    if (PRINTERS.has(program) && command.includes('|')) {
      const fed = fedProgramWords(line, index);
      if (fed !== undefined) {
        words = fed;
        program = fed[0] as string;
      }
    }
    const name = programName(program);
    const next = words[1];
    return next !== undefined && SUBCOMMAND.test(next) ? `${name} ${next}` : name;
  }
  return undefined;
}

/** The words of the command the `index`th command of the line pipes its output into, if any. */
function fedProgramWords(line: CommandReading, index: number): readonly string[] | undefined {
  const pipelines = pipelinesOf(line);
  const stage = pipelines
    ? pipelines[index]?.[1]
    : line.text.split(COMMAND_SEPARATORS)[index]?.replace(QUOTED, "''").split('|')[1];
  if (stage === undefined) return undefined;
  const fed = wordsFromProgram(stage);
  return fed[0] === undefined || fed[0] === '' ? undefined : fed;
}

/**
 * The program of a command of several lines that the shell reads whole (see `pipelinesOf`): its
 * lines split as the shell splits them, a here-document's lines passed over (`git commit -F - <<'EOF'`
 * … `EOF`), a comment's end at its line's. Undefined for a line of one line, or one the shell cannot
 * read: read collapsed instead, where a here-document's last line (`EOF`) would be the program.
 */
export function programOfScript(text: string): string | undefined {
  if (!text.includes('\n')) return undefined;
  const reading = commandReading(text);
  return pipelinesOf(reading) === undefined ? undefined : programOf(text);
}

/**
 * The program of a command line's first line that runs one, for a line whose program the line read
 * whole does not give (`cd /srv/app` on one line, `git show HEAD:app.py` on the next: read as one,
 * every word is the `cd`'s).
 */
export function programOfLines(text: string): string | undefined {
  if (!text.includes('\n')) return undefined;
  // Read apart from the readings kept: they are the call's whole line's.
  for (const line of text.split('\n')) {
    const program = readProgram(new CommandReading(line));
    if (program !== undefined) return program;
  }
  return undefined;
}

/**
 * The words of each command of a line, from its program on: the commands of a `&&`/`||`/`;` list
 * or of its lines, each before any pipe, past environment assignments, wrappers (`timeout 60`) and
 * package runners (`npx vitest`). The line is split where the shell splits it (see `pipelinesOf`):
 * never inside quotes or a here-document; a line the shell cannot read, at every separator.
 */
export function commandsOf(command: string): readonly (readonly string[])[] {
  return commandsOfLine(commandReading(command));
}

function commandsOfLine(line: CommandReading): readonly (readonly string[])[] {
  if (line.commands !== undefined) return line.commands;
  const command = line.text;
  // Most lines are one command: nothing to split, and its words are the line's.
  if (!LIST_MARK.test(command)) line.commands = [fromProgram(line.words)];
  else
    line.commands =
      pipelinesOf(line)?.map((stages) => wordsFromProgram(stages[0] ?? '')) ??
      command.split(COMMAND_SEPARATORS).map((part) => wordsFromProgram(part.split('|')[0] ?? ''));
  return line.commands;
}

/** The words of one command, from its program on: past environment assignments and wrappers. */
function wordsFromProgram(command: string): readonly string[] {
  return fromProgram(command.trim().split(/\s+/));
}

function fromProgram(words: readonly string[]): readonly string[] {
  const at = programIndex(words, PACKAGE_RUNNERS);
  return at === 0 ? words : words.slice(at);
}

/** A command that only changes directory: in a shell that persists, later commands run elsewhere. */
export function onlyChangesDirectory(command: string): boolean {
  return /^\s*(?:cd|pushd|popd|Set-Location|Push-Location|Pop-Location)(?:\s+[^;&|<>`$()\n]*)?\s*$/.test(
    command,
  );
}

/**
 * A line that starts by changing directory (`cd .. && ls -la docs/`, `cd app; git status`): in a
 * shell that persists, it leaves later commands running elsewhere, whatever it runs after the move.
 */
export function startsByChangingDirectory(command: string): boolean {
  return /^\s*(?:cd|pushd|Set-Location|Push-Location)\s+[^;&|<>`$()\n]+?\s*(?:&&|;)/.test(command);
}

/** A word that moves the working directory, anywhere a command may start. */
const DIRECTORY_MOVE =
  /(?:^|[;&|(\n])[^\S\n]*(?:cd|pushd|popd|Set-Location|Push-Location|Pop-Location)(?:\s|$)/;
/** A leading `cd` to one place, quoted or not, before the line's end or its next command. */
const LEADING_CD = /^\s*(?:cd|Set-Location)\s+(?:"([^"]+)"|'([^']+)'|([^\s;&|<>`$()'"]+))\s*(?:$|&&|;)/;
/** A place named in full: from the root, from the home folder, or from a drive. */
const FULL_PLACE = /^(?:\/|~(?:\/|$)|[A-Za-z]:[\\/])/;

/**
 * Where a line that moves the working directory leaves it, when the line names the place in full
 * (`cd /srv/app && ls`): that place. `''` when it moves somewhere the line alone cannot say (`cd ..`,
 * `cd -`, `pushd`, a second move later in the line); `undefined` when it does not move at all.
 */
export function directoryAfter(command: string): string | undefined {
  if (!DIRECTORY_MOVE.test(command)) return undefined;
  const place = soleLeadingPlace(command);
  // Tested before trimming: a drive's root (`C:\`) trimmed would no longer read as a full place.
  if (place === undefined || !FULL_PLACE.test(place)) return '';
  // A drive's place is one place however it is spelled (`C:\app`, `c:/app/`).
  if (/^[A-Za-z]:/.test(place)) return normalizePath(place);
  return withoutTrailingSlash(place);
}

/**
 * The place a line's leading move names, as written (`cd apps/web && pnpm build` → `apps/web`), when
 * it is the line's only move; `undefined` otherwise.
 */
export function placeMovedTo(command: string): string | undefined {
  const place = soleLeadingPlace(command);
  return place === undefined ? undefined : withoutTrailingSlash(place);
}

/** The place a line's leading `cd` names, untrimmed, when no other move follows it in the line. */
function soleLeadingPlace(command: string): string | undefined {
  const match = LEADING_CD.exec(command);
  const place = match?.[1] ?? match?.[2] ?? match?.[3];
  if (match === null || place === undefined) return undefined;
  return DIRECTORY_MOVE.test(command.slice(match[0].length - 2)) ? undefined : place;
}

function withoutTrailingSlash(place: string): string {
  return place.length > 1 ? place.replace(/[\\/]+$/, '') : place;
}

/** Verbs of tools that move what later calls see: another file open, another line, page or directory. */
const NAVIGATION_VERBS = new Set(['open', 'goto', 'scroll', 'navigate', 'cd', 'chdir', 'jump']);

/**
 * A tool whose name says it navigates (`open`, `goto`, `scroll_down`, `browser_navigate`, `cd`):
 * its first word, past an MCP server prefix in either host's spelling (`mcp__env__go_to`,
 * `mcp_env_go_to`) and a `browser`/`editor` qualifier, is a navigation verb, or it is
 * `go_to`/`go_back`.
 */
export const navigatesByName = readOncePerName(readNavigation);

/**
 * Verbs that start, stop or restart something that runs. `connect` is left out: it is as often the
 * name of the session a tool talks to (`connect_sendline`) as what the tool does.
 */
const RUN_VERBS = new Set([
  'start',
  'stop',
  'restart',
  'launch',
  'relaunch',
  'kill',
  'terminate',
  'reboot',
  'shutdown',
]);

/**
 * A tool whose name says it starts, stops or restarts something (`connect_start`, `debug_stop`,
 * `restart_server`, `browser_launch`): one of its words is such a verb.
 */
export const startsOrStopsByName = readOncePerName((tool) =>
  nameReadings(tool).some((words) => words.some((word) => RUN_VERBS.has(word))),
);

/** Whether a reading of a tool's name (see `nameReadings`) starts with a navigation verb. */
function readNavigation(tool: string): boolean {
  return nameReadings(tool).some(startsWithNavigation);
}

function startsWithNavigation(words: readonly string[]): boolean {
  const start = words[0] === 'browser' || words[0] === 'editor' || words[0] === 'page' ? 1 : 0;
  const verb = words[start];
  if (verb === undefined) return false;
  if (NAVIGATION_VERBS.has(verb)) return words.length - start <= 2;
  return verb === 'go' && (words[start + 1] === 'to' || words[start + 1] === 'back');
}

/**
 * Commands that ask a service how a job is going: a CI run, a pull request's checks, a deployment,
 * containers, units, processes, a cloud's resources. Their answer changes by itself while the job runs.
 */
const STATUS_CHECKS: readonly RegExp[] = [
  /^gh\s+run\s+(?:list|view|watch)\b/,
  /^gh\s+pr\s+(?:checks|status)\b/,
  /^glab\s+ci\s+(?:status|list|view)\b/,
  /^kubectl\s+(?:get|describe|top|rollout\s+status)\b/,
  /^docker\s+(?:ps|compose\s+ps)\b/,
  /^systemctl\s+(?:status|is-active)\b/,
  /^(?:ps|pgrep)\b/,
  // a cloud's own command line asked how a resource stands (`aws ec2 describe-instances …`, `gcloud
  // run services describe api`, `az vm show …`): reads, by each one's naming, not a download
  /^aws\s+(?:[^\s|]+\s+){0,6}?(?:describe|list|get)-(?!object\b)[\w-]+/,
  /^gcloud\s+(?:[\w-]+\s+){1,4}(?:describe|list)\b/,
  /^az\s+(?:[\w-]+\s+){1,4}(?:show|list)\b/,
  /^doctl\s+(?:[\w-]+\s+){1,3}(?:get|list)\b/,
  /^(?:fly|flyctl)\s+(?:status|(?:checks|machines?|releases)\s+(?:list|status))\b/,
];
/**
 * What every status check needs: one of their programs as a word that begins a part of the line
 * (at its start, or after a space, `&`, `;` or a line break).
 */
const STATUS_PROGRAM =
  /(?:^|[\s&;])(?:gh|glab|kubectl|docker|systemctl|ps|pgrep|aws|gcloud|az|doctl|fly|flyctl)\b/;
/** What may come before the check on its line: a wait, or a change of directory. */
const BEFORE_CHECK = /^(?:sleep\s+\d+(?:\.\d+)?[smh]?|cd\s+[^\s;&|<>`$()]+)$/;
/** Filters a check's answer may go through. */
const FILTER = /^(?:head|tail|grep|cat|jq|less|wc|sort|cut)\b[^<>`$()]*$/;

/**
 * Commands that ask something outside this machine: an HTTP client (httpie's `http` and `https`
 * included), a name server or a host's reachability, a forge's, a cloud's or a cluster's own command
 * line, a package registry, a remote repository. What they answer may change by itself.
 */
const OUTSIDE_ASKS: readonly RegExp[] = [
  /^(?:curl|wget|https?|xh|dig|nslookup|host|ping)\s/,
  /^(?:gh|glab|aws|gcloud|az|kubectl|doctl|flyctl)\s/,
  /^(?:npm|pnpm|yarn)\s+(?:view|info|show)\s/,
  /^pip3?\s+index\s/,
  /^git\s+ls-remote\b/,
];
/** What every such command needs: one of their programs as a word that begins a part of the line. */
const OUTSIDE_PROGRAM =
  /(?:^|[\s&;])(?:curl|wget|https?|xh|dig|nslookup|host|ping|gh|glab|aws|gcloud|az|kubectl|doctl|flyctl|npm|pnpm|yarn|pip3?|git)\s/;

/**
 * Whether the line only asks something outside this machine (`curl -s https://…/healthz`, `cd web
 * && npm view react version`, `dig +short api.acme.dev | head -1`), after a wait or a change of
 * directory at most and through filters of its answer, running nothing else.
 */
export function asksOutsideMachine(command: string): boolean {
  return OUTSIDE_PROGRAM.test(command) && OUTSIDE_ASKS.some(asked(command));
}

/**
 * Whether the line only asks a service how a job is going (`gh run list`, `sleep 30 && gh run view
 * 42`, `kubectl rollout status deployment/api | tail -5`), writing nothing and running nothing else.
 */
export function isStatusCheck(command: string): boolean {
  // Most lines run none of the programs asked: one search of the line before it is split.
  return STATUS_PROGRAM.test(command) && STATUS_CHECKS.some(asked(command));
}

/**
 * Exit statuses with which a status check's program answers how the job stands rather than says
 * it failed, as each documents them: `gh pr checks` 8, checks still pending; `systemctl status` and
 * `is-active` 3, a unit not running; `pgrep` 1, no process matched.
 */
const STATE_STATUSES: readonly { readonly check: RegExp; readonly status: number }[] = [
  { check: /^gh\s+pr\s+checks\b/, status: 8 },
  { check: /^systemctl\s+(?:status|is-active)\b/, status: 3 },
  { check: /^pgrep\b/, status: 1 },
];

/**
 * Whether a status check that exited `status` answered with it how its job stands (`gh pr checks 42`
 * exiting 8 while checks are pending): an answer, as a status printed is, not a failure.
 */
export function answersByExitStatus(command: string, status: number): boolean {
  if (!STATUS_PROGRAM.test(command)) return false;
  const check = askedCheck(command);
  return (
    check !== undefined && STATE_STATUSES.some((state) => state.status === status && state.check.test(check))
  );
}

/** Whether the line only asks what `pattern` matches (see `askedCheck`). */
function asked(command: string): (pattern: RegExp) => boolean {
  const check = askedCheck(command);
  return (pattern) => check !== undefined && pattern.test(check);
}

/**
 * The command a line runs to ask something (its last part, before filters of its answer), when it
 * runs nothing but waits and changes of directory before it: no redirection, no substitution, no
 * `||`. Undefined for any other line.
 */
function askedCheck(command: string): string | undefined {
  if (/[<>`]|\$\(/.test(command)) return undefined;
  const parts = command
    .split(/&&|;|\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const last = parts.pop();
  if (last === undefined || last.includes('||')) return undefined;
  if (!parts.every((part) => BEFORE_CHECK.test(part))) return undefined;
  const [check, ...filters] = last.split('|').map((part) => part.trim());
  if (check === undefined || !filters.every((filter) => FILTER.test(filter))) return undefined;
  return check;
}
