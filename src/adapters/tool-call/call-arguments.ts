/**
 * What particular argument shapes carry: the command line of a shell call, the files a patch touches,
 * the text an edit writes and the text it searched for.
 */

import { isRecord, squashArgumentName, subcommandKind } from './action-classes.js';
import { forEachMatch } from './matches.js';
import { normalizeTarget } from './targets.js';

const MAX_COMMAND_LENGTH = 1024;
/**
 * How much of the end of a longer command is kept after its first `MAX_COMMAND_LENGTH` characters:
 * a script handed over inline ends with where it goes (`'@ | Set-Content gen.py`, `PY\n) > out.json`).
 */
const COMMAND_TAIL_LENGTH = 256;
const MAX_NEEDLE_LENGTH = 2000;
const MAX_PATCH_FILES = 16;

/** Whitespace that collapsing would change: anything but a lone plain space. */
const UNCOLLAPSED_SPACE = /[^\S ]| {2}/;

/**
 * The command of a shell call as the shell reads it, lines kept: a line break ends a comment and
 * separates commands, which collapsing it to a space would not (`# check\nnpm test`).
 */
export function commandText(args: Readonly<Record<string, unknown>>): string | undefined {
  const raw = args.command ?? args.cmd ?? args.commandLine ?? args.script;
  if (typeof raw === 'string') return raw;
  if (!Array.isArray(raw)) return undefined;
  const words = raw.filter((part): part is string => typeof part === 'string');
  return scriptOfShell(words) ?? words.join(' ');
}

/** Shells that run the script after their `-c` option (`bash -lc 'cargo check'`). */
const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish']);
/** PowerShell, which runs the words after `-Command` (or `-c`), its other options before it. */
const POWERSHELLS = new Set(['pwsh', 'powershell']);
/** Options a POSIX shell may take before its script: `-c`, `-lc`, `-ic`, `-euc`… */
const POSIX_SCRIPT_OPTION = /^-[a-z]*c[a-z]*$/;
const POWERSHELL_SCRIPT_OPTION = /^-(?:c|command)$/i;

/**
 * The script of a command given as a shell and its arguments (`["bash", "-lc", "cargo check"]`, as
 * Codex's `shell` tool takes it): what runs is the script, not a program called `bash`. Joined with
 * spaces, the script's words would be read as arguments of the shell.
 */
function scriptOfShell(words: readonly string[]): string | undefined {
  const first = words[0];
  if (first === undefined) return undefined;
  const shell = first
    .slice(Math.max(first.lastIndexOf('/'), first.lastIndexOf('\\')) + 1)
    .toLowerCase()
    .replace(/\.exe$/, '');
  if (POSIX_SHELLS.has(shell)) {
    // `bash -lc SCRIPT [NAME ARGS…]`: the words after the script are its `$0` and arguments.
    const at = words.findIndex((word, index) => index > 0 && POSIX_SCRIPT_OPTION.test(word));
    if (at < 0 || !words.slice(1, at).every((word) => word.startsWith('-'))) return undefined;
    return words[at + 1];
  }
  if (POWERSHELLS.has(shell)) {
    const at = words.findIndex((word, index) => index > 0 && POWERSHELL_SCRIPT_OPTION.test(word));
    if (at < 0 || !words.slice(1, at).every((word) => word.startsWith('-'))) return undefined;
    const script = words.slice(at + 1);
    return script.length > 0 ? script.join(' ') : undefined;
  }
  return undefined;
}

/**
 * The command of a shell call, whitespace collapsed: `npm  test` and `npm test` are one target. A long
 * one keeps its beginning and its end, so that the file a long inline script is written to is still
 * named.
 */
export function commandLine(args: Readonly<Record<string, unknown>>): string | undefined {
  return collapsedLine(commandText(args));
}

/** `commandLine` of a command's text already read (see `commandText`). */
export function collapsedLine(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const collapsed = (UNCOLLAPSED_SPACE.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
  if (collapsed === '') return undefined;
  if (collapsed.length <= MAX_COMMAND_LENGTH + COMMAND_TAIL_LENGTH) return collapsed;
  return `${collapsed.slice(0, MAX_COMMAND_LENGTH)} … ${collapsed.slice(-COMMAND_TAIL_LENGTH)}`;
}

const PATCH_KEYS = ['input', 'patch', 'command', 'content', 'diff'] as const;
/** How a line of a patch that names a file opens. */
const PATCH_FILE_HEADER = /^\*\*\* (?:Add File|Update File|Delete File|Move to): /;
const PATCH_FILE_LINE = new RegExp(`${PATCH_FILE_HEADER.source}(.+)$`, 'gm');

/**
 * The body of a Codex-style patch (`*** Begin Patch`), when one of the arguments is one: under a key
 * patch tools commonly give it, or else under any key whose whole value opens as a patch (a host's
 * own name for it, such as `patchText`).
 */
export function patchBody(args: Readonly<Record<string, unknown>>): string | undefined {
  for (const key of PATCH_KEYS) {
    const value = args[key];
    const text = typeof value === 'string' ? value : Array.isArray(value) ? value.find(isPatch) : undefined;
    if (typeof text === 'string' && isPatch(text)) return text;
  }
  for (const key in args) {
    const value = args[key];
    if (Object.hasOwn(args, key) && typeof value === 'string' && value.trimStart().startsWith(PATCH_START)) {
      return value;
    }
  }
  return undefined;
}

const PATCH_START = '*** Begin Patch';

function isPatch(value: unknown): value is string {
  return typeof value === 'string' && value.includes(PATCH_START);
}

export function patchTargets(patch: string): string[] {
  const targets = new Set<string>();
  for (const match of patch.matchAll(PATCH_FILE_LINE)) {
    const path = match[1]?.trim();
    if (path) targets.add(normalizeTarget(path));
    if (targets.size >= MAX_PATCH_FILES) break;
  }
  return [...targets];
}

const PATCH_ADD_LINE = /^\*\*\* Add File: /;

/** Whether a patch only adds files (its every file line is `*** Add File:`): it creates what it names. */
export function patchOnlyAddsFiles(patch: string): boolean {
  const fileLines = patch.split('\n').filter((line) => PATCH_FILE_HEADER.test(line));
  return fileLines.length > 0 && fileLines.every((line) => PATCH_ADD_LINE.test(line));
}

/** Lines a patch adds, without their `+`. */
function addedLines(patch: string): string {
  const out: string[] = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) out.push(line.slice(1));
  }
  return out.join('\n');
}

/** Aider/Roo (`<<<<<<< SEARCH … ======= … >>>>>>> REPLACE`) and Cline (`------- SEARCH … +++++++ REPLACE`). */
const SEARCH_REPLACE =
  /(?:<{7}|-{7}) SEARCH\r?\n([\s\S]*?)\r?\n={7}\r?\n([\s\S]*?)\r?\n?(?:>{7}|\+{7}) REPLACE/g;
/** Roo's line hints at the top of a search block. */
const SEARCH_HINT_LINES = /^(?::(?:start|end)_line:\s*\d+\s*\r?\n|-{7}\s*\r?\n)+/;
const DIFF_KEYS = ['diff', 'patch', 'input', 'content'] as const;
const MAX_BLOCKS = 32;

interface SearchReplace {
  readonly search: string;
  readonly replace: string;
}

/** The search/replace blocks of a diff argument, in order. */
function searchReplaceBlocks(args: Readonly<Record<string, unknown>>): SearchReplace[] {
  for (const key of DIFF_KEYS) {
    const value = args[key];
    if (typeof value !== 'string' || !value.includes(' SEARCH')) continue;
    const blocks: SearchReplace[] = [];
    for (const match of value.matchAll(SEARCH_REPLACE)) {
      blocks.push({ search: (match[1] ?? '').replace(SEARCH_HINT_LINES, ''), replace: match[2] ?? '' });
      if (blocks.length >= MAX_BLOCKS) break;
    }
    if (blocks.length > 0) return blocks;
  }
  return [];
}

/**
 * What an edit's or a write's argument holds, by its name in any convention (`old_string`,
 * `oldString`, Windsurf's `TargetContent`): the text it looks for, the text it puts there, a whole
 * file's text, or the file it writes.
 */
type EditRole = 'old' | 'new' | 'whole' | 'file';
const EDIT_ROLE_BY_KEY = new Map<string, EditRole>([
  ...['oldtext', 'oldstring', 'oldstr', 'targetcontent'].map((key) => [key, 'old'] as const),
  ...['newtext', 'newstring', 'newstr', 'replacement', 'replacementcontent'].map(
    (key) => [key, 'new'] as const,
  ),
  ...['content', 'contents', 'filetext', 'codecontent', 'filecontent', 'filecontents'].map(
    (key) => [key, 'whole'] as const,
  ),
  ...['path', 'filepath', 'file', 'filename', 'absolutepath', 'targetfile'].map(
    (key) => [key, 'file'] as const,
  ),
]);
/** Arguments of one record read for their roles, at most: a model's arguments may hold any number. */
const MAX_ROLE_KEYS = 64;

/** The first string of `record` (in its order) under a name of `role`, or undefined. */
function stringOfRole(record: Readonly<Record<string, unknown>>, role: EditRole): string | undefined {
  let seen = 0;
  for (const key in record) {
    if (++seen > MAX_ROLE_KEYS) break;
    const value = record[key];
    if (typeof value === 'string' && EDIT_ROLE_BY_KEY.get(squashArgumentName(key)) === role) return value;
  }
  return undefined;
}

/**
 * The edits of a call that makes several (`edits: [{oldText, newText}]`, Windsurf's
 * `ReplacementChunks: [{TargetContent, ReplacementContent}]`): `edits`, or the first list whose first
 * item looks for a text; undefined when the call has none.
 */
export function editList(args: Readonly<Record<string, unknown>>): readonly unknown[] | undefined {
  if (Array.isArray(args.edits)) return args.edits;
  let seen = 0;
  for (const key in args) {
    if (++seen > MAX_ROLE_KEYS) break;
    const value = args[key];
    if (Array.isArray(value) && isRecord(value[0]) && stringOfRole(value[0], 'old') !== undefined)
      return value;
  }
  return undefined;
}

/** The first of `keys` whose value in `record` is a string, that string; undefined when none is. */
export function firstString(
  record: Readonly<Record<string, unknown>>,
  keys: readonly string[],
): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** Everything a mutation writes: it decides which "text not found" bans the write may lift. */
export function writtenText(args: Readonly<Record<string, unknown>>): string | undefined {
  return writtenTextBeside(args, patchBody(args));
}

/** `writtenText` of a call whose patch was already read (`patchBody(args)`, undefined for none). */
export function writtenTextBeside(
  args: Readonly<Record<string, unknown>>,
  patch: string | undefined,
): string | undefined {
  const parts: string[] = [];
  let seen = 0;
  for (const key in args) {
    if (++seen > MAX_ROLE_KEYS) break;
    const value = args[key];
    if (typeof value !== 'string') continue;
    const role = EDIT_ROLE_BY_KEY.get(squashArgumentName(key));
    if (role === 'new' || role === 'whole') parts.push(value);
  }
  const edits = editList(args);
  if (edits !== undefined) {
    for (const edit of edits.slice(0, 64)) {
      if (!isRecord(edit)) continue;
      const text = stringOfRole(edit, 'new');
      if (text !== undefined) parts.push(text);
    }
  }
  if (patch !== undefined) parts.push(addedLines(patch));
  for (const block of searchReplaceBlocks(args)) parts.push(block.replace);
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : parts.join('\n');
}

/** Arguments that give the first and last line an edit replaces, as pairs. */
const LINE_RANGE_PAIRS = [
  ['start', 'end'],
  ['start_line', 'end_line'],
  ['startLine', 'endLine'],
  ['line_start', 'line_end'],
] as const;
/** `lines: "10:12"` (SWE-agent's `edit 10:12`), `"10-12"`, `"10,12"`. */
const LINES_ARGUMENT = /^\s*(\d{1,9})\s*[:,-]\s*(\d{1,9})\s*$/;

/**
 * Whether the edit replaces a range of lines with as many lines: its arguments give the range's first
 * and last line (`lines: "10:12"`, `start`/`end`, `start_line`/`end_line`) and one text to put there,
 * holding that many lines (a final newline ends the last line, it does not start another).
 */
export function replacesLinesInPlace(args: Readonly<Record<string, unknown>>): boolean {
  const range = lineRangeOf(args);
  if (range === undefined) return false;
  let text: string | undefined;
  let seen = 0;
  for (const key in args) {
    if (++seen > MAX_ROLE_KEYS) break;
    const value = args[key];
    if (typeof value !== 'string') continue;
    const role = EDIT_ROLE_BY_KEY.get(squashArgumentName(key));
    if (role !== 'new' && role !== 'whole') continue;
    if (text !== undefined) return false;
    text = value;
  }
  return text !== undefined && lineCount(text) === range.last - range.first + 1;
}

function lineRangeOf(args: Readonly<Record<string, unknown>>): { first: number; last: number } | undefined {
  const lines = args.lines;
  if (typeof lines === 'string') {
    const found = LINES_ARGUMENT.exec(lines);
    return found === null ? undefined : validRange(Number(found[1]), Number(found[2]));
  }
  for (const [start, end] of LINE_RANGE_PAIRS) {
    if (args[start] === undefined && args[end] === undefined) continue;
    return validRange(lineNumber(args[start]), lineNumber(args[end]));
  }
  return undefined;
}

function lineNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value)) return Number(value);
  return undefined;
}

function validRange(
  first: number | undefined,
  last: number | undefined,
): { first: number; last: number } | undefined {
  if (
    first === undefined ||
    last === undefined ||
    !Number.isSafeInteger(first) ||
    !Number.isSafeInteger(last)
  )
    return undefined;
  return first >= 1 && last >= first ? { first, last } : undefined;
}

/** Lines of `text`: a final newline ends the last line; the empty text has none. */
function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return text.endsWith('\n') ? count - 1 : count;
}

const EDIT_ECHO = /could not find exact match for edit:\n([\s\S]+)$/i;

/**
 * The text an edit looked for. With several edits, the one the error quotes (the filesystem server
 * quotes it); otherwise the first.
 */
export function needleOf(args: Readonly<Record<string, unknown>>, message: string): string | undefined {
  const direct = searchedText(args);
  if (direct !== undefined) return usable(direct);
  const edits = editList(args);
  if (edits === undefined)
    return usable(searchReplaceBlocks(args)[0]?.search ?? patchExpected(args, message));
  const olds: string[] = [];
  for (const edit of edits.slice(0, 64)) {
    if (!isRecord(edit)) continue;
    const text = stringOfRole(edit, 'old');
    if (text !== undefined) olds.push(text);
  }
  const quoted = EDIT_ECHO.exec(message)?.[1]?.trim();
  const named = quoted === undefined ? undefined : olds.find((old) => old.trim() === quoted);
  return usable(named ?? olds[0]);
}

/** The one text an edit names to look for (`old_string` in any convention, a `search`), if any. */
function searchedText(args: Readonly<Record<string, unknown>>): string | undefined {
  return stringOfRole(args, 'old') ?? firstString(args, ['search', 'find']);
}

/** Hunks of a patch read for the text they expect, at most. */
const MAX_HUNKS = 64;
/** Characters of a patch read for its hunks: a patch a model writes is bounded before it is split. */
const MAX_PATCH_READ = 65_536;

/**
 * What a Codex-style patch of one file expects to find there: each hunk's lines as they were before
 * it (its context and the lines it removes, without their markers). A hunk that only adds lines
 * expects nothing; a patch of several files, or of none, gives nothing.
 */
function patchExpectedTexts(args: Readonly<Record<string, unknown>>): string[] {
  const patch = patchBody(args);
  if (patch === undefined || patchTargets(patch).length !== 1) return [];
  const hunks: string[] = [];
  let lines: string[] = [];
  const close = () => {
    // Blank lines around a hunk are the patch's layout, not text it looks for.
    if (lines.some((line) => line.trim() !== '')) hunks.push(lines.join('\n').replace(/^\n+|\n+$/g, ''));
    lines = [];
  };
  for (const line of patch.slice(0, MAX_PATCH_READ).split('\n')) {
    if (line.startsWith('@@') || line.startsWith('*** ')) {
      close();
      if (hunks.length >= MAX_HUNKS) break;
    } else if (line.startsWith(' ') || line.startsWith('-')) lines.push(line.slice(1));
    else if (line === '') lines.push('');
  }
  close();
  return hunks;
}

/** The hunk of a one-file patch its tool quotes as not found (`Failed to find expected lines in …:`), else its first. */
function patchExpected(args: Readonly<Record<string, unknown>>, message: string): string | undefined {
  const hunks = patchExpectedTexts(args);
  return hunks.find((hunk) => message.includes(hunk.slice(0, MAX_NEEDLE_LENGTH).trim())) ?? hunks[0];
}

function usable(needle: string | undefined): string | undefined {
  if (needle === undefined || needle.trim() === '') return undefined;
  return needle.slice(0, MAX_NEEDLE_LENGTH);
}

/** Arguments that place an edit at a line of what the file holds (`insert_line`, `line_number`). */
const LINE_KEYS = new Set(['insertline', 'line', 'linenumber', 'afterline', 'beforeline']);

/**
 * Whether an edit works on what its file holds: it looks for a text (`old_string`, a list of edits,
 * a search/replace block), names lines (`lines: "10:12"`, `insert_line`), applies a patch to a file
 * that is there, or undoes an edit. An edit that does none of these gives a file and its text (Cursor's
 * `edit_file {target_file, code_edit}`, Kiro's `fsWrite {path, text}`): its tool may create the file.
 * `patch`: the call's patch, as `patchBody` read it.
 */
export function editsInPlace(args: Readonly<Record<string, unknown>>, patch: string | undefined): boolean {
  if (patch !== undefined) return !patchOnlyAddsFiles(patch);
  if (searchedText(args) !== undefined) return true;
  // An editor's subcommand that changes the file (`str_replace`, `insert`, `undo_edit`, which needs
  // the edit), or a patch tool's update of one (`type: "update_file"`).
  if (subcommandKind(args) === 'mutate') return true;
  if (editList(args) !== undefined || lineRangeOf(args) !== undefined) return true;
  let seen = 0;
  for (const key in args) {
    if (++seen > MAX_ROLE_KEYS) break;
    if (args[key] !== undefined && LINE_KEYS.has(squashArgumentName(key))) return true;
  }
  return searchReplaceBlocks(args).length > 0;
}

/**
 * A call that writes a whole file (`write_file`, Claude Code's `Write`): it creates the file when it
 * is missing, and when it fails with "not found", the parent directory is what is missing.
 */
export function writesWholeFile(args: Readonly<Record<string, unknown>>): boolean {
  return (
    stringOfRole(args, 'whole') !== undefined &&
    stringOfRole(args, 'file') !== undefined &&
    stringOfRole(args, 'old') === undefined
  );
}

const MAX_NAMED_FILES = 16;
/**
 * `File "x.py", line 3` (Python), `src/a.ts(3,5)` (tsc), `/w/a.js:3` and `a.ts:3:5` (Node, esbuild,
 * gcc), also as a file URL (`file:///C:/app/routes/a.js:77`, Node's ES modules).
 */
const FILE_LOCATIONS = [
  /\bFile "([^"\n]+)", line \d+/g,
  /((?:[A-Za-z]:)?[\w./\\-]*[\w-]\.[A-Za-z]\w{0,7})\(\d+,\d+\)/g,
  /(?:^|[\s(]|\bfile:\/\/\/?(?=[A-Za-z]:|\/))((?:[A-Za-z]:)?[\w./\\-]*[\w-]\.[A-Za-z]\w{0,7}):\d+\b/gm,
];

/** A path with a folder in it and a file name with an extension: `prisma/schema.prisma`, `conf\app.yml`. */
const NAMED_PATH =
  /(?:^|[\s"'(`])((?:[A-Za-z]:)?(?:[\w.@-]+[\\/])+[\w.-]*[\w-]\.[A-Za-z]\w{0,7})(?=$|[\s"'),:;`])/gm;
/** A stack frame's line: `    at fn (/w/a.js:3:5)`, `at engine\src\state.rs:545`. */
const FRAME_LINE = /^\s*at\s/;

/**
 * The files a compiler or interpreter points at in its output. More is harmless (any of them changing
 * lifts the ban); none means the failure is taken to depend on the whole workspace. An output whose
 * locations are all stack frames (`at …`) says where the program was when it failed, not where the
 * text it could not parse is (a database refusing the SQL a tool generated from a schema, a parser
 * reading a file it names without a line): the files its other lines name are read too.
 */
export function filesNamedIn(output: string): string[] | undefined {
  const files = new Set<string>();
  let outsideFrames = false;
  let full = false;
  for (const pattern of FILE_LOCATIONS) {
    forEachMatch(output, pattern, (match) => {
      const file = match[1];
      if (!file) return false;
      files.add(normalizeTarget(file));
      const at = match.index + match[0].indexOf(file);
      const line = output.slice(Math.max(output.lastIndexOf('\n', at - 1) + 1, at - MAX_LINE_START), at);
      if (!FRAME_LINE.test(line)) outsideFrames = true;
      // `E:\work\Forwarder System\prisma\seed.ts:30:81`: the pattern starts at the space.
      if (output[at - 1] !== ' ') return false;
      const spaced = FOLDERS_WITH_SPACES.exec(line)?.[1];
      if (spaced !== undefined) files.add(normalizeTarget(`${spaced} ${file}`));
      full = files.size >= MAX_NAMED_FILES;
      return full;
    });
    if (full) return [...files];
  }
  if (files.size > 0 && !outsideFrames) {
    forEachMatch(output, NAMED_PATH, (match) => {
      const file = match[1];
      if (!file) return false;
      const at = match.index + match[0].indexOf(file);
      if (FRAME_LINE.test(output.slice(output.lastIndexOf('\n', at - 1) + 1, at))) return false;
      files.add(normalizeTarget(file));
      return files.size >= MAX_NAMED_FILES;
    });
  }
  return files.size === 0 ? undefined : [...files];
}

/** How far back a path with spaces in it is looked for: a path, not a paragraph. */
const MAX_LINE_START = 512;
/**
 * The start of a path, from a root, a drive or the home folder, that runs up to the space before
 * a location: folders whose names hold spaces (`Forwarder System`, `Application Support`). The path
 * may open its line or follow a word and a space (PowerShell's `At D:\shop tools\gen.ps1:190 char:71`).
 */
const FOLDERS_WITH_SPACES = /(?:^|\s)((?:[A-Za-z]:[\\/]|\/|~\/)[^\n():"'`]*?) $/;

const SOURCE_FILE = /^[^-][^\s]*\.(?:m?[jt]sx?|c[jt]s|py|rb|sh|php|pl|lua|go|rs|java|kt|swift)$/;

/**
 * The source files a command runs (`node scripts/build.js`, `python3 tools/gen.py`): when a syntax
 * error's output names no file, it is in one of these.
 */
export function sourceFilesRunBy(command: string | undefined): string[] | undefined {
  if (!command) return undefined;
  const files = command
    .split(/[\s;&|()]+/)
    .map((word) => word.replace(/^['"]|['"]$/g, ''))
    .filter((word) => SOURCE_FILE.test(word))
    .slice(0, MAX_NAMED_FILES)
    .map(normalizeTarget);
  return files.length === 0 ? undefined : files;
}

/** Arguments that make a read partial: its result is then not the whole file. */
const RANGE_KEYS = [
  'offset',
  'limit',
  'start',
  'end',
  'start_line',
  'end_line',
  'startLine',
  'endLine',
  'line',
  'lines',
  'head',
  'tail',
  'range',
  'view_range',
  'from',
  'to',
  'max_lines',
  'maxLines',
  'length',
  'position',
];

const RANGE_KEY_SET: ReadonlySet<string> = new Set(RANGE_KEYS);
/** Range-like names of tools not listed above (`start_line_one_indexed`, `max_bytes`, `page`). */
const RANGE_LIKE = /offset|limit|start|end(?!coding)|head|tail|range|line|page|chunk|position|max|length/i;

export function readsPartially(args: Readonly<Record<string, unknown>>): boolean {
  // Arguments are few and range keys many: walk the arguments.
  for (const key in args) {
    const value = args[key];
    if (value === undefined || value === null || value === false) continue;
    if (RANGE_KEY_SET.has(key) || RANGE_LIKE.test(key)) return true;
  }
  return false;
}

/**
 * The texts an edit must find verbatim. Search/replace blocks (Roo, Cline) are left out: some tools
 * match them loosely, so their absence from the file does not prove the edit will fail.
 */
export function exactSearchTexts(args: Readonly<Record<string, unknown>>): string[] | undefined {
  const direct = stringOfRole(args, 'old');
  if (direct !== undefined) return direct.trim() === '' ? undefined : [direct];
  const edits = editList(args);
  if (edits === undefined) return undefined;
  const texts: string[] = [];
  for (const edit of edits.slice(0, 64)) {
    const text = isRecord(edit) ? stringOfRole(edit, 'old') : undefined;
    if (text === undefined || text.trim() === '') return undefined;
    texts.push(text);
  }
  return texts.length === 0 ? undefined : texts;
}
