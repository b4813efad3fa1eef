/**
 * Structured transport data read before any text: HTTP statuses, exit statuses, error codes (errno
 * names of Node and libc, undici's and JSON-RPC's codes) and exception names, each mapped to the
 * failure kind it means. Tables, so that a new code is a new row.
 */
import {
  API_OTHER,
  CANCELLED,
  COMMAND_NOT_FOUND,
  CONFLICT,
  CRASHED_SERVER,
  FILE_MISSING,
  ID_MISSING,
  KILLED,
  LOCKED,
  PERMISSION,
  QUOTA,
  RATE_LIMIT,
  RESOURCES,
  SERVICE_DOWN,
  type SignatureRule,
  SYNTAX,
  TIMEOUT,
  TOOL_MISSING,
  UNAVAILABLE,
  USAGE,
  VALIDATION,
} from './kinds.js';

export function ruleForStatus(code: number): SignatureRule | undefined {
  if (code === 429) return RATE_LIMIT;
  if (code === 402) return QUOTA;
  if (code === 401 || code === 403 || code === 407) return PERMISSION;
  if (code === 404 || code === 410) return FILE_MISSING;
  if (code === 409 || code === 412) return CONFLICT;
  if (code === 423) return LOCKED;
  if (code === 408 || code === 504) return TIMEOUT;
  if (code === 507) return RESOURCES;
  if ([400, 405, 406, 411, 413, 414, 415, 416, 422, 431].includes(code)) return VALIDATION;
  if (code >= 500 && code <= 599) return SERVICE_DOWN;
  return undefined;
}

/**
 * What an exit status says on its own. Only a few do: `timeout(1)` exits 124, a process killed by
 * SIGKILL (the OOM killer, a harness's hard stop) 137, by SIGTERM 143, by SIGINT 130; those were
 * stopped from outside whatever they printed. 126 (found but not executable) and 127 (not found)
 * are read only when the text says nothing more specific.
 */
export function ruleForExitCode(code: number): { rule: SignatureRule; beforeText: boolean } | undefined {
  if (code === 124) return { rule: TIMEOUT, beforeText: true };
  if (code === 137 || code === 143 || code === 130) return { rule: KILLED, beforeText: true };
  if (code === 126) return { rule: PERMISSION, beforeText: false };
  if (code === 127) return { rule: COMMAND_NOT_FOUND, beforeText: false };
  return undefined;
}

/**
 * What the exit status of a program that documents its statuses says when it printed nothing that
 * says more (`curl -s`, `curl -sf`, `wget -q`): the failures its message would have named. curl: 3 a
 * malformed URL; 5 and 6 a proxy or host name that did not resolve, 7 no connection, 52 no reply, 55
 * and 56 a connection that broke: the network's, as curl's own message for them is read; 28 its time
 * limit. wget: 4 a network failure. Statuses that name no cause (curl's 22 for any HTTP error, wget's
 * 8 for any error response) are left to the text.
 */
const RULE_BY_PROGRAM_STATUS: ReadonlyMap<string, ReadonlyMap<number, SignatureRule>> = new Map([
  [
    'curl',
    new Map([
      [3, VALIDATION],
      [5, SERVICE_DOWN],
      [6, SERVICE_DOWN],
      [7, SERVICE_DOWN],
      [28, TIMEOUT],
      [52, SERVICE_DOWN],
      [55, SERVICE_DOWN],
      [56, SERVICE_DOWN],
    ]),
  ],
  ['wget', new Map([[4, SERVICE_DOWN]])],
]);

/** What `program`'s exit status `code` says by itself (see `RULE_BY_PROGRAM_STATUS`). */
export function ruleForProgramExit(program: string | undefined, code: number): SignatureRule | undefined {
  return program === undefined ? undefined : RULE_BY_PROGRAM_STATUS.get(program)?.get(code);
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
    'ENETDOWN',
    'EHOSTDOWN',
    'UND_ERR_SOCKET',
    'UND_ERR_CLOSED',
    'CERT_HAS_EXPIRED',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'ERR_TLS_CERT_ALTNAME_INVALID',
  ].map((code) => [code, SERVICE_DOWN] as const),
  ...['ENOSPC', 'EMFILE', 'ENFILE', 'ENOMEM', 'EDQUOT'].map((code) => [code, RESOURCES] as const),
  ...['EBUSY', 'ETXTBSY', 'SQLITE_BUSY', 'SQLITE_LOCKED'].map((code) => [code, LOCKED] as const),
  ['-32000', UNAVAILABLE],
  ...['EEXIST', 'ENOTEMPTY'].map((code) => [code, CONFLICT] as const),
  ['EISDIR', USAGE],
  ['-32601', TOOL_MISSING],
  ['-32603', API_OTHER],
]);

/**
 * Families of codes, for the codes no row names: a new errno of the connection family, another
 * resolver failure, another undici socket error or certificate complaint is still the wire's.
 */
const CODE_FAMILIES: readonly (readonly [RegExp, SignatureRule])[] = [
  [/^E(?:CONN|NET|HOST)[A-Z]{3,}$/, SERVICE_DOWN],
  [/^EAI_[A-Z]+$/, SERVICE_DOWN],
  [/^UND_ERR_[A-Z_]*TIMEOUT$/, TIMEOUT],
  [/^UND_ERR_[A-Z_]+$/, SERVICE_DOWN],
  [/^ERR_(?:TLS|SSL|SOCKET|HTTP2)_[A-Z_]+$/, SERVICE_DOWN],
  [/^(?:ERR_)?CERT_[A-Z_]+$|_CERT(?:_[A-Z_]+)?$/, SERVICE_DOWN],
];

/** Node error codes and JSON-RPC codes. `-32602` is left to the text: it means both "bad arguments" and "no such tool". */
export function ruleForErrorCode(code: string): SignatureRule | undefined {
  const upper = code.toUpperCase();
  const known = RULE_BY_CODE.get(code) ?? RULE_BY_CODE.get(upper);
  if (known !== undefined) return known;
  for (const [family, rule] of CODE_FAMILIES) if (family.test(upper)) return rule;
  return undefined;
}

/** The exception name the MCP proxy gives a call that crashed its server twice in a row. */
export const SERVER_CRASH_EXCEPTION = 'ServerCrashedByCallError';

const RULE_BY_EXCEPTION = new Map<string, SignatureRule>([
  ...[
    'TimeoutError',
    'APITimeoutError',
    'APIConnectionTimeoutError',
    'ReadTimeout',
    'ConnectTimeout',
    'SocketTimeoutException',
    'HttpTimeoutException',
  ].map((name) => [name, TIMEOUT] as const),
  ...['SyntaxError', 'JSONDecodeError', 'YAMLException', 'IndentationError'].map(
    (name) => [name, SYNTAX] as const,
  ),
  ...['FileNotFoundError', 'NotADirectoryError', 'ModuleNotFoundError'].map(
    (name) => [name, FILE_MISSING] as const,
  ),
  ['NotFoundError', ID_MISSING],
  ...['PermissionError', 'PermissionDeniedError', 'AuthenticationError'].map(
    (name) => [name, PERMISSION] as const,
  ),
  ['RateLimitError', RATE_LIMIT],
  ...['FileExistsError', 'ConflictError'].map((name) => [name, CONFLICT] as const),
  ...['ValidationError', 'ZodError', 'BadRequestError', 'UnprocessableEntityError'].map(
    (name) => [name, VALIDATION] as const,
  ),
  ['IsADirectoryError', USAGE],
  ...[
    'ConnectionError',
    'ConnectionRefusedError',
    'ConnectionResetError',
    'ConnectionAbortedError',
    'BrokenPipeError',
    'APIConnectionError',
    'InternalServerError',
    'UnknownHostException',
    'ConnectException',
    'SSLError',
    'SSLHandshakeException',
    'FetchError',
  ].map((name) => [name, SERVICE_DOWN] as const),
  ['TargetClosedError', UNAVAILABLE],
  ...[
    'AbortError',
    'CancelledError',
    'CanceledError',
    'OperationCanceledException',
    'TaskCanceledException',
  ].map((name) => [name, CANCELLED] as const),
  [SERVER_CRASH_EXCEPTION, CRASHED_SERVER],
]);

export function ruleForException(name: string): SignatureRule | undefined {
  return RULE_BY_EXCEPTION.get(name);
}
