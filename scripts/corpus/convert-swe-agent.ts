/**
 * SWE-agent trajectories (`.traj`) and the agents built on its interface (CodeR's roles): the
 * `history` holds each model step with its `action` (one command line of the agent-computer
 * interface or a shell command) followed by the observation. Observations carry no exit code, so a
 * failure is read from what the interface and the shell print when a command fails.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { type ConvertedRun, isObject, metaEvent, type RunSource, result, safeName, text, toolList } from './events.js';

/**
 * Kinds of the interface's commands, as its documentation gives them. `str_replace_editor` is left to
 * the guard: its `command` argument says whether a call views, creates or edits.
 */
const KINDS: Readonly<Record<string, string>> = {
  open: 'read',
  goto: 'read',
  scroll_up: 'read',
  scroll_down: 'read',
  create: 'create',
  edit: 'mutate',
  insert: 'mutate',
  search_dir: 'search',
  search_file: 'search',
  find_file: 'search',
  submit: 'other',
  bash: 'exec',
};

/** How one interface command line names its arguments; anything else is a shell command. */
const COMMANDS: Readonly<Record<string, readonly string[]>> = {
  open: ['path', 'line_number'],
  goto: ['line_number'],
  scroll_up: [],
  scroll_down: [],
  create: ['path'],
  search_dir: ['search_term', 'dir'],
  search_file: ['search_term', 'file'],
  find_file: ['file_name', 'dir'],
  submit: ['flag'],
  decompile: ['args'],
  disassemble: ['args'],
  debug_start: ['args'],
  connect_start: ['args'],
  connect_sendline: ['args'],
};

function words(line: string): string[] {
  const out: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let match = pattern.exec(line); match; match = pattern.exec(line)) out.push(match[1] ?? match[2] ?? match[3] ?? '');
  return out;
}

/**
 * Shell words of a whole (multi-line) command: single quotes literal, double quotes and bare words
 * with backslash escapes, as the interface quotes the arguments it writes into an action.
 */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  // A word is open from its first character (or quote) to the next unquoted blank.
  let word = '';
  let open = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index] as string;
    const next = line[index + 1] ?? '';
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && next !== '' && '"\\$`'.includes(next)) word += line[++index];
      else word += char;
    } else if (/\s/.test(char)) {
      if (open) out.push(word);
      word = '';
      open = false;
    } else {
      open = true;
      if (char === "'" || char === '"') quote = char;
      else if (char === '\\' && next !== '') word += line[++index];
      else word += char;
    }
  }
  if (open) out.push(word);
  return out;
}

/** `str_replace_editor SUB PATH --name value…` with its values whole, multi-line ones included. */
function editorCall(action: string): { tool: string; args: Record<string, unknown> } {
  const [, sub = '', path = '', ...more] = shellWords(action);
  const args: Record<string, unknown> = { command: sub, path };
  // A flag takes the words up to the next flag (`--view_range 10 40` has two).
  let name = 'rest';
  for (const word of more) {
    const flag = /^--([a-z_]+)$/.exec(word);
    if (flag?.[1]) name = flag[1];
    else args[name] = args[name] === undefined ? word : `${String(args[name])} ${word}`;
  }
  return { tool: 'str_replace_editor', args };
}

/** One action as a tool call. */
export function parseAction(action: string): { tool: string; args: Record<string, unknown> } {
  const trimmed = action.trim();
  const firstLine = trimmed.split('\n', 1)[0] ?? '';
  const [command = '', ...rest] = words(firstLine);
  if (command === 'edit' || command === 'insert') {
    const body = trimmed.slice(firstLine.length + 1).replace(/\n?end_of_(edit|insert)\s*$/, '');
    return { tool: command, args: { lines: rest.join(' '), replacement: body } };
  }
  if (command === 'str_replace_editor') return editorCall(trimmed);
  const names = COMMANDS[command];
  if (names && !trimmed.includes('\n')) {
    const args: Record<string, unknown> = {};
    names.forEach((name, index) => {
      const value = index === names.length - 1 ? rest.slice(index).join(' ') : rest[index];
      if (value) args[name] = value;
    });
    return { tool: command, args };
  }
  return { tool: 'bash', args: { command: trimmed } };
}

const FAILED = [
  /Traceback \(most recent call last\)/,
  /Your proposed edit has introduced new syntax error/,
  /: command not found/,
  /No such file or directory/,
  /^(?:Error|ERROR|error)\b/,
  /^Usage: /,
  /\bnot found!?$/m,
  /^File .* not found/m,
  /^No replacement was performed/m,
  /^SyntaxError: /m,
];

export function observationFailed(output: string): boolean {
  const head = output.trimStart().slice(0, 2_000);
  return FAILED.some((pattern) => pattern.test(head));
}

/**
 * Words the framework, not the model's tools, acts on. `exit_cost`, `exit_context`, `exit_format`,
 * `exit_error`, `exit_api` (and the like): the framework stopped the run (its budget or context ran
 * out, the model kept answering in the wrong format) and submitted what there was; nothing ran after.
 */
const RUN_ENDS = /^exit_[a-z]+$/;
/**
 * In a system of several roles (CodeR's), a role hands its task back by answering `succeed` or
 * `fail` instead of a command: the role's instance ends there, and its next step, if the manager
 * sends it the task again, is a fresh instance that starts from a new system prompt.
 */
const ROLE_ENDS = /^(succeed|fail)$/;

/**
 * The `trajectory` holds every step with its observation; the `history` says which role took it
 * (CodeR's manager, reproducer, programmer…) when its actions line up with the trajectory's.
 * Control words are no tool calls: one that ends the run ends the converted run, one that ends a
 * role makes the role's next step the first of a new instance (`Programmer 2`), with streaks of its own.
 */
export function convertSweAgentTraj(json: string, source: RunSource, name: string, description: string): ConvertedRun {
  const traj: unknown = JSON.parse(json);
  if (!isObject(traj)) throw new Error(`${source.path}: not a trajectory`);
  const steps = (Array.isArray(traj.trajectory) ? traj.trajectory : []).filter(isObject);
  const history = Array.isArray(traj.history) ? traj.history.filter(isObject) : [];
  const roles = history
    .filter((message) => message.role === 'assistant' && message.is_demo !== true && text(message.action).trim() !== '')
    .map((message) => (typeof message.agent === 'string' ? message.agent : undefined));
  const mainAgent = roles[0];
  const aligned = roles.length === steps.length;
  /** How many instances of each role have ended so far. */
  const ended = new Map<string, number>();
  const events: TraceEvent[] = [];
  for (const [index, step] of steps.entries()) {
    const action = text(step.action);
    const word = action.trim();
    if (!word) continue;
    if (RUN_ENDS.test(word)) break;
    const role = aligned ? roles[index] : undefined;
    if (role !== undefined && ROLE_ENDS.test(word)) {
      ended.set(role, (ended.get(role) ?? 0) + 1);
      continue;
    }
    const { tool, args } = parseAction(action);
    const instance = role === undefined ? 1 : (ended.get(role) ?? 0) + 1;
    const agent = role === undefined ? undefined : instance > 1 ? `${role} ${instance}` : role;
    const output = step.observation === undefined || step.observation === null ? undefined : text(step.observation);
    const call: CallEvent = {
      type: 'call',
      tool,
      args,
      ...(output !== undefined && { result: result(output, observationFailed(output)) }),
      ...(agent && agent !== mainAgent && { agent }),
    };
    events.push(call);
  }
  const calls = events.filter((event): event is CallEvent => event.type === 'call');
  const runName = safeName(name);
  return { name: runName, events: [metaEvent(runName, description, source, toolList(calls, KINDS)), ...events] };
}
