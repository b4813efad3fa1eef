/**
 * Command lines for Windows shells. On Windows, Gemini CLI runs its shell tool's commands through
 * PowerShell, Codex through `powershell.exe -Command …` (or `pwsh`), and agents write cmd's words
 * too (`dir`, `type`, `del`). There a backslash separates folders and a backtick escapes, so a POSIX
 * reading of `Get-Content C:\app\src\a.ts` loses the path (`C:appsrca.ts`) and takes the cmdlets
 * for unknown programs. A line is read as a Windows shell reads it when the host runs it so (a
 * working directory on a drive, `C:\app`), or when its own words say so: a cmdlet (`Set-Content`,
 * `Get-ChildItem`) where a command starts, `$env:`, a here-string (`@'`), an unquoted path from a
 * drive with backslashes, or `powershell`/`pwsh` given a command.
 *
 * The reader here is small and bounded: words, quotes (`'…'`, `"…"` with backtick escapes),
 * here-strings, comments, statements (`;`, new lines, `|`, `&&`, `||`, blocks and subexpressions,
 * whose commands are read as commands of the line), redirections (`>`, `>>`, `2>`, `*>`) and the
 * parameters of the cmdlets that read or change files, bound by name, by a prefix of it or by
 * position as PowerShell binds them. What it cannot read for certain (a function, a .NET or method
 * call, a variable in a path, an unknown cmdlet or script) leaves the effects unknown, which the
 * engine treats as "may have changed anything". Programs that are not cmdlets (`git`, `npm`,
 * `python`) are read as the POSIX reader reads them, from the words PowerShell passes them.
 */
import { commandReading } from './command-reading.js';
import {
  finishReading,
  newReading,
  type Reading,
  readWords,
  type ShellEffects,
  shellEffectsOf,
  touch,
  UNKNOWN,
} from './shell-effects.js';
import { normalizeTarget } from './targets.js';

/** Longer command lines are not read: their effects stay unknown. */
const MAX_LINE_CHARS = 16_384;
/** Commands read at most in one line, so a hostile line costs bounded work. */
const MAX_COMMANDS = 1_024;

/** One word of a command as PowerShell passes it. */
export interface WindowsWord {
  /** Its value, quotes and escapes removed. */
  readonly value: string;
  /** Its text as written. */
  readonly text: string;
  /** Nothing in it expands (no `$name`, no subexpression). */
  readonly literal: boolean;
  /** Written in quotes, at least in part: never a parameter's name. */
  readonly quoted: boolean;
  /** Followed at once by `(`: a method called (`$file.Delete()`, `[IO.File]::WriteAllText(`). */
  readonly called?: boolean;
}

interface WindowsCommand {
  readonly words: WindowsWord[];
  /** What ended it: `;`, a new line, `|`, `&&`, `||`, a bracket, or nothing at the line's end. */
  ending: string;
  /** Words that follow a `,`: the next value of the same parameter (`Remove-Item a.txt, b.txt`). */
  readonly continues: Set<number>;
  readonly redirects: { readonly operator: string; readonly target: WindowsWord }[];
}

/** A line read as a Windows shell reads it: its commands, or that it holds something unreadable. */
export interface WindowsLine {
  readonly commands: readonly WindowsCommand[];
  readonly unreadable: boolean;
}

/** A cmdlet where a command starts: at the line's start, after `;`, `|`, `(`, `{`, `=`, `&&` or a new line. */
const CMDLET_AT_START =
  /(?:^|[;|({=\n]|&&)[^\S\n]*(?:get|set|new|remove|copy|move|rename|add|out|select|test|write|expand|compress|push|pop|start|stop|invoke|foreach|where|sort|measure|format|clear|join|split|resolve|import|export|convertto|convertfrom|tee|wait|restart|read|update|install|uninstall|enable|disable)-[a-z]+(?=[\s;|)}]|$)/i;
/** Environment variables as PowerShell names them. */
const ENV_VARIABLE = /\$env:[A-Za-z_(]/i;
/** A here-string's opening: `@'` or `@"` where a word starts, at the end of its line (not `'@'`). */
const HERE_STRING_OPENING = /(?:^|[\s=(,])@['"]\r?\n/;
/** An unquoted word from a drive with a backslash (`C:\Users`): a POSIX shell would eat the backslash. */
const BACKSLASH_DRIVE_WORD = /(?:^|[\s=])[A-Za-z]:\\/;
/** `powershell.exe`, `pwsh` or a path to one, first on the line. */
const POWERSHELL_PROGRAM =
  /^\s*(?:&\s*)?["']?(?:[^\s"';|&]*[\\/])?(?:powershell|pwsh)(?:\.exe)?["']?(?=\s|$)/i;
/** Its options before `-Command` (`-NoLogo`, `-ExecutionPolicy Bypass`), then `-Command` (or `-c`) and the script. */
const POWERSHELL_COMMAND =
  /^((?:\s+-(?!c(?:ommand)?(?:\s|$))[A-Za-z]+(?::\S+)?(?:\s+(?=[A-Za-z0-9])(?!-)[^\s"';|&]+)?)*)\s+-(?:c|command)(?:\s+([\s\S]*))?$/i;

/** A working directory on a drive (`C:\app`, `d:/work`): the host runs its commands in a Windows shell. */
export function isWindowsDirectory(value: unknown): boolean {
  return typeof value === 'string' && /^[A-Za-z]:(?:[\\/]|$)/.test(value.trim());
}

/** Whether a command line's own words say it is for a Windows shell (see the module's comment). */
export function readsAsWindowsShell(command: string): boolean {
  if (typeof command !== 'string' || command.length > MAX_LINE_CHARS) return false;
  return (
    CMDLET_AT_START.test(command) ||
    ENV_VARIABLE.test(command) ||
    HERE_STRING_OPENING.test(command) ||
    BACKSLASH_DRIVE_WORD.test(command) ||
    POWERSHELL_PROGRAM.test(command)
  );
}

/**
 * What a command line does to the workspace, read as a Windows shell reads it when the host or its
 * own words say it is for one (see `readsAsWindowsShell`), as the POSIX shell reads it otherwise.
 */
export function lineEffectsOf(command: string, windowsHost = false): ShellEffects {
  if (typeof command !== 'string' || command.length > MAX_LINE_CHARS) return UNKNOWN;
  if (!windowsHost && !readsAsWindowsShell(command)) return shellEffectsOf(command);
  return windowsEffectsOf(command);
}

/** What a command line acts on, read as `lineEffectsOf` reads it. */
export function lineOperands(command: string): string[] {
  return [...lineEffectsOf(command).operands];
}

/** Whether a command line prints a service's log and does nothing else. */
export function printsServiceLogsOf(command: string | undefined, windowsHost = false): boolean {
  return typeof command === 'string' && lineEffectsOf(command, windowsHost).printsLogs;
}

/** Effects read as a Windows shell reads the line, kept on the line's reading. */
function windowsEffectsOf(command: string): ShellEffects {
  const reading = commandReading(command);
  reading.windowsEffects ??= readWindowsEffects(command);
  return reading.windowsEffects;
}

function readWindowsEffects(command: string): ShellEffects {
  const line = parseWindowsLine(command);
  if (line === undefined || line.unreadable) return UNKNOWN;
  const reading = newReading();
  for (const each of line.commands) readWindowsCommand(each, reading);
  return finishReading(reading);
}

/**
 * The script `powershell -Command …` runs, or undefined when the line does not run PowerShell so.
 * One pair of quotes around the whole script is the outer shell's, not the script's.
 */
export function powerShellScript(command: string): string | undefined {
  const program = POWERSHELL_PROGRAM.exec(command);
  if (program === null) return undefined;
  const rest = POWERSHELL_COMMAND.exec(command.slice(program[0].length));
  if (rest === null) return undefined;
  const script = (rest[2] ?? '').trim();
  const quote = script[0];
  if (
    (quote === '"' || quote === "'") &&
    script.length >= 2 &&
    script.endsWith(quote) &&
    !script.slice(1, -1).includes(quote)
  )
    return script.slice(1, -1);
  return script;
}

/** Words that open a statement and run nothing by themselves; what follows is read as commands. */
const KEYWORDS = new Set([
  'if',
  'elseif',
  'else',
  'foreach',
  'for',
  'while',
  'do',
  'until',
  'switch',
  'try',
  'catch',
  'finally',
  'return',
  'exit',
  'throw',
  'break',
  'continue',
  'param',
  'begin',
  'process',
  'end',
  'trap',
]);
/** Words that define code the line may run anywhere: its effects cannot be read from the line. */
const DEFINITIONS = new Set(['function', 'filter', 'class', 'workflow', 'configuration', 'enum']);

const SPACE = /[ \t\r\f\v\u00a0]/;
/** Characters that end a bare word. */
const WORD_END = /[\s;|&(){},>]/;
/** `>`, `>>`, `2>`, `2>>`, `*>`, `2>&1`, `*>&1`, `3>$null`: a redirection, where a word starts. */
const REDIRECT = /^(?:[1-6*])?>>?(?:&[1-6])?/;
const ASSIGNMENT = /^(?:=|\+=|-=|\*=|\/=|%=|\?\?=)$/;

/**
 * A line's commands as PowerShell (or cmd, whose words these cover) reads them. Undefined when the
 * line is too long or holds more commands than are read.
 */
export function parseWindowsLine(command: string): WindowsLine | undefined {
  if (command.length > MAX_LINE_CHARS) return undefined;
  const script = powerShellScript(command);
  const text = script ?? command;
  const commands: WindowsCommand[] = [];
  let unreadable = false;
  let current: WindowsCommand = { words: [], ending: '', continues: new Set(), redirects: [] };
  let redirect: string | undefined;
  let comma = false;
  const end = (ending = ''): void => {
    current.ending = ending;
    if (current.words.length > 0 || current.redirects.length > 0) commands.push(current);
    else if (ending !== '') {
      // A bracket or separator alone still tells the line's shape apart (`a; b` is not `a && b`).
      const last = commands[commands.length - 1];
      if (last !== undefined) last.ending += ending;
    }
    current = { words: [], ending: '', continues: new Set(), redirects: [] };
    redirect = undefined;
    comma = false;
  };
  const push = (word: WindowsWord): void => {
    if (redirect !== undefined) {
      current.redirects.push({ operator: redirect, target: word });
      redirect = undefined;
      return;
    }
    if (comma) current.continues.add(current.words.length);
    comma = false;
    current.words.push(word);
  };
  const length = text.length;
  let index = 0;
  while (index < length) {
    if (commands.length > MAX_COMMANDS) return undefined;
    const char = text[index] as string;
    if (SPACE.test(char)) {
      index++;
      continue;
    }
    if (char === '`' && (text[index + 1] === '\n' || text[index + 1] === '\r')) {
      // A line continued on the next.
      index += text[index + 1] === '\r' && text[index + 2] === '\n' ? 3 : 2;
      continue;
    }
    if (char === '\n' || char === ';' || char === '(' || char === ')' || char === '{' || char === '}') {
      end(char);
      index++;
      continue;
    }
    if (char === '|' || char === '&') {
      const doubled = text[index + 1] === char;
      // `|`, `||`, `&&` end a command; a lone `&` calls the next word (`& "C:\tools\x.exe"`).
      if (char === '|' || doubled) end(doubled ? char + char : char);
      index += doubled ? 2 : 1;
      continue;
    }
    if (char === ',') {
      comma = true;
      index++;
      continue;
    }
    if (char === '#') {
      const lineEnd = text.indexOf('\n', index);
      index = lineEnd < 0 ? length : lineEnd;
      continue;
    }
    if (char === '<' && text[index + 1] === '#') {
      const close = text.indexOf('#>', index + 2);
      index = close < 0 ? length : close + 2;
      continue;
    }
    const redirection = REDIRECT.exec(text.slice(index, index + 6));
    if (redirection !== null) {
      index += redirection[0].length;
      // `2>&1`: one stream sent to another, no file.
      if (!redirection[0].includes('&')) redirect = redirection[0];
      continue;
    }
    if ((char === '$' || char === '@') && (text[index + 1] === '(' || text[index + 1] === '{')) {
      // A subexpression or a hash table: what it holds is read as commands of the line.
      end(text.slice(index, index + 2));
      index += 2;
      continue;
    }
    const word = readWord(text, index);
    if (word === undefined) return undefined;
    push(word.word);
    index = word.end;
  }
  end();
  for (const each of commands) {
    const first = each.words[0];
    if (first !== undefined && !first.quoted && DEFINITIONS.has(first.value.toLowerCase())) unreadable = true;
  }
  return { commands, unreadable };
}

/** A here-string from `start` (at its `@`): its value, and where it ends; undefined when it does not close. */
function hereString(text: string, start: number): { word: WindowsWord; end: number } | undefined {
  const quote = text[start + 1] as string;
  const bodyStart = text.indexOf('\n', start) + 1;
  const closing = `\n${quote}@`;
  const close = text.indexOf(closing, bodyStart - 1);
  if (close < 0) return undefined;
  let body = text.slice(bodyStart, Math.max(bodyStart, close));
  if (body.endsWith('\r')) body = body.slice(0, -1);
  const end = close + closing.length;
  return {
    word: {
      value: body,
      text: text.slice(start, end),
      literal: quote === "'" || !/\$[\w{(:?]/.test(body),
      quoted: true,
    },
    end,
  };
}

/** What a backtick followed by `next` stands for. */
function escaped(next: string): string {
  switch (next) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case '0':
      return '\0';
    default:
      return next;
  }
}

/** One word from `start`: quoted parts, bare parts and escapes until a space or an operator. */
function readWord(text: string, start: number): { word: WindowsWord; end: number } | undefined {
  if (text[start] === '@' && (text[start + 1] === "'" || text[start + 1] === '"')) {
    const lineEnd = text.slice(start + 2).search(/\S|\n/);
    if (lineEnd >= 0 && text[start + 2 + lineEnd] === '\n') return hereString(text, start);
  }
  const length = text.length;
  let value = '';
  let literal = true;
  let quoted = false;
  let index = start;
  while (index < length) {
    const char = text[index] as string;
    if (char === "'") {
      quoted = true;
      index++;
      while (index < length) {
        if (text[index] === "'") {
          if (text[index + 1] === "'") {
            value += "'";
            index += 2;
            continue;
          }
          break;
        }
        value += text[index];
        index++;
      }
      if (index >= length) return undefined;
      index++;
      continue;
    }
    if (char === '"') {
      quoted = true;
      index++;
      while (index < length) {
        const inner = text[index] as string;
        if (inner === '`' && index + 1 < length) {
          value += escaped(text[index + 1] as string);
          index += 2;
          continue;
        }
        if (inner === '"') {
          if (text[index + 1] === '"') {
            value += '"';
            index += 2;
            continue;
          }
          break;
        }
        if (inner === '$' && /[\w{(:?]/.test(text[index + 1] ?? '')) literal = false;
        value += inner;
        index++;
      }
      if (index >= length) return undefined;
      index++;
      continue;
    }
    if (char === '`' && index + 1 < length) {
      const next = text[index + 1] as string;
      if (next === '\n' || next === '\r') break;
      value += escaped(next);
      index += 2;
      continue;
    }
    if (WORD_END.test(char)) {
      // A subexpression inside a word (`out-$(Get-Date).log`) makes it not literal; it is skipped.
      if (char === '(' && value.endsWith('$') && index > start) {
        literal = false;
        const close = text.indexOf(')', index);
        if (close < 0) return undefined;
        value += text.slice(index, close + 1);
        index = close + 1;
        continue;
      }
      break;
    }
    if (char === '$' && /[\w{:?]/.test(text[index + 1] ?? '')) literal = false;
    value += char;
    index++;
  }
  if (index === start) return undefined;
  const called = text[index] === '(';
  return {
    word: { value, text: text.slice(start, index), literal, quoted, ...(called && { called }) },
    end: index,
  };
}

/** How a cmdlet acts on files, and how its parameters bind. */
interface Cmdlet {
  /** `reads`: only reads files; `looks`: only looks (at anything); `writes`: changes the files in `written`. */
  readonly role: 'reads' | 'looks' | 'neutral' | 'writes';
  /** Parameters bound by position, in order. */
  readonly positional?: readonly string[];
  /** Other parameters that take a value; every other parameter is a switch. */
  readonly values?: readonly string[];
  /** Parameters whose values are the files it writes, creates, moves or removes. */
  readonly written?: readonly string[];
  /** Parameters whose values are what it acts on. */
  readonly operands?: readonly string[];
}

const PATHS = ['path', 'literalpath'];
const FILTERS = ['filter', 'include', 'exclude'];
const READ_FILE: Cmdlet = {
  role: 'reads',
  positional: ['path'],
  values: [
    'literalpath',
    'totalcount',
    'head',
    'tail',
    'readcount',
    'encoding',
    'delimiter',
    'stream',
    ...FILTERS,
  ],
  operands: PATHS,
};
const TEXT: Cmdlet = { role: 'reads' };
const LOOKS: Cmdlet = { role: 'looks' };
const NEUTRAL: Cmdlet = { role: 'neutral' };
const SET_CONTENT: Cmdlet = {
  role: 'writes',
  positional: ['path', 'value'],
  values: ['literalpath', 'encoding', 'stream', 'delimiter', ...FILTERS],
  written: PATHS,
  operands: PATHS,
};
const NEW_ITEM: Cmdlet = {
  role: 'writes',
  positional: ['path'],
  values: ['name', 'itemtype', 'type', 'value', 'target'],
  written: ['path'],
  operands: ['path'],
};
const REMOVE_ITEM: Cmdlet = {
  role: 'writes',
  positional: ['path'],
  values: ['literalpath', 'stream', ...FILTERS],
  written: PATHS,
  operands: PATHS,
};
const COPY_ITEM: Cmdlet = {
  role: 'writes',
  positional: ['path', 'destination'],
  values: ['literalpath', ...FILTERS],
  written: ['destination'],
  operands: [...PATHS, 'destination'],
};
const MOVE_ITEM: Cmdlet = { ...COPY_ITEM, written: [...PATHS, 'destination'] };
const RENAME_ITEM: Cmdlet = {
  role: 'writes',
  positional: ['path', 'newname'],
  values: ['literalpath'],
  written: [...PATHS, 'newname'],
  operands: PATHS,
};
const OUT_FILE: Cmdlet = {
  role: 'writes',
  positional: ['filepath', 'encoding'],
  values: ['literalpath', 'width', 'inputobject'],
  written: ['filepath', 'literalpath'],
  operands: ['filepath', 'literalpath'],
};
const TEE: Cmdlet = {
  role: 'writes',
  positional: ['filepath'],
  values: ['literalpath', 'variable', 'inputobject', 'encoding'],
  written: ['filepath', 'literalpath'],
};
const EXPORT: Cmdlet = {
  role: 'writes',
  positional: ['path'],
  values: ['literalpath', 'delimiter', 'encoding', 'inputobject', 'depth'],
  written: PATHS,
};
const ARCHIVE: Cmdlet = {
  role: 'writes',
  positional: ['path', 'destinationpath'],
  values: ['literalpath', 'compressionlevel'],
  written: ['destinationpath'],
  operands: PATHS,
};
const WEB_REQUEST: Cmdlet = {
  role: 'writes',
  positional: ['uri'],
  values: ['outfile', 'method', 'body', 'headers', 'contenttype', 'infile', 'useragent', 'timeoutsec'],
  written: ['outfile'],
};

/** Cmdlets and their aliases, lower-cased, that read or change files or only look. */
const CMDLETS: ReadonlyMap<string, Cmdlet> = new Map<string, Cmdlet>([
  ...['get-content', 'gc', 'cat', 'type'].map((name) => [name, READ_FILE] as const),
  [
    'select-string',
    {
      role: 'reads',
      positional: ['pattern', 'path'],
      values: ['literalpath', 'encoding', 'context', 'inputobject', ...FILTERS],
      operands: PATHS,
    },
  ],
  ['sls', { role: 'reads' }],
  ...['get-childitem', 'gci', 'ls', 'dir'].map(
    (name) =>
      [
        name,
        {
          role: 'reads',
          positional: ['path', 'filter'],
          values: ['literalpath', 'include', 'exclude', 'depth', 'attributes'],
          operands: PATHS,
        },
      ] as const,
  ),
  ...['test-path', 'get-item', 'gi', 'resolve-path', 'rvpa', 'get-itemproperty', 'gp', 'get-filehash'].map(
    (name) => [name, { ...READ_FILE, values: ['literalpath', 'algorithm', 'name', ...FILTERS] }] as const,
  ),
  ...[
    'split-path',
    'join-path',
    'get-location',
    'gl',
    'pwd',
    'select-object',
    'select',
    'where-object',
    'where',
    '?',
    'foreach-object',
    'foreach',
    '%',
    'sort-object',
    'sort',
    'measure-object',
    'measure',
    'group-object',
    'group',
    'format-table',
    'ft',
    'format-list',
    'fl',
    'format-wide',
    'fw',
    'out-string',
    'out-host',
    'out-default',
    'write-output',
    'write',
    'echo',
    'write-host',
    'write-verbose',
    'write-warning',
    'write-error',
    'write-debug',
    'write-information',
    'convertto-json',
    'convertfrom-json',
    'convertto-csv',
    'convertfrom-csv',
    'compare-object',
    'get-unique',
  ].map((name) => [name, TEXT] as const),
  ...['set-location', 'sl', 'cd', 'chdir', 'push-location', 'pushd', 'pop-location', 'popd'].map(
    (name) => [name, NEUTRAL] as const,
  ),
  ...['start-sleep', 'sleep', 'out-null', 'clear-host', 'cls'].map((name) => [name, NEUTRAL] as const),
  ...['set-content', 'sc', 'add-content', 'ac', 'clear-content', 'clc'].map(
    (name) => [name, SET_CONTENT] as const,
  ),
  ...['new-item', 'ni', 'mkdir', 'md'].map((name) => [name, NEW_ITEM] as const),
  ...['remove-item', 'ri', 'rm', 'rmdir', 'rd', 'del', 'erase'].map((name) => [name, REMOVE_ITEM] as const),
  ...['copy-item', 'cpi', 'cp', 'copy'].map((name) => [name, COPY_ITEM] as const),
  ...['move-item', 'mi', 'mv', 'move'].map((name) => [name, MOVE_ITEM] as const),
  ...['rename-item', 'rni', 'ren'].map((name) => [name, RENAME_ITEM] as const),
  ['out-file', OUT_FILE],
  ...['tee-object', 'tee'].map((name) => [name, TEE] as const),
  ...['export-csv', 'epcsv', 'export-clixml'].map((name) => [name, EXPORT] as const),
  ...['expand-archive', 'compress-archive'].map((name) => [name, ARCHIVE] as const),
  ...['invoke-webrequest', 'iwr', 'invoke-restmethod', 'irm'].map((name) => [name, WEB_REQUEST] as const),
]);

/** Verbs whose cmdlets, by PowerShell's own rules, only look: `Get-Process`, `Test-Connection`. */
const LOOKING_VERBS = /^(?:get|test|find|measure|resolve|select|format|compare|convertto|convertfrom)-/;

/** A program as a Windows shell names it: its file name, without `.exe`, `.cmd`, `.bat` or `.ps1`'s folder. */
function windowsProgramName(word: string): string {
  const name = word.slice(Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\')) + 1);
  return name.replace(/\.(?:exe|cmd|bat|com)$/i, '');
}

/** Places writing to which changes no file. */
const NOT_FILES = /^(?:\$null|nul|con|\/dev\/null)$/i;

function readWindowsCommand(command: WindowsCommand, reading: Reading): void {
  let words = command.words;
  for (const { target } of command.redirects) {
    if (NOT_FILES.test(target.value)) continue;
    writePaths([target], reading);
    reading.onlyLooks = false;
  }
  let first = words[0];
  if (first === undefined) return;
  let continues = command.continues;
  // `$found = Get-ChildItem …`: the command is what comes after the assignment.
  if (!first.quoted && first.value.startsWith('$') && ASSIGNMENT.test(words[1]?.value ?? '')) {
    words = words.slice(2);
    continues = new Set([...continues].map((at) => at - 2));
    first = words[0];
    if (first === undefined) return;
  }
  const name = first.value.toLowerCase();
  if (!first.quoted && KEYWORDS.has(name)) {
    // What follows the keyword on its own (`return Get-Item a.ts`, `else Remove-Item b.ts`).
    const after = new Set([...continues].map((at) => at - 1));
    readWindowsCommand({ ...command, words: words.slice(1), continues: after, redirects: [] }, reading);
    return;
  }
  // A script run by its path (`.\build.ps1`) or dot-sourced (`. .\env.ps1`) may do anything.
  if (!first.quoted && (first.value === '.' || /^\.{1,2}[\\/]/.test(first.value))) {
    unknownCommand(reading);
    return;
  }
  if (first.quoted || !first.literal || /^[-$\d[@!+]/.test(first.value)) {
    // An expression: a value, a variable, an operator. A method called on a value, or on a .NET type
    // (`[IO.File]::WriteAllText(…)`), may do anything.
    if (words.some((word) => word.called === true && /[.:]/.test(word.value))) unknownCommand(reading);
    return;
  }
  const bare = name.slice(Math.max(name.lastIndexOf('\\'), -1) + 1);
  const cmdlet = CMDLETS.get(bare) ?? (LOOKING_VERBS.test(bare) ? LOOKS : undefined);
  if (cmdlet === undefined) {
    readWords(
      words.map((word) => (word.literal ? word.value : word.text)),
      reading,
      windowsProgramName,
    );
    return;
  }
  if (cmdlet.role === 'neutral') return;
  reading.onlyLogsAndText = false;
  if (cmdlet.role !== 'reads') reading.readsFilesOnly = false;
  const bound = bind(cmdlet, words.slice(1), continues);
  for (const parameter of cmdlet.operands ?? []) {
    for (const word of bound.get(parameter) ?? [])
      if (word.literal) reading.operands.push(normalizeTarget(word.value));
  }
  if (cmdlet.role !== 'writes') return;
  const written: WindowsWord[] = [];
  for (const parameter of cmdlet.written ?? []) {
    const values = bound.get(parameter) ?? [];
    if (parameter === 'newname') {
      // `Rename-Item src\a.ts b.ts`: the new name is beside the old.
      const from = (bound.get('path') ?? bound.get('literalpath') ?? [])[0];
      for (const word of values) written.push(sibling(from, word));
    } else if (parameter === 'path' && bound.has('name')) {
      // `New-Item -Path src -Name a.ts`: the item is in the folder.
      for (const folder of values.length > 0 ? values : [undefined])
        for (const word of bound.get('name') ?? []) written.push(child(folder, word));
    } else written.push(...values);
  }
  if (bound.has('name') && !bound.has('path') && cmdlet === NEW_ITEM)
    written.push(...(bound.get('name') ?? []));
  reading.onlyLooks = false;
  reading.looksOrComputes = false;
  // A cmdlet that writes and names nothing it writes (`… | Set-Content`, a filter) writes where it
  // cannot be read.
  if (written.length === 0 || FILTERS.some((filter) => bound.has(filter))) {
    reading.writes = true;
    reading.touchesOnly = false;
  }
  writePaths(written, reading);
}

/** Marks the command's effects as unreadable: it may have changed anything. */
function unknownCommand(reading: Reading): void {
  reading.onlyLooks = reading.touchesOnly = reading.onlyLogsAndText = reading.looksOrComputes = false;
  reading.readsFilesOnly = false;
}

/** Records written paths: literal ones by their normal form, others as what cannot be read. */
function writePaths(words: readonly WindowsWord[], reading: Reading): void {
  touch(
    words.map((word) => (word.literal ? word.value : word.text || '$')),
    reading,
  );
}

/** The word `name` in the folder `folder` (or as it is, without one). */
function child(folder: WindowsWord | undefined, name: WindowsWord): WindowsWord {
  if (folder === undefined) return name;
  return {
    value: `${folder.value.replace(/[\\/]+$/, '')}/${name.value}`,
    text: `${folder.text}/${name.text}`,
    literal: folder.literal && name.literal,
    quoted: true,
  };
}

/** `name` beside the file `path` (a new name given with a folder is taken as it is). */
function sibling(path: WindowsWord | undefined, name: WindowsWord): WindowsWord {
  if (path === undefined || /[\\/]/.test(name.value)) return name;
  const cut = Math.max(path.value.lastIndexOf('/'), path.value.lastIndexOf('\\'));
  if (cut < 0) return name;
  return child({ ...path, value: path.value.slice(0, cut) }, name);
}

/**
 * The cmdlet's parameters bound to the words after its name, as PowerShell binds them: `-Name value`,
 * `-Name:value` or a unique prefix of the name (`-Dest`), then by position to the parameters left;
 * words after a `,` join the parameter before them. A parameter not known to take a value is a switch.
 */
function bind(
  cmdlet: Cmdlet,
  words: readonly WindowsWord[],
  continues: ReadonlySet<number>,
): Map<string, WindowsWord[]> {
  const positional = cmdlet.positional ?? [];
  const valued = [...positional, ...(cmdlet.values ?? [])];
  const bound = new Map<string, WindowsWord[]>();
  const add = (parameter: string, word: WindowsWord): void => {
    const list = bound.get(parameter);
    if (list === undefined) bound.set(parameter, [word]);
    else list.push(word);
  };
  let last: string | undefined;
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as WindowsWord;
    // Offsets in `continues` count the command's name.
    if (continues.has(index + 1) && last !== undefined) {
      add(last, word);
      continue;
    }
    if (!word.quoted && /^-[A-Za-z]/.test(word.value)) {
      const colon = word.value.indexOf(':');
      const given = (colon < 0 ? word.value.slice(1) : word.value.slice(1, colon)).toLowerCase();
      const parameter =
        valued.find((name) => name === given) ?? valued.find((name) => name.startsWith(given));
      last = undefined;
      if (parameter === undefined) continue;
      if (colon >= 0) {
        add(parameter, { ...word, value: word.value.slice(colon + 1), text: word.text.slice(colon + 1) });
        last = parameter;
        continue;
      }
      const value = words[index + 1];
      if (value === undefined) continue;
      add(parameter, value);
      last = parameter;
      index++;
      continue;
    }
    const parameter = positional.find((name) => !bound.has(name));
    last = parameter;
    if (parameter !== undefined) add(parameter, word);
  }
  return bound;
}

/**
 * A key two spellings of one attempt share, for a line a Windows shell reads: its commands' words as
 * the shell passes them, with what separates the commands, so that quoting the same literal word
 * otherwise (`'a b'`, `"a b"`, `a` `` ` ``b) is the same attempt. Separators in paths are kept as written: a
 * program is passed `src\a` and `src/a` as they are, and may take them otherwise. Undefined when the
 * line cannot be read.
 */
export function windowsAttemptKey(command: string): string | undefined {
  const line = parseWindowsLine(command);
  if (line === undefined || line.unreadable || line.commands.length === 0) return undefined;
  const parts: string[][] = [];
  for (const each of line.commands) {
    // A word that expands is its text: `"$ref"` and `'$ref'` are two attempts.
    const words = each.words.map((word) => (word.literal ? word.value : word.text));
    for (const { operator, target } of each.redirects) words.push(operator, target.value);
    words.push(each.ending);
    parts.push(words);
  }
  return JSON.stringify(parts);
}
