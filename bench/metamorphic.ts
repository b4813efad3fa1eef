/**
 * A metamorphic check of the guard's judgement on a corpus of real agent runs: each trace is
 * transformed in ways that must not change what is a loop, replayed through the built guard again,
 * and every call whose verdict changed is counted. The transforms are what another host would have
 * recorded of the same run:
 *
 * - the shell tool under the name another host gives it (`Bash`, `run_shell_command`, `shell`,
 *   `exec_command`, `run_terminal_cmd`, `execute_bash`);
 * - the file read tool under another host's name (`Read`, `read_file`, `view`), its path argument
 *   under another host's name (`path`, `file_path`, `absolutePath`, `target_file`, `filename`);
 * - the editor tool under another host's name and argument shape (`Edit` and `replace` with
 *   `old_string`/`new_string`, `str_replace_editor` with `command: "str_replace"`, `apply_patch` with a
 *   patch), its path argument renamed the same way;
 * - the whole-file write tool under another host's name and argument shape (`Write` and `write_file`
 *   with `content`, `write_to_file` with `content`, `str_replace_editor` with `command: "create"` and
 *   `file_text`), its path argument renamed the same way;
 * - a free-text argument that says something new on every call beside its arguments: a `description`
 *   (Claude Code's and Gemini CLI's, beside a command), an `explanation` (Cursor's, beside every call);
 *   a call that has the field already keeps its own, which may be its data;
 * - the arguments' keys in another order;
 * - all of them at once;
 * - every shell result in the frame another host writes around it (Claude Code, Codex and its older
 *   JSON, Gemini CLI, OpenHands, mini-swe-agent, Roo Code; Cursor's output alone), and long outputs
 *   cut as a host cuts them;
 * - every result with fresh volatile values (ids, temporary folders, ports, pids, memory addresses,
 *   durations, times), drawn anew for each call, as a tool prints them on each run;
 * - the tools listed by name alone, without the annotations the recording gave them;
 * - every tool no host has built in named as a host names a server's tool (`mcp__env__go_to`,
 *   `mcp_env_go_to`), its annotations kept;
 * - a file tool's relative paths written as absolute ones, as Claude Code's and Gemini CLI's ask;
 * - every file read, edit and whole-file write as an IDE agent sends it (Windsurf's `view_file
 *   {AbsolutePath}`, `replace_file_content {TargetFile, ReplacementChunks}`, `write_to_file
 *   {TargetFile, CodeContent}`; Kiro's `readFile`, `strReplace`, `fsWrite {path, text}`).
 *
 * A renamed shell, file, edit or write tool loses the annotations the recording gave it, as a host's
 * own tool arrives by its name only. Which name a trace gets is fixed by its name, so every run is
 * repeatable. Each transform's touched runs are also scored against their labels, as recorded and as
 * transformed (loops caught by the fifth wasted call, false blocks).
 *
 * Usage, after `npm run build`: `npx tsx bench/metamorphic.ts CORPUS [--half design] [--only WORDS] [--details]`
 * (`--only volatile`: only the transforms whose name has these words; several, comma-separated: those
 * whose name has any of them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOST_AGENTS, hostToolNames } from '../src/adapters/tool-call/host-tools.js';
import {
  type CorpusHalf,
  hasHalf,
  loadBuiltGuard,
  readLabels,
  type ScoredStep,
  type SourceScore,
  scoreRun,
} from './corpus.js';
import { runAsScript } from './script.js';

export type TraceEvent = Record<string, unknown>;

export interface Transform {
  readonly name: string;
  /** The transformed events, or undefined when the transform leaves this trace as it is. */
  apply(events: readonly TraceEvent[], trace: string): TraceEvent[] | undefined;
}

export const SHELL_NAMES = [
  'Bash',
  'run_shell_command',
  'shell',
  'exec_command',
  'run_terminal_cmd',
  'execute_bash',
] as const;
export const READ_NAMES = ['Read', 'read_file', 'view'] as const;
export const EDIT_NAMES = ['Edit', 'replace', 'str_replace_editor', 'apply_patch'] as const;
export const WRITE_NAMES = ['Write', 'write_file', 'write_to_file', 'str_replace_editor'] as const;
export const PATH_ARGUMENTS = ['path', 'file_path', 'absolutePath', 'target_file', 'filename'] as const;

/** The recorded names of the tools each transform renames. */
const SHELL_SOURCES = new Set<string>([...SHELL_NAMES, 'bash', 'Shell']);
const READ_SOURCES = new Set(['Read', 'read_file']);
const EDIT_SOURCES = new Set(['Edit', 'replace']);
const WRITE_SOURCES = new Set(['Write', 'write_file', 'write_to_file']);
/** Where the recorded tools keep the path of the file they act on. */
const PATH_SOURCES = ['file_path', 'path', 'absolute_path', 'absolutePath', 'target_file', 'filename'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A small stable hash of `key`, from 0 to `range - 1`. */
function varying(key: string, range: number): number {
  let hash = 2166136261;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 16777619);
  return (hash >>> 0) % range;
}

/** Which variant a trace gets. */
function pick<T>(options: readonly T[], key: string): T {
  return options[varying(key, options.length)] as T;
}

/**
 * The meta event with `from` tools renamed by `rename`, deduplicated: without their annotations, or
 * with them when `keepAnnotations`.
 */
function renameInMeta(
  event: TraceEvent,
  rename: (tool: string) => string | undefined,
  keepAnnotations = false,
): TraceEvent {
  if (!Array.isArray(event.tools)) return event;
  const seen = new Set<string>();
  const tools: unknown[] = [];
  for (const tool of event.tools) {
    if (!isRecord(tool) || typeof tool.name !== 'string') {
      tools.push(tool);
      continue;
    }
    const renamed = rename(tool.name);
    const entry =
      renamed === undefined ? tool : keepAnnotations ? { ...tool, name: renamed } : { name: renamed };
    if (seen.has(entry.name as string)) continue;
    seen.add(entry.name as string);
    tools.push(entry);
  }
  return { ...event, tools };
}

/**
 * Renames the calls that `rewrite` takes (it returns the new tool name and arguments, or undefined to
 * leave a call), and the tools they were recorded under.
 */
function renameCalls(
  events: readonly TraceEvent[],
  rewrite: (tool: string, args: Record<string, unknown>) => { tool: string; args: unknown } | undefined,
  keepAnnotations = false,
): TraceEvent[] | undefined {
  const renamed = new Map<string, string>();
  const out = events.map((event) => {
    if (event.type !== 'call' || typeof event.tool !== 'string' || !isRecord(event.args)) return event;
    const next = rewrite(event.tool, event.args);
    if (next === undefined) return event;
    renamed.set(event.tool, next.tool);
    return { ...event, tool: next.tool, args: next.args };
  });
  if (renamed.size === 0) return undefined;
  return out.map((event) =>
    event.type === 'meta' ? renameInMeta(event, (tool) => renamed.get(tool), keepAnnotations) : event,
  );
}

/** The argument a recorded call keeps its file's path under, if any. */
function pathFieldOf(args: Record<string, unknown>): string | undefined {
  return PATH_SOURCES.find((field) => typeof args[field] === 'string');
}

/** The arguments with the file's path under `key` instead of whichever name the recording used. */
function withPathAs(args: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const source = pathFieldOf(args);
  if (source === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) out[name === source ? key : name] = value;
  return out;
}

export const renameShell: Transform = {
  name: 'shell tool renamed',
  apply(events, trace) {
    const name = pick(SHELL_NAMES, `shell ${trace}`);
    return renameCalls(events, (tool, args) =>
      SHELL_SOURCES.has(tool) && typeof args.command === 'string' && tool !== name
        ? { tool: name, args }
        : undefined,
    );
  },
};

/**
 * A transform that gives the calls of a file tool (`sources`) one of `names`, chosen by the trace, and
 * its path one of the hosts' argument names, the arguments rewritten by `argsAs` (undefined: left as is).
 */
function fileToolRenamed(
  name: string,
  sources: ReadonlySet<string>,
  names: readonly string[],
  argsAs: (tool: string, key: string, args: Record<string, unknown>) => Record<string, unknown> | undefined,
): Transform {
  return {
    name,
    apply(events, trace) {
      const tool = pick(names, `${name} ${trace}`);
      const key = pick(PATH_ARGUMENTS, `${name} path ${trace}`);
      return renameCalls(events, (recorded, args) => {
        if (!sources.has(recorded)) return undefined;
        const renamed = argsAs(tool, key, args);
        return renamed === undefined ? undefined : { tool, args: renamed };
      });
    },
  };
}

export const renameRead = fileToolRenamed(
  'read tool and path renamed',
  READ_SOURCES,
  READ_NAMES,
  (_, key, args) => withPathAs(args, key),
);

/** An edit's arguments in the shape `name` takes them, its path under `key`. */
export function editAs(
  name: string,
  key: string,
  args: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const source = pathFieldOf(args);
  if (source === undefined) return undefined;
  const path = args[source] as string;
  const { [source]: _path, old_string: oldText, new_string: newText, ...rest } = args;
  if (name === 'str_replace_editor') {
    return { command: 'str_replace', [key]: path, old_str: oldText, new_str: newText, ...rest };
  }
  if (name === 'apply_patch') {
    if (typeof oldText !== 'string' || typeof newText !== 'string') return undefined;
    const lines = (prefix: string, text: string) =>
      text
        .split('\n')
        .map((line) => `${prefix}${line}`)
        .join('\n');
    const patch = `*** Begin Patch\n*** Update File: ${path}\n@@\n${lines('-', oldText)}\n${lines('+', newText)}\n*** End Patch`;
    return { input: patch, ...rest };
  }
  return { [key]: path, old_string: oldText, new_string: newText, ...rest };
}

export const renameEdit = fileToolRenamed(
  'edit tool and path renamed',
  EDIT_SOURCES,
  EDIT_NAMES,
  (tool, key, args) => (typeof args.old_string === 'string' ? editAs(tool, key, args) : undefined),
);

/** A whole-file write's arguments in the shape `name` takes them, its path under `key`. */
export function writeAs(
  name: string,
  key: string,
  args: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const source = pathFieldOf(args);
  if (source === undefined || typeof args.content !== 'string') return undefined;
  const { [source]: path, content, ...rest } = args;
  if (name === 'str_replace_editor') return { command: 'create', [key]: path, file_text: content, ...rest };
  return { [key]: path, content, ...rest };
}

export const renameWrite = fileToolRenamed(
  'write tool and path renamed',
  WRITE_SOURCES,
  WRITE_NAMES,
  writeAs,
);

const DESCRIPTIONS = [
  'Check what is there',
  'Look again more carefully',
  'Try this once more',
  'Run it to see what happens',
  'Verify the result',
];

/**
 * Free text under `field` that says something new on every call, beside the call's arguments (a call
 * with none has nothing for words to be about); a call that already has the field keeps its own, which
 * may be its data.
 */
function freeTextAdded(name: string, field: string): Transform {
  return {
    name,
    apply(events) {
      let step = 0;
      return events.map((event) => {
        if (event.type !== 'call' || !isRecord(event.args)) return event;
        if (Object.keys(event.args).length === 0 || event.args[field] !== undefined) return event;
        step++;
        const text = `${DESCRIPTIONS[step % DESCRIPTIONS.length]} (${step})`;
        return { ...event, args: { ...event.args, [field]: text } };
      });
    },
  };
}

/** Claude Code's and Gemini CLI's field beside a command, here on every call. */
export const addDescription = freeTextAdded('description added', 'description');
/** Cursor's field, which its tools take beside every call. */
export const addExplanation = freeTextAdded('explanation added', 'explanation');

function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) out[key] = reversedKeys(value[key]);
  return out;
}

export const reorderKeys: Transform = {
  name: 'argument keys reordered',
  apply(events) {
    return events.map((event) =>
      event.type === 'call' && isRecord(event.args) ? { ...event, args: reversedKeys(event.args) } : event,
    );
  },
};

/** The transforms of the calls, one at a time. */
const CALL_TRANSFORMS: readonly Transform[] = [
  renameShell,
  renameRead,
  renameEdit,
  renameWrite,
  addDescription,
  addExplanation,
  reorderKeys,
];

export const allAtOnce: Transform = {
  name: 'all at once',
  apply(events, trace) {
    let out: TraceEvent[] = [...events];
    for (const transform of CALL_TRANSFORMS) out = transform.apply(out, trace) ?? out;
    return out;
  },
};

export const TRANSFORMS: readonly Transform[] = [...CALL_TRANSFORMS, allAtOnce];

/**
 * A shell call's recorded outcome: what the command printed, and its exit status (undefined where the
 * recording does not know it).
 */
interface ShellOutcome {
  readonly command: string;
  readonly output: string;
  readonly exitCode: number | undefined;
}

/**
 * The recorded shell tools whose unflagged results may carry no exit status. Cursor's terminal gives
 * the output alone, and its recordings flag a failure only where the exporter saw one, so an
 * unflagged result may be a failure (`chmod: x: No such file or directory`, `fatal: not a git
 * repository`). Codex's `shell` answers some calls with a text and no status at all (a patch given to
 * `apply_patch` through the shell that does not apply, `error: Failed to find expected lines in …`;
 * a command the sandbox refused, `failed in sandbox: …`; `execution error: …`), and its recordings
 * flag only a known non-zero status, so an unflagged result is a success or one of these. Such a
 * result's status is unknown, and a host's frame that writes one (`Exit code: 0`) is not written for it.
 */
const STATUSLESS_SOURCES = new Set(['run_terminal_cmd', 'shell']);

/** An exit status a recording already wrote into the output (`Exit code 1`, `Exit code: 1`, `Error: Exit code 1`). */
const RECORDED_EXIT = /^(?:Error: )?Exit code:? (-?\d+)\n?/;

function shellOutcome(event: TraceEvent): ShellOutcome | undefined {
  if (event.type !== 'call' || typeof event.tool !== 'string' || !SHELL_SOURCES.has(event.tool))
    return undefined;
  const args = event.args;
  const result = event.result;
  if (!isRecord(args) || typeof args.command !== 'string') return undefined;
  if (!isRecord(result) || typeof result.content !== 'string' || result.error !== undefined) return undefined;
  const failed = result.isError === true;
  const recorded = RECORDED_EXIT.exec(result.content);
  const output = recorded ? result.content.slice(recorded[0].length) : result.content;
  const code = recorded ? Number(recorded[1]) : failed ? 1 : 0;
  // A status the recording wrote that contradicts its flag is left alone.
  if ((code !== 0) !== failed) return undefined;
  const known = failed || recorded !== null || !STATUSLESS_SOURCES.has(event.tool);
  return { command: args.command, output, exitCode: known ? code : undefined };
}

/**
 * A transform that gives every shell call's result the framing `frame` writes (the result's new
 * `content` and whether it is flagged a failure), chosen by the trace and the call's place in it.
 */
function shellResultFramed(
  name: string,
  frame: (outcome: ShellOutcome, key: string) => { content: string; isError?: true } | undefined,
): Transform {
  return {
    name,
    apply(events, trace) {
      let changed = false;
      const out = events.map((event, index) => {
        const outcome = shellOutcome(event);
        if (outcome === undefined) return event;
        const framed = frame(outcome, `${trace} ${index}`);
        if (framed === undefined) return event;
        changed = true;
        const { isError: _flag, content: _content, ...rest } = event.result as Record<string, unknown>;
        return { ...event, result: { ...rest, ...framed } };
      });
      return changed ? out : undefined;
    },
  };
}

/**
 * A transform that writes a host's frame with the exit status in it: a call whose recorded status is
 * unknown is left as it is, as the frame would say what nobody saw.
 */
function statusFramed(
  name: string,
  frame: (
    outcome: ShellOutcome & { readonly exitCode: number },
    key: string,
  ) => { content: string; isError?: true },
): Transform {
  return shellResultFramed(name, (outcome, key) =>
    outcome.exitCode === undefined ? undefined : frame({ ...outcome, exitCode: outcome.exitCode }, key),
  );
}

/** Claude Code's `Bash`: a failure flagged, its exit status on the first line; a success as printed. */
export const claudeCodeResult = statusFramed('shell result as Claude Code frames it', (outcome) =>
  outcome.exitCode === 0
    ? { content: outcome.output }
    : { content: `Exit code ${outcome.exitCode}\n${outcome.output}`, isError: true },
);

/**
 * Codex: the exit status and wall time in a header above the output, nothing flagged; `shell`'s
 * header (`Exit code: N`) or `exec_command`'s (`Process exited with code N`), by the trace.
 */
export const codexResult = statusFramed('shell result as Codex frames it', (outcome, key) => {
  const wall = `Wall time: ${(varying(`wall ${key}`, 5000) / 1000).toFixed(4)} seconds`;
  if (pick([true, false], key.split(' ')[0] ?? key)) {
    return { content: `Exit code: ${outcome.exitCode}\n${wall}\nOutput:\n${outcome.output}` };
  }
  const chunk = varying(`chunk ${key}`, 0xffffff).toString(16).padStart(6, '0');
  const tokens = Math.ceil(outcome.output.length / 4);
  return {
    content: `Chunk ID: ${chunk}\n${wall}\nProcess exited with code ${outcome.exitCode}\nOriginal token count: ${tokens}\nOutput:\n${outcome.output}`,
  };
});

/** Gemini CLI's `run_shell_command`: the command, its output and exit status in one block, nothing flagged. */
export const geminiResult = statusFramed('shell result as Gemini CLI frames it', (outcome, key) => ({
  content: [
    `Command: ${outcome.command}`,
    'Directory: (root)',
    `Output: ${outcome.output === '' ? '(empty)' : outcome.output}`,
    'Error: (none)',
    `Exit Code: ${outcome.exitCode}`,
    'Signal: (none)',
    'Background PIDs: (none)',
    `Process Group PGID: ${10000 + varying(`pgid ${key}`, 90000)}`,
  ].join('\n'),
}));

/**
 * OpenHands' `execute_bash`: the output, then its bracketed lines (the exit status, the working
 * directory, the Python interpreter, the exit status again), nothing flagged.
 */
export const openHandsResult = statusFramed('shell result as OpenHands frames it', (outcome, key) => {
  const trace = key.split(' ')[0] ?? key;
  const interpreter = `/openhands/poetry/openhands-ai-${varying(`venv ${trace}`, 0xffffff).toString(36)}-py3.12/bin/python`;
  return {
    content: [
      outcome.output,
      `[The command completed with exit code ${outcome.exitCode}.]`,
      '[Current working directory: /workspace]',
      `[Python interpreter: ${interpreter}]`,
      `[Command finished with exit code ${outcome.exitCode}]`,
    ].join('\n'),
  };
});

/** mini-swe-agent shows 5,000 characters at each end of an output longer than 10,000. */
const MINI_SHOWN = 10_000;

/** mini-swe-agent: `<returncode>N</returncode>`, then the output in tags (its head and tail when long), nothing flagged. */
export const miniSweAgentResult = statusFramed('shell result as mini-swe-agent frames it', (outcome) => {
  const text = outcome.output;
  const body =
    text.length < MINI_SHOWN
      ? `<output>\n${text}\n</output>`
      : `<warning>\nThe output of your last command was too long.\n</warning><output_head>\n${text.slice(0, MINI_SHOWN / 2)}\n</output_head>\n<elided_chars>\n${text.length - MINI_SHOWN} characters elided\n</elided_chars>\n<output_tail>\n${text.slice(-MINI_SHOWN / 2)}\n</output_tail>`;
  return { content: `<returncode>${outcome.exitCode}</returncode>\n${body}` };
});

/** Codex's older versions: a JSON object with the output and the exit status and duration in its metadata, nothing flagged. */
export const codexJsonResult = statusFramed(
  'shell result as older Codex versions frame it',
  (outcome, key) => ({
    content: JSON.stringify({
      output: outcome.output,
      metadata: { exit_code: outcome.exitCode, duration_seconds: varying(`wall ${key}`, 5000) / 1000 },
    }),
  }),
);

/** Roo Code's `execute_command`: a header with the working directory and the exit status above the output, nothing flagged. */
export const rooCodeResult = statusFramed('shell result as Roo Code frames it', (outcome) => ({
  content: `Command executed in terminal 1 within working directory '/workspace'. ${
    outcome.exitCode === 0
      ? ''
      : 'Command execution was not successful, inspect the cause and adjust as needed.\n'
  }Exit code: ${outcome.exitCode}\nOutput:\n${outcome.output}`,
}));

/** Cursor: only what the command printed, with no exit status and nothing flagged. */
export const cursorResult = shellResultFramed('shell result as Cursor frames it', (outcome) => ({
  content: outcome.output,
}));

/** Claude Code keeps 5,000 characters at each end of a long output. */
const CLAUDE_CODE_KEPT = 5_000;
/** Cursor keeps the last 100,000 characters of a terminal's output. */
const CURSOR_KEPT = 100_000;

/**
 * A long output cut as a host cuts it, its flag kept: Claude Code's middle cut (`... [N characters
 * truncated] ...`) or Cursor's (`[Terminal output truncated: ~NKB dropped from beginning]`), by the trace.
 */
export const truncatedResult = shellResultFramed('shell output truncated as a host does', (outcome, key) => {
  const text = outcome.output;
  const flag = outcome.exitCode === 0 || outcome.exitCode === undefined ? {} : { isError: true as const };
  if (pick([true, false], key.split(' ')[0] ?? key)) {
    if (text.length <= 2 * CLAUDE_CODE_KEPT) return undefined;
    const cut = text.length - 2 * CLAUDE_CODE_KEPT;
    const content = `${text.slice(0, CLAUDE_CODE_KEPT)}\n\n... [${cut} characters truncated] ...\n\n${text.slice(-CLAUDE_CODE_KEPT)}`;
    return { content, ...flag };
  }
  if (text.length <= CURSOR_KEPT) return undefined;
  const dropped = Math.round((text.length - CURSOR_KEPT) / 1024);
  return {
    content: `[Terminal output truncated: ~${dropped}KB dropped from beginning]\n${text.slice(-CURSOR_KEPT)}`,
    ...flag,
  };
});

/** A generator of numbers in [0, 1) from a seed: the same seed, the same values. */
function seededRandom(key: string): () => number {
  let state = varying(key, 0x7fffffff) + 1;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const drawn = (random: Random, alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
const HEX = '0123456789abcdef';
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** What Python's temporary names are drawn from. */
const TEMP_NAME = 'abcdefghijklmnopqrstuvwxyz0123456789_';
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low));
function uuidOf(random: Random): string {
  const hex = drawn(random, HEX, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** An id as a tool prints it beside an error: a label and a value drawn fresh on every run. */
export const VOLATILE_IDS: readonly ((random: Random) => string)[] = [
  (random) => `request id: ${drawn(random, HEX, 12)}`,
  (random) => `x-request-id: req_${drawn(random, BASE62, 14)}`,
  (random) => `run ${drawn(random, BASE36, 11)}`,
  (random) => `container ${drawn(random, HEX, 12)}`,
  (random) => `at <object at 0x7f${drawn(random, HEX, 10)}>`,
  (random) => `on http://127.0.0.1:${between(random, 32768, 61000)}`,
  (random) => `(node:${between(random, 1000, 99999)})`,
  (random) => `trace ${uuidOf(random).toUpperCase()}`,
  (random) => `trace_id=${uuidOf(random).replaceAll('-', '')}`,
  (random) => `session {${uuidOf(random)}}`,
];

/** A temporary folder as tools name it, drawn fresh on every run. */
export const VOLATILE_FOLDERS: readonly ((random: Random) => string)[] = [
  (random) => `/tmp/tmp${drawn(random, TEMP_NAME, 8)}/`,
  (random) => `/tmp/pytest-of-runner/pytest-${between(random, 1, 400)}/test_case0/`,
  (random) => `/tmp/go-build${between(random, 1e9, 4e9)}/b001/`,
  (random) => `/var/folders/x7/2k9rmqlp8x1c7v0000gn/T/tmp${drawn(random, TEMP_NAME, 8)}/`,
];

/** How long a run took, or when it ran, as tools print it, drawn fresh on every run. */
export const VOLATILE_TIMES: readonly ((random: Random) => string)[] = [
  (random) => `took ${between(random, 5, 9000)} ms`,
  (random) => `Done in ${(random() * 20).toFixed(2)}s.`,
  (random) => `real\t0m${(random() * 9).toFixed(3)}s`,
  (random) =>
    `finished at 2026-11-30T0${between(random, 0, 10)}:${between(random, 10, 60)}:${between(random, 10, 60)}.${between(random, 100, 1000)}Z`,
  (random) => `[0${between(random, 0, 10)}:${between(random, 10, 60)}:${between(random, 10, 60)}] done`,
];

/** A duration inside a structured result, under a key tools give it. */
export const VOLATILE_FIELDS: readonly ((random: Random) => [string, number])[] = [
  (random) => ['duration_ms', between(random, 5, 9000)],
  (random) => ['elapsed', Number((random() * 20).toFixed(3))],
  (random) => ['latencyMs', between(random, 5, 900)],
];

function plainObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A result with fresh volatile values where tools print them: an id at the end of a failure's first
 * line (on its own line after a success), a temporary folder in a log's path, how long it took; a
 * structured result gets them as fields. The kinds are the trace's, the values drawn afresh for each
 * call, so that a repeated answer differs from the last only in them.
 */
export function withVolatileValues(text: string, failed: boolean, trace: string, key: string): string {
  const random = seededRandom(`values ${key}`);
  const id = pick(VOLATILE_IDS, `id ${trace}`)(random);
  const folder = pick(VOLATILE_FOLDERS, `folder ${trace}`)(random);
  const time = pick(VOLATILE_TIMES, `time ${trace}`)(random);
  const object = plainObject(text);
  if (object !== undefined) {
    const [field, value] = pick(VOLATILE_FIELDS, `field ${trace}`)(random);
    return JSON.stringify({ ...object, [field]: value, request: id, log: `${folder}run.log` });
  }
  const lines = text.split('\n');
  // An exit status the host wrote above the output (`Error: Exit code 1`) is the host's line, not the tool's.
  const status = RECORDED_EXIT.test(text) ? 1 : 0;
  const first = lines.findIndex((line, index) => index >= status && line.trim() !== '');
  if (failed && first >= 0) lines[first] = `${lines[first]} (${id})`;
  else lines.push(id);
  lines.push(`log: ${folder}run.log`, time);
  return lines.join('\n');
}

/**
 * Every result (a content or an error, longer than a short line) with fresh volatile values of several kinds, drawn
 * for each call (see `withVolatileValues`): ids, temporary folders, ports, pids, memory addresses,
 * durations and times.
 */
const SHORT_ANSWER = 40;

export const volatileValues: Transform = {
  name: 'fresh volatile values in every result',
  apply(events, trace) {
    let changed = false;
    const out = events.map((event, index) => {
      if (event.type !== 'call' || !isRecord(event.result)) return event;
      const result = event.result;
      const failed = result.isError === true || typeof result.error === 'string';
      const field = typeof result.content === 'string' ? 'content' : 'error';
      const text = result[field];
      // A short answer on one line (`[]`, `No files found`, `2`) is left as it is: a tool that prints
      // ids and timings prints more than that, and lines added to it would change what it says.
      if (typeof text !== 'string' || (!text.trim().includes('\n') && text.trim().length < SHORT_ANSWER))
        return event;
      changed = true;
      return {
        ...event,
        result: { ...result, [field]: withVolatileValues(text, failed, trace, `${trace} ${index}`) },
      };
    });
    return changed ? out : undefined;
  },
};

/**
 * A file tool's refusal given back as plain text, its flag dropped: an editor, a read or a write whose
 * host, framework or converter returns the tool's own words and marks nothing (a framework tool that
 * returns its error message as its output, a trajectory whose observations carry no status). The text
 * is the recording's; only the flag goes. A call that names a file and runs no command line is a file
 * tool's (an editor's subcommand, `command: "str_replace"`, is no command line).
 */
export const fileRefusalsUnflagged: Transform = {
  name: "file tools' refusals unflagged",
  apply(events) {
    let changed = false;
    const out = events.map((event) => {
      if (event.type !== 'call' || !isRecord(event.args) || !isRecord(event.result)) return event;
      const { args, result } = event;
      if (pathFieldOf(args) === undefined || isCommandLine(args.command)) return event;
      if (result.isError !== true || typeof result.content !== 'string') return event;
      changed = true;
      const { isError: _isError, ...unflagged } = result;
      return { ...event, result: unflagged };
    });
    return changed ? out : undefined;
  },
};

/** An editor's subcommands, which a `command` argument beside a path names instead of a command line. */
const EDITOR_SUBCOMMAND = /^(?:view|create|str_replace|insert|undo_edit|view_range|append|delete)$/;

function isCommandLine(command: unknown): boolean {
  return typeof command === 'string' && !EDITOR_SUBCOMMAND.test(command);
}

export const RESULT_TRANSFORMS: readonly Transform[] = [
  claudeCodeResult,
  codexResult,
  geminiResult,
  openHandsResult,
  miniSweAgentResult,
  codexJsonResult,
  rooCodeResult,
  cursorResult,
  truncatedResult,
  volatileValues,
  fileRefusalsUnflagged,
];

/**
 * The tools as a trace written by someone else lists them: names alone, without the annotations the
 * recording's converter gave them (`readOnlyHint`, a kind of action, free-text fields). The guard
 * then reads each tool by its name and arguments, as a hook reads a server's tool.
 */
export const annotationsDropped: Transform = {
  name: 'tools listed without annotations',
  apply(events) {
    let dropped = false;
    const out = events.map((event) => {
      if (event.type !== 'meta' || !Array.isArray(event.tools)) return event;
      const tools = event.tools.map((tool) => {
        if (!isRecord(tool) || tool.annotations === undefined) return tool;
        dropped = true;
        const { annotations: _annotations, ...rest } = tool;
        return rest;
      });
      return { ...event, tools };
    });
    return dropped ? out : undefined;
  },
};

/** The tools hosts have built in, which no server serves. */
const HOST_OWN_TOOLS: ReadonlySet<string> = new Set([
  ...HOST_AGENTS.flatMap((agent) => hostToolNames(agent)),
  ...SHELL_SOURCES,
  ...READ_SOURCES,
  ...EDIT_SOURCES,
  ...WRITE_SOURCES,
]);

/** The servers a host's tool names are given under, one per trace. */
const SERVER_NAMES = ['workbench', 'env', 'local'] as const;

/**
 * Every tool that is not a host's own (the built-in tools of the hosts the guard has hooks for, and the
 * shell, file, edit and write tools renamed above) served by an MCP server, and named as a host names a server's tool: `mcp__env__decompile`
 * (Claude Code, Codex) or `mcp_env_decompile` (Gemini CLI, Cursor), by the trace. It keeps its
 * annotations, as a proxy lists a server's tools with theirs: only the name changes (the transform
 * above drops the annotations).
 */
export const serverToolsPrefixed: Transform = {
  name: "server's tools named as a host names them",
  apply(events, trace) {
    const server = pick(SERVER_NAMES, `server ${trace}`);
    const spell = pick(
      [(tool: string) => `mcp__${server}__${tool}`, (tool: string) => `mcp_${server}_${tool}`],
      `server spelling ${trace}`,
    );
    return renameCalls(
      events,
      (tool, args) =>
        HOST_OWN_TOOLS.has(tool) || tool.startsWith('mcp_') ? undefined : { tool: spell(tool), args },
      true,
    );
  },
};

/** Where a host that asks for absolute paths (Claude Code's and Gemini CLI's file tools) is working. */
const WORKSPACE_ROOT = '/home/dev/project';

/** A relative path without its leading `./`. */
function bare(path: string): string {
  return path.replace(/^(?:\.\/)+/, '');
}

/**
 * The folder the recording itself shows a relative path under (`/home/ctfplayer` where a command ran
 * `python /home/ctfplayer/solve.py` and a file tool wrote `solve.py`): the root its host would have
 * written. Only the first few paths are looked for, in the events' text.
 */
function rootShownIn(events: readonly TraceEvent[], paths: readonly string[]): string | undefined {
  const text = events.map((event) => JSON.stringify(event)).join('\n');
  for (const path of [...new Set(paths)].slice(0, 8)) {
    if (path.length < 3 || path.startsWith('../')) continue;
    const at = text.indexOf(`/${path}`);
    if (at < 0) continue;
    const root = /(\/[\w.@+-]+(?:\/[\w.@+-]+)*)$/.exec(text.slice(Math.max(0, at - 200), at))?.[1];
    if (root !== undefined) return root;
  }
  return undefined;
}

/** A path given relative to the working directory: not absolute, not under a home, not a URL. */
function isRelativePath(path: string): boolean {
  return path !== '' && !/^(?:[/~\\]|[A-Za-z]:|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/.test(path);
}

/**
 * Every relative path a file tool was given (`src/app.py`, `./README.md`) written as the absolute
 * path a host that asks for one would have sent (`/home/dev/project/src/app.py`); commands keep
 * theirs, as an agent writes them either way. The folder is the one the recording shows such a path
 * under, if any (a command that ran `/home/ctfplayer/solve.py`). A trace whose file tools already
 * name some absolute path shows where its host works and how it spells it, and is left as it is.
 */
export const absolutePaths: Transform = {
  name: "file tools' paths absolute",
  apply(events) {
    const pathOf = (event: TraceEvent): { source: string; path: string } | undefined => {
      const args = event.args;
      if (event.type !== 'call' || !isRecord(args)) return undefined;
      const source = pathFieldOf(args);
      return source === undefined ? undefined : { source, path: args[source] as string };
    };
    const named = events.map(pathOf).map((found) => (found?.path === '' ? undefined : found));
    const relative = named.filter((found) => found !== undefined);
    if (relative.length === 0 || relative.some((found) => !isRelativePath(found.path))) return undefined;
    const root =
      rootShownIn(
        events,
        relative.map((found) => bare(found.path)),
      ) ?? WORKSPACE_ROOT;
    return events.map((event, index) => {
      const found = named[index];
      if (found === undefined) return event;
      const absolute = `${root}/${bare(found.path)}`.replace(/\/\.?$/, '');
      return { ...event, args: { ...(event.args as Record<string, unknown>), [found.source]: absolute } };
    });
  },
};

/** How a host describes a trace's tools and spells their paths: tools described by nobody, a server's tools, absolute paths. */
/**
 * An IDE agent's file tools: its read, edit and whole-file write, each call's arguments in its shape;
 * `rest`, the recorded call's other arguments (a read's range, an edit's `replace_all`), kept.
 */
interface IdeFileTools {
  readonly read: (path: string, rest: Record<string, unknown>) => RenamedCall;
  readonly edit: (
    path: string,
    oldText: string,
    newText: string,
    rest: Record<string, unknown>,
  ) => RenamedCall;
  readonly write: (path: string, content: string, rest: Record<string, unknown>) => RenamedCall;
}
type RenamedCall = { tool: string; args: Record<string, unknown> };

/** Windsurf's Cascade (PascalCase arguments, edits as a list of chunks) and Kiro (`fsWrite` with `text`). */
export const IDE_FILE_TOOLS: readonly IdeFileTools[] = [
  {
    read: (path, rest) => ({ tool: 'view_file', args: { AbsolutePath: path, ...rest } }),
    edit: (path, oldText, newText, { replace_all: all, ...rest }) => ({
      tool: 'replace_file_content',
      args: {
        TargetFile: path,
        ReplacementChunks: [
          { TargetContent: oldText, ReplacementContent: newText, AllowMultiple: all === true },
        ],
        ...rest,
      },
    }),
    write: (path, content, rest) => ({
      tool: 'write_to_file',
      args: { TargetFile: path, CodeContent: content, EmptyFile: false, ...rest },
    }),
  },
  {
    read: (path, rest) => ({ tool: 'readFile', args: { path, ...rest } }),
    edit: (path, oldText, newText, rest) => ({
      tool: 'strReplace',
      args: { path, oldStr: oldText, newStr: newText, ...rest },
    }),
    write: (path, content, rest) => ({ tool: 'fsWrite', args: { path, text: content, ...rest } }),
  },
];

/**
 * Every file read, edit and whole-file write as an IDE agent sends it (one of `IDE_FILE_TOOLS`, chosen
 * by the trace): its own tool names and argument names, the path, the texts, the other arguments and
 * the results kept.
 */
export const ideFileTools: Transform = {
  name: "file tools in IDE agents' shapes",
  apply(events, trace) {
    const host = pick(IDE_FILE_TOOLS, `ide ${trace}`);
    return renameCalls(events, (tool, args) => {
      const source = pathFieldOf(args);
      if (source === undefined) return undefined;
      const { [source]: path, old_string: oldText, new_string: newText, content, ...rest } = args;
      if (typeof path !== 'string') return undefined;
      if (READ_SOURCES.has(tool) && oldText === undefined && content === undefined)
        return host.read(path, rest);
      if (EDIT_SOURCES.has(tool) && typeof oldText === 'string' && typeof newText === 'string')
        return content === undefined ? host.edit(path, oldText, newText, rest) : undefined;
      if (
        WRITE_SOURCES.has(tool) &&
        typeof content === 'string' &&
        oldText === undefined &&
        newText === undefined
      )
        return host.write(path, content, rest);
      return undefined;
    });
  },
};

export const HOST_TRANSFORMS: readonly Transform[] = [
  annotationsDropped,
  serverToolsPrefixed,
  absolutePaths,
  ideFileTools,
];

/** The transforms of the calls, then those of the shell's results, then the hosts' descriptions and paths. */
export const ALL_TRANSFORMS: readonly Transform[] = [...TRANSFORMS, ...RESULT_TRANSFORMS, ...HOST_TRANSFORMS];

const STOPPING = new Set(['block', 'halt']);

/** How the verdicts of one run changed under a transform. */
export interface VerdictChanges {
  readonly runs: number;
  readonly calls: number;
  /** Calls whose verdict is another (allow, warn, block, halt). */
  readonly changed: number;
  /** Calls stopped (block or halt) after the transform and not before, and the other way round. */
  readonly stopsGained: number;
  readonly stopsLost: number;
}

export function verdictChanges(before: readonly ScoredStep[], after: readonly ScoredStep[]): VerdictChanges {
  let changed = 0;
  let stopsGained = 0;
  let stopsLost = 0;
  const byStep = new Map(after.map((step) => [step.step, step.verdict]));
  for (const step of before) {
    const verdict = byStep.get(step.step) ?? '?';
    if (verdict === step.verdict) continue;
    changed++;
    if (STOPPING.has(verdict) && !STOPPING.has(step.verdict)) stopsGained++;
    if (!STOPPING.has(verdict) && STOPPING.has(step.verdict)) stopsLost++;
  }
  return { runs: 1, calls: before.length, changed, stopsGained, stopsLost };
}

function sum(a: VerdictChanges, b: VerdictChanges): VerdictChanges {
  return {
    runs: a.runs + b.runs,
    calls: a.calls + b.calls,
    changed: a.changed + b.changed,
    stopsGained: a.stopsGained + b.stopsGained,
    stopsLost: a.stopsLost + b.stopsLost,
  };
}

const NONE: VerdictChanges = { runs: 0, calls: 0, changed: 0, stopsGained: 0, stopsLost: 0 };

/** One call whose verdict changed, for `--details`. */
export interface ChangedCall {
  readonly transform: string;
  readonly trace: string;
  readonly step: number;
  readonly tool: string;
  readonly before: string;
  readonly after: string;
}

/** The labels' verdict on the runs a transform touched, replayed as recorded and as transformed. */
export interface LabelledChanges {
  readonly loops: number;
  readonly caughtBefore: number;
  readonly caughtAfter: number;
  readonly falseBlocksBefore: number;
  readonly falseBlocksAfter: number;
}

const NO_LOOPS: LabelledChanges = {
  loops: 0,
  caughtBefore: 0,
  caughtAfter: 0,
  falseBlocksBefore: 0,
  falseBlocksAfter: 0,
};

export interface MetamorphicScore {
  readonly half: CorpusHalf;
  readonly byTransform: readonly {
    readonly transform: string;
    readonly changes: VerdictChanges;
    readonly labelled: LabelledChanges;
  }[];
  readonly details: readonly ChangedCall[];
}

/** The labels' verdict on a run as recorded (`was`, scored once) and as transformed (`is`), added to `total`. */
function labelledSum(total: LabelledChanges, was: SourceScore, is: SourceScore): LabelledChanges {
  return {
    loops: total.loops + was.loops,
    caughtBefore: total.caughtBefore + was.caught,
    caughtAfter: total.caughtAfter + is.caught,
    falseBlocksBefore: total.falseBlocksBefore + was.falseBlocks,
    falseBlocksAfter: total.falseBlocksAfter + is.falseBlocks,
  };
}

function verdictText(step: ScoredStep | undefined): string {
  if (step === undefined) return '?';
  return step.rule === undefined ? step.verdict : `${step.verdict} (${step.rule})`;
}

export async function scoreMetamorphic(
  corpus: string,
  options: {
    readonly root: string;
    readonly half?: CorpusHalf;
    readonly transforms?: readonly Transform[];
    readonly onProgress?: (done: number, total: number) => void;
  },
): Promise<MetamorphicScore> {
  const half = options.half ?? 'design';
  if (!hasHalf(corpus, half)) throw new Error(`no ${half} half in ${corpus}`);
  const guard = await loadBuiltGuard(options.root, undefined);
  const transforms = options.transforms ?? ALL_TRANSFORMS;
  const totals = new Map(transforms.map((transform) => [transform.name, NONE]));
  const labelled = new Map(transforms.map((transform) => [transform.name, NO_LOOPS]));
  const details: ChangedCall[] = [];
  const labels = readLabels(corpus, half);
  let done = 0;
  for (const label of labels) {
    const text = readFileSync(join(corpus, half, 'traces', label.trace), 'utf8');
    const events = guard.parse(text, label.trace) as TraceEvent[];
    const before = guard.replay(events);
    let recorded: SourceScore | undefined;
    for (const transform of transforms) {
      const transformed = transform.apply(events, label.trace);
      if (transformed === undefined) continue;
      const after = guard.replay(
        guard.parse(transformed.map((event) => JSON.stringify(event)).join('\n'), label.trace),
      );
      totals.set(transform.name, sum(totals.get(transform.name) ?? NONE, verdictChanges(before, after)));
      recorded ??= scoreRun(label, before);
      labelled.set(
        transform.name,
        labelledSum(labelled.get(transform.name) ?? NO_LOOPS, recorded, scoreRun(label, after)),
      );
      const afterByStep = new Map(after.map((step) => [step.step, step]));
      for (const step of before) {
        const other = afterByStep.get(step.step);
        if (other?.verdict === step.verdict) continue;
        details.push({
          transform: transform.name,
          trace: label.trace,
          step: step.step,
          tool: `${step.tool ?? ''} → ${other?.tool ?? '?'}`,
          before: verdictText(step),
          after: verdictText(other),
        });
      }
    }
    options.onProgress?.(++done, labels.length);
  }
  return {
    half,
    byTransform: transforms.map((transform) => ({
      transform: transform.name,
      changes: totals.get(transform.name) ?? NONE,
      labelled: labelled.get(transform.name) ?? NO_LOOPS,
    })),
    details,
  };
}

export function formatMetamorphic(score: MetamorphicScore, withDetails = false): string {
  const header = [
    'transform',
    'runs',
    'calls',
    'verdicts changed',
    'stops gained',
    'stops lost',
    'loops caught',
    'false blocks',
  ];
  const rows = score.byTransform.map(({ transform, changes, labelled }) => [
    transform,
    String(changes.runs),
    String(changes.calls),
    String(changes.changed),
    String(changes.stopsGained),
    String(changes.stopsLost),
    `${labelled.caughtBefore} → ${labelled.caughtAfter}/${labelled.loops}`,
    `${labelled.falseBlocksBefore} → ${labelled.falseBlocksAfter}`,
  ]);
  const widths = header.map((cell, index) =>
    Math.max(cell.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) =>
        index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0),
      )
      .join('  ');
  const lines = [
    `Metamorphic check (${score.half} half): verdicts that changed under transforms that keep every loop`,
  ];
  lines.push(line(header), ...rows.map(line));
  lines.push(
    '',
    "Loops caught (by the 5th wasted call) and false blocks are the labels' verdict on the runs a transform touched, replayed as recorded → as transformed.",
  );
  if (withDetails) {
    lines.push('');
    for (const item of score.details) {
      lines.push(
        `${item.transform}: ${item.trace} step ${item.step} ${item.tool}: ${item.before} → ${item.after}`,
      );
    }
  }
  return lines.join('\n');
}

if (runAsScript(import.meta.url)) {
  const argv = process.argv.slice(2);
  const valued = new Set(['--half', '--only']);
  const corpus = argv.find((arg, index) => !arg.startsWith('--') && !valued.has(argv[index - 1] ?? ''));
  const halfIndex = argv.indexOf('--half');
  const half = (halfIndex >= 0 ? argv[halfIndex + 1] : 'design') as CorpusHalf;
  // `--only volatile`: the transforms whose name has these words, such as `fresh volatile values in
  // every result`; `--only OpenHands,Roo Code`: those whose name has any of them.
  const onlyIndex = argv.indexOf('--only');
  const only = onlyIndex >= 0 ? argv[onlyIndex + 1] : undefined;
  if (corpus === undefined) {
    process.stderr.write(
      'usage: npx tsx bench/metamorphic.ts CORPUS [--half design] [--only WORDS] [--details]\n',
    );
    process.exitCode = 2;
  } else {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const score = await scoreMetamorphic(corpus, {
      root,
      half,
      ...(only !== undefined && {
        transforms: ALL_TRANSFORMS.filter((transform) =>
          only.split(',').some((words) => transform.name.includes(words.trim())),
        ),
      }),
      onProgress: (done, total) => {
        if (done === total || done % 100 === 0) process.stderr.write(`… ${done}/${total} runs\n`);
      },
    });
    process.stdout.write(`${formatMetamorphic(score, argv.includes('--details'))}\n`);
  }
}
