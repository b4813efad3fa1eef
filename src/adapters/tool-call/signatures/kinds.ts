/**
 * The failure kinds of tool calls and what each means: its signature (one of the paper's twelve),
 * whose fault it is, whether the same call fails again, and its tier. The words that recognise a kind
 * live in the family tables next to this file (network, TLS, HTTP, filesystem, VCS…); each kind's
 * rule joins the words of every family, so a new family or a new wording is data, not code.
 *
 * Blame follows the labelling rules of the calibration corpus: the environment's failures (network,
 * TLS, timeouts, rate limits and quotas, credentials, disk and memory, a daemon or server that is not
 * running, lock contention) are `harness_fault` and never teach a ban; a wrong call (missing target,
 * unknown id or ref, bad arguments, wrong code, a path outside the sandbox) is `agent_failure`; a
 * failure that says nothing is `unknown`. When a text carries both kinds of evidence, the rules are
 * tried in tiers:
 *
 * 1. `verdict`: reports about the agent's own work that quote it at length (a failing test run, a
 *    compiler diagnostic, a failed edit, a sandbox refusal). Test names, assertion values and source
 *    lines inside them are the agent's words, so environmental words there do not count.
 * 2. `harness`: any evidence of the environment failing, unless it is quoted from the agent's input:
 *    on its line after (or inside quotes next to) an agent verdict such as "No such file or directory:
 *    'rate_limit.py'", or part of a path.
 * 3. `agent`: the call named something missing, had a bad shape, or ran wrong code.
 * 4. `weak`: bare failures ("exit code 1", "npm ERR!", "Internal error") that blame nobody.
 *
 * Every pattern is anchored: a number counts as an HTTP status only where the text says so (`HTTP
 * 429`, `status 500`, `503 Service Unavailable`, `Conflict (409)`), never as a bare `429` in "4000
 * tokens" or "line 403". The matching engine is `../matcher.ts`.
 */

import type { Blame } from '../../../core/types.js';
import { CODE } from './code.js';
import { DATABASES } from './databases.js';
import { DOCUMENTS } from './documents.js';
import { EDITS } from './edits.js';
import { ENVIRONMENTS } from './environments.js';
import { FILESYSTEM } from './filesystem.js';
import { foldPattern } from './fold-pattern.js';
import { HOST } from './host.js';
import { HTTP } from './http.js';
import { LOCALES } from './locales.js';
import { NETWORK } from './network.js';
import { PACKAGE_MANAGERS } from './package-managers.js';
import { SANDBOXES } from './sandboxes.js';
import { SERVICES } from './services.js';
import { SHELLS } from './shells.js';
import { TESTS } from './tests.js';
import { TLS } from './tls.js';
import { TOOL_PROTOCOLS } from './tool-protocols.js';
import { VCS } from './vcs.js';
import type { FailureKind, FamilyTable } from './vocabulary.js';

/** In priority order: when several match, the first wins. */
export const TOOL_CALL_SIGNATURES = [
  'tool_timeout',
  'tool_not_found',
  'permission_denied',
  'rate_limited',
  'file_not_found',
  'syntax_error',
  'edit_failed',
  'command_failed',
  'validation_error',
  'conflict',
  'empty_result',
  'api_error',
] as const;

export type ToolCallSignature = (typeof TOOL_CALL_SIGNATURES)[number];

/** Where a rule stands when several match one text; see the module comment. */
export type RuleTier = 'verdict' | 'harness' | 'agent' | 'weak';

/** One way to recognise a signature, with what it implies. */
export interface SignatureRule {
  readonly signature: string;
  readonly blame: Blame;
  /** The same call against unchanged state fails the same way. */
  readonly deterministic: boolean;
  readonly pattern: RegExp;
  /**
   * Lower-case fragments of which every match of `pattern` contains at least one. A text without any
   * of them is not searched with `pattern`: one pass over the text replaces most regex passes.
   */
  readonly hints?: readonly string[];
  /** Forces the meaning to `call` where the signature's usual generalisation would be wrong. */
  readonly onlyThisCall?: boolean;
  /** A second pattern that must also match (keeps a broad pattern to its context). */
  readonly context?: RegExp;
  /**
   * The patterns are written for lower-cased text and run on it. Case-insensitive regexes are about
   * twice as slow in V8, and the text is lower-cased once for the hint scan anyway.
   */
  readonly folded?: boolean;
  /** Built-in rules only; a caller's own patterns are tried before every tier. */
  readonly tier?: RuleTier;
  /**
   * The verdict is followed by the agent's input (a path, a value, a name): environmental words
   * after it on the same line are quotes, not evidence.
   */
  readonly quotes?: boolean;
  /**
   * Like `quotes`, but only for quoted text next to the verdict: `KeyError: 'ECONNREFUSED'`. (The
   * exception name alone is no verdict that a word after it is a quote: `TypeError: fetch failed`.)
   */
  readonly spanQuotes?: boolean;
}

/** The family tables, in the order their words are joined. */
export const FAMILIES: Readonly<Record<string, FamilyTable>> = {
  network: NETWORK,
  tls: TLS,
  http: HTTP,
  services: SERVICES,
  filesystem: FILESYSTEM,
  host: HOST,
  vcs: VCS,
  packageManagers: PACKAGE_MANAGERS,
  databases: DATABASES,
  sandboxes: SANDBOXES,
  environments: ENVIRONMENTS,
  documents: DOCUMENTS,
  toolProtocols: TOOL_PROTOCOLS,
  edits: EDITS,
  shells: SHELLS,
  code: CODE,
  tests: TESTS,
  locales: LOCALES,
};

/**
 * `HTTP 429`, `status: 429`, `"statusCode": 429`, `"code": 429`, `error code 429`, `returned error: 429`,
 * `Request failed (429)`, `Non-200 status code (502)`, `API error (400 required)` (a reason after it).
 */
function status(codes: readonly number[]): string {
  const alternatives = codes.join('|');
  const prefix =
    `\\bHTTP(?:\\/\\d(?:\\.\\d)?)?(?: error)?\\s*[:=]?\\s*|\\bstatus(?:[ _-]?code)?["']?\\s*[:=]?\\s*` +
    `|\\bresponse code\\s*[:=]?\\s*|\\berror(?: code)?\\s*[:=]?\\s*|\\b\\w+(?:error|exception):\\s*|["'](?:code|status_?code|http_?status)["']\\s*:\\s*`;
  const parenthesised = `\\b(?:error|failed|request|response|status(?: code)?|conflict|forbidden|unavailable|denied)\\W{0,3}\\(`;
  return `(?:${prefix})(?:${alternatives})\\b|${parenthesised}(?:${alternatives})(?: [a-z_]{2,30})?\\)|\\b(?:${alternatives}) (?:client|server) error\\b`;
}

interface RuleSpec {
  readonly blame: Blame;
  readonly deterministic: boolean;
  readonly tier: RuleTier;
  readonly quotes?: boolean;
  readonly spanQuotes?: boolean;
  readonly onlyThisCall?: boolean;
  readonly context?: RegExp;
}

interface KindOptions {
  /** Match the original text, not its lower-cased form (for upper-case markers like `FAIL`). */
  readonly caseSensitive?: boolean;
}

/** The rule of one kind: the words of every family for it, joined. */
function kind(
  name: FailureKind,
  signature: ToolCallSignature,
  spec: RuleSpec,
  options: KindOptions = {},
): SignatureRule {
  const patterns: string[] = [];
  const hints: string[] = [];
  const statuses: number[] = [];
  for (const table of Object.values(FAMILIES)) {
    const words = table[name];
    if (words === undefined) continue;
    patterns.push(...words.patterns);
    hints.push(...words.hints);
    statuses.push(...(words.statuses ?? []));
  }
  const sources = statuses.length > 0 ? [...patterns, status(statuses)] : patterns;
  // A kind with no words (recognised from structured data only) matches no text.
  if (sources.length === 0) sources.push('(?!)');
  const folded = options.caseSensitive !== true;
  const source = sources.join('|');
  const built: SignatureRule = {
    signature,
    ...spec,
    pattern: new RegExp(folded ? foldPattern(source) : source, 'm'),
    hints: [...new Set([...hints, ...statuses.map(String)])],
    folded,
  };
  return spec.context
    ? { ...built, context: new RegExp(folded ? foldPattern(spec.context.source) : spec.context.source, 'm') }
    : built;
}

const HARNESS = { blame: 'harness_fault', deterministic: false, tier: 'harness' } as const;
/** The environment must change before the call can work (a credential, a disk, an install). */
const HARNESS_STUCK = { blame: 'harness_fault', deterministic: true, tier: 'harness' } as const;
const AGENT = { blame: 'agent_failure', deterministic: true, tier: 'agent' } as const;
const VERDICT = { blame: 'agent_failure', deterministic: true, tier: 'verdict' } as const;

/** The text is there more than once: it exists, so "content missing" would be wrong. */
const EDIT_WORDS = /\b(?:replace|old_?string|old_str|oldText|edit|occurrences?)\b/i;

/** A test run that failed: the tests are the agent's, whatever their names and messages say. */
// A failing test may be flaky: one run does not prove the next fails too.
export const TESTS_FAILED = kind(
  'testsFailed',
  'command_failed',
  { ...VERDICT, deterministic: false },
  { caseSensitive: true },
);

/** A compiler's diagnostic of a file: the agent's code does not build. */
// Like a failing test run: the fix is an edit that may not name the file it changes.
export const COMPILE = kind('compile', 'syntax_error', { ...VERDICT, deterministic: false, quotes: true });

/**
 * A package manager's resolver found no versions that satisfy the requirements the agent wrote: its
 * report quotes packages, versions and paths, whose words are the agent's. Another requirement, not
 * a retry, makes it work.
 */
export const DEPENDENCY_CONFLICT = kind('dependencyConflict', 'conflict', VERDICT);

export const EDIT_AMBIGUOUS = kind('editAmbiguous', 'edit_failed', {
  ...VERDICT,
  onlyThisCall: true,
  context: EDIT_WORDS,
});

export const EDIT = kind('edit', 'edit_failed', VERDICT);

/** An edit that would change nothing: the same call is refused every time. */
export const EDIT_NOOP = kind('editNoop', 'edit_failed', { ...VERDICT, onlyThisCall: true });

/** Reading the file first makes the same edit succeed, and a read changes no target to notice. */
export const STALE_READ = kind('staleRead', 'validation_error', {
  ...VERDICT,
  deterministic: false,
  onlyThisCall: true,
});

/**
 * A sandbox or allow-list refusing the path the agent chose: another path would have worked, so the
 * "access denied" in the same message is not a permission problem of the session.
 */
export const OUTSIDE_SANDBOX = kind('outsideSandbox', 'permission_denied', {
  ...VERDICT,
  onlyThisCall: true,
});

/** The arguments did not fit the tool's schema; the message quotes them. */
export const SCHEMA = kind('schema', 'validation_error', { ...VERDICT, quotes: true });

/**
 * A name lookup of something that is visibly no host name (`https`, a whole URL, `user='x'`): the
 * call built a broken URL, and the identical call fails forever.
 */
export const MALFORMED_HOST = kind('malformedHost', 'validation_error', { ...VERDICT, onlyThisCall: true });

export const TIMEOUT = kind('timeout', 'tool_timeout', HARNESS);

/**
 * A command stopped for taking too long at a prompt for input it was never given: nothing says the
 * environment made it slow, so it is not the environment's failure; nor is it certain on one
 * sighting (a service may answer each connection otherwise), so a repeat that answered alike is the
 * evidence, as for any failure of unknown blame.
 */
export const WAITED_FOR_INPUT: SignatureRule = {
  ...TIMEOUT,
  blame: 'unknown',
  deterministic: false,
  tier: 'verdict',
  onlyThisCall: true,
};

export const RATE_LIMIT = kind('rateLimit', 'rate_limited', HARNESS);

/** A spent quota or an unpaid bill: the environment's to fix, and no retry helps until it is. */
export const QUOTA = kind('quota', 'rate_limited', HARNESS_STUCK);

/** The session's credentials, identity or OS permissions: any call would fail until they change. */
export const PERMISSION = kind('permission', 'permission_denied', HARNESS_STUCK);

/** Disk, memory, file handles, processes of the host. */
export const RESOURCES = kind('resources', 'api_error', HARNESS_STUCK);

/** A daemon, database, browser or MCP server that is not running, not installed or crashed. */
export const UNAVAILABLE = kind('unavailable', 'api_error', HARNESS);

/**
 * The tool failed inside itself: an exception in its own code, a document it could not convert. The
 * call may be fine; another tool, or the same one later, may do it.
 */
export const TOOL_FAULT = kind('toolFault', 'api_error', HARNESS);

/**
 * The environment the tools run in is broken (a missing interpreter or shared library, a deleted
 * working directory, a corrupt virtual environment): every call of the tool fails until it is fixed.
 */
export const BROKEN_ENVIRONMENT = kind('brokenEnvironment', 'command_failed', HARNESS_STUCK);

/** Lock contention and busy resources held by someone else: a later retry works. */
export const LOCKED = kind('locked', 'conflict', HARNESS);

/** The harness corrupted its own conversation state; no change to the call fixes it. */
export const HARNESS_STATE = kind('harnessState', 'api_error', HARNESS);

/**
 * The call was cancelled or aborted from outside (a client's cancellation, an abort signal, the user
 * stopping it): nothing about the call itself is known to fail.
 */
export const CANCELLED = kind('cancelled', 'api_error', HARNESS);

/** Network, DNS, TLS, proxies, 5xx and overload: the wire or the remote service failed. */
export const SERVICE_DOWN = kind('serviceDown', 'api_error', HARNESS);

/** An unknown tool name: in that session the identical call fails every time. */
export const TOOL_MISSING = kind('toolMissing', 'tool_not_found', AGENT);

/** A whole-file write failing on a missing parent says nothing about the file itself. */
export const PARENT_MISSING = kind('parentMissing', 'file_not_found', {
  ...AGENT,
  onlyThisCall: true,
  quotes: true,
});

/** The directory the command ran in is not what it expects (no repository, no project file). */
export const WRONG_DIRECTORY = kind('wrongDirectory', 'file_not_found', {
  ...AGENT,
  onlyThisCall: true,
  quotes: true,
});

export const FILE_MISSING = kind('fileMissing', 'file_not_found', { ...AGENT, quotes: true });

/** An id, name, ref, package or version the call named that is not there. */
export const ID_MISSING = kind('idMissing', 'file_not_found', { ...AGENT, quotes: true });

/** SQL the database rejected: unknown table or column, a constraint, bad data. */
// Not deterministic: a migration or another statement, which names no target, often fixes it.
export const SQL = kind('sql', 'validation_error', { ...AGENT, deterministic: false, quotes: true });

export const SYNTAX = kind('syntax', 'syntax_error', { ...AGENT, quotes: true });

/** Bad arguments, flags and subcommands: the message quotes what the agent passed. */
export const USAGE = kind('usage', 'validation_error', { ...AGENT, quotes: true });

/** A request the service refused as malformed, whose text does not quote the agent's input. */
export const VALIDATION = kind('validation', 'validation_error', AGENT);

/** The call conflicts with state the agent can see, or must wait for a step it has not taken. */
export const CONFLICT = kind('conflict', 'conflict', { ...AGENT, quotes: true });

/** A command name that is not there: most often a typo of the agent's. */
// An install between two tries makes the same command work.
export const COMMAND_NOT_FOUND = kind('commandNotFound', 'command_failed', {
  ...AGENT,
  deterministic: false,
  quotes: true,
});

/**
 * An exception raised by code the agent runs, pointing at that code or its input. Not deterministic:
 * the code is often edited by calls that do not name the file, and a rerun is then a new attempt.
 */
export const RUNTIME = kind('runtime', 'command_failed', {
  ...AGENT,
  deterministic: false,
  spanQuotes: true,
});

export const EMPTY = kind('empty', 'empty_result', {
  blame: 'agent_failure',
  deterministic: false,
  tier: 'agent',
});

/** A command failed and says no more than that. */
export const COMMAND = kind('command', 'command_failed', {
  blame: 'unknown',
  deterministic: false,
  tier: 'weak',
});

/** An error the tool reports about itself: could be its bug or the request's, so nobody is blamed. */
export const API_OTHER = kind('apiOther', 'api_error', {
  blame: 'unknown',
  deterministic: false,
  tier: 'weak',
});

/** Killed from outside (SIGKILL: the OOM killer or a harness's hard stop; SIGTERM, SIGINT). */
export const KILLED = kind('killed', 'command_failed', HARNESS);

/**
 * A call that brought its server down every time it was made (the MCP proxy names it so after two
 * crashes in a row with the call in flight): the call, not the environment, is what fails.
 * Recognised by exception name only: no tool's text can claim it.
 */
export const CRASHED_SERVER = kind('crashedServer', 'command_failed', { ...AGENT, onlyThisCall: true });
const TIERS: readonly RuleTier[] = ['verdict', 'harness', 'agent', 'weak'];

/** Every built-in text rule, in priority order: by tier, then as listed. */
export const TEXT_RULES: readonly SignatureRule[] = [
  TESTS_FAILED,
  COMPILE,
  DEPENDENCY_CONFLICT,
  // Before the edits' words: a call its tool refused for its arguments' shape ("InputValidationError:
  // Edit failed due to the following issues: The required parameter `file_path` is missing") never
  // reached the file, so it says nothing of what the file holds.
  SCHEMA,
  EDIT_AMBIGUOUS,
  EDIT,
  EDIT_NOOP,
  STALE_READ,
  OUTSIDE_SANDBOX,
  MALFORMED_HOST,
  TIMEOUT,
  RATE_LIMIT,
  QUOTA,
  PERMISSION,
  RESOURCES,
  UNAVAILABLE,
  TOOL_FAULT,
  BROKEN_ENVIRONMENT,
  LOCKED,
  HARNESS_STATE,
  CANCELLED,
  SERVICE_DOWN,
  TOOL_MISSING,
  PARENT_MISSING,
  WRONG_DIRECTORY,
  FILE_MISSING,
  SQL,
  SYNTAX,
  USAGE,
  VALIDATION,
  CONFLICT,
  COMMAND_NOT_FOUND,
  RUNTIME,
  ID_MISSING,
  EMPTY,
  COMMAND,
  API_OTHER,
].sort((a, b) => TIERS.indexOf(a.tier ?? 'agent') - TIERS.indexOf(b.tier ?? 'agent'));

/** The rule whose blame and determinism a signature stands for, for a caller's own patterns. */
export const RULE_OF_SIGNATURE: Readonly<Record<ToolCallSignature, SignatureRule>> = {
  tool_timeout: TIMEOUT,
  tool_not_found: TOOL_MISSING,
  permission_denied: PERMISSION,
  rate_limited: RATE_LIMIT,
  file_not_found: FILE_MISSING,
  syntax_error: SYNTAX,
  edit_failed: EDIT,
  command_failed: COMMAND,
  validation_error: VALIDATION,
  conflict: CONFLICT,
  empty_result: EMPTY,
  api_error: API_OTHER,
};

/** For failures no rule recognises: nobody is blamed (the text gave no evidence either way). */
export const UNRECOGNISED_COMMAND = COMMAND;
export const UNRECOGNISED = API_OTHER;
