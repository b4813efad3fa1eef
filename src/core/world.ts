/**
 * What a successful call changed. Invalidation rests on this: a ban holds only while the state it
 * was learned against is unchanged, so the model of change must err towards "changed".
 */
import { HashMemory } from './hash-memory.js';
import type { CallFacts } from './types.js';

export interface Effect {
  /** Targets whose content or existence changed. */
  readonly changedTargets: readonly string[];
  readonly kind: 'none' | 'mutate' | 'create' | 'delete' | 'unknown';
  /** Text written into the targets, when known. */
  readonly writtenText?: string;
  /** For commands with unknown effects: the command line, to see which paths it names. */
  readonly command?: string;
}

const NO_EFFECT: Effect = { changedTargets: [], kind: 'none' };
/**
 * Targets and commands whose last change is remembered. A repeat is recognised as a no-op only
 * against recent changes; a session that changes more files than this is rare.
 */
const MEMORY = 5_000;

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
  [
    'git',
    new Set([
      'status',
      'log',
      'diff',
      'show',
      'rev-parse',
      'ls-files',
      'blame',
      'grep',
      'describe',
      'shortlog',
    ]),
  ],
  ['npm', new Set(['test', 't', 'ls', 'list', 'view', 'outdated', 'why', 'explain'])],
  ['yarn', new Set(['test', 'why', 'list'])],
  ['pnpm', new Set(['test', 'list', 'ls', 'why'])],
  ['bun', new Set(['test'])],
  ['cargo', new Set(['test', 'check', 'clippy', 'tree', 'metadata'])],
  ['go', new Set(['test', 'vet', 'list', 'version', 'env'])],
  ['node', new Set(['--version', '-v', '-e', '-p'])],
  ['python', new Set(['--version', '-V'])],
  ['python3', new Set(['--version', '-V'])],
  ['dotnet', new Set(['test', '--version', '--info'])],
  ['docker', new Set(['ps', 'images', 'logs', 'inspect'])],
  ['kubectl', new Set(['get', 'describe', 'logs'])],
]);
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
    const program = first.slice(first.lastIndexOf('/') + 1);
    if (segment.includes('>') && !/[0-9]?>&[0-9]/.test(segment)) return false;
    if (program === 'cd' || READ_ONLY_COMMANDS.has(program)) {
      if (
        (program === 'find' && /\s-(delete|exec)\b/.test(segment)) ||
        (program === 'sed' && /\s-i/.test(segment))
      )
        return false;
      continue;
    }
    const subcommands = READ_ONLY_SUBCOMMANDS.get(program);
    if (subcommands && second !== undefined && subcommands.has(second)) continue;
    if (
      subcommands &&
      second === 'run' &&
      third !== undefined &&
      /^(test|lint|check|typecheck)/.test(third)
    ) {
      continue;
    }
    return false;
  }
  return true;
}

/** The first three words of a command, leaving out `NAME=value` assignments wherever they are. */
function leadingWords(segment: string): string[] {
  const words: string[] = [];
  const end = segment.length;
  let index = 0;
  while (words.length < 3) {
    while (index < end && isSpace(segment.charCodeAt(index))) index++;
    if (index === end) break;
    const start = index;
    while (index < end && !isSpace(segment.charCodeAt(index))) index++;
    const word = segment.slice(start, index);
    if (!isAssignment(word)) words.push(word);
  }
  return words;
}

/** What `\s` matches in a regular expression. */
function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** `NAME=…`, a variable set for the command that follows. */
function isAssignment(word: string): boolean {
  for (let index = 0; index < word.length; index++) {
    const code = word.charCodeAt(index);
    if (code === 61) return index > 0;
    const letter = (code | 32) >= 97 && (code | 32) <= 122;
    if (!letter && code !== 95 && !(index > 0 && code >= 48 && code <= 57)) return false;
  }
  return false;
}

/** Files that change how every command in the project behaves: manifests, compiler and tool config. */
const PROJECT_CONFIGURATION =
  /(^|\/)(package\.json|tsconfig[^/]*\.json|jsconfig\.json|\.babelrc[^/]*|[^/]*\.config\.[cm]?[jt]s|[^/]*rc\.(json|js|cjs|yaml|yml)|pyproject\.toml|setup\.(cfg|py)|requirements[^/]*\.txt|Cargo\.toml|go\.mod|Makefile|CMakeLists\.txt|pom\.xml|build\.gradle[^/]*|\.env[^/]*)$/;

export function isProjectConfiguration(target: string): boolean {
  return PROJECT_CONFIGURATION.test(target);
}

/** Two spellings of one file: equal, or one is the other with a leading directory. */
export function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  return longer.endsWith(shorter) && longer[longer.length - shorter.length - 1] === '/';
}

export function isGeneratedPath(target: string): boolean {
  return GENERATED_PATH.test(target);
}

/** Does `command` name `target` (the path or its file name as a whole word)? */
export function commandMentions(command: string, target: string): boolean {
  if (command.includes(target)) return true;
  const name = target.slice(target.lastIndexOf('/') + 1);
  if (name.length < 3) return false;
  const at = command.indexOf(name);
  if (at < 0) return false;
  const before = at === 0 ? ' ' : command[at - 1];
  const after = command[at + name.length] ?? ' ';
  return /[\s/'"=:]/.test(before as string) && /[\s'";|&)]/.test(after);
}

/** Remembers the last change of each target so that repeating it can be recognised as a no-op. */
export class WorldTracker {
  /** Each target's last change, by the call that made it. */
  private readonly lastChange = new HashMemory(MEMORY);
  /** Each command's last run that changed something: its output, and the world as it left it. */
  private readonly lastCommand = new HashMemory(MEMORY);
  private generation = 0;

  effectOf(facts: CallFacts, callKey: string, resultDigest: string): Effect {
    switch (facts.kind) {
      case 'mutate':
      case 'create':
      case 'delete': {
        // Usually every target changed: the list is then the call's own, not a copy.
        const changed = facts.targets.some((target) => this.lastChange.holds(target, callKey))
          ? facts.targets.filter((target) => !this.lastChange.holds(target, callKey))
          : facts.targets;
        if (changed.length === 0) return NO_EFFECT;
        for (const target of changed) this.lastChange.set(target, callKey);
        this.generation++;
        return { changedTargets: changed, kind: facts.kind, writtenText: facts.writtenText };
      }
      case 'exec': {
        const command = facts.targets[0] ?? '';
        if (isReadOnlyCommand(command)) return NO_EFFECT;
        // The same command, with the same output, and nothing else changed since: it changed nothing.
        if (this.lastCommand.holds(callKey, commandRun(resultDigest, this.generation))) return NO_EFFECT;
        this.generation++;
        this.lastCommand.set(callKey, commandRun(resultDigest, this.generation));
        return { changedTargets: [], kind: 'unknown', command };
      }
      default:
        return NO_EFFECT;
    }
  }

  snapshot(): unknown {
    return {
      version: 2,
      changes: this.lastChange.entries(),
      commands: this.lastCommand.entries(),
      generation: this.generation,
    };
  }

  restore(state: unknown): void {
    const value = state as {
      changes?: unknown;
      commands?: unknown;
      lastChange?: [string, string][];
      lastCommand?: [string, { digest: string; generation: number }][];
      generation?: number;
    };
    if (!value || typeof value !== 'object') return;
    this.lastChange.clear();
    this.lastCommand.clear();
    this.lastChange.restore(value.changes);
    this.lastCommand.restore(value.commands);
    // Saved before memories were kept as hashes: the texts themselves.
    for (const [key, change] of Array.isArray(value.lastChange) ? value.lastChange : []) {
      if (typeof key === 'string' && typeof change === 'string') this.lastChange.set(key, change);
    }
    for (const [key, command] of Array.isArray(value.lastCommand) ? value.lastCommand : []) {
      if (typeof key === 'string' && command && typeof command.digest === 'string')
        this.lastCommand.set(key, commandRun(command.digest, command.generation));
    }
    this.generation = typeof value.generation === 'number' ? value.generation : 0;
  }
}

function commandRun(resultDigest: string, generation: number): string {
  return `${resultDigest}\u0001${generation}`;
}

/**
 * Could writing `written` have put `needle` into the file? Err towards yes: only text that shares
 * no substantial run with the needle is taken as unable to create it.
 */
export function mayIntroduce(written: string | undefined, needle: string): boolean {
  if (written === undefined) return true;
  if (written.includes(needle) || needle.includes(written)) return true;
  const run = Math.min(8, needle.length, written.length);
  if (run <= 0) return true;
  for (let start = 0; start + run <= needle.length; start++) {
    if (written.includes(needle.slice(start, start + run))) return true;
  }
  return false;
}
