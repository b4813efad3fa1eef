/**
 * Calls whose arguments stand inside another: a host's one tool for every MCP server (Cline's and
 * Roo Code's `use_mcp_tool {server_name, tool_name, arguments}`) names the tool it calls and carries
 * that call's arguments, as an object or as the JSON text of one; what such a call does is what the
 * relayed call does (`create_issue` through it creates an issue, `get_file_contents` reads). A tool
 * may also take its arguments wrapped in one object (OpenAI's `apply_patch {operation: {type, path,
 * diff}}`): they are that object's.
 */
import type { Proposal } from '../../core/types.js';
import { isRecord } from './action-classes.js';

/** A relayed tool's name or server longer than this is no name: the call is read as it stands. */
const MAX_NAME_LENGTH = 128;
/** Arguments given as text are read up to this length; longer, the call is read as it stands. */
const MAX_ARGUMENTS_TEXT = 64 * 1024;
/** The names a relayed tool, its server and its arguments go by. */
const TOOL_KEYS = ['tool_name', 'toolName'] as const;
const SERVER_KEYS = ['server_name', 'serverName'] as const;
const ARGUMENTS_KEYS = ['arguments'] as const;

export interface RelayedCall {
  /** The relayed call as its own server would see it (`mcp__github__create_issue`), hints left out. */
  readonly proposal: Proposal;
  readonly args: Readonly<Record<string, unknown>>;
}

/**
 * The call `args` relays, or `undefined` when they relay none: they name a tool in a word-like name
 * and carry its arguments as an object, or as JSON text of one. The relay's own hints describe the
 * relay, not the tool it calls, and are left out.
 */
export function relayedCall(args: Readonly<Record<string, unknown>>): RelayedCall | undefined {
  const tool = nameAt(args, TOOL_KEYS);
  if (tool === undefined) return undefined;
  const relayedArgs = argumentsAt(args);
  if (relayedArgs === undefined) return undefined;
  const server = nameAt(args, SERVER_KEYS);
  const name = server === undefined ? tool : `mcp__${server}__${tool}`;
  return { proposal: { tool: name, args: relayedArgs }, args: relayedArgs };
}

function nameAt(args: Readonly<Record<string, unknown>>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string' && isName(value)) return value;
  }
  return undefined;
}

/** A tool's or a server's name: a word of letters, digits, `_`, `-` and `.`, with no `__` in it. */
function isName(value: string): boolean {
  return (
    value.length > 0 &&
    value.length <= MAX_NAME_LENGTH &&
    /^[A-Za-z0-9_.-]+$/.test(value) &&
    !value.includes('__')
  );
}

function argumentsAt(args: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> | undefined {
  for (const key of ARGUMENTS_KEYS) {
    const value = args[key];
    if (isRecord(value)) return value;
    if (typeof value === 'string') return parsedObject(value);
  }
  return undefined;
}

function parsedObject(text: string): Readonly<Record<string, unknown>> | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (trimmed.length > MAX_ARGUMENTS_TEXT || !trimmed.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The names a tool's arguments are wrapped under, when they are its only argument. */
const WRAPPER_KEYS = new Set(['operation', 'params', 'parameters', 'input', 'args', 'kwargs']);

/**
 * The arguments `args` wrap (`{operation: {type: "update_file", path: "src/app.py", diff: "…"}}`), or
 * undefined: their one argument is an object under a wrapper's name.
 */
export function wrappedArguments(
  args: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> | undefined {
  let found: Readonly<Record<string, unknown>> | undefined;
  for (const key in args) {
    if (found !== undefined || !WRAPPER_KEYS.has(key)) return undefined;
    const value = args[key];
    if (!isRecord(value)) return undefined;
    found = value;
  }
  return found;
}
