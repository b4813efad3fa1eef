/**
 * Codex CLI runs, in the two forms Codex writes them:
 *
 * - rollout files (`~/.codex/sessions/…/rollout-*.jsonl`): one `{timestamp, type, payload}` line per
 *   item, as `RolloutLine`/`RolloutItem` in openai/codex `codex-rs/protocol/src/protocol.rs` define
 *   them (`session_meta`, `turn_context`, `response_item`, `event_msg`, `compacted`). The model's
 *   calls are the `response_item`s of `codex-rs/protocol/src/models.rs`: `function_call` (`shell`,
 *   `shell_command`, `exec_command`, `apply_patch`, `update_plan`, MCP tools…) answered by the
 *   `function_call_output` with its `call_id`, `custom_tool_call` (the freeform `apply_patch`)
 *   answered by `custom_tool_call_output`, and `local_shell_call`. A command's exit status is the
 *   `exit_code` of the `exec_command_end` event message with the same `call_id`, or, without one, the
 *   exit code the output reports (`{"metadata":{"exit_code":N}}` in older versions, an `Exit code: N`
 *   or `Process exited with code N` line in later ones); a patch failed when its `patch_apply_end`
 *   says `success: false` or its output reports a failure. An output that is a list of parts showing
 *   only images (`view_image`'s answer) leaves its call without a result. Rollouts of the earliest
 *   versions hold the response items themselves, one per line, without the envelope.
 * - `codex exec --json` output: `item.started`/`item.completed` lines whose `item` is one of the
 *   thread items of `codex-rs/exec/src/exec_events.rs` (`command_execution` with its
 *   `aggregated_output` and `exit_code`, `file_change` with the files a patch changed and its
 *   status, `mcp_tool_call`, `web_search`); a run logger that wraps each line as
 *   `{"log_type": …, "data": line}` is read through. The patch text is not in this output: a
 *   `file_change` gets `unshown_input: N` (numbered in the run) so that two patches of one file are
 *   never read as one patch made twice.
 *
 * Shell tools become `shell` with the command line as `command` (a `bash -lc` wrapper removed, its
 * quoting undone), `workdir` when the call names one, and the call's request to run outside the
 * sandbox (`sandbox_permissions`, `with_escalated_permissions`) when it makes one, so that the labeller reads them as shell
 * commands whatever the Codex version called the tool. User messages are user turns (Codex's own
 * `<environment_context>`, instruction, skill and internal context messages are not: `SYSTEM_TEXT`),
 * and a `compacted` item is a compaction.
 */
import type { CallEvent, TraceEvent, TraceResult } from '../../src/trace/types.js';
import {
  type ConvertedRun,
  clip,
  isObject,
  type JsonObject,
  metaEvent,
  parseArguments,
  type RunSource,
  safeName,
  secondsSince,
  text,
  toolList,
} from './events.js';

const SHELL_NAMES = new Set(['shell', 'shell_command', 'exec_command', 'container.exec', 'local_shell']);
const PATCH_NAME = 'apply_patch';
const SHELL_WRAPPER = /^(?:\S*\/)?(?:ba|z)?sh\s+-l?c\s+([\s\S]+)$/;
const EXIT_LINE = /^(?:Exit code:|Process exited with code)\s*(-?\d+)\s*$/m;
const OUTPUT_MARKER = /^Output:\n?/m;
const PATCH_FAILED = /^(?:apply_patch verification failed|Failed to apply patch|error:|Error:|Invalid patch)/i;
const TOOL_FAILED = /^(?:error:|Error:|err:|failed to|unsupported call|unknown tool|[a-z]+(?:_[a-z]+)+ failed:)/i;
/** The header of a code-mode cell's answer (`exec`, `wait`) whose script failed: `Script failed`, then `Wall time…`. */
const SCRIPT_FAILED = /^Script failed\b/;
/**
 * What Codex writes in the user's place: its environment, the workspace's instructions (in a
 * `<user_instructions>` tag in earlier versions, under `# AGENTS.md instructions for DIR` in later
 * ones, and written again after a compaction), a skill's text, its internal context, and its notes
 * of a shell command the user ran or of a turn stopped. None is a prompt the user sent the model.
 */
const SYSTEM_TEXT =
  /^\s*(?:<(?:environment_context|user_instructions|permissions instructions|user_shell_command|turn_aborted|skill>|codex_internal_context)|# AGENTS\.md instructions for )/;

/** Undoes one layer of shell quoting around a whole argument, as `bash -lc 'x'` wrote it. */
export function unquoteShellWord(word: string): string {
  const trimmed = word.trim();
  if (trimmed.length >= 2 && trimmed.startsWith("'") && trimmed.endsWith("'")) {
    const inner = trimmed.slice(1, -1);
    if (!inner.replaceAll("'\\''", '').includes("'")) return inner.replaceAll("'\\''", "'");
  }
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    const inner = trimmed.slice(1, -1);
    if (!/(?<!\\)"/.test(inner)) return inner.replace(/\\([\\"$`])/g, '$1');
  }
  return trimmed;
}

/** The command line a shell call ran: `["bash","-lc","x"]` and `bash -lc 'x'` are both `x`. */
export function commandLine(command: unknown): string {
  if (Array.isArray(command)) {
    const words = command.map((word) => text(word));
    if (words.length === 3 && /(?:^|\/)(?:ba|z)?sh$/.test(words[0] ?? '') && /^-l?c$/.test(words[1] ?? '')) {
      return words[2] ?? '';
    }
    return words.join(' ');
  }
  const line = text(command);
  const wrapped = SHELL_WRAPPER.exec(line.trim());
  return wrapped?.[1] ? unquoteShellWord(wrapped[1]) : line;
}

/**
 * A shell call's command line, its `workdir`, and the sandbox it asked to run outside of: a command
 * refused inside Codex's sandbox ("Permission denied", no network) is retried with
 * `sandbox_permissions: "require_escalated"` (`with_escalated_permissions: true` in earlier
 * versions) once the user approves, which is another attempt than the refused one.
 */
function shellArgs(args: Record<string, unknown>): Record<string, unknown> {
  const command = commandLine(args.command ?? args.cmd);
  const workdir = args.workdir ?? args.cwd;
  const shell: Record<string, unknown> = typeof workdir === 'string' && workdir !== '' ? { command, workdir } : { command };
  const sandbox = args.sandbox_permissions;
  if (typeof sandbox === 'string' && sandbox !== '' && sandbox !== 'use_default') shell.sandbox_permissions = sandbox;
  if (args.with_escalated_permissions === true) shell.with_escalated_permissions = true;
  return shell;
}

interface ReportedOutput {
  readonly body: string;
  readonly exitCode?: number;
  /** The output says the call failed whatever exit code it shows: a code-mode script that failed. */
  readonly failed?: true;
}

/**
 * Whether a tool's answer (Codex's `Wall time…` and `Output:` header taken off) is a JSON object
 * holding an `error`: an app or MCP server answering a call it could not serve
 * (`{"error":"GitHub API error 404: …","error_code":"NOT_FOUND"}`).
 */
function answersError(body: string): boolean {
  const marker = OUTPUT_MARKER.exec(body);
  const answer = (marker ? body.slice(marker.index + marker[0].length) : body).trim();
  if (!answer.startsWith('{')) return false;
  try {
    const parsed: unknown = JSON.parse(answer);
    return isObject(parsed) && parsed.error !== undefined && parsed.error !== null && parsed.error !== false;
  } catch {
    return false;
  }
}

/** What a tool's output text says: its body, and the exit code when it reports one. */
export function readOutput(raw: unknown): ReportedOutput {
  const output = typeof raw === 'string' ? raw : isObject(raw) && 'content' in raw ? text(raw.content) : text(raw);
  if (output.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(output);
      if (isObject(parsed) && typeof parsed.output === 'string') {
        const metadata = isObject(parsed.metadata) ? parsed.metadata : undefined;
        const code = metadata?.exit_code;
        return typeof code === 'number' ? { body: parsed.output, exitCode: code } : { body: parsed.output };
      }
    } catch {
      // Not the JSON envelope: plain text that starts with a brace.
    }
  }
  // Codex's code mode answers a script cell with its own header first (`Script completed`,
  // `Script failed`, `Script running with cell ID N`), then what the script printed, which may hold
  // the answers of the commands it ran, each with its exit code.
  const scriptFailed = SCRIPT_FAILED.test(output);
  const exit = EXIT_LINE.exec(output);
  if (!exit) return scriptFailed ? { body: output, failed: true } : { body: output };
  const marker = OUTPUT_MARKER.exec(output);
  const body = marker ? output.slice(marker.index + marker[0].length) : '';
  return scriptFailed ? { body, exitCode: Number(exit[1]), failed: true } : { body, exitCode: Number(exit[1]) };
}

/**
 * Whether an output is a list of content parts that shows images and no text (`view_image`'s answer:
 * the picture, as data). What the call saw is not text the trace can hold, so it has no result:
 * what it showed is unknown, not empty.
 */
export function showsOnlyImages(raw: unknown): boolean {
  if (!Array.isArray(raw)) return false;
  const parts = raw.filter(isObject);
  return (
    parts.some((part) => part.type === 'input_image') &&
    parts.every((part) => part.type === 'input_image' || text(part.text).trim() === '')
  );
}

/**
 * A shell call's result. A failure that printed nothing keeps Codex's own header, without the wall
 * time (`Exit code: 124\nOutput:\n`), so that what reads the result reads the exit status as it would
 * from Codex itself (124 is the status Codex gives a command it stopped at its `timeout_ms`).
 */
function shellResult(body: string, exitCode: number | undefined): TraceResult {
  const failed = exitCode !== undefined && exitCode !== 0;
  const content = failed && body.trim() === '' ? `Exit code: ${exitCode}\nOutput:\n` : body;
  return failed ? { isError: true, content: clip(content) } : { content: clip(content) };
}

interface PendingCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly t?: number;
  result?: TraceResult;
  /** The model step that issued it, when that step issued several calls at once. */
  turn?: string;
}

/** The lines of one run, each a parsed JSON object; a wrapper's `data` is read through. */
function linesOf(jsonl: string): { line: JsonObject; at?: number }[] {
  const lines: { line: JsonObject; at?: number }[] = [];
  for (const raw of jsonl.split('\n')) {
    if (raw.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      continue;
    }
    if (!isObject(parsed)) continue;
    if (typeof parsed.log_type === 'string' && isObject(parsed.data)) {
      const at = typeof parsed.timestamp_unix === 'number' ? parsed.timestamp_unix : undefined;
      lines.push(at === undefined ? { line: parsed.data } : { line: parsed.data, at });
      continue;
    }
    const stamp = typeof parsed.timestamp === 'string' ? Date.parse(parsed.timestamp) / 1000 : Number.NaN;
    lines.push(Number.isFinite(stamp) ? { line: parsed, at: stamp } : { line: parsed });
  }
  return lines;
}

function userText(payload: JsonObject): string | undefined {
  if (payload.role !== 'user') return undefined;
  const body = text(payload.content);
  return SYSTEM_TEXT.test(body) || body.trim() === '' ? undefined : body;
}

/**
 * A function call's tool name. Later versions send an MCP server's tool under its `namespace`, and
 * the two make the name Codex gives the tool everywhere else, `mcp__SERVER__TOOL`: `mcp__node_repl`
 * with `js` is `mcp__node_repl__js`, and an app's, whose namespace already holds the start of the
 * tool's name, `mcp__codex_apps__github` with `_fetch_file`, is `mcp__codex_apps__github_fetch_file`.
 * Codex's own groups (`collaboration` with `spawn_agent`) keep the tool's name.
 */
function toolName(payload: JsonObject): string {
  const name = text(payload.name);
  const namespace = payload.namespace;
  if (typeof namespace !== 'string' || !namespace.startsWith('mcp__')) return name;
  return namespace.endsWith('__') || name.startsWith('_') ? `${namespace}${name}` : `${namespace}__${name}`;
}

/** Converts one Codex run (a rollout file or `codex exec --json` output) to the trace format. */
export function convertCodexRun(jsonl: string, source: RunSource, name: string, description: string): ConvertedRun {
  const events: (TraceEvent | PendingCall)[] = [];
  const byId = new Map<string, PendingCall>();
  const exitCodes = new Map<string, number>();
  const patchFailed = new Map<string, boolean>();
  let start: number | undefined;
  let unshown = 0;

  /**
   * The calls of the model step being read: a model's response lists its calls one after another,
   * and their outputs follow; calls listed together were issued at once (in parallel) and did not
   * see each other's answers. An output, a user's message or a compaction ends the step.
   */
  let step: PendingCall[] = [];
  let steps = 0;
  const endStep = () => {
    if (step.length > 1) {
      steps++;
      for (const call of step) call.turn = `turn-${steps}`;
    }
    step = [];
  };

  const open = (id: string | undefined, tool: string, args: Record<string, unknown>, at: number | undefined) => {
    const t = secondsSince(start, at);
    const call: PendingCall = t === undefined ? { tool, args } : { tool, args, t };
    events.push(call);
    if (id) byId.set(id, call);
    return call;
  };
  /** A call of the model's response, issued with the calls listed right before it. */
  const issue = (id: string | undefined, tool: string, args: Record<string, unknown>, at: number | undefined) => {
    step.push(open(id, tool, args, at));
  };

  for (const { line, at } of linesOf(jsonl)) {
    start ??= at;
    const envelope = typeof line.type === 'string' && isObject(line.payload);
    const kind = envelope ? line.type : isObject(line.msg) ? 'event_msg' : 'response_item';
    const payload: JsonObject = envelope ? (line.payload as JsonObject) : isObject(line.msg) ? line.msg : line;
    if (kind === 'compacted') {
      endStep();
      events.push({ type: 'compact' });
      continue;
    }
    if (kind === 'event_msg') {
      const id = text(payload.call_id);
      if (payload.type === 'exec_command_end' && typeof payload.exit_code === 'number') exitCodes.set(id, payload.exit_code);
      if (payload.type === 'patch_apply_end' && typeof payload.success === 'boolean') patchFailed.set(id, !payload.success);
      continue;
    }
    if (kind === 'item.started' || kind === 'item.completed' || line.type === 'item.started' || line.type === 'item.completed') {
      const item = isObject(line.item) ? line.item : undefined;
      if (!item) continue;
      const id = text(item.id);
      const call = byId.get(id) ?? openItem(item, at);
      if (call && line.type === 'item.completed') call.result = itemResult(item);
      continue;
    }
    if (kind !== 'response_item') continue;
    const user = userText(payload);
    if (user !== undefined) {
      endStep();
      events.push({ type: 'user', text: clip(user) });
      continue;
    }
    const id = typeof payload.call_id === 'string' ? payload.call_id : undefined;
    switch (payload.type) {
      case 'function_call': {
        const tool = toolName(payload);
        const args = parseArguments(payload.arguments);
        if (SHELL_NAMES.has(tool)) issue(id, 'shell', shellArgs(args), at);
        else if (tool === PATCH_NAME) issue(id, PATCH_NAME, { patch: text(args.input ?? args.patch) }, at);
        else issue(id, tool, args, at);
        break;
      }
      case 'local_shell_call': {
        const action = isObject(payload.action) ? payload.action : {};
        issue(id ?? text(payload.id), 'shell', shellArgs(action), at);
        break;
      }
      case 'custom_tool_call': {
        const tool = text(payload.name);
        const input = text(payload.input);
        if (SHELL_NAMES.has(tool)) issue(id, 'shell', { command: commandLine(input) }, at);
        else issue(id, tool, tool === PATCH_NAME ? { patch: input } : { input }, at);
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        endStep();
        const call = id ? byId.get(id) : undefined;
        // An answer that is only images is not text the trace can hold: the call keeps no result.
        if (call && !showsOnlyImages(payload.output)) {
          call.result = outputResult(call, readOutput(payload.output), id as string);
        }
        break;
      }
      default:
        break;
    }
  }

  function openItem(item: JsonObject, at: number | undefined): PendingCall | undefined {
    const id = text(item.id);
    switch (item.type) {
      case 'command_execution':
        return open(id, 'shell', { command: commandLine(item.command) }, at);
      case 'file_change': {
        const changes = Array.isArray(item.changes) ? item.changes.filter(isObject) : [];
        const files = changes.map((change) => `${text(change.kind)} ${text(change.path)}`.trim());
        return open(id, PATCH_NAME, { files, unshown_input: ++unshown }, at);
      }
      case 'mcp_tool_call':
        return open(id, `${text(item.server)}__${text(item.tool)}`, parseArguments(item.arguments ?? {}), at);
      case 'web_search':
        return open(id, 'web_search', { query: text(item.query) }, at);
      default:
        return undefined;
    }
  }

  function itemResult(item: JsonObject): TraceResult | undefined {
    switch (item.type) {
      case 'command_execution':
        if (item.status === 'declined') return undefined;
        return shellResult(text(item.aggregated_output), typeof item.exit_code === 'number' ? item.exit_code : undefined);
      case 'file_change':
        return item.status === 'failed' ? { isError: true, content: 'patch failed' } : {};
      case 'mcp_tool_call': {
        if (isObject(item.error)) return { isError: true, content: clip(text(item.error.message)) };
        const body = isObject(item.result) ? text(item.result.content) : '';
        return item.status === 'failed' ? { isError: true, content: clip(body) } : { content: clip(body) };
      }
      default:
        return {};
    }
  }

  function outputResult(call: PendingCall, output: ReportedOutput, id: string): TraceResult {
    if (call.tool === 'shell') return shellResult(output.body, exitCodes.get(id) ?? output.exitCode);
    const failed =
      call.tool === PATCH_NAME
        ? (patchFailed.get(id) ?? (output.exitCode !== undefined ? output.exitCode !== 0 : PATCH_FAILED.test(output.body)))
        : output.failed === true ||
          (output.exitCode !== undefined
            ? output.exitCode !== 0
            : TOOL_FAILED.test(output.body) || answersError(output.body));
    return failed ? { isError: true, content: clip(output.body) } : { content: clip(output.body) };
  }

  endStep();
  const converted: TraceEvent[] = events.map((event) => {
    if ('type' in event) return event;
    const call: CallEvent = {
      type: 'call',
      tool: event.tool,
      args: event.args,
      ...(event.result !== undefined && { result: event.result }),
      ...(event.t !== undefined && { t: event.t }),
      ...(event.turn !== undefined && { turn: event.turn }),
    };
    return call;
  });
  const calls = converted.filter((event): event is CallEvent => event.type === 'call');
  const runName = safeName(name);
  const tools = toolList(calls, { shell: 'exec' });
  return { name: runName, events: [metaEvent(runName, description, source, tools), ...converted] };
}
