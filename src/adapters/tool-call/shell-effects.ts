/**
 * What a shell command line does to the workspace, read with a real shell parser: the files it
 * writes, creates, moves or removes (`sed -i`, `>`/`>>`, `tee`, `mv`, `cp`, `rm`, `mkdir`, `touch`),
 * whether it changes the working tree in ways its words do not name (a VCS checkout, reset, stash or
 * applied patch), and whether it only looks. Anything it cannot read for certain (a variable in a
 * path, an unknown program, a script) leaves its effects unknown, which the engine treats as "may
 * have changed anything": the model of change must err towards "changed".
 */
import type { SyntaxNode } from 'unbash';
import { type CommandReading, commandReading, type ShellEffects } from './command-reading.js';
import { gitOnlyReads } from './git-reads.js';
import { computesInline } from './inline-code.js';
import { changesOutside } from './outside-changes.js';
import { programName } from './program-name.js';
import { logRoleOf } from './service-logs.js';
import { treeOf, visitTree } from './shell-parse.js';
import { subcommandOf } from './subcommand.js';
import { normalizeTarget } from './targets.js';
import { onlyChecks, operandsOf, programOnlyLooks } from './workspace.js';

export type { ShellEffects };

/** Longer command lines are not read: their effects stay unknown. */
const MAX_COMMAND_CHARS = 16_384;
/** Syntax nodes visited at most, so a hostile line costs bounded time however it nests. */
const MAX_NODES = 4_096;

export const UNKNOWN: ShellEffects = {
  onlyLooks: false,
  touches: [],
  touchesOnly: false,
  writes: false,
  changesTree: false,
  changesOutside: false,
  readsFilesOnly: false,
  computesOnly: false,
  operands: [],
  printsLogs: false,
};

/**
 * Programs that print what a file holds, or a reading of it (`cat`, `sed -n`, `head`, `jq`, `wc`):
 * given a path that is not there, they guessed it. Listings and searches (`ls`, `find`, `grep`) are
 * what to do instead of guessing, and `echo` or `pwd` read no file.
 */
const FILE_PRINTERS: ReadonlySet<string> = new Set([
  'cat',
  'bat',
  'head',
  'tail',
  'less',
  'more',
  'sed',
  'awk',
  'nl',
  'od',
  'xxd',
  'hexdump',
  'strings',
  'jq',
  'yq',
  'base64',
  'cut',
  'sort',
  'uniq',
  'tr',
  'wc',
  'diff',
  'cmp',
  'file',
  'md5sum',
  'sha1sum',
  'sha256sum',
]);

/**
 * Programs that fetch what an address holds (`curl`, `wget`): given one that is not there (404),
 * they guessed it, whichever of them fetched it.
 */
const ADDRESS_FETCHERS: ReadonlySet<string> = new Set(['curl', 'wget', 'http', 'https', 'xh']);

/**
 * What the program a command runs fetches by its operand, among programs that do the same (see
 * `CallFacts.operandKind`): `'file'` for one that prints what files hold (`cat`, `sed -n`), when the
 * line only reads files; `'address'` for one that fetches an address (`curl`, `wget`).
 */
export function operandKindOf(program: string, readsFilesOnly: boolean): string | undefined {
  const name = program.split(' ')[0] ?? '';
  if (readsFilesOnly && FILE_PRINTERS.has(name)) return 'file';
  return ADDRESS_FETCHERS.has(name) ? 'address' : undefined;
}

/**
 * Programs whose answer is what the files hold: printing, listing, searching, comparing, counting,
 * encoding. Commands that watch processes, services, the network or the clock (`ps`, `docker ps`,
 * `date`) are not among them: asked again, they may answer otherwise with nothing changed here.
 */
const FILE_READERS: ReadonlySet<string> = new Set([
  ...FILE_PRINTERS,
  'ls',
  'll',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'find',
  'fd',
  'tree',
  'stat',
  'realpath',
  'dirname',
  'basename',
  'pwd',
  'echo',
  'printf',
]);

/**
 * Words before a program that say how it runs, not what it is, with their options that take the
 * next word as a value (`sudo -u deploy`, `nice -n 10`, `timeout -s KILL`). `timeout` takes a duration too.
 */
const WRAPPERS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['sudo', new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '--user', '--group'])],
  ['doas', new Set(['-u', '-C'])],
  ['env', new Set(['-u', '--unset', '-C', '--chdir'])],
  ['time', new Set(['-f', '--format', '-o', '--output'])],
  ['nice', new Set(['-n', '--adjustment'])],
  ['ionice', new Set(['-c', '-n', '-p'])],
  ['nohup', new Set()],
  ['exec', new Set(['-a'])],
  ['command', new Set()],
  ['builtin', new Set()],
  ['stdbuf', new Set(['-i', '-o', '-e'])],
  ['timeout', new Set(['-s', '--signal', '-k', '--kill-after'])],
]);
/**
 * Programs that run a package's program named after their own options (`npx -y vitest run`), with
 * the options that take the next word as a value. What they run is what a command is, for a reader
 * that asks which tool runs (a test runner, say); not for effects, where the package may be fetched.
 */
export const PACKAGE_RUNNERS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['npx', new Set(['-p', '--package', '-c', '--call'])],
  ['bunx', new Set(['-p', '--package'])],
  ['uvx', new Set(['--from', '--with', '-p', '--python'])],
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Where a command's program is among its words: after variable assignments and wrappers with
 * their options (`sudo -u deploy`, `env -u HOME X=1`, `timeout -s KILL 5`, `nice -n 10`), and
 * after the `runners` given, the same way.
 */
export function programIndex(
  words: readonly string[],
  runners?: ReadonlyMap<string, ReadonlySet<string>>,
): number {
  let at = 0;
  while (at < words.length) {
    const word = words[at] as string;
    const valued = WRAPPERS.get(word) ?? runners?.get(word);
    // `command -v git` asks where a program is: `command` is then the program.
    if (word === 'command' && /^-[vV]$/.test(words[at + 1] ?? '')) break;
    if (valued === undefined) {
      if (!ASSIGNMENT.test(word)) break;
      at++;
      continue;
    }
    at++;
    while (at < words.length && (words[at] as string).startsWith('-') && words[at] !== '-') {
      const option = words[at] as string;
      at += valued.has(option) ? 2 : 1;
      if (option === '--') break;
    }
    if (word === 'timeout') at++;
  }
  return at;
}

/** Commands that change no file: the shell's own state, or nothing at all. */
const NEUTRAL = new Set([
  'cd',
  'pushd',
  'popd',
  'export',
  'unset',
  'set',
  'true',
  ':',
  'false',
  'sleep',
  'wait',
]);
/**
 * Redirection targets that are no file of the workspace: the devices, and PowerShell's `$null`
 * (`2>$null`), which a POSIX shell expands to nothing and refuses as an ambiguous redirect, so it
 * writes nothing either.
 */
const NOT_FILES = /^(?:\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)|\$[Nn][Uu][Ll][Ll])$/;

/** Programs whose every non-option argument is a file they create, change or remove. */
const WRITES_EVERY_ARGUMENT = new Set([
  'rm',
  'rmdir',
  'mkdir',
  'touch',
  'truncate',
  'unlink',
  'shred',
  'tee',
  'mv',
]);
/** Programs whose last non-option argument is what they write (`cp a b`, `ln -s a b`, `install a b`). */
const WRITES_LAST_ARGUMENT = new Set(['cp', 'ln', 'install', 'rsync', 'scp']);
/** Programs whose options and then a mode or owner come before the files they change. */
const WRITES_AFTER_FIRST = new Set(['chmod', 'chown', 'chgrp']);

/** Version-control subcommands that rewrite the working tree beyond the paths they name. */
const TREE_CHANGING: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [
    'git',
    new Set([
      'checkout',
      'switch',
      'reset',
      'restore',
      'stash',
      'apply',
      'am',
      'merge',
      'rebase',
      'pull',
      'cherry-pick',
      'revert',
      'clean',
      'rm',
      'mv',
    ]),
  ],
  [
    'hg',
    new Set([
      'update',
      'up',
      'checkout',
      'co',
      'revert',
      'import',
      'pull',
      'merge',
      'rebase',
      'shelve',
      'unshelve',
    ]),
  ],
  ['svn', new Set(['update', 'up', 'revert', 'switch', 'merge', 'patch'])],
]);

/** What the commands of a line read so far do; `finishReading` makes the line's effects of it. */
export interface Reading {
  onlyLooks: boolean;
  touchesOnly: boolean;
  changesTree: boolean;
  changesOutside: boolean;
  readsFilesOnly: boolean;
  readonly touches: string[];
  readonly operands: string[];
  /** A command of the line prints a log. */
  printsLog: boolean;
  /** Every command of the line prints a log, filters text, waits or moves. */
  onlyLogsAndText: boolean;
  /** The line writes a file, whether or not its path could be read. */
  writes: boolean;
  /** A command of the line runs code that only computes. */
  computes: boolean;
  /** Every command of the line only looks or runs code that only computes. */
  looksOrComputes: boolean;
}

/** What a command line acts on, every command of it read past wrappers and assignments. */
export function commandOperands(command: string): string[] {
  return [...shellEffectsOf(command).operands];
}

/** Whether a command line prints a service's log and does nothing else. */
export function printsServiceLogs(command: string | undefined): boolean {
  return typeof command === 'string' && shellEffectsOf(command).printsLogs;
}

/** Reads a command line's effects. Never throws; any input ends in bounded time. */
export function shellEffectsOf(command: string): ShellEffects {
  if (typeof command !== 'string' || command.length > MAX_COMMAND_CHARS) return UNKNOWN;
  // The adapter asks for a call's effects more than once: they are kept on the line's reading.
  const reading = commandReading(command);
  reading.effects ??= readEffects(reading);
  return reading.effects;
}

function readEffects(line: CommandReading): ShellEffects {
  let script: SyntaxNode;
  try {
    script = treeOf(line);
  } catch {
    return UNKNOWN;
  }
  const reading = newReading();
  // A line of plain words is one command whose words are the line's: read without walking its tree.
  const plain = line.plainWords;
  if (plain !== undefined) {
    try {
      readWords(plain, reading);
    } catch {
      return UNKNOWN;
    }
    return finishReading(reading);
  }
  if ((script as { errors?: readonly unknown[] }).errors?.length) return UNKNOWN;
  try {
    const whole = visitTree(script, MAX_NODES, (node) => {
      if (node.type === 'Command') readCommand(node, reading);
      else if (node.type === 'Redirect') readRedirect(node, reading);
      else if (node.type === 'Function' || node.type === 'Coproc')
        reading.onlyLooks = reading.touchesOnly = reading.onlyLogsAndText = reading.looksOrComputes = false;
      return true;
    });
    if (!whole) return UNKNOWN;
  } catch {
    return UNKNOWN;
  }
  return finishReading(reading);
}

/** A line of which no command has been read yet. */
export function newReading(): Reading {
  return {
    onlyLooks: true,
    touchesOnly: true,
    changesTree: false,
    changesOutside: false,
    readsFilesOnly: true,
    touches: [],
    operands: [],
    printsLog: false,
    onlyLogsAndText: true,
    writes: false,
    computes: false,
    looksOrComputes: true,
  };
}

/** The effects of a line every command of which was read into `reading`. */
export function finishReading(reading: Reading): ShellEffects {
  const touches = distinct(reading.touches);
  const printsLogs = reading.printsLog && reading.onlyLogsAndText && !reading.writes && !reading.changesTree;
  return {
    onlyLooks: reading.onlyLooks && touches.length === 0 && !reading.changesTree,
    touches,
    touchesOnly: reading.touchesOnly && !reading.changesTree,
    writes: reading.writes,
    changesTree: reading.changesTree,
    changesOutside: reading.changesOutside,
    readsFilesOnly:
      reading.readsFilesOnly && reading.onlyLooks && touches.length === 0 && !reading.changesTree,
    computesOnly:
      reading.computes &&
      reading.looksOrComputes &&
      touches.length === 0 &&
      !reading.writes &&
      !reading.changesTree,
    operands: distinct(reading.operands),
    printsLogs,
  };
}

/** The items once each, in the order of their first place: the list itself when it has one item or none. */
function distinct(items: string[]): string[] {
  return items.length < 2 ? items : [...new Set(items)];
}

type CommandNode = Extract<SyntaxNode, { type: 'Command' }>;
type RedirectNode = Extract<SyntaxNode, { type: 'Redirect' }>;

function readCommand(node: CommandNode, reading: Reading): void {
  const words: string[] = node.name === undefined ? [] : [wordOf(node.name)];
  for (const arg of node.args) words.push(arg.type === 'Word' ? wordOf(arg) : arg.text);
  readWords(words, reading);
}

/**
 * Reads one command given as the words its shell passes it (`nameOf` gives its program's
 * name from the word that runs it): what it writes, changes or only looks at.
 */
export function readWords(
  words: readonly string[],
  reading: Reading,
  nameOf: (word: string) => string = programName,
): void {
  const at = programIndex(words);
  const name = words[at];
  // A command made only of assignments sets variables.
  if (name === undefined) return;
  const program = nameOf(name);
  const args = words.slice(at + 1);
  if (!reading.changesOutside && changesOutside(program, args)) reading.changesOutside = true;
  for (const operand of operandsOf(program, args)) reading.operands.push(operand);
  const logRole = logRoleOf(program, args);
  if (logRole === 'prints') reading.printsLog = true;
  else if (logRole === undefined && !NEUTRAL.has(program)) reading.onlyLogsAndText = false;
  const readsOnly = readsFiles(program, args);
  if (!readsOnly) reading.readsFilesOnly = false;
  if (NEUTRAL.has(program)) return;
  // git's reading of the line, its listings included, once (`readsFiles` gives it for git).
  const gitReads = program === 'git' && readsOnly;
  const subcommand = subcommandOf(args, VALUED_GLOBAL_OPTIONS);
  // `git stash list` lists what `git stash` would change.
  if (subcommand !== undefined && TREE_CHANGING.get(program)?.has(subcommand) && !gitReads) {
    reading.changesTree = true;
    reading.onlyLooks = false;
    return;
  }
  if (program === 'patch') {
    // `patch FILE < fix.diff` names what it changes; `patch -p1 < fix.diff` changes what the diff names.
    const named = operands(args);
    if (named.length === 0) reading.changesTree = true;
    else touch(named.slice(0, 1), reading);
    reading.onlyLooks = false;
    return;
  }
  const writes = writtenFiles(program, args);
  if (writes !== undefined) {
    touch(writes, reading);
    reading.onlyLooks = false;
    return;
  }
  if (
    program === 'find' &&
    args.some((arg) => arg === '-delete' || arg.startsWith('-exec') || arg.startsWith('-ok'))
  ) {
    reading.onlyLooks = reading.touchesOnly = reading.looksOrComputes = false;
    return;
  }
  const looks =
    program === 'sed' ||
    (program === 'git' ? gitReads : programOnlyLooks(program, args[0], args[1])) ||
    onlyChecks(program, args);
  if (looks) return;
  reading.onlyLooks = reading.touchesOnly = false;
  if (computesInline(program, args)) reading.computes = true;
  else reading.looksOrComputes = false;
}

/** Whether one command's answer is what files hold; `tail -f` waits for what is written next. */
function readsFiles(program: string, args: readonly string[]): boolean {
  if (program === 'git') return gitOnlyReads(args);
  if (!FILE_READERS.has(program)) return false;
  return !(
    program === 'tail' && args.some((arg) => /^-[a-zA-Z]*[fF]/.test(arg) || arg.startsWith('--follow'))
  );
}

/** Options before a subcommand that take the next word as their value (`git -C repo`, `hg -R repo`). */
const VALUED_GLOBAL_OPTIONS = new Set([
  '-C',
  '-c',
  '-R',
  '--cwd',
  '--git-dir',
  '--work-tree',
  '--repository',
]);

/** Filters that print what they make unless told a file to write it to (`sort -o names.txt`, `iconv --output=u.csv`). */
const WRITES_OUTPUT_OPTION: ReadonlySet<string> = new Set(['sort', 'iconv']);

/** The file an output option names (`-o out`, `-oout`, `--output out`, `--output=out`), or undefined when none. */
function outputOptionFile(args: readonly string[]): string[] | undefined {
  const at = args.findIndex((arg) => arg.startsWith('-o') || arg.startsWith('--output'));
  if (at < 0) return undefined;
  const option = args[at] as string;
  const inline = option.startsWith('--output=')
    ? option.slice('--output='.length)
    : option.startsWith('--')
      ? ''
      : option.slice(2);
  const file = inline !== '' ? inline : args[at + 1];
  return file === undefined ? [] : [file];
}

/** The files a known writer changes, or undefined when the program is not one (or not in that mode). */
function writtenFiles(program: string, args: readonly string[]): string[] | undefined {
  if (program === 'sed' || program === 'perl') {
    if (!args.some((arg) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place'))) return undefined;
    return inPlaceFiles(args);
  }
  if (WRITES_OUTPUT_OPTION.has(program)) return outputOptionFile(args);
  if (WRITES_EVERY_ARGUMENT.has(program)) return operands(args);
  if (WRITES_LAST_ARGUMENT.has(program)) return operands(args).slice(-1);
  if (WRITES_AFTER_FIRST.has(program)) return operands(args).slice(1);
  if (program === 'dd') {
    const output = args.find((arg) => arg.startsWith('of='));
    return output === undefined ? [] : [output.slice(3)];
  }
  return undefined;
}

/** `sed -i 's/a/b/' f g`, `sed -i -e 's/a/b/' f`, `perl -pi -e '…' f`: the files after the script. */
function inPlaceFiles(args: readonly string[]): string[] {
  const files: string[] = [];
  let scriptGiven = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '-e' || arg === '--expression' || arg === '-f' || arg === '--file') {
      scriptGiven = true;
      index++;
    } else if (/^-[a-zA-Z]*e$/.test(arg)) {
      scriptGiven = true;
      index++;
    } else if (arg.startsWith('-')) {
    } else if (!scriptGiven) scriptGiven = true;
    else files.push(arg);
  }
  return files;
}

/** Arguments that are not options (after `--`, every argument is one). */
function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let optionsEnded = false;
  for (const arg of args) {
    if (!optionsEnded && arg === '--') optionsEnded = true;
    else if (optionsEnded || !arg.startsWith('-') || arg === '-') out.push(arg);
  }
  return out;
}

function readRedirect(redirect: RedirectNode, reading: Reading): void {
  const { operator } = redirect;
  if (operator === '<' || operator === '<&') return;
  const target = redirect.target === undefined ? undefined : wordOf(redirect.target);
  if (target === undefined) return;
  // `2>&1`, `>&2`: one output stream sent to another, no file.
  if (operator === '>&' && /^(?:\d+|-)$/.test(target)) return;
  if (NOT_FILES.test(target)) return;
  touch([target], reading);
  reading.onlyLooks = false;
}

/** Records written paths; one that is not literal (`$OUT`, `*.log`) makes the list incomplete. */
export function touch(paths: readonly string[], reading: Reading): void {
  for (const path of paths) {
    if (!NOT_FILES.test(path)) reading.writes = true;
    if (path === '' || /[$`*?[\]{}~]/.test(path)) reading.touchesOnly = false;
    else if (!NOT_FILES.test(path)) reading.touches.push(normalizeTarget(path));
  }
}

/** A word as the shell would pass it when it holds no expansion; its source text otherwise. */
export function wordOf(word: {
  readonly value: string;
  readonly text: string;
  readonly parts?: readonly unknown[];
}): string {
  return isLiteral(word.parts) ? word.value : word.text;
}

/** Whether a word expands to itself: literal text, quoted or not, with no expansion in it. */
export function isLiteralWord(word: { readonly parts?: readonly unknown[] }): boolean {
  return isLiteral(word.parts);
}

const LITERAL_PARTS = new Set(['Literal', 'SingleQuoted', 'AnsiCQuoted']);

/** Parts that expand to themselves: literal text, quoted or not. */
function isLiteral(parts: readonly unknown[] | undefined): boolean {
  if (parts === undefined) return true;
  return (parts as readonly { readonly type: string; readonly parts?: readonly unknown[] }[]).every(
    (part) => LITERAL_PARTS.has(part.type) || (part.type === 'DoubleQuoted' && isLiteral(part.parts)),
  );
}
