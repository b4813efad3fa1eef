/**
 * What the tool-call adapter knows about a developer's workspace that the engine must not: which
 * shell commands only look, which paths builds regenerate, which files configure every command, and
 * how a command line names the files it may touch. The engine asks through `WorkspaceKnowledge`.
 */
import { commandReading } from './command-reading.js';
import { gitOnlyReads } from './git-reads.js';
import { NODE_CODE_OPTIONS, nodeCodeOnlyLooks } from './inline-code.js';
import { programName } from './program-name.js';
import { normalizeTarget } from './targets.js';
import { isAsciiDigit, isAsciiLetter, isWhiteSpace } from './white-space.js';

/**
 * Commands that only look. Test runners count as looking: they do not change the sources a
 * failed call depended on, and treating them as changes would let every test run reopen every ban.
 */
const READ_ONLY_COMMANDS = new Set([
  'ls',
  'll',
  'cat',
  'bat',
  'head',
  'tail',
  'less',
  'more',
  'grep',
  'egrep',
  'rg',
  'ag',
  'ack',
  'find',
  'fd',
  'tree',
  'wc',
  'stat',
  'file',
  'du',
  'df',
  'pwd',
  'echo',
  'printf',
  'which',
  'whereis',
  'type',
  'env',
  'printenv',
  'date',
  'whoami',
  'id',
  'uname',
  'hostname',
  'ps',
  'diff',
  'cmp',
  'jq',
  'yq',
  'realpath',
  'dirname',
  'basename',
  'true',
  'sleep',
  'nl',
  'od',
  'xxd',
  'hexdump',
  'md5sum',
  'sha256sum',
  'uptime',
  'pytest',
  'jest',
  'vitest',
  'mocha',
  'rspec',
  'phpunit',
  'tox',
  'nproc',
  'free',
  'lsof',
  'netstat',
]);
/** A Map, not an object: a program named `constructor` must not find Object's own properties. */
const READ_ONLY_SUBCOMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['npm', new Set(['test', 't', 'ls', 'list', 'view', 'outdated', 'why', 'explain'])],
  ['yarn', new Set(['test', 'why', 'list'])],
  ['pnpm', new Set(['test', 'list', 'ls', 'why'])],
  ['bun', new Set(['test'])],
  ['cargo', new Set(['test', 'check', 'clippy', 'tree', 'metadata'])],
  ['go', new Set(['test', 'vet', 'list', 'version', 'env'])],
  ['node', new Set(['--version', '-v'])],
  ['python', new Set(['--version', '-V'])],
  ['python3', new Set(['--version', '-V'])],
  ['dotnet', new Set(['test', '--version', '--info'])],
  ['docker', new Set(['ps', 'images', 'logs', 'inspect'])],
  ['kubectl', new Set(['get', 'describe', 'logs'])],
  ['command', new Set(['-v', '-V'])],
]);
/**
 * Programs that check and report, and the flags that make them rewrite what they check instead
 * (`eslint --fix`, `prettier --write`, `ruff check --fix`). Run without those, they change no file
 * (a cache aside): type checkers, linters, formatters in check mode, the shell's own tests.
 */
const CHECKERS: ReadonlyMap<string, RegExp | undefined> = new Map([
  ['test', undefined],
  ['[', undefined],
  ['mypy', undefined],
  ['pyright', undefined],
  ['flake8', undefined],
  ['pylint', undefined],
  ['pycodestyle', undefined],
  ['pydocstyle', undefined],
  ['pyflakes', undefined],
  ['bandit', undefined],
  ['shellcheck', undefined],
  ['hadolint', undefined],
  ['yamllint', undefined],
  ['svelte-check', undefined],
  ['eslint', /^--fix/],
  ['stylelint', /^--fix/],
  ['markdownlint', /^--fix/],
  ['standard', /^--fix/],
  ['xo', /^--fix/],
  ['rubocop', /^(?:-a|-A|--auto-?correct)/],
  ['golangci-lint', /^--fix/],
  ['biome', /^--(?:write|apply|fix)/],
  ['ruff', /^--fix|^--unsafe-fixes/],
]);
/** Checkers that rewrite unless told to check only (`prettier --check`, `black --check`, `gofmt -l`). */
const CHECK_MODE: ReadonlyMap<string, RegExp> = new Map([
  ['prettier', /^(?:--check|-c|--list-different|-l)$/],
  ['black', /^(?:--check|--diff)$/],
  ['isort', /^(?:--check|--check-only|-c|--diff)$/],
  ['autopep8', /^(?:--diff|-d)$/],
  ['gofmt', /^-[ld]$/],
  ['rustfmt', /^--check$/],
  ['clang-format', /^(?:--dry-run|-n)$/],
  ['tsc', /^--noEmit$/],
  ['vue-tsc', /^--noEmit$/],
]);
/** Runners that run the package's program named next (`npx tsc`, `uvx ruff`, `python -m mypy`). */
const RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'uvx', 'pipx']);

/**
 * Whether one command only checks: a type checker, a linter without its fixing flags, a formatter in
 * check mode or the shell's `test`, run directly or through `npx`, `uvx`, `python -m`, `pnpm exec`,
 * `yarn`, `cargo fmt --check`. What a check answers depends on the files alone: it changes nothing.
 */
export function onlyChecks(program: string, args: readonly string[]): boolean {
  let name = program;
  let rest = args;
  if (RUNNERS.has(name) || ((name === 'pnpm' || name === 'npm') && rest[0] === 'exec') || name === 'yarn') {
    const at = rest.findIndex((arg) => !arg.startsWith('-') && arg !== 'exec' && arg !== 'run');
    if (at < 0) return false;
    name = rest[at] as string;
    rest = rest.slice(at + 1);
  } else if (/^python[\d.]*$/.test(name) && rest[0] === '-m' && rest[1] !== undefined) {
    name = rest[1];
    rest = rest.slice(2);
  }
  if (name === 'cargo' && rest[0] === 'fmt') return rest.includes('--check');
  if (name === 'go' && rest[0] === 'fmt') return false;
  if (name === 'terraform') return rest[0] === 'validate' || (rest[0] === 'fmt' && rest.includes('-check'));
  if (CHECKERS.has(name)) {
    const fixing = CHECKERS.get(name);
    if (name === 'ruff' && rest[0] === 'format')
      return rest.some((arg) => arg === '--check' || arg === '--diff');
    return fixing === undefined || !rest.some((arg) => fixing.test(arg));
  }
  const checkMode = CHECK_MODE.get(name);
  return checkMode !== undefined && rest.some((arg) => checkMode.test(arg));
}

/** Output locations that build steps create: a "not found" there may be cured by any command. */
const GENERATED_PATH =
  /(^|\/)(dist|build|out|target|coverage|\.next|\.nuxt|node_modules|__pycache__|\.venv|venv|lib|bin|obj|gen|generated|\.cache|\.turbo)(\/|$)/;

/** What separates the commands of a command line: `&&`, `||`, `;`, `|` and new lines. */
const COMMAND_SEPARATOR = /&&|\|\||[;|\n]/;

export function isReadOnlyCommand(command: string): boolean {
  // Most command lines are one command: no split, and no array of words, on the hot path.
  const segments = COMMAND_SEPARATOR.test(command) ? command.split(COMMAND_SEPARATOR) : [command];
  for (const segment of segments) {
    const words = leadingWords(segment);
    const [first, second, third] = words;
    if (first === undefined) continue;
    const program = programName(first);
    if (segment.includes('>') && !/[0-9]?>&[0-9]/.test(segment)) return false;
    if (program === 'cd' || READ_ONLY_COMMANDS.has(program)) {
      if (
        (program === 'find' && /\s-(delete|exec)\b/.test(segment)) ||
        (program === 'sed' && /\s-i/.test(segment))
      )
        return false;
      continue;
    }
    // Node's code runs to the segment's end: the code, not its first word, says what it does.
    const code =
      program === 'node' && second !== undefined && NODE_CODE_OPTIONS.has(second)
        ? segment.slice(segment.indexOf(second) + second.length)
        : third;
    if (!programOnlyLooks(program, second, code)) return false;
  }
  return true;
}

/**
 * Whether one program, with its first two arguments, only looks (`cat`, `git status`, `npm run test`):
 * the per-command judgement `isReadOnlyCommand` makes, for a caller that has already split the line.
 */
export function programOnlyLooks(program: string, second?: string, third?: string): boolean {
  if (READ_ONLY_COMMANDS.has(program)) return true;
  if (program === 'node' && second !== undefined && NODE_CODE_OPTIONS.has(second))
    return third !== undefined && nodeCodeOnlyLooks(third);
  if (program === 'git') return gitLooks(second, third);
  const subcommands = READ_ONLY_SUBCOMMANDS.get(program);
  if (subcommands === undefined || second === undefined) return false;
  if (subcommands.has(second)) return true;
  return second === 'run' && third !== undefined && /^(test|lint|check|typecheck)/.test(third);
}

/**
 * `git` with its first two arguments only reads (`git status`, `git branch --show-current`). Options
 * before the subcommand are not read from two words: the whole line's reading weighs those.
 */
function gitLooks(second: string | undefined, third: string | undefined): boolean {
  if (second === undefined || second.startsWith('-')) return false;
  return gitOnlyReads(third === undefined ? [second] : [second, third]);
}

/** The first three words of a command, leaving out `NAME=value` assignments wherever they are. */
function leadingWords(segment: string): string[] {
  const words: string[] = [];
  const end = segment.length;
  let index = 0;
  while (words.length < 3) {
    while (index < end && isWhiteSpace(segment.charCodeAt(index))) index++;
    if (index === end) break;
    const start = index;
    while (index < end && !isWhiteSpace(segment.charCodeAt(index))) index++;
    const word = segment.slice(start, index);
    if (!isAssignment(word)) words.push(word);
  }
  return words;
}

/** `NAME=…`, a variable set for the command that follows. */
function isAssignment(word: string): boolean {
  for (let index = 0; index < word.length; index++) {
    const code = word.charCodeAt(index);
    if (code === 61) return index > 0;
    if (!isAsciiLetter(code) && code !== 95 && !(index > 0 && isAsciiDigit(code))) return false;
  }
  return false;
}

/** Files that change how every command in the project behaves: manifests, compiler and tool config. */
const PROJECT_CONFIGURATION =
  /(^|\/)(package\.json|tsconfig[^/]*\.json|jsconfig\.json|\.babelrc[^/]*|[^/]*\.config\.[cm]?[jt]s|[^/]*rc\.(json|js|cjs|yaml|yml)|pyproject\.toml|setup\.(cfg|py)|requirements[^/]*\.txt|Cargo\.toml|go\.mod|Makefile|CMakeLists\.txt|pom\.xml|build\.gradle[^/]*|\.env[^/]*)$/;

/**
 * Tools find their settings by name, and by convention in hidden files (`.eslintrc`, `.credo.exs`,
 * `.dialyzerignore`, `.prettierrc`) or settings formats (`setup.cfg`, `tox.ini`, `ruff.toml`).
 */
const SETTINGS_FILE = /(^|\/)(\.[^/.][^/]*|[^/]+\.(toml|ini|cfg|conf))$/;

export function isProjectConfiguration(target: string): boolean {
  return PROJECT_CONFIGURATION.test(target) || SETTINGS_FILE.test(target);
}

export function isGeneratedPath(target: string): boolean {
  return GENERATED_PATH.test(target);
}

/** Does `command` name `target` (the path or its file name as a whole word)? */
export function commandMentions(command: string, target: string): boolean {
  if (command.includes(target)) return true;
  const name = programName(target);
  if (name.length < 3) return false;
  const at = command.indexOf(name);
  if (at < 0) return false;
  const before = at === 0 ? ' ' : command[at - 1];
  const after = command[at + name.length] ?? ' ';
  // A Windows path names the file after a backslash (`C:\app\scripts\audit.ps1`).
  return /[\s/\\'"=:]/.test(before as string) && /[\s'";|&)]/.test(after);
}

/**
 * The words of a command line that could name a file, as targets. A success of a command with
 * unknown effects asks twice (what it touched, what it may have cured): kept on the line's reading.
 */
export function commandTargets(command: string): readonly string[] {
  const reading = commandReading(command);
  reading.targets ??= readTargets(command);
  return reading.targets;
}

function readTargets(command: string): readonly string[] {
  const out: string[] = [];
  for (const word of command.split(/[\s'"=;|&<>()]+/)) {
    if (word.length >= 2 && !word.startsWith('-')) out.push(normalizeTarget(word));
  }
  return out;
}

/** Programs whose operands say where or how long, not what they act on. */
const NO_OPERANDS = new Set(['cd', 'pushd', 'popd', 'sleep', 'echo', 'printf', 'true', 'false', 'wait']);
/** A word that may be a subcommand (`logs`, `restart`, `run-script`) rather than what is acted on. */
const SUBCOMMAND = /^[a-z][a-z-]*$/;

/**
 * What one command acts on, given its program and arguments read past wrappers and assignments:
 * the arguments after its subcommand (`docker logs shop-app`: `shop-app`), without flags,
 * assignments, numbers and words of fewer than three characters. A program that only moves, waits
 * or prints acts on nothing. The shell reader asks this of every command of a line.
 */
export function operandsOf(program: string, args: readonly string[]): string[] {
  const out: string[] = [];
  if (NO_OPERANDS.has(program)) return out;
  for (let index = SUBCOMMAND.test(args[0] ?? '') ? 1 : 0; index < args.length; index++) {
    const word = args[index] as string;
    if (word.startsWith('-') || word.includes('=') || word.length < 3 || !/[A-Za-z]/.test(word)) continue;
    out.push(normalizeTarget(word));
  }
  return out;
}
