/**
 * From whatever a tool-calling loop has in hand (a name, arguments, an MCP result, a thrown error)
 * to the engine's `Proposal` and `Outcome`.
 */
import type { Mutable, Outcome, Proposal, ToolAnnotations } from '../../core/types.js';
import { isRecord, readToolName } from './action-classes.js';
import { boundedJson } from './bounded-json.js';
import { commandText } from './call-arguments.js';
import { answersByExitStatus } from './command-effects.js';
import { hasCouldNotRunLine } from './failure-lines.js';
import { framedShellOutcome } from './shell-framing.js';
import { statusMayHideFailure } from './shell-parse.js';
import { parseRetryAfter } from './signatures.js';

export interface ToolCallExtras {
  readonly annotations?: ToolAnnotations;
  readonly inputSchema?: unknown;
  readonly step?: string | number;
  readonly callId?: string;
}

export interface ToolOutcomeExtras extends ToolCallExtras {
  readonly durationMs?: number;
  readonly tokens?: number;
  readonly costUsd?: number;
  readonly score?: number;
  /** HTTP status of the transport, when the caller knows it. */
  readonly status?: number;
  /** Exit status of a command; a non-zero one makes the outcome a failure. */
  readonly exitCode?: number;
  readonly retryAfterSeconds?: number;
}

/**
 * Arguments as an object. A JSON string (OpenAI function-call arguments) is parsed; any other value
 * is kept under `input` (Codex's free-form `apply_patch`).
 */
function argumentsOf(args: unknown): Readonly<Record<string, unknown>> {
  if (isUnreadable(args)) {
    // A revoked proxy, say: kept as it is, so that the check that reads it fails as a guard fault
    // (and the call runs) rather than this conversion throwing in the caller's hands.
    return args as Readonly<Record<string, unknown>>;
  }
  if (isRecord(args)) return args;
  if (typeof args === 'string') {
    const trimmed = args.trim();
    if (trimmed.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (isRecord(parsed)) return parsed;
      } catch {
        // Not JSON after all: keep the text as it is.
      }
    }
  }
  return args === undefined || args === null ? {} : { input: args };
}

function isUnreadable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  try {
    Array.isArray(value);
    return false;
  } catch {
    return true;
  }
}

export function toolCallToProposal(toolName: string, args: unknown, extras: ToolCallExtras = {}): Proposal {
  const proposal: { -readonly [K in keyof Proposal]: Proposal[K] } = {
    tool: toolName,
    args: argumentsOf(args),
  };
  if (extras.annotations !== undefined) proposal.annotations = extras.annotations;
  if (extras.inputSchema !== undefined) proposal.inputSchema = extras.inputSchema;
  if (extras.step !== undefined) proposal.step = extras.step;
  if (extras.callId !== undefined) proposal.callId = extras.callId;
  return proposal;
}

type MutableOutcome = Mutable<Outcome>;

/**
 * `result` may be an MCP `CallToolResult`, a plain string (success), an `Error` (failure),
 * `{ error }` or `{ success: false }` (failure), or a command's result (`{ exitCode | exit_code |
 * returncode, stdout?, stderr?, output? }`, a failure when the status is not 0). Anything else is a
 * successful result, kept as JSON.
 */
export function toolCallToOutcome(
  toolName: string,
  args: unknown,
  result: unknown,
  extras: ToolOutcomeExtras = {},
): Outcome {
  const outcome: MutableOutcome = { proposal: toolCallToProposal(toolName, args, extras), success: true };
  readResult(outcome, result);
  if (extras.exitCode === undefined) readShellFrame(outcome);
  if (extras.status !== undefined) outcome.status = extras.status;
  if (extras.exitCode !== undefined) outcome.exitCode = extras.exitCode;
  if (outcome.exitCode !== undefined && outcome.exitCode !== 0) outcome.success = false;
  if (!outcome.success && answeredByStatus(outcome)) {
    // The status says how a job stands (checks pending): an answer, which the text is.
    outcome.success = true;
    if (outcome.error !== undefined) {
      outcome.content ??= outcome.error;
      delete outcome.error;
    }
  }
  if (outcome.exitCode === 0 && statusHidFailure(outcome)) {
    // Read as an output with no status: the status is another command's.
    delete outcome.exitCode;
    outcome.success = false;
  }
  if (extras.retryAfterSeconds !== undefined) outcome.retryAfterSeconds = extras.retryAfterSeconds;
  if (extras.durationMs !== undefined) outcome.durationMs = extras.durationMs;
  if (extras.tokens !== undefined) outcome.tokens = extras.tokens;
  if (extras.costUsd !== undefined) outcome.costUsd = extras.costUsd;
  if (extras.score !== undefined) outcome.score = extras.score;
  return outcome;
}

function readResult(outcome: MutableOutcome, result: unknown): void {
  if (result === undefined || result === null) {
    outcome.content = '';
  } else if (typeof result === 'string') {
    outcome.content = result;
  } else if (result instanceof Error) {
    readError(outcome, result);
  } else if (isRecord(result) && Array.isArray(result.content)) {
    readCallToolResult(outcome, result);
  } else if (
    isRecord(result) &&
    result.error !== undefined &&
    result.error !== null &&
    result.error !== false
  ) {
    outcome.success = false;
    outcome.error = errorMessage(result.error);
    if (typeof result.content === 'string') outcome.content = result.content;
    readExitCode(outcome, result);
  } else if (isRecord(result) && (exitCodeOf(result) !== undefined || isCommandOutput(result))) {
    outcome.content = commandOutput(result);
    readExitCode(outcome, result);
    if (result.success === false || result.isError === true) outcome.success = false;
  } else if (isRecord(result) && (result.success === false || result.isError === true)) {
    // A failure that says nothing about why: still a failure, with nobody to blame.
    outcome.success = false;
    if (typeof result.content === 'string') outcome.content = result.content;
    else if (typeof result.message === 'string') outcome.content = result.message;
  } else if (isRecord(result) && typeof result.content === 'string') {
    outcome.content = result.content;
  } else {
    outcome.content = safeJson(result);
  }
}

/**
 * A command's result whose text is in a host's frame (Codex's header, Gemini CLI's block, Claude
 * Code's `Exit code N`, OpenHands' bracketed lines, mini-swe-agent's `<returncode>`, Roo Code's
 * header): the exit status the frame gives, where the result gave none, and the output
 * without the frame, so one outcome reads the same from every host. A result that says nothing of
 * how the command ended (Cursor shows only the output) is a failure when it holds a line a command
 * prints when it could not run or stopped at once (`bash: x: command not found`, `fatal: …`, a
 * traceback): framed with a status, the same outcome would be one. A run's report of failures
 * inside it (failed tests, npm's errors) is left as the result has it, as it is printed under a
 * success as often.
 */
function readShellFrame(outcome: MutableOutcome): void {
  const content = outcome.content;
  if (outcome.exitCode !== undefined || typeof content !== 'string') return;
  const args = outcome.proposal?.args;
  const command = isRecord(args) ? commandText(args) : undefined;
  // What a tool typing into a running command (`write_stdin`) returns is that command's, framed alike.
  if (command === undefined && !typesIntoProcess(outcome.proposal?.tool)) return;
  const framed = framedShellOutcome(content);
  if (framed !== undefined) {
    outcome.content = framed.output;
    if (framed.exitCode !== undefined) outcome.exitCode = framed.exitCode;
    if (framed.timedOut) outcome.success = false;
    return;
  }
  if (command !== undefined && outcome.success && hasCouldNotRunLine(content, command))
    outcome.success = false;
}

function typesIntoProcess(tool: unknown): boolean {
  return typeof tool === 'string' && readToolName(tool).typesIntoProcess;
}

/**
 * Whether a line that exited 0 holds a command that could not run, behind a status that is another
 * command's (a pipeline's last, the one after `||`, the last of a sequence; see
 * `statusMayHideFailure`): only the command's own lines say how it went, as in an output with no
 * status. Whatever gave the status (a host's frame, a hook's field, a result object).
 */
function statusHidFailure(outcome: MutableOutcome): boolean {
  const content = outcome.content;
  const args = outcome.proposal?.args;
  if (typeof content !== 'string' || !outcome.success || !isRecord(args)) return false;
  const command = commandText(args);
  return command !== undefined && statusMayHideFailure(command) && hasCouldNotRunLine(content, command);
}

/** A status check whose program answered how its job stands by its exit status (see `answersByExitStatus`). */
function answeredByStatus(outcome: MutableOutcome): boolean {
  const args = outcome.proposal?.args;
  const command = isRecord(args) ? commandText(args) : undefined;
  return (
    command !== undefined && outcome.exitCode !== undefined && answersByExitStatus(command, outcome.exitCode)
  );
}

const EXIT_CODE_KEYS = ['exitCode', 'exit_code', 'returncode'] as const;

function exitCodeOf(record: Readonly<Record<string, unknown>>): number | undefined {
  for (const key of EXIT_CODE_KEYS) {
    const value = record[key];
    if (typeof value === 'number' && Number.isInteger(value)) return value;
  }
  return undefined;
}

function readExitCode(outcome: MutableOutcome, record: Readonly<Record<string, unknown>>): void {
  const code = exitCodeOf(record);
  if (code !== undefined) outcome.exitCode = code;
}

function isCommandOutput(record: Readonly<Record<string, unknown>>): boolean {
  return typeof record.stdout === 'string' || typeof record.stderr === 'string';
}

/** What a command printed, as a terminal shows it: its output, then its errors. */
function commandOutput(record: Readonly<Record<string, unknown>>): string {
  const parts = [record.output ?? record.content, record.stdout, record.stderr].filter(
    (part): part is string => typeof part === 'string' && part !== '',
  );
  return parts.join('\n');
}

function readError(outcome: MutableOutcome, error: Error): void {
  outcome.success = false;
  outcome.error = error.message || error.name;
  if (error.name && error.name !== 'Error') outcome.exceptionName = error.name;
  const details = error as Error & {
    code?: unknown;
    status?: unknown;
    statusCode?: unknown;
    cause?: unknown;
    headers?: unknown;
  };
  // `fetch failed` hides the socket error in `cause`.
  const cause = isRecord(details.cause) ? details.cause : undefined;
  const code = details.code ?? cause?.code;
  if (typeof code === 'string' || typeof code === 'number') outcome.errorCode = String(code);
  const child = childProcessExit(error);
  if (child !== undefined) {
    // `execSync` and friends: `status` is the exit status, not an HTTP status.
    outcome.exitCode = child;
  } else {
    const status = details.status ?? details.statusCode;
    if (typeof status === 'number' && Number.isInteger(status)) outcome.status = status;
  }
  const headers = details.headers;
  if (isRecord(headers)) {
    const retryAfter = headers['retry-after'] ?? headers['Retry-After'];
    if (typeof retryAfter === 'string' || typeof retryAfter === 'number') {
      const seconds = parseRetryAfter(`retry-after: ${retryAfter}`);
      if (seconds !== undefined) outcome.retryAfterSeconds = seconds;
    }
  }
}

const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * The exit status of a failed child process (`execSync`, `spawnSync`, execa): the error carries the
 * process's `signal` or `pid`, or an `exitCode`. A signal counts as the shell reports it, 128 + n.
 */
function childProcessExit(error: Error): number | undefined {
  const details = error as Error & { exitCode?: unknown; status?: unknown; signal?: unknown; pid?: unknown };
  if (typeof details.exitCode === 'number' && Number.isInteger(details.exitCode)) return details.exitCode;
  if (!('signal' in details) && !('pid' in details)) return undefined;
  if (typeof details.signal === 'string' && SIGNAL_NUMBERS[details.signal] !== undefined) {
    return 128 + (SIGNAL_NUMBERS[details.signal] as number);
  }
  return typeof details.status === 'number' && Number.isInteger(details.status) ? details.status : undefined;
}

function readCallToolResult(outcome: MutableOutcome, result: Readonly<Record<string, unknown>>): void {
  // One pass over the items. Most results are one text, kept as the string it is; several are
  // joined once, into one flat string, not grown piece by piece.
  let first: string | undefined;
  let texts: string[] | undefined;
  let hasText = false;
  for (const item of result.content as unknown[]) {
    const text = contentText(item);
    if (text !== undefined) {
      if (first === undefined) first = text;
      else if (texts === undefined) texts = [first, text];
      else texts.push(text);
    }
    if (!hasText && isRecord(item) && item.type === 'text') hasText = true;
  }
  let content = texts !== undefined ? texts.join('\n') : (first ?? '');
  if (!hasText && result.structuredContent !== undefined) {
    const structured = safeJson(result.structuredContent);
    content = content === '' ? structured : `${content}\n${structured}`;
  }
  outcome.content = content;
  if (result.isError === true) {
    outcome.success = false;
  }
  // MCP shell servers report the exit status in structured content.
  if (isRecord(result.structuredContent)) readExitCode(outcome, result.structuredContent);
  if (isRecord(result._meta)) outcome.meta = result._meta;
}

/** Text items as they are; anything else as its type and size, so the digest sees it without its bytes. */
function contentText(item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? item.text : undefined;
    case 'image':
    case 'audio':
      return `[${item.type} ${typeof item.mimeType === 'string' ? item.mimeType : 'unknown'}, ${base64Bytes(item.data)} bytes]`;
    case 'resource': {
      const resource = isRecord(item.resource) ? item.resource : {};
      const uri = typeof resource.uri === 'string' ? resource.uri : '';
      if (typeof resource.text === 'string') return `[resource ${uri}]\n${resource.text}`;
      return `[resource ${uri}, ${base64Bytes(resource.blob)} bytes]`;
    }
    case 'resource_link':
      return `[resource_link ${typeof item.uri === 'string' ? item.uri : ''}]`;
    default:
      return `[${typeof item.type === 'string' ? item.type : 'unknown'}]`;
  }
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function errorMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return safeJson(error);
}

/** A value's JSON, cut at `RESULT_JSON_LIMIT` characters before more is written. */
function safeJson(value: unknown): string {
  try {
    return boundedJson(value);
  } catch {
    try {
      return String(Object.prototype.toString.call(value));
    } catch {
      return '[unreadable]';
    }
  }
}
