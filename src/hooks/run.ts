/**
 * `narrowing-guard hook <agent>`: one process per hook event. Reads the payload from stdin, answers
 * on stdout in the agent's protocol, exits 0. Whatever goes wrong (a bad payload, a broken state
 * directory, a hook slower than its deadline), the agent is never blocked by the guard's own fault:
 * the reason goes to stderr and the call runs, unless `failClosed` asks for the opposite.
 */
import type { HostAgent } from '../adapters/tool-call/host-tools.js';
import { elapsed } from '../node/elapsed.js';
import { defaultStateDir, hostProjectDir } from '../node/state-dir.js';
import { askDaemon, daemonSocketPath, NoDaemonError, startDaemon } from './daemon-client.js';
import type { HookEvent, HookProtocol, HookReply, HookVerdict } from './event.js';
import type { HookOptions } from './handle.js';
import { MAX_PAYLOAD_BYTES } from './payload.js';
import { HOOK_PROTOCOLS } from './protocols.js';

export interface RunHookOptions extends HookOptions {
  /**
   * After this many milliseconds a check before a call is answered without the guard (fail open or
   * closed) and the process ends. An event after a call is still saved before the process ends.
   * Default 5000.
   */
  readonly deadlineMs?: number;
  /**
   * Ask the project's hook helper, starting it when it is not running (default true; never on
   * Windows). False: every hook process handles its event itself.
   */
  readonly daemon?: boolean;
  /** How long the helper waits for events before it exits. Default 10 minutes. */
  readonly daemonIdleMs?: number;
}

export interface HookStreams {
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

const DEFAULT_DEADLINE_MS = 5_000;
/**
 * How long an event that only records (after a call, a new prompt, a session start) may take to be
 * saved, whatever the deadline: the agent takes the process's exit as the outcome's receipt, so it
 * exits once the outcome is written. Past the longest waits for the locks involved; below the 60 s
 * `install` gives the hook before the agent may stop it (`HOOK_TIMEOUT_SECONDS`).
 */
export const SAVE_LIMIT_MS = 50_000;
/** What the hook keeps of its deadline, past the longest hold, to answer (and the helper to check). */
const HOLD_MARGIN_MS = 1_000;
/** The exit code every agent reads as "refuse this call", the reason on stderr. */
const DENY_EXIT_CODE = 2;

/** Handles one hook event; returns the exit code. Never throws. */
export async function runHook(
  agent: HostAgent,
  streams: HookStreams,
  options: RunHookOptions = {},
): Promise<number> {
  const protocol = HOOK_PROTOCOLS[agent];
  const say = (message: string) => streams.stderr.write(`narrowing-guard: ${message}\n`);
  let event: HookEvent | undefined;
  const answer = (verdict: HookVerdict): number => {
    const reply: HookReply = event ? protocol.reply(event, verdict) : { stdout: '', exitCode: 0 };
    if (reply.stdout !== '') streams.stdout.write(reply.stdout);
    if (reply.stderr) streams.stderr.write(reply.stderr);
    return reply.exitCode;
  };
  const fault = (why: string): number => {
    const current: HookEvent | undefined = event;
    if (options.failClosed && current === undefined) {
      // No event to answer in the agent's fields: exit 2 is every agent's "refuse", stderr its reason.
      say(`${why}; refusing the call (--fail-closed)`);
      return DENY_EXIT_CODE;
    }
    if (options.failClosed && current?.action.type === 'before-call') {
      say(`${why}; refusing the call (--fail-closed)`);
      return answer({
        type: 'deny',
        text: `narrowing-guard could not check this call (${why}) and is set to refuse calls it cannot check.`,
      });
    }
    say(`${why}; the call proceeds unchecked`);
    return 0;
  };
  const deadline = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  // Deadlines that almost never pass: `elapsed` costs a hook process less than a timer, and needs no
  // clearing (see src/node/elapsed.ts). It keeps nothing waiting, so a process left with nothing to
  // wait for and no answer (`beforeExit`) answers then rather than ending without a word.
  let stall: () => void = () => undefined;
  const stalled = new Promise<'stalled'>((resolve) => {
    stall = () => resolve('stalled');
  });
  process.once('beforeExit', stall);
  const after = (ms: number) => Promise.race([elapsed(ms).then(() => 'late' as const), stalled]);
  // Both count from the start: reading stdin, asking the helper, or handling the event here.
  const late = after(deadline);
  const saveLimit = Math.max(deadline, SAVE_LIMIT_MS);
  const givenUp = after(saveLimit);
  try {
    const work = (async () => {
      const payload = parsePayload(await readBounded(streams.stdin));
      event = parseEvent(protocol, payload, agent, say);
      return verdictFor(event, { ...options, onProblem: say });
    })();
    // The work goes on after a late answer (bin.ts ends the process); its failure is not reported twice.
    work.catch(() => undefined);
    let verdict = await Promise.race([work, late]);
    // The deadline bounds how long a check keeps the agent waiting; an outcome is saved before the exit.
    if (verdict === 'late' && event !== undefined && onlyRecords(event))
      verdict = await Promise.race([work, givenUp]);
    if (verdict === 'stalled') return fault('the guard stopped before it answered');
    if (verdict === 'late') {
      const limit = event !== undefined && onlyRecords(event) ? saveLimit : deadline;
      return fault(`the guard took longer than ${limit} ms`);
    }
    return answer(verdict);
  } catch (error) {
    return fault(`the hook failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    process.removeListener('beforeExit', stall);
  }
}

/**
 * An event the agent does not wait on to run a call (after a call, a new prompt, a compaction, a
 * session's start): its effect is saved however long that takes, up to `SAVE_LIMIT_MS`.
 */
function onlyRecords(event: HookEvent): boolean {
  return event.action.type !== 'before-call';
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`the payload on stdin is not JSON (${(error as Error).message})`);
  }
}

/**
 * The event in this agent's protocol. A payload that this protocol rejects or ignores but another
 * agent's would read is named on stderr: the hook was installed for the wrong agent.
 */
function parseEvent(
  protocol: HookProtocol,
  payload: unknown,
  agent: HostAgent,
  say: (message: string) => void,
): HookEvent {
  let event: HookEvent;
  try {
    event = protocol.parse(payload);
  } catch (error) {
    const other = shapeOf(payload);
    if (other !== undefined && other !== agent) say(wrongAgent(agent, other, payload));
    throw error;
  }
  if (event.action.type === 'ignored') {
    const other = shapeOf(payload);
    if (other !== undefined && other !== agent) say(wrongAgent(agent, other, payload));
  }
  return event;
}

function wrongAgent(agent: HostAgent, other: HostAgent, payload: unknown): string {
  const name = (payload as { hook_event_name?: unknown }).hook_event_name;
  return (
    `this payload looks like one of ${other}'s${typeof name === 'string' ? ` (hook_event_name "${name.slice(0, 64)}")` : ''}, ` +
    `but the hook runs as \`narrowing-guard hook ${agent}\`: install it with \`narrowing-guard install ${other}\``
  );
}

const GEMINI_EVENTS = new Set([
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'AfterAgent',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  'PreCompress',
  'SessionEnd',
  'Notification',
]);
const CURSOR_EVENTS = new Set([
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'beforeShellExecution',
  'afterShellExecution',
  'beforeMCPExecution',
  'afterMCPExecution',
  'beforeReadFile',
  'afterFileEdit',
  'beforeSubmitPrompt',
  'sessionStart',
  'sessionEnd',
  'preCompact',
  'stop',
  'afterAgentResponse',
  'afterAgentThought',
]);
const CLAUDE_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'PreCompact',
  'PostCompact',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'Notification',
]);

/** Which agent's payload this looks like, when its shape says so; undefined when unsure. */
export function shapeOf(payload: unknown): HostAgent | undefined {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const fields = payload as Record<string, unknown>;
  const name = typeof fields.hook_event_name === 'string' ? fields.hook_event_name : '';
  if ('conversation_id' in fields || 'cursor_version' in fields || 'workspace_roots' in fields)
    return 'cursor';
  if (CURSOR_EVENTS.has(name)) return 'cursor';
  if (GEMINI_EVENTS.has(name) && !CLAUDE_EVENTS.has(name)) return 'gemini-cli';
  if (CLAUDE_EVENTS.has(name)) return 'turn_id' in fields ? 'codex' : undefined;
  return undefined;
}

/** The helper's verdict when it runs; otherwise this process's own, with the helper started for next time. */
async function verdictFor(event: HookEvent, options: RunHookOptions): Promise<HookVerdict> {
  if (event.action.type === 'ignored') return { type: 'none' };
  // The helper is started from words: a store instance stays in this process.
  const storeInWords = options.store === undefined || typeof options.store === 'string';
  if (options.daemon !== false && process.platform !== 'win32' && storeInWords) {
    const identity = {
      stateDir: options.stateDir ?? defaultStateDir(event.workspace ?? process.cwd(), projectRoot()),
      ...(options.policy !== undefined && { policy: options.policy }),
      ...(options.preset !== undefined && { preset: options.preset }),
      ...(typeof options.store === 'string' && { store: options.store }),
    };
    let socket: string | undefined;
    try {
      socket = daemonSocketPath(identity);
      const deadline = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
      // A duplicate of a call in flight is held no longer than leaves time to answer within the deadline.
      const holdMs = Math.max(0, deadline - HOLD_MARGIN_MS);
      // The helper answers an outcome once it is written: that answer is worth waiting for.
      const waitMs = onlyRecords(event) ? Math.max(deadline, SAVE_LIMIT_MS) : deadline;
      return await askDaemon(
        socket,
        { event, ...(options.failClosed && { failClosed: true }), ...(holdMs > 0 && { holdMs }) },
        waitMs,
        // This process exits once it has answered (bin.ts): the connection goes with it.
        true,
      );
    } catch (error) {
      if (!(error instanceof NoDaemonError)) throw error;
      if (socket !== undefined) startDaemon(socket, identity, options.daemonIdleMs);
    }
  }
  // Run from its own code cache by the bundle's entry (see launch.ts): `node:module`, which would
  // start the ES module loader, is not loaded for it.
  const { handleHookEvent } = await import('./handle.js');
  return handleHookEvent(event, options);
}

/** The host's project folder (`CLAUDE_PROJECT_DIR`…), where the state is looked for no higher than. */
function projectRoot(): { projectDir?: string } {
  const projectDir = hostProjectDir();
  return projectDir === undefined ? {} : { projectDir };
}

async function readBounded(stdin: AsyncIterable<Uint8Array | string>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    // A stream's chunks are its own to keep; a string's bytes are made once.
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_PAYLOAD_BYTES)
      throw new Error(`the payload on stdin is larger than ${MAX_PAYLOAD_BYTES} bytes`);
    chunks.push(bytes);
  }
  // One chunk (the payload read whole) is decoded where it lies, without a copy.
  const only = chunks.length === 1 ? chunks[0] : undefined;
  const text = (
    only !== undefined
      ? Buffer.from(only.buffer, only.byteOffset, only.byteLength)
      : Buffer.concat(chunks, size)
  ).toString('utf8');
  if (text.trim() === '')
    throw new Error('no payload on stdin: hooks are run by the agent, with the event as JSON on stdin');
  return text;
}
