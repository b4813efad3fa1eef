/**
 * The two yardsticks the guard is timed beside, written here from their published descriptions:
 *
 * - a recursion sentinel, the simplest loop guard that works: each call's arguments as canonical JSON
 *   (keys sorted), hashed with SHA-256 together with the tool name, and counted in a ring of the last
 *   10 calls; a call whose hash is already there 3 times is refused and not remembered. It looks at
 *   nothing after the call.
 * - the paper's guard held in memory: a tool name is sorted into one of 7 action classes, a failure's
 *   text into one of 12 signatures by ordered regular expressions, each with its blame; an agent
 *   failure seen twice with the same action class and signature bans the class, and the same target
 *   failing twice bans that target. A proposal is checked against both kinds of ban.
 *
 * Both take a call exactly as the guard does: a tool name, its arguments and the MCP result.
 */
import { createHash } from 'node:crypto';
import type { RawCall } from './perf-workload.js';

export interface Contender {
  readonly name: string;
  /** Before the call: true when it may run. */
  check(call: RawCall): boolean;
  /** After the call. */
  record(call: RawCall): void;
}

function canonicalJson(args: Readonly<Record<string, unknown>>): string {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(args).sort()) sorted[key] = args[key];
  return JSON.stringify(sorted);
}

export function recursionSentinel(windowSize = 10, threshold = 3): Contender {
  const ring: string[] = new Array(windowSize).fill('');
  let next = 0;
  let filled = 0;
  return {
    name: 'recursion sentinel',
    check(call) {
      const digest = createHash('sha256')
        .update(`${call.tool}::${canonicalJson(call.args)}`)
        .digest('hex');
      let seen = 0;
      for (let offset = 0; offset < filled; offset++) {
        if (ring[offset] === digest && ++seen >= threshold) return false;
      }
      ring[next] = digest;
      next = (next + 1) % windowSize;
      filled = Math.min(windowSize, filled + 1);
      return true;
    },
    record() {
      // The sentinel decides before the call only.
    },
  };
}

type ActionClass =
  | 'file_read'
  | 'file_edit'
  | 'file_create'
  | 'shell_exec'
  | 'search'
  | 'api_call'
  | 'delete';
type Blame = 'agent_failure' | 'harness_fault' | 'unknown';

/** Tool names in any convention become space-separated lowercase words before matching. */
function words(tool: string): string {
  return tool
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.:/]+/g, ' ')
    .toLowerCase();
}

const ACTION_CLASSES: readonly [RegExp, ActionClass][] = [
  [/\b(delete|remove|rm|unlink)\b/, 'delete'],
  [/\b(edit|replace|patch|update|modify)\b/, 'file_edit'],
  [/\b(write|create|new)\b/, 'file_create'],
  [/\b(read|cat|view|open|get file)\b/, 'file_read'],
  [/\b(search|grep|find|glob|list)\b/, 'search'],
  [/\b(bash|shell|exec|run|command|terminal)\b/, 'shell_exec'],
  [/\b(fetch|http|request|api|curl)\b/, 'api_call'],
];

function actionClass(call: RawCall): ActionClass {
  const name = words(call.tool);
  for (const [pattern, action] of ACTION_CLASSES) if (pattern.test(name)) return action;
  if ('command' in call.args) return 'shell_exec';
  if ('url' in call.args) return 'api_call';
  return 'file_read';
}

const SIGNATURES: readonly [RegExp, string, Blame][] = [
  [/timeout|ETIMEDOUT|deadline exceeded|timed out/i, 'tool_timeout', 'harness_fault'],
  [/tool not found|unknown tool/i, 'tool_not_found', 'harness_fault'],
  [/permission denied|EACCES|\b403\b/i, 'permission_denied', 'harness_fault'],
  [/\b429\b|rate.?limit|too many requests/i, 'rate_limited', 'harness_fault'],
  [/ENOENT|no such file|file not found/i, 'file_not_found', 'agent_failure'],
  [/SyntaxError|parse error|invalid JSON/i, 'syntax_error', 'agent_failure'],
  [/search string not found|could not find exact match|edit.*failed/i, 'edit_failed', 'agent_failure'],
  [/exit code [1-9]|command failed/i, 'command_failed', 'agent_failure'],
  [/validation failed|invalid.*argument/i, 'validation_error', 'agent_failure'],
  [/\b409\b|conflict|already exists/i, 'conflict', 'agent_failure'],
  [/no results|empty response|\bnull\b/i, 'empty_result', 'agent_failure'],
  [/\b50[023]\b|internal server error/i, 'api_error', 'unknown'],
];

function resultText(call: RawCall): string {
  return call.result.content.map((part) => part.text).join('\n');
}

/** What a call acts on: its path, command or address, the structural part of "the same call". */
function target(call: RawCall): string {
  const args = call.args;
  const value = args.path ?? args.file_path ?? args.command ?? args.url ?? args.query ?? '';
  return `${call.tool}\u0000${typeof value === 'string' ? value : JSON.stringify(value)}`;
}

export function paperGuard(corroboration = 2): Contender {
  const strategyFailures = new Map<string, number>();
  const targetFailures = new Map<string, number>();
  const bannedClasses = new Set<ActionClass>();
  const bannedTargets = new Set<string>();
  return {
    name: "paper's guard, in memory",
    check(call) {
      return !bannedClasses.has(actionClass(call)) && !bannedTargets.has(target(call));
    },
    record(call) {
      if (call.result.isError !== true) return;
      const text = resultText(call);
      const match = SIGNATURES.find(([pattern]) => pattern.test(text));
      if (match === undefined || match[2] !== 'agent_failure') return;
      const action = actionClass(call);
      const strategy = `${action}\u0000${match[1]}`;
      const strategyCount = (strategyFailures.get(strategy) ?? 0) + 1;
      strategyFailures.set(strategy, strategyCount);
      if (strategyCount >= corroboration) bannedClasses.add(action);
      const where = target(call);
      const targetCount = (targetFailures.get(where) ?? 0) + 1;
      targetFailures.set(where, targetCount);
      if (targetCount >= corroboration) bannedTargets.add(where);
    },
  };
}
