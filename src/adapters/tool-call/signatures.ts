/**
 * The paper's twelve failure signatures of tool calls, read from structured transport data first
 * (HTTP status, error code, exception name) and from the message text second. Every pattern is
 * anchored: a number counts as an HTTP status only where the text says so (`HTTP 429`, `status 500`,
 * `503 Service Unavailable`, `Conflict (409)`), never as a bare `429` in "4000 tokens" or "line 403".
 */
import type { Blame } from '../../core/types.js';

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

/** One way to recognise a signature, with what it implies. */
export interface SignatureRule {
  readonly signature: string;
  readonly blame: Blame;
  /** The same call against unchanged state fails the same way. */
  readonly deterministic: boolean;
  /**
   * A fault of the machinery around the tool (timeout, throttling, network). In the output of a
   * command such words are often just program output, so there they count only on the first or last
   * line, where shells and harnesses put their own messages.
   */
  readonly harnessSide: boolean;
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
}

/** `HTTP 429`, `status: 429`, `"statusCode": 429`, `error code 429`, `Request failed (429)`. */
function status(codes: readonly number[]): string {
  const alternatives = codes.join('|');
  const prefix =
    `\\bHTTP(?:\\/\\d(?:\\.\\d)?)?(?: error)?\\s*[:=]?\\s*|\\bstatus(?:[ _-]?code)?["']?\\s*[:=]?\\s*` +
    `|\\bresponse code\\s*[:=]?\\s*|\\berror(?: code)?\\s*[:=]?\\s*`;
  const parenthesised = `\\b(?:error|failed|request|response|status|conflict|forbidden|unavailable|denied)\\W{0,3}\\(`;
  return `(?:${prefix})(?:${alternatives})\\b|${parenthesised}(?:${alternatives})\\)`;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

interface RuleSpec {
  readonly blame: Blame;
  readonly deterministic: boolean;
  readonly harnessSide?: boolean;
  readonly onlyThisCall?: boolean;
  readonly context?: RegExp;
}

interface Recognition {
  /** Regex sources, matched case-insensitively, `^` and `$` at line ends. */
  readonly patterns: readonly string[];
  readonly hints: readonly string[];
  /** HTTP statuses that count where the text frames them as statuses. */
  readonly statuses?: readonly number[];
}

/** Lower-cases the letters of a regex source, leaving escapes (`\\S`, `\\W`, `\\B`) as they are. */
function foldPattern(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    if (char === '\\') {
      out += char + (source[i + 1] ?? '');
      i++;
    } else {
      out += char.toLowerCase();
    }
  }
  return out;
}

function rule(signature: ToolCallSignature, spec: RuleSpec, recognition: Recognition): SignatureRule {
  const statuses = recognition.statuses ?? [];
  const sources = statuses.length > 0 ? [...recognition.patterns, status(statuses)] : recognition.patterns;
  const folded: SignatureRule = {
    signature,
    harnessSide: false,
    ...spec,
    pattern: new RegExp(foldPattern(sources.join('|')), 'm'),
    hints: [...recognition.hints, ...statuses.map(String)],
    folded: true,
  };
  return spec.context ? { ...folded, context: new RegExp(foldPattern(spec.context.source), 'm') } : folded;
}

const HARNESS = { blame: 'harness_fault', deterministic: false, harnessSide: true } as const;
const AGENT = { blame: 'agent_failure', deterministic: true } as const;

export const TIMEOUT = rule('tool_timeout', HARNESS, {
  patterns: [
    '\\bE(?:SOCKET)?TIMEDOUT\\b',
    '\\btimed out after\\b',
    '\\b(?:request|operation|command|call|connection|tool|read|query|execution|process|invocation)\\s+timed out\\b',
    '\\btimeout of \\d+\\s?ms exceeded\\b',
    '\\bdeadline[ _]exceeded\\b',
    '\\bTimeoutError\\b',
    '\\baborted due to timeout\\b',
    '\\bgateway time-?out\\b',
    '\\b408 Request Time-?out\\b',
  ],
  hints: ['timedout', 'timed out', 'timeout', 'deadline', 'gateway time', '408'],
  statuses: [408, 504],
});

export const TOOL_MISSING = rule(
  'tool_not_found',
  // Deterministic in nature, but the harness's to fix: it never narrows the agent.
  { ...HARNESS, deterministic: true },
  {
    patterns: [
      '\\b(?:unknown|unrecognized|unsupported|invalid) tool\\b',
      '\\bno such tool\\b',
      '\\btool\\s*[\'"`]?[\\w.:/-]{0,100}[\'"`]?\\s+(?:was |is )?not (?:found|available|registered)\\b',
      '\\bmethod not found\\b',
      'MCP error -32601\\b',
    ],
    hints: ['tool', 'method not found', '-32601'],
  },
);

export const PERMISSION = rule(
  'permission_denied',
  { ...HARNESS, deterministic: true },
  {
    patterns: [
      '\\bEACCES\\b',
      '\\bEPERM\\b',
      '\\bEROFS\\b',
      '\\bpermission denied\\b',
      '\\baccess (?:is )?denied\\b',
      '\\boperation not permitted\\b',
      '\\bPermissionError\\b',
      '\\bread-only file system\\b',
      '\\b(?:not |un)authori[sz]ed\\b',
      '\\bauthentication (?:failed|required)\\b',
      '\\binvalid api key\\b',
      '\\b40[13] (?:Forbidden|Unauthorized)\\b',
      '^(?:error:\\s*)?forbidden\\b',
    ],
    hints: [
      'eacces',
      'eperm',
      'erofs',
      'permission',
      'denied',
      'not permitted',
      'read-only',
      'authori',
      'authentication',
      'api key',
      'forbidden',
    ],
    statuses: [401, 403, 407],
  },
);

export const RATE_LIMIT = rule('rate_limited', HARNESS, {
  patterns: [
    '\\btoo many requests\\b',
    '\\brate[ _-]?limit(?:ed|ing|s)?\\b',
    '\\bRESOURCE_EXHAUSTED\\b',
    '\\bquota (?:exceeded|exhausted)\\b',
    '\\bthrottl(?:ed|ing)\\b',
  ],
  hints: ['too many requests', 'rate', 'resource_exhausted', 'quota', 'throttl'],
  statuses: [429],
});

/** A whole-file write failing on a missing parent says nothing about the file itself. */
export const PARENT_MISSING = rule(
  'file_not_found',
  { ...AGENT, onlyThisCall: true },
  { patterns: ['\\bparent directory (?:does not exist|not found)\\b'], hints: ['parent directory'] },
);

export const FILE_MISSING = rule('file_not_found', AGENT, {
  patterns: [
    '\\bENOENT\\b',
    '\\bENOTDIR\\b',
    '\\bno such file\\b',
    '\\bFileNotFoundError\\b',
    '\\bNotADirectoryError\\b',
    '\\bfile not found\\b',
    "\\b(?:file|path|directory|folder)\\b[^\\n]{0,200}?\\b(?:does not|doesn't|did not|do not) exist\\b",
    '\\bcannot find (?:the )?(?:file|path)\\b',
    '\\bcould not find (?:the )?file\\b',
    '\\bpathspec\\b[^\\n]{0,300}?\\bdid not match any files?\\b',
    '\\b404 Not Found\\b',
  ],
  hints: [
    'enoent',
    'enotdir',
    'no such file',
    'filenotfound',
    'notadirectory',
    'file not found',
    'exist',
    'cannot find',
    'could not find',
    'pathspec',
    '404',
  ],
  statuses: [404, 410],
});

export const SYNTAX = rule('syntax_error', AGENT, {
  patterns: [
    '\\bSyntaxError\\b',
    '\\bIndentationError\\b',
    '\\bTabError\\b',
    '\\bJSONDecodeError\\b',
    '\\bYAMLException\\b',
    '\\bparse ?error\\b',
    '\\bunexpected token\\b',
    '\\binvalid JSON\\b',
    '\\bunexpected end of (?:input|file|JSON input)\\b',
    '\\bunexpected EOF\\b',
    '\\bsyntax error\\b',
    '\\berror TS1\\d{3}\\b',
    '\\bunterminated string\\b',
  ],
  hints: [
    'syntax',
    'indentationerror',
    'taberror',
    'jsondecodeerror',
    'yamlexception',
    'parse',
    'unexpected',
    'invalid json',
    'error ts1',
    'unterminated',
  ],
});

const EDIT_WORDS = /\b(?:replace|old_?string|old_str|oldText|edit|occurrences?)\b/i;

/** The text is there more than once: it exists, so "content missing" would be wrong. */
export const EDIT_AMBIGUOUS = rule(
  'edit_failed',
  { ...AGENT, onlyThisCall: true, context: EDIT_WORDS },
  {
    patterns: [
      '\\bfound (?:[2-9]|\\d{2,}) (?:matches|occurrences)\\b',
      '\\bexpected \\d+ occurrences? but found\\b',
      '\\b(?:multiple|several) (?:matches|occurrences)\\b',
      '\\bmatches (?:more than once|multiple times)\\b',
    ],
    hints: ['found', 'multiple', 'several', 'matches'],
  },
);

export const EDIT = rule('edit_failed', AGENT, {
  patterns: [
    '\\bstring to replace not found\\b',
    '\\bold_?string\\b[^\\n]{0,200}?\\bnot found\\b',
    '\\bold_str\\b[^\\n]{0,200}?\\b(?:not found|did not appear|does not appear)\\b',
    '\\bsearch string not found\\b',
    '\\bcould not find (?:an? )?(?:exact )?match(?:es)? for edit\\b',
    '\\bcould not find the string to replace\\b',
    '\\bfailed to (?:apply )?edit\\b',
    '\\bedit(?:ing)? failed\\b',
    '\\bno (?:exact )?match(?:es)? found for (?:the )?(?:old|search|edit)\\b',
    '\\b0 occurrences found\\b',
    '\\bfailed to find expected lines\\b',
    '\\bpatch (?:does not apply|failed)\\b',
    '\\bunable to apply diff\\b',
    '\\bno sufficiently similar match\\b',
    '\\bsearch block\\b[^\\n]{0,100}?\\bdoes not match\\b',
  ],
  hints: [
    'string to replace',
    'old_string',
    'oldstring',
    'old_str',
    'search string',
    'could not find',
    'failed to',
    'edit',
    'no match',
    'no exact match',
    '0 occurrences',
    'patch',
    'apply diff',
    'sufficiently similar',
    'search block',
  ],
});

export const COMMAND = rule(
  'command_failed',
  { blame: 'agent_failure', deterministic: false },
  {
    patterns: [
      '\\bexit(?:ed)?(?: with)? (?:code|status)\\s*[:=]?\\s*[1-9]\\d*\\b',
      '\\breturned non-zero exit status\\b',
      '\\bnon-zero exit\\b',
      '\\bcommand failed\\b',
      '\\bcommand not found\\b',
      '\\bnot recognized as an internal or external command\\b',
      '\\bnpm ERR!',
      '\\bELIFECYCLE\\b',
      '^FAIL(?:ED)?\\s+\\S',
      '\\b\\d+ failed(?:,| in\\b)',
      '\\bTests?:\\s+\\d+ failed\\b',
      '\\bmake: \\*\\*\\*',
    ],
    hints: ['exit', 'non-zero', 'command', 'npm err', 'elifecycle', 'fail', 'make: ***'],
  },
);

/** Reading the file first makes the same edit succeed, and a read changes no target to notice. */
export const STALE_READ = rule(
  'validation_error',
  { blame: 'agent_failure', deterministic: false, onlyThisCall: true },
  {
    patterns: [
      '\\bhas not been read yet\\b',
      '\\b(?:has been|was) (?:unexpectedly )?modified since (?:it was )?(?:last )?read\\b',
    ],
    hints: ['not been read', 'modified since'],
  },
);

export const VALIDATION = rule('validation_error', AGENT, {
  patterns: [
    '\\binput validation error\\b',
    '\\bvalidation (?:error|failed)\\b',
    '\\bValidationError\\b',
    '\\bZodError\\b',
    '\\binvalid (?:argument|parameter|param|input|value|option|type)s?\\b',
    '\\binvalid_type\\b',
    '\\b(?:missing|required) (?:required )?(?:argument|parameter|property|field|option)s?\\b',
    '\\bis a required (?:property|field|argument|parameter)\\b',
    '\\bunknown (?:argument|option|parameter|flag)s?\\b',
    '\\bunexpected (?:argument|keyword argument|property)\\b',
    '\\bIsADirectoryError\\b',
    '\\bEISDIR\\b',
    '\\bis a directory\\b',
    '\\b400 Bad Request\\b',
    '\\b422 Unprocessable\\b',
    '\\bbad request\\b',
    '\\b(?:is|are|was|were) (?:invalid|not valid)\\b',
    '\\bmust be (?:an? )?(?:valid|string|number|integer|boolean|array|object|one of)\\b',
    'MCP error -32602\\b',
  ],
  hints: [
    'validation',
    'zoderror',
    'invalid',
    'missing',
    'required',
    'unknown',
    'unexpected',
    'isadirectoryerror',
    'eisdir',
    'is a directory',
    '400 bad request',
    '422 unprocessable',
    'bad request',
    'not valid',
    'must be',
    '-32602',
  ],
  statuses: [400, 422],
});

export const CONFLICT = rule('conflict', AGENT, {
  patterns: [
    '\\balready exists\\b',
    '\\bEEXIST\\b',
    '\\bFileExistsError\\b',
    '\\bENOTEMPTY\\b',
    '\\bdirectory not empty\\b',
    '\\bmerge conflict',
    '\\bCONFLICT \\(',
    '\\b(?:version|edit|write|update) conflict\\b',
    '^(?:error:\\s*)?conflict\\b',
    '\\b409 Conflict\\b',
  ],
  hints: ['already exists', 'eexist', 'fileexistserror', 'enotempty', 'not empty', 'conflict'],
  statuses: [409, 412],
});

export const EMPTY = rule(
  'empty_result',
  { blame: 'agent_failure', deterministic: false },
  {
    patterns: [
      '\\bno (?:results|matches) (?:were )?found\\b',
      '\\bempty response\\b',
      '\\breturned no results\\b',
      '\\b0 results\\b',
    ],
    hints: ['no results', 'no matches', 'empty response', '0 results'],
  },
);

/** 5xx and network failures: the service or the wire failed, not the request. */
export const SERVICE_DOWN = rule('api_error', HARNESS, {
  patterns: [
    '\\bECONN(?:REFUSED|RESET|ABORTED)\\b',
    '\\bEPIPE\\b',
    '\\bENOTFOUND\\b',
    '\\bEAI_AGAIN\\b',
    '\\bE(?:HOST|NET)UNREACH\\b',
    '\\bUND_ERR_[A-Z_]+\\b',
    '\\bsocket hang up\\b',
    '\\bfetch failed\\b',
    '\\bnetwork (?:error|is unreachable)\\b',
    '\\bconnection (?:refused|reset|closed|aborted)\\b',
    '\\binternal server error\\b',
    '\\bbad gateway\\b',
    '\\bservice (?:temporarily )?unavailable\\b',
    '\\b5\\d\\d (?:Server Error|Not Implemented|HTTP Version|Insufficient Storage|Network Authentication)',
    '\\boverloaded_error\\b',
    '\\b(?:server|service|api|model) (?:is )?overloaded\\b',
    'MCP error -32000\\b',
    '\\bENOSPC\\b',
    '\\bno space left on device\\b',
    '\\bEMFILE\\b',
    '\\btoo many open files\\b',
  ],
  hints: [
    'econn',
    'epipe',
    'enotfound',
    'eai_again',
    'unreach',
    'und_err',
    'hang up',
    'fetch failed',
    'network',
    'connection',
    'internal server error',
    'bad gateway',
    'unavailable',
    'overloaded',
    '-32000',
    'enospc',
    'no space left',
    'emfile',
    'too many open files',
  ],
  statuses: range(500, 599),
});

/** An error the tool reports about itself: could be its bug or the request's, so nobody is blamed. */
export const API_OTHER = rule(
  'api_error',
  { blame: 'unknown', deterministic: false },
  {
    patterns: [
      '\\bAPI error\\b',
      'MCP error -32603\\b',
      '\\binternal error\\b',
      '\\bunexpected server response\\b',
    ],
    hints: ['api error', '-32603', 'internal error', 'unexpected server response'],
  },
);

/** Every built-in text rule, in priority order (specific rules before the general rule of a signature). */
export const TEXT_RULES: readonly SignatureRule[] = [
  TIMEOUT,
  TOOL_MISSING,
  PERMISSION,
  RATE_LIMIT,
  PARENT_MISSING,
  FILE_MISSING,
  SYNTAX,
  EDIT_AMBIGUOUS,
  EDIT,
  COMMAND,
  STALE_READ,
  VALIDATION,
  CONFLICT,
  EMPTY,
  SERVICE_DOWN,
  API_OTHER,
];

/** For failures no rule recognises: a failed command is the command's; anything else is unknown. */
export const UNRECOGNISED_COMMAND = COMMAND;
export const UNRECOGNISED = API_OTHER;

export function ruleForStatus(code: number): SignatureRule | undefined {
  if (code === 429) return RATE_LIMIT;
  if (code === 401 || code === 403 || code === 407) return PERMISSION;
  if (code === 404 || code === 410) return FILE_MISSING;
  if (code === 409 || code === 412) return CONFLICT;
  if (code === 408 || code === 504) return TIMEOUT;
  if (code === 400 || code === 422) return VALIDATION;
  if (code >= 500 && code <= 599) return SERVICE_DOWN;
  return undefined;
}

const RULE_BY_CODE = new Map<string, SignatureRule>([
  ...['ENOENT', 'ENOTDIR'].map((code) => [code, FILE_MISSING] as const),
  ...['EACCES', 'EPERM', 'EROFS'].map((code) => [code, PERMISSION] as const),
  ...[
    'ETIMEDOUT',
    'ESOCKETTIMEDOUT',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
    '-32001',
  ].map((code) => [code, TIMEOUT] as const),
  ...[
    'ECONNREFUSED',
    'ECONNRESET',
    'ECONNABORTED',
    'EPIPE',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'UND_ERR_SOCKET',
    'ENOSPC',
    'EMFILE',
    '-32000',
  ].map((code) => [code, SERVICE_DOWN] as const),
  ...['EEXIST', 'ENOTEMPTY'].map((code) => [code, CONFLICT] as const),
  ['EISDIR', VALIDATION],
  ['-32601', TOOL_MISSING],
  ['-32603', API_OTHER],
]);

/** Node error codes and JSON-RPC codes. `-32602` is left to the text: it means both "bad arguments" and "no such tool". */
export function ruleForErrorCode(code: string): SignatureRule | undefined {
  return RULE_BY_CODE.get(code) ?? RULE_BY_CODE.get(code.toUpperCase());
}

const RULE_BY_EXCEPTION = new Map<string, SignatureRule>([
  ...['TimeoutError', 'AbortError', 'APITimeoutError', 'APIConnectionTimeoutError', 'ReadTimeout'].map(
    (name) => [name, TIMEOUT] as const,
  ),
  ...['SyntaxError', 'JSONDecodeError', 'YAMLException', 'IndentationError'].map(
    (name) => [name, SYNTAX] as const,
  ),
  ...['FileNotFoundError', 'NotADirectoryError', 'NotFoundError'].map(
    (name) => [name, FILE_MISSING] as const,
  ),
  ...['PermissionError', 'PermissionDeniedError', 'AuthenticationError'].map(
    (name) => [name, PERMISSION] as const,
  ),
  ['RateLimitError', RATE_LIMIT],
  ...['FileExistsError', 'ConflictError'].map((name) => [name, CONFLICT] as const),
  ...['ValidationError', 'ZodError', 'IsADirectoryError', 'BadRequestError', 'UnprocessableEntityError'].map(
    (name) => [name, VALIDATION] as const,
  ),
  ...[
    'ConnectionError',
    'ConnectionRefusedError',
    'ConnectionResetError',
    'APIConnectionError',
    'InternalServerError',
  ].map((name) => [name, SERVICE_DOWN] as const),
]);

export function ruleForException(name: string): SignatureRule | undefined {
  return RULE_BY_EXCEPTION.get(name);
}

const RETRY_AFTER = [
  /\bretry[ _-]?after\b["']?\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i,
  /\b(?:retry|try again) in (\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)\b/i,
  /\bretryDelay\b["']?\s*:\s*["']?(\d+(?:\.\d+)?)(ms|s)\b/i,
];

const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/** Seconds to wait, from `Retry-After: 2`, `retry after 500ms`, `Please try again in 20s`, `"retryDelay": "17s"`. */
export function parseRetryAfter(text: string): number | undefined {
  for (const pattern of RETRY_AFTER) {
    const match = pattern.exec(text);
    if (!match) continue;
    const amount = Number(match[1]);
    const unit = (match[2] ?? 's').toLowerCase();
    const seconds =
      unit.startsWith('ms') || unit.startsWith('milli')
        ? amount / 1000
        : unit.startsWith('m')
          ? amount * 60
          : amount;
    if (Number.isFinite(seconds)) return Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
  }
  return undefined;
}
