/**
 * Labels a recorded run by the four rules of the calibration set, mechanically, from what the run
 * did next: which calls were wasted (blocking them is justified) and which stretches of wasted
 * calls are loops. It reads only the trace; it shares no code with the guard's judgement, so that
 * the guard is measured against something it did not write.
 *
 * A call is wasted when, as it really ran:
 * 1. an earlier call of the same tool with the same arguments (the words written beside a command or
 *    a path to say why aside) returned the same result (durations, clock times, hashes aside) or
 *    failed the same way, and nothing that changes anything ran in between — unless the calls are a
 *    paced poll (a `sleep` in the command) or the agent read the target between a failure and its
 *    retry;
 * 2. it failed, and an earlier call of the same non-shell tool on the same target failed with the
 *    same error signature, with no successful change in between;
 * 3. it failed, and it is at least the 5th consecutive failure of the same tool (for a shell
 *    command, the same program and subcommand) with the same error shape, for varied arguments,
 *    with no success of that tool and no change in between — edits left out;
 * 4. it returned an empty answer and is at least the 4th consecutive empty answer of the same tool,
 *    with no change in between, for arguments that are not a sweep — code search left out.
 * A loop is 4 or more wasted calls of one tool, each at most 6 calls after the one before.
 */
import type { CallEvent, TraceEvent, TraceResult } from '../../src/trace/types.js';

export interface WastedCall {
  readonly step: number;
  readonly rule: 1 | 2 | 3 | 4;
  /** The earlier step this call repeated, or the first of the streak it extended. */
  readonly like: number;
  readonly reason: string;
}

export interface Loop {
  readonly start: number;
  readonly end: number;
  readonly wasted: number[];
  readonly reason: string;
}

export interface RunLabels {
  readonly trace: string;
  readonly calls: number;
  readonly justified: WastedCall[];
  /** Steps reviewed as false blocks: none here; every block of an unlabelled step counts as false. */
  readonly false: never[];
  readonly loops: Loop[];
}

/** How far apart two wasted calls of one tool may be and still belong to one loop. */
export const LOOP_GAP = 6;
/** Wasted calls a loop needs. */
export const LOOP_MIN = 4;
/** Failures in a row with one error shape that make guessing (rule 3). */
export const GUESS_STREAK = 5;
/** Empty answers in a row that make reformulation (rule 4). */
export const EMPTY_STREAK = 4;

const SHELL_TOOLS = /^(bash|shell|sh|zsh|execute_bash|run_shell_command|run_command|execute_command|terminal|exec|run_terminal_cmd|local_shell|container\.exec)$/i;
const EDIT_TOOLS = /(edit|replace|patch|write|insert|create_file|apply)/i;
const SEARCH_TOOLS = /^(grep|glob|rg|ripgrep|search_dir|search_file|find_file|find|search_files|codebase_search|file_search|grep_search|list_files|ls)$/i;
const SEARCH_PROGRAMS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'find', 'fd', 'locate', 'git grep']);
const CHANGING_TOOLS =
  /(edit|write|create|replace|insert|patch|apply|delete|remove|move|rename|update|book|cancel|modify|exchange|return|send|checkout|commit|install|upload|transfer|set_|add_|open$|^goto$)/i;
/** Navigation on a page or screen: it changes what later calls see, unless it only repeats itself. */
const NAVIGATION_TOOLS = /^(click|click_element|navigate|go_back|go_forward|back|go_to)$/i;
/**
 * A text world's verbs that change it: taking, putting, opening, heating an object; in a crafting
 * game, getting an item from the world and crafting one, both of which change the inventory; in an
 * interactive fiction, moving to another room (`go north`), which changes everything the player
 * sees, and unlocking, dropping, cooking, cutting or eating something; in a household simulator,
 * picking an object up and switching a device on or off.
 */
const WORLD_VERBS =
  /^(take|put|close|toggle|use|heat|cool|clean|slice|get|craft|go|drop|insert|unlock|lock|eat|cook|chop|dice|prepare|pick_up|turn_on|turn_off)$/i;
const PROGRAMS_WITH_SUBCOMMANDS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'npx', 'cargo', 'go', 'pip', 'pip3', 'uv', 'poetry', 'conda', 'docker',
  'kubectl', 'gh', 'make', 'apt', 'apt-get', 'brew', 'dotnet', 'mvn', 'gradle', 'bundle', 'rails', 'terraform',
  'helm', 'aws', 'gcloud', 'az', 'systemctl', 'deno', 'mix', 'rustup', 'composer', 'swift', 'flutter',
]);
const PATH_KEYS = /^(path|file|file_path|filepath|filename|file_name|absolutepath|absolute_path|target_file|notebook_path|dir|directory|url|uri)$/i;
const TARGET_KEYS = /(path|file|dir|url|uri|_id$|^id$|^name$|key|table|repo|branch|resource)/i;

function isShell(call: CallEvent): boolean {
  return SHELL_TOOLS.test(call.tool) && typeof call.args.command === 'string';
}

function command(call: CallEvent): string {
  return typeof call.args.command === 'string' ? call.args.command : '';
}

/** The first simple command of a shell line, without `cd …&&`, environment assignments or wrappers. */
export function shellProgram(line: string): string {
  const segments = line.split(/&&|;|\|\||\n/).map((part) => part.trim()).filter(Boolean);
  const first = segments.find((part) => !/^(cd|pushd|export|source|\.|set)\b/.test(part)) ?? segments[0] ?? '';
  const words = first.split(/\s+/).filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  while (words.length > 1 && /^(sudo|timeout|time|nohup|env|xargs|stdbuf)$/.test(words[0] ?? '')) {
    words.shift();
    while (words.length > 1 && /^(-\S*|\d+[smh]?)$/.test(words[0] ?? '')) words.shift();
  }
  const program = (words[0] ?? '').replace(/^.*\//, '');
  const sub = words[1] ?? '';
  if (PROGRAMS_WITH_SUBCOMMANDS.has(program) && /^[a-z][a-z:-]*$/.test(sub)) return `${program} ${sub}`;
  if ((program === 'python' || program === 'python3') && sub === '-m') return `${program} -m ${words[2] ?? ''}`;
  return program;
}

/**
 * A shell line without its comments: a `#` that starts a word outside quotes comments out the rest
 * of its line, which the shell never runs (`# write it: echo "x" > a.py` writes nothing).
 */
export function withoutComments(line: string): string {
  let out = '';
  let quote = '';
  for (let index = 0; index < line.length; index++) {
    const char = line[index] as string;
    if (quote !== '') {
      if (char === '\\' && quote === '"') {
        out += char + (line[index + 1] ?? '');
        index++;
        continue;
      }
      if (char === quote) quote = '';
      out += char;
      continue;
    }
    if (char === '\\') {
      out += char + (line[index + 1] ?? '');
      index++;
    } else if (char === "'" || char === '"') {
      quote = char;
      out += char;
    } else if (char === '#' && (index === 0 || /[\s;&|(]/.test(line[index - 1] as string))) {
      const end = line.indexOf('\n', index);
      if (end < 0) break;
      index = end - 1;
    } else out += char;
  }
  return out;
}

/** Quoted text, single or double, on one line. */
const QUOTED = /'[^'\n]*'|"(?:[^"\\\n]|\\.)*"/g;
/** A line that hands quoted text to a shell to run. */
const RUNS_QUOTED_SHELL = /\b(?:ba|z|da)?sh\s+-\w*c\b|\beval\b|\bssh\b|\bdocker\s+exec\b|\bkubectl\s+exec\b/;

/**
 * A line that acts on running programs rather than asking about them: keys typed into a terminal
 * multiplexer's pane, panes and sessions made or closed, processes signalled, services and
 * containers started or stopped. Such a line answers nothing when it works, so its empty output is
 * no empty answer, and what it does changes what later calls see.
 */
const ACTS_ON_PROGRAMS = new RegExp(
  [
    String.raw`\btmux(?:\s+-\S+(?:\s+[^-\s]\S*)?)*\s+(?:new-session|new|new-window|neww|split-window|splitw|send-keys|send|kill-\w+|select-\w+|resize-pane|resizep|respawn-\w+|rename-\w+|swap-\w+|move-\w+|break-pane|join-pane|attach(?:-session)?|detach(?:-client)?|run-shell|source-file)\b`,
    String.raw`(?:^|[\s;&|(])(?:kill|pkill|killall)\s`,
    String.raw`\bsystemctl\s+(?:--\S+\s+)*(?:start|stop|restart|reload|enable|disable|kill)\b`,
    String.raw`\bservice\s+\S+\s+(?:start|stop|restart|reload)\b`,
    String.raw`\bdocker(?:\s+compose|-compose)?\s+(?:-\S+\s+\S+\s+)*(?:up|down|run|start|stop|restart|rm|kill)\b`,
  ].join('|'),
);

/**
 * A shell line that changes files, the repository, installed packages, running programs or where
 * the shell is; a PowerShell line likewise, by the cmdlets that write, copy, move or remove files.
 */
export function shellChanges(rawLine: string): boolean {
  const line = withoutComments(rawLine);
  const withoutHarmless = line.replace(/\d?>&\d|[12]?>\s*\/dev\/null/g, '');
  // A `>` inside quotes is no redirection (`awk '$5 > 1000'`, `python3 -c "print(x >> 8)"`), unless
  // the quoted text is itself run by a shell (`bash -c "echo x > f"`).
  const redirections = RUNS_QUOTED_SHELL.test(line) ? withoutHarmless : withoutHarmless.replace(QUOTED, "''");
  return (
    /(^|[^<>&\d])>>?(?!=)/.test(redirections) ||
    /\bsed\s+(-[a-zA-Z]*\s+)*-[a-zA-Z]*i/.test(line) ||
    /(^|[\s;&|(])(tee|mv|cp|rm|rmdir|mkdir|touch|ln|chmod|chown|patch|apply_patch|unzip|tar\s+-?x\w*|truncate|dd)\s/.test(line) ||
    /^\s*(cd|pushd|popd)\b[^;&|]*$/.test(line) ||
    /\bgit\s+(checkout|switch|reset|restore|stash|apply|am|commit|merge|rebase|cherry-pick|pull|clone|revert|rm|mv|init|add)\b/.test(line) ||
    /\b(pip3?|uv|poetry|conda|npm|pnpm|yarn|bun|cargo|go|apt|apt-get|brew|gem|composer)\s+(install|add|remove|uninstall|update|upgrade|i|get)\b/.test(line) ||
    /\bpython3?\s+(setup\.py\s+(install|develop|build)|-m\s+pip\s+install)/.test(line) ||
    /\b(write_text|write_bytes|open\([^)]*['"][wa]b?\+?['"])/.test(line) ||
    ACTS_ON_PROGRAMS.test(line) ||
    /(^|[\s;&|(])(Set-Content|Add-Content|Clear-Content|Out-File|New-Item|Copy-Item|Move-Item|Remove-Item|Rename-Item|Expand-Archive)\b/i.test(line)
  );
}

function failed(result: TraceResult | undefined): boolean {
  return result !== undefined && (result.isError === true || result.error !== undefined);
}

function outputText(result: TraceResult | undefined): string {
  if (!result) return '';
  const parts: string[] = [];
  if (typeof result.content === 'string') parts.push(result.content);
  else if (Array.isArray(result.content)) for (const item of result.content) if (typeof item.text === 'string') parts.push(item.text);
  if (result.error !== undefined) parts.push(result.error);
  return parts.join('\n');
}

/**
 * The output with what changes from run to run masked: clock times, durations, hashes, ids. A value
 * written `0x…` with at most 16 digits is an address, not a hash: it keeps its place in its page
 * (the last three digits), which a step of the program moves (a debugger's program counter), and
 * loses the rest, which address-space randomisation draws anew at every start of a program (a
 * seed's doing: `0x00007f1a68d00290 in _start ()` and `0x00007f4d4ebe3290 in _start ()` are one place).
 */
export function maskVolatile(output: string): string {
  return output
    .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, '<time>')
    .replace(/\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b/g, '<time>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b(0x[0-9a-f]{17,}|[0-9a-f]{7,})\b/gi, '<hex>')
    .replace(/\b0x[0-9a-f]{4,13}([0-9a-f]{3})\b/gi, '0x…$1')
    .replace(/\b\d+(\.\d+)?\s*(ms|s|sec|secs|seconds|m|min|minutes)\b/g, '<duration>')
    .replace(/\bpid[ =:]\s*\d+/gi, 'pid <n>')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The error with everything a guess varies masked: quoted text, URLs, ids, paths, hex, flags, numbers. */
function maskQuoted(text: string): string {
  return text.replace(/"""[\s\S]*?"""|'''[\s\S]*?'''/g, 'Q').replace(/`[^`]*`|"[^"\n]*"|'[^'\n]*'|“[^”]*”|‘[^’]*’/g, 'Q');
}

export function errorShape(error: string): string {
  return maskQuoted(error)
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, 'U')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, 'I')
    .replace(/\b([A-Za-z]:)?[\w.-]+(\\[\w.-]+)+\\?/g, 'P')
    .replace(/\b[\w.-]+(\/[\w.-]+)+\/?/g, 'P')
    .replace(/(~|\.{1,2})?(\/[^\s:,;'")\]]+)+\/?/g, 'P')
    .replace(/\b[\w.-]+\.[A-Za-z]{1,5}\b/g, 'P')
    .replace(/\b(0x)?[0-9a-f]{7,}\b/gi, 'H')
    // Hex written `0x…` is hex however short: `0xff` is masked as `0x90` is, not left half a number.
    .replace(/\b0x[0-9a-f]+\b/gi, 'H')
    .replace(/(^|\s)--?[A-Za-z][\w-]*(=\S+)?/g, '$1F')
    .replace(/\d+/g, 'N')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 2_000);
}

/**
 * What two failures share when they failed the same way (rules 1 and 2): the shape of the error's
 * first two lines and of every line that names an error, so that a long listing after the error
 * (the code an edit would have made) does not make two identical failures look different.
 */
export function errorSignature(error: string): string {
  const lines = maskQuoted(error).split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const telling = lines.filter((line, index) => index < 2 || /error|exception|fail|denied|not found|invalid/i.test(line));
  return errorShape(telling.slice(0, 12).join('\n')).slice(0, 400);
}

const EMPTY_TEXT = /^(\[\s*\]|\{\s*\}|""|''|null|none|no (results?|matches|items|records|entries|data|files?)( (were )?found)?\.?|0 (items|results|matches|records|rows)( found)?\.?|nothing (was )?found\.?|\(no output\)|empty)$/i;

export function isEmptyAnswer(result: TraceResult | undefined): boolean {
  if (!result || failed(result)) return false;
  const meta = result.meta;
  if (meta && Object.entries(meta).some(([key, value]) => key.endsWith('non-advancing') && value === true)) return true;
  const body = outputText(result).trim();
  if (body === '') return result.content !== undefined;
  return EMPTY_TEXT.test(body);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Words the model writes beside a command or a path to say why it makes the call (a shell tool's
 * `description`, an editor's `explanation`, a `justification` asked for an escalation): the call that
 * runs is the same whatever they say, and a model rewrites them on every retry.
 */
const NOTE_KEYS = new Set(['description', 'explanation', 'justification']);

/** Whether the call names what it acts on beside its notes: a command or a path. */
function actsOnSomething(call: CallEvent): boolean {
  return typeof call.args.command === 'string' || Object.keys(call.args).some((key) => PATH_KEYS.test(key));
}

/**
 * A call's arguments as one attempt: its notes about why (`NOTE_KEYS`) left out beside a command or a
 * path, and an edit's path written with either slashes (`Assets\Core\Item.cs` and
 * `Assets/Core/Item.cs`, as Windows and the model write one file) read as one path: cosmetic
 * differences, not another attempt.
 */
function attemptArgs(call: CallEvent): Record<string, unknown> {
  const notes = actsOnSomething(call) && Object.keys(call.args).some((key) => NOTE_KEYS.has(key));
  const edit = isEdit(call);
  if (!notes && !edit) return call.args;
  return Object.fromEntries(
    Object.entries(call.args)
      .filter(([key]) => !(notes && NOTE_KEYS.has(key)))
      .map(([key, value]) => [
        key,
        edit && PATH_KEYS.test(key) && typeof value === 'string' ? value.replace(/\\/g, '/') : value,
      ]),
  );
}

/** The same tool with the same arguments, an edit's path read with its slashes made alike. */
function attemptKey(call: CallEvent): string {
  return `${call.tool}\u0000${canonical(attemptArgs(call))}`;
}

/**
 * What a call acts on: every argument that names a path, a resource or an id, taken together (a
 * repository and a path in it name one file; a reservation and the payment charged name one
 * attempt). Texts of more than one line (a file's content) name nothing.
 */
function targetOf(call: CallEvent, openFile?: string): string | undefined {
  const found = Object.entries(attemptArgs(call)).filter(
    ([key, value]) =>
      TARGET_KEYS.test(key) &&
      (typeof value === 'number' || (typeof value === 'string' && !value.includes('\n') && value.length <= 300)),
  );
  if (found.length > 0) return found.map(([key, value]) => `${key}=${String(value)}`).join('\u0000');
  return isEdit(call) && openFile !== undefined ? `open file=${openFile}` : undefined;
}

function pathsOf(call: CallEvent): string[] {
  const paths = Object.entries(call.args)
    .filter(([key, value]) => PATH_KEYS.test(key) && typeof value === 'string' && value !== '')
    .map(([, value]) => value as string);
  if (isShell(call)) for (const match of command(call).matchAll(/(?:^|\s)((?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)+|[\w-]+\.\w{1,5})\b/g)) if (match[1]) paths.push(match[1]);
  return paths;
}

function isEdit(call: CallEvent): boolean {
  if (isShell(call)) return false;
  const sub = typeof call.args.command === 'string' ? call.args.command : '';
  return EDIT_TOOLS.test(call.tool) || /^(str_replace|insert|create|write|undo_edit)$/.test(sub);
}

function isCodeSearch(call: CallEvent): boolean {
  if (SEARCH_TOOLS.test(call.tool)) return true;
  if (!isShell(call)) return false;
  const program = shellProgram(command(call));
  return SEARCH_PROGRAMS.has(program) || program === 'git grep' || /\|\s*(grep|rg)\b/.test(command(call));
}

/** A tool whose name says it reads, looks up or fetches. */
const READING_TOOLS = /(read|view|open|cat|get|list|show|search|find|grep|glob|fetch)/i;

function isRead(call: CallEvent): boolean {
  if (isShell(call)) return /^(cat|head|tail|less|more|nl|sed|awk|ls|grep|rg|find)$/.test(shellProgram(command(call)));
  const sub = typeof call.args.command === 'string' ? call.args.command : '';
  return READING_TOOLS.test(call.tool) || sub === 'view';
}

/** A path argument naming a file (`designs/app.sketch`, `notes.md`), not a sentence or a web address. */
function namesFile(call: CallEvent): boolean {
  return Object.entries(call.args).some(
    ([key, value]) =>
      PATH_KEYS.test(key) && !/^(url|uri)$/i.test(key) && typeof value === 'string' && !/\s/.test(value) && /\/|\.\w{1,8}$/.test(value),
  );
}

/** A call that, having succeeded, may change what later calls see. */
function changes(call: CallEvent): boolean {
  if (failed(call.result) || call.result === undefined) return false;
  if (isShell(call)) return shellChanges(command(call));
  const sub = typeof call.args.command === 'string' ? call.args.command : '';
  if (sub === 'view') return false;
  return (
    CHANGING_TOOLS.test(call.tool) ||
    NAVIGATION_TOOLS.test(call.tool) ||
    WORLD_VERBS.test(call.tool) ||
    /^(str_replace|insert|create|write|undo_edit)$/.test(sub) ||
    // A tool whose name says neither that it reads nor what it changes (a tool server's
    // `batch_design`), acting on a file it names, may have changed that file.
    (!READING_TOOLS.test(call.tool) && namesFile(call))
  );
}

function toolKey(call: CallEvent): string {
  return isShell(call) ? `${call.tool}:${shellProgram(command(call))}` : call.tool;
}

function paced(call: CallEvent): boolean {
  return /\bsleep\s+\d/.test(isShell(call) ? command(call) : canonical(call.args));
}

/** Values of one field stepping one way: numbers, dates, or anything ordered, all different. */
function monotone(values: readonly unknown[]): boolean {
  const keys = values.map((value) => (typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : String(value)));
  let rising = true;
  let falling = true;
  for (let index = 1; index < keys.length; index++) {
    const previous = keys[index - 1] as number | string;
    const current = keys[index] as number | string;
    if (!(current > previous)) rising = false;
    if (!(current < previous)) falling = false;
  }
  return rising || falling;
}

/** Exactly one argument field varies across the calls, and its values step one way. */
export function isSweep(calls: readonly CallEvent[]): boolean {
  const args = calls.map(attemptArgs);
  const keys = new Set<string>();
  for (const each of args) for (const key of Object.keys(each)) keys.add(key);
  const varying = [...keys].filter((key) => new Set(args.map((each) => canonical(each[key]))).size > 1);
  if (varying.length !== 1) return false;
  const field = varying[0] as string;
  return monotone(args.map((each) => each[field]));
}

interface Seen {
  readonly step: number;
  readonly call: CallEvent;
  /** Index in the list of steps of this agent, to find what ran in between. */
  readonly index: number;
}

interface Streak {
  readonly steps: Seen[];
  shape: string;
}

/** The state of one agent (the agent itself or one subagent): calls seen since the last change. */
class Stream {
  readonly history: Seen[] = [];
  /** Identical calls since the last change, by tool and arguments. */
  readonly repeats = new Map<string, Seen[]>();
  /** Failures on one target of one tool since the last successful change. */
  readonly failuresOnTarget = new Map<string, Seen[]>();
  readonly guesses = new Map<string, Streak>();
  readonly empties = new Map<string, Seen[]>();
  /** The file an editor that acts on "the open file" (`open`, then `edit A:B`) has open. */
  openFile: string | undefined;

  reset(): void {
    this.repeats.clear();
    this.failuresOnTarget.clear();
    this.guesses.clear();
    this.empties.clear();
  }

  /** Forgets the calls a change may have affected. */
  forget(affected: (call: CallEvent) => boolean): void {
    for (const map of [this.repeats, this.failuresOnTarget, this.empties]) {
      for (const [key, items] of map) {
        const kept = items.filter((item) => !affected(item.call));
        if (kept.length === 0) map.delete(key);
        else map.set(key, kept);
      }
    }
    for (const [key, streak] of this.guesses) if (streak.steps.some((item) => affected(item.call))) this.guesses.delete(key);
  }
}

function scalars(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string' ? value.length >= 2 : typeof value === 'number') into.add(String(value));
  else if (Array.isArray(value)) for (const item of value) scalars(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) scalars(item, into);
  return into;
}

/**
 * What a change may have affected. A shell command, an edit or anything naming a path changes the
 * files every later call may read: all of it. A call of a service's API (ids, no paths) changes
 * the records it names: the calls of the same tool and those sharing a value with it.
 */
function affectedBy(change: CallEvent): (call: CallEvent) => boolean {
  // Taking or putting something in a text world changes what the agent holds and where things are.
  if (isShell(change) || isEdit(change) || WORLD_VERBS.test(change.tool) || pathsOf(change).length > 0) return () => true;
  const values = scalars(change.args, new Set());
  if (values.size === 0) return () => true;
  return (call) => call.tool === change.tool || [...scalars(call.args, new Set())].some((value) => values.has(value));
}

function excerpt(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 80);
}

/** Labels one run. `trace` is the name the labels carry. */
export function labelRun(trace: string, events: readonly TraceEvent[]): RunLabels {
  const streams = new Map<string, Stream>();
  const streamOf = (agent: string | undefined) => {
    const key = agent ?? '';
    let stream = streams.get(key);
    if (!stream) {
      stream = new Stream();
      streams.set(key, stream);
    }
    return stream;
  };
  const justified: WastedCall[] = [];
  const silent = scratchpads(events);
  const toolOfStep = new Map<number, string>();
  let step = 0;
  for (const event of events) {
    // A new process may start on a world someone else changed; a user's message changes nothing.
    if (event.type === 'session') {
      for (const stream of streams.values()) stream.reset();
      continue;
    }
    if (event.type !== 'call') continue;
    step++;
    const call = event;
    toolOfStep.set(step, `${call.agent ?? ''}\u0000${call.tool}`);
    const stream = streamOf(call.agent);
    const seen: Seen = { step, call, index: stream.history.length };
    stream.history.push(seen);
    if (call.result === undefined || (silent.has(call.tool) && isNote(call))) continue;
    if (/^open$/i.test(call.tool) && !failed(call.result) && typeof call.args.path === 'string') stream.openFile = call.args.path;
    const wasted = judge(stream, seen);
    if (wasted) justified.push(wasted);
    remember(stream, seen);
    // A change repeated with the same answer, nothing changed since the identical change before it,
    // changed nothing: navigating again where the same navigation led, an edit writing what is there.
    const idle = wasted?.rule === 1;
    if (changes(call) && !idle) {
      // A change in one agent's world is a change in every agent's world: they share it. It ends
      // what any earlier change showed, and what else it may have touched, but not its own answer,
      // when that answer shows what it did (an editor's window of the file, the page it led to):
      // the same change answered the same way right after it, with nothing changed in between,
      // changed nothing. An empty answer shows nothing of what a change did (an append to a file
      // answers nothing every time), so it is forgotten with the rest.
      const touched = affectedBy(call);
      const own = attemptKey(call);
      const shown = outputText(call.result).trim() !== '';
      const affected = (other: CallEvent) =>
        shown && attemptKey(other) === own ? false : changes(other) || touched(other);
      for (const other of streams.values()) other.forget(affected);
    }
  }
  return { trace, calls: step, justified, false: [], loops: loopsOf(justified, toolOfStep) };
}

/** Calls issued together in one model step did not see each other's results. */
function sameTurn(a: Seen, b: Seen): boolean {
  return a.call.turn !== undefined && a.call.turn === b.call.turn;
}

function distinctTurns(window: readonly Seen[]): boolean {
  return new Set(window.map((item) => item.call.turn ?? `step ${item.step}`)).size === window.length;
}

/**
 * Tools that answered every call with nothing (a scratchpad such as `think`): repeating a note to one
 * wastes nothing. A call that changes things is never a scratchpad's: an edit a recording kept no
 * answer of (a chat export shows the edit, not what the tool said) still changed its file.
 */
function scratchpads(events: readonly TraceEvent[]): Set<string> {
  const answered = new Map<string, boolean>();
  for (const event of events) {
    if (event.type !== 'call' || event.result === undefined) continue;
    const blank = !failed(event.result) && outputText(event.result).trim() === '' && !changes(event);
    answered.set(event.tool, (answered.get(event.tool) ?? true) && blank);
  }
  return new Set([...answered].filter(([, blank]) => blank).map(([tool]) => tool));
}

/**
 * A call that gives its tool something to keep (`think {thought: …}`): a note, when the tool answers
 * nothing. A call with no argument at all gives nothing to keep: it asks (a text game's `goal`), and
 * a blank answer asked again with nothing changed is the same result.
 */
function isNote(call: CallEvent): boolean {
  return Object.keys(call.args).length > 0;
}

function judge(stream: Stream, seen: Seen): WastedCall | undefined {
  const { call, step } = seen;
  const isFailure = failed(call.result);
  const output = outputText(call.result);
  const sameKey = attemptKey(call);

  // Rule 1: the same call, the same result or the same failure, nothing changed.
  for (const earlier of [...(stream.repeats.get(sameKey) ?? [])].reverse()) {
    if (sameTurn(earlier, seen)) continue;
    const earlierFailed = failed(earlier.call.result);
    if (earlierFailed !== isFailure) continue;
    const earlierOutput = outputText(earlier.call.result);
    const same = isFailure
      ? errorSignature(earlierOutput) === errorSignature(output)
      : maskVolatile(earlierOutput) === maskVolatile(output);
    if (!same) continue;
    if (paced(call) || pacedBetween(stream, earlier, seen)) break;
    if (isFailure && toldToRead(earlierOutput) && readTargetBetween(stream, earlier, seen)) break;
    const how = isFailure ? `failing the same way (${excerpt(errorSignature(output))})` : 'with the same result';
    return { step, rule: 1, like: earlier.step, reason: `repeats step ${earlier.step} (${call.tool}, same arguments) ${how}; nothing changed in between` };
  }

  // Rule 2: a failure on a target where the same tool failed the same way.
  const target = targetOf(call, stream.openFile);
  if (isFailure && !isShell(call) && target !== undefined) {
    const signature = errorSignature(output);
    const earlier = [...(stream.failuresOnTarget.get(`${call.tool}\u0000${target}`) ?? [])]
      .reverse()
      .find((previous) => !sameTurn(previous, seen) && errorSignature(outputText(previous.call.result)) === signature);
    if (earlier && !(toldToRead(outputText(earlier.call.result)) && readTargetBetween(stream, earlier, seen))) {
      return {
        step,
        rule: 2,
        like: earlier.step,
        reason: `another ${call.tool} attempt on ${excerpt(target)} failing like step ${earlier.step} (${excerpt(signature)}); nothing changed in between`,
      };
    }
  }

  // Rule 3: the fifth failing guess of one tool with one error shape.
  if (isFailure && !isEdit(call)) {
    const streak = stream.guesses.get(toolKey(call));
    const shape = errorShape(output);
    if (streak && streak.shape === shape && streak.steps.length >= GUESS_STREAK - 1) {
      const window = [...streak.steps.slice(-(GUESS_STREAK - 1)), seen];
      if (distinctTurns(window) && new Set(window.map((item) => canonical(item.call.args))).size > 1) {
        const first = window[0] as Seen;
        return {
          step,
          rule: 3,
          like: first.step,
          reason: `failing guess ${streak.steps.length + 1} of ${toolKey(call).replace(/^[^:]*:/, '')} since step ${first.step}, varied arguments, one error shape (${excerpt(shape)})`,
        };
      }
    }
  }

  // Rule 4: the fourth empty answer to reformulated requests.
  if (isEmptyAnswer(call.result) && !isCodeSearch(call)) {
    const empties = stream.empties.get(call.tool) ?? [];
    if (empties.length >= EMPTY_STREAK - 1) {
      const window = [...empties.slice(-(EMPTY_STREAK - 1)), seen];
      if (distinctTurns(window) && !isSweep(window.map((item) => item.call))) {
        const first = window[0] as Seen;
        return {
          step,
          rule: 4,
          like: first.step,
          reason: `empty answer ${empties.length + 1} of ${call.tool} since step ${first.step} for reworded requests; nothing changed in between`,
        };
      }
    }
  }
  return undefined;
}

function remember(stream: Stream, seen: Seen): void {
  const { call } = seen;
  const isFailure = failed(call.result);
  const sameKey = attemptKey(call);
  const repeats = stream.repeats.get(sameKey) ?? [];
  repeats.push(seen);
  stream.repeats.set(sameKey, repeats);

  const target = targetOf(call, stream.openFile);
  if (target !== undefined && !isShell(call)) {
    const key = `${call.tool}\u0000${target}`;
    // Only a change ends what failed before it (see `forget`): reading the target does not.
    if (isFailure) stream.failuresOnTarget.set(key, [...(stream.failuresOnTarget.get(key) ?? []), seen]);
  }

  const key = toolKey(call);
  if (isFailure) {
    const shape = errorShape(outputText(call.result));
    const streak = stream.guesses.get(key);
    if (streak && streak.shape === shape) streak.steps.push(seen);
    else stream.guesses.set(key, { steps: [seen], shape });
  } else {
    stream.guesses.delete(key);
  }

  if (isEmptyAnswer(call.result)) stream.empties.set(call.tool, [...(stream.empties.get(call.tool) ?? []), seen]);
  else stream.empties.delete(call.tool);
}

function between(stream: Stream, earlier: Seen, later: Seen): Seen[] {
  return stream.history.slice(earlier.index + 1, later.index);
}

function pacedBetween(stream: Stream, earlier: Seen, later: Seen): boolean {
  return paced(earlier.call) || between(stream, earlier, later).some((item) => paced(item.call) || /^(sleep|wait)$/i.test(item.call.tool));
}

/** An error that tells the agent to read the target before trying again. */
function toldToRead(error: string): boolean {
  return /has not been read|read it (?:first|again)|read the file|modified since (it was )?(last )?read|view the file|open the file/i.test(error);
}

function readTargetBetween(stream: Stream, earlier: Seen, later: Seen): boolean {
  const targets = pathsOf(later.call);
  if (targets.length === 0) return false;
  return between(stream, earlier, later).some(
    (item) => isRead(item.call) && pathsOf(item.call).some((path) => targets.some((target) => path.endsWith(target) || target.endsWith(path))),
  );
}

function loopsOf(wasted: readonly WastedCall[], toolOfStep: ReadonlyMap<number, string>): Loop[] {
  const byTool = new Map<string, WastedCall[]>();
  for (const call of wasted) {
    const tool = toolOfStep.get(call.step) ?? '';
    byTool.set(tool, [...(byTool.get(tool) ?? []), call]);
  }
  const loops: Loop[] = [];
  for (const calls of byTool.values()) {
    let run: WastedCall[] = [];
    const close = () => {
      if (run.length >= LOOP_MIN) {
        const first = run[0] as WastedCall;
        const last = run[run.length - 1] as WastedCall;
        loops.push({
          start: Math.min(first.like, first.step),
          end: last.step,
          wasted: run.map((call) => call.step),
          reason: `${run.length} wasted calls from step ${Math.min(first.like, first.step)} to ${last.step}: ${first.reason}`,
        });
      }
      run = [];
    };
    for (const call of calls) {
      const previous = run[run.length - 1];
      if (previous && call.step - previous.step > LOOP_GAP) close();
      run.push(call);
    }
    close();
  }
  return loops.sort((a, b) => a.start - b.start);
}
