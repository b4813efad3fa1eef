/**
 * The paper's twelve failure signatures of tool calls, read from structured transport data first
 * (HTTP status, error code, exception name, exit status) and from the message text second. Every
 * pattern is anchored: a number counts as an HTTP status only where the text says so (`HTTP 429`,
 * `status 500`, `503 Service Unavailable`, `Conflict (409)`), never as a bare `429` in "4000 tokens"
 * or "line 403".
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

/**
 * `HTTP 429`, `status: 429`, `"statusCode": 429`, `"code": 429`, `error code 429`, `returned error: 429`,
 * `Request failed (429)`.
 */
function status(codes: readonly number[]): string {
  const alternatives = codes.join('|');
  const prefix =
    `\\bHTTP(?:\\/\\d(?:\\.\\d)?)?(?: error)?\\s*[:=]?\\s*|\\bstatus(?:[ _-]?code)?["']?\\s*[:=]?\\s*` +
    `|\\bresponse code\\s*[:=]?\\s*|\\berror(?: code)?\\s*[:=]?\\s*|["'](?:code|status_?code|http_?status)["']\\s*:\\s*`;
  const parenthesised = `\\b(?:error|failed|request|response|status|conflict|forbidden|unavailable|denied)\\W{0,3}\\(`;
  return `(?:${prefix})(?:${alternatives})\\b|${parenthesised}(?:${alternatives})\\)|\\b(?:${alternatives}) (?:client|server) error\\b`;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
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

interface Recognition {
  /** Regex sources, matched on lower-cased text, `^` and `$` at line ends. */
  readonly patterns: readonly string[];
  readonly hints: readonly string[];
  /** HTTP statuses that count where the text frames them as statuses. */
  readonly statuses?: readonly number[];
  /** Match the original text, not its lower-cased form (for upper-case markers like `FAIL`). */
  readonly caseSensitive?: boolean;
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
  const folded = recognition.caseSensitive !== true;
  const source = sources.join('|');
  const built: SignatureRule = {
    signature,
    ...spec,
    pattern: new RegExp(folded ? foldPattern(source) : source, 'm'),
    hints: [...recognition.hints, ...statuses.map(String)],
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

// ---------------------------------------------------------------------------------------------
// Tier 1: verdicts about the agent's own work

/** A test run that failed: the tests are the agent's, whatever their names and messages say. */
export const TESTS_FAILED = rule(
  'command_failed',
  // A failing test may be flaky: one run does not prove the next fails too.
  { ...VERDICT, deterministic: false },
  {
    caseSensitive: true,
    patterns: [
      // vitest, jest, mocha, pytest, unittest, go test, cargo test, node:test, TAP
      '^\\s*Tests?:?\\s+\\d+ failed\\b',
      '^\\s*Test (?:Files|Suites):?\\s+\\d+ failed\\b',
      '^\\s*\\d+ failing\\b',
      '^=+ (?:[^\\n]*\\b)?\\d+ failed\\b',
      '^\\d+ failed(?:, \\d+ \\w+)* in \\d',
      '\\b\\d+ failed, \\d+ passed\\b',
      '\\b\\d+ passed, \\d+ failed\\b',
      '^FAILED(?: \\S+::\\S+| \\((?:failures|errors)=\\d+)',
      '^\\s*FAIL(?:ED)?(?::|\\s)+\\S',
      '^--- FAIL: ',
      '^\\s*(?:×|✕|✗|✖) [^\\n]*(?:\\d+ ?ms|\\.test\\.|\\.spec\\.)',
      '^not ok \\d+ ',
      '^# fail [1-9]',
      '\\btest result: FAILED\\b',
      '^\\s*Expected:? [^\\n]*\\n\\s*Received:? ',
      // test-runner timeouts are failing tests, not harness timeouts
      '\\bExceeded timeout of \\d+ ?ms for a (?:test|hook)\\b',
      '\\b(?:Test|test) timed out (?:in|after) \\d',
      '\\bTimeout of \\d+ ?ms exceeded\\. For async tests\\b',
    ],
    hints: [
      'test',
      'failing',
      'failed',
      'fail',
      'not ok',
      '×',
      '✕',
      '✗',
      '✖',
      'expected',
      'exceeded timeout',
      'timeout of',
    ],
  },
);

/** A compiler's diagnostic of a file: the agent's code does not build. */
export const COMPILE = rule(
  'syntax_error',
  // Like a failing test run: the fix is an edit that may not name the file it changes.
  { ...VERDICT, deterministic: false, quotes: true },
  {
    patterns: [
      '\\berror TS\\d{4}\\b',
      '^\\S+\\.(?:c|cc|cpp|cxx|h|hh|hpp|m|mm|java|kt|kts|scala|swift|go|rs|cs|zig|f90)(?::\\d+){1,2}(?:: error|: fatal error)\\b',
      '^\\S+\\(\\d+,\\d+\\): error\\b',
      '^error\\[E\\d{4}\\]',
      '\\berror CS\\d{4}\\b',
      '^\\S+\\.go:\\d+:\\d+: (?:undefined|cannot use|syntax error|missing|too many|not enough|declared and not used|imported and not used)\\b',
      '\\bcompilation failed\\b',
      '^✖ \\d+ problems? \\(\\d+ errors?',
    ],
    hints: [
      'error ts',
      ': error',
      ': fatal error',
      '): error',
      'error[e',
      'error cs',
      '.go:',
      'compilation failed',
      '✖',
    ],
  },
);

/** The text is there more than once: it exists, so "content missing" would be wrong. */
const EDIT_WORDS = /\b(?:replace|old_?string|old_str|oldText|edit|occurrences?)\b/i;

export const EDIT_AMBIGUOUS = rule(
  'edit_failed',
  { ...VERDICT, onlyThisCall: true, context: EDIT_WORDS },
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

export const EDIT = rule('edit_failed', VERDICT, {
  patterns: [
    '\\bstring to replace not found\\b',
    '\\bold_?string\\b[^\\n]{0,200}?\\bnot found\\b',
    '\\bold_str\\b[^\\n]{0,200}?\\b(?:not found|did not appear|does not appear)\\b',
    '\\bsearch string not found\\b',
    '\\bcould not find (?:an? )?(?:exact )?match(?:es)? for edit\\b',
    '\\bcould not find the string to replace\\b',
    '\\bfailed to (?:apply )?edit\\b',
    '\\bedit(?:ing)? failed\\b',
    '\\bedit application failed\\b',
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

/** An edit that would change nothing: the same call is refused every time. */
export const EDIT_NOOP = rule(
  'edit_failed',
  { ...VERDICT, onlyThisCall: true },
  {
    patterns: [
      '\\bno changes to make\\b',
      '\\b(?:old_?string|old_str|oldtext|search) and (?:new_?string|new_str|newtext|replace)\\b[^\\n]{0,40}\\b(?:are |is )?(?:exactly )?(?:the same|identical)\\b',
      '\\bnew_?string must (?:be different|differ)\\b',
    ],
    hints: ['no changes to make', 'old', 'search', 'new_string', 'newstring'],
  },
);

/** Reading the file first makes the same edit succeed, and a read changes no target to notice. */
export const STALE_READ = rule(
  'validation_error',
  { ...VERDICT, deterministic: false, onlyThisCall: true },
  {
    patterns: [
      '\\bhas not been read yet\\b',
      '\\b(?:has been|was) (?:unexpectedly )?modified since (?:it was )?(?:last )?read\\b',
      '\\bread it (?:again|first) before\\b',
    ],
    hints: ['not been read', 'modified since', 'read it'],
  },
);

/**
 * A sandbox or allow-list refusing the path the agent chose: another path would have worked, so the
 * "access denied" in the same message is not a permission problem of the session.
 */
export const OUTSIDE_SANDBOX = rule(
  'permission_denied',
  { ...VERDICT, onlyThisCall: true },
  {
    patterns: [
      '\\bpath outside (?:of )?(?:the )?allowed\\b',
      '\\boutside (?:of )?(?:the |your |any |current )?(?:allowed|permitted|accessible|workspace|sandbox|project|working director|root director|repository root)',
      '\\bresolves? outside (?:of )?(?:the )?(?:allowed|workspace|sandbox|project|root)\\b',
      '\\b(?:path )?(?:escapes|is outside) (?:of )?(?:the )?(?:workspace|sandbox|project|allowed|root)\\b',
      '\\b(?:not in|not within|not under|not inside) (?:one of )?(?:the |any )?(?:allowed|permitted|workspace|sandbox)(?: (?:director|folder|root|path)\\w*)?\\b',
      '\\bmust be (?:within|inside|under|in) (?:one of )?(?:the )?(?:allowed|workspace|project|sandbox|working)\\b',
      '\\bwas blocked\\. for security\\b',
      '\\bblocked by (?:the )?\\.\\w*ignore\\b',
      '\\b(?:directory|path) (?:is )?not allowed\\b',
    ],
    hints: [
      'outside',
      'escapes',
      'not in',
      'not within',
      'not under',
      'not inside',
      'must be',
      'blocked',
      'not allowed',
    ],
  },
);

/** The arguments did not fit the tool's schema; the message quotes them. */
export const SCHEMA = rule(
  'validation_error',
  { ...VERDICT, quotes: true },
  {
    patterns: [
      'mcp error -32602: (?:input validation error|invalid arguments|invalid params)\\b',
      '\\binput ?validation ?error\\b',
      '\\binvalid arguments for tool\\b',
    ],
    hints: ['-32602', 'validation', 'invalid arguments'],
  },
);

/**
 * A name lookup of something that is visibly no host name (`https`, a whole URL, `user='x'`): the
 * call built a broken URL, and the identical call fails forever.
 */
export const MALFORMED_HOST = rule(
  'validation_error',
  { ...VERDICT, onlyThisCall: true },
  {
    patterns: [
      '\\benotfound (?:https?|ftp|wss?)(?![\\w.-])',
      '["\']?host(?:name)?["\']?\\s*[:=]\\s*["\'](?:https?|ftp|wss?|www)["\']',
      '\\bcould not translate host name "[^"\\n]*[=\'\\s/][^"\\n]*"',
      "\\bcould(?: not|n't) resolve host: (?:https?|ftp)(?::|$)",
    ],
    hints: ['enotfound', 'host', 'translate host name', 'resolve host'],
  },
);

// ---------------------------------------------------------------------------------------------
// Tier 2: the environment failed

export const TIMEOUT = rule('tool_timeout', HARNESS, {
  patterns: [
    '\\bE(?:SOCKET)?TIMEDOUT\\b',
    '\\btimed ?out\\b',
    '\\btime-out\\b',
    '\\btimeout of \\d+\\s?ms exceeded\\b',
    '\\btimeout (?:exceeded|expired|reached|elapsed|occurred|error|awaiting)\\b',
    '\\b(?:request|connect|connection|read|write|socket|gateway|upstream|idle|response|statement|query|operation|execution|handshake|server|client|headers|body|network)[ _-]?timeout(?:error|exception)?\\b',
    '\\btimeout(?:error|exception|expired)\\b',
    '\\bhttptimeoutexception\\b',
    '\\bdeadline[ _]exceeded\\b',
    '\\baborted due to timeout\\b',
    '\\bgateway time-?out\\b',
    '\\b408 Request Time-?out\\b',
    '\\b(?:did not respond|did not properly respond) (?:after|within|in time)\\b',
    '\\btook too long to respond\\b',
    '\\boperation too slow\\b',
    '\\bERR_TIMED_OUT\\b',
    // glibc and common tools in the user's locale
    'zeitüberschreitung',
    'wartezeit für die verbindung ist abgelaufen',
    "délai d'attente",
    'délai d’attente',
    'tiempo de espera',
    'expiró el tiempo',
    'connessione scaduta',
    'tempo scaduto',
    'tempo esgotado',
    'время ожидания',
    '超时',
    'タイムアウト',
  ],
  hints: [
    'timedout',
    'timed out',
    'timedout',
    'timeout',
    'time-out',
    'deadline',
    'gateway time',
    '408',
    'did not respond',
    'timed',
    'did not properly respond',
    'took too long',
    'too slow',
    'err_timed_out',
    'zeitüberschreitung',
    'wartezeit',
    'délai',
    'tiempo de espera',
    'expiró',
    'scaduta',
    'scaduto',
    'esgotado',
    'время ожидания',
    '超时',
    'タイムアウト',
  ],
  statuses: [408, 504],
});

export const RATE_LIMIT = rule('rate_limited', HARNESS, {
  patterns: [
    '\\btoo many requests\\b',
    '\\btoomanyrequests\\b',
    '\\brate[ _-]?limit(?:ed|ing|s|_exceeded|exceeded)?\\b',
    '\\bRESOURCE_EXHAUSTED\\b',
    '\\bresource has been exhausted\\b',
    '\\bthrottl(?:ed|ing|ingexception)\\b',
    '\\bslow ?down\\b',
    '\\brequest ?limit ?exceeded\\b',
    '\\btoo many (?:concurrent )?(?:calls|requests|connections|attempts|clients)\\b',
    '\\brate exceeded\\b',
    '\\bprovisionedthroughputexceeded',
    '\\bexceeded (?:the |your )?(?:\\w+ )?(?:request|call|api|usage) rate\\b',
    '\\bpull rate limit\\b',
  ],
  hints: [
    'too many',
    'toomanyrequests',
    'rate',
    'resource_exhausted',
    'resource has been exhausted',
    'throttl',
    'slow',
    'request limit',
    'requestlimit',
    'provisionedthroughput',
  ],
  statuses: [429],
});

/** A spent quota or an unpaid bill: the environment's to fix, and no retry helps until it is. */
export const QUOTA = rule('rate_limited', HARNESS_STUCK, {
  patterns: [
    '\\binsufficient_quota\\b',
    '\\bquota[ _](?:exceeded|exhausted|has been exceeded|limit)\\b',
    '\\bexceeded (?:your |the )?(?:current |monthly |daily )?quota\\b',
    '\\bcredit balance is too low\\b',
    '\\b(?:insufficient|not enough|out of) (?:credits?|balance|funds|tokens quota)\\b',
    '\\bbilling (?:hard limit|not active|account|details|is not enabled|has been disabled|quota)\\b',
    '\\bpayment required\\b',
    '\\b(?:usage limit|spending limit)\\b',
    '\\bservicequotaexceeded',
    '\\blimitexceededexception\\b',
  ],
  hints: [
    'quota',
    'credit balance',
    'credit',
    'balance',
    'funds',
    'billing',
    'payment required',
    'usage limit',
    'spending limit',
    'limitexceeded',
  ],
  statuses: [402],
});

/** The session's credentials, identity or OS permissions: any call would fail until they change. */
export const PERMISSION = rule('permission_denied', HARNESS_STUCK, {
  patterns: [
    '\\bEACCES\\b',
    '\\bEPERM\\b',
    '\\bEROFS\\b',
    '\\bpermission denied\\b',
    '\\bpermission_denied\\b',
    '\\bpermission_error\\b',
    '\\baccess ?(?:is )?denied(?:exception)?\\b',
    '\\boperation not permitted\\b',
    '\\bPermissionError\\b',
    '\\bread-only (?:file ?system|database)\\b',
    '\\breadonly database\\b',
    '\\b(?:not |un)authori[sz]ed\\b',
    '\\bunauthenticated\\b',
    '\\bauthentication(?:_error| error| failed| failure| required| is required)\\b',
    '\\bauthentication failure\\b',
    '\\b40[13] (?:Forbidden|Unauthorized)\\b',
    '^(?:error:\\s*)?forbidden\\b',
    '\\(forbidden\\)',
    '\\bis forbidden\\b',
    '\\bbad credentials\\b',
    '\\b(?:invalid|incorrect|expired|revoked|missing|wrong) (?:api[ _-]?key|(?:access|auth|bearer|session|security|refresh|oauth|id|personal access) token|credentials?|password|client secret)\\b',
    '\\binvalid[ _]api[ _]key\\b',
    '\\b(?:api[ _-]?key|(?:access|auth|bearer|security|session|refresh|oauth|id|personal access) token|credentials?|password|client secret)s?\\b[^\\n]{0,60}\\b(?:is|are|was|were|has been) (?:invalid|not valid|expired|revoked|incorrect|wrong)',
    '\\b(?:token|credentials?|session|api key|password|certificate|key) (?:has |have )?(?:expired|been revoked)\\b',
    '\\bunable to locate credentials\\b',
    '\\bno (?:valid )?credentials\\b',
    '\\bcould not (?:find|load|read|get) (?:the )?(?:default )?credentials\\b',
    '\\bnot logged in\\b',
    '\\b(?:must|need to|please) (?:be )?log(?:ged)? ?in\\b',
    '\\blogin required\\b',
    '\\b(?:no active|no valid|no current) (?:account|credentials|session)\\b',
    '\\bactive account selected\\b',
    '\\bENEEDAUTH\\b',
    '\\bneed auth\\b',
    '\\bE(?:401|403)\\b',
    '\\bresource not accessible by (?:integration|personal access token)\\b',
    '\\binsufficient[ _](?:permissions?|privileges?|scopes?|access)\\b',
    '\\bmissing[ _]scopes?\\b',
    "\\b(?:does not|doesn't|do not|don't|did not) have (?:the )?(?:required |necessary |sufficient )?(?:permission|access|rights|privilege)",
    '\\b(?:you|user|caller|principal|token|account|role|app|integration|client) (?:is |are )?(?:not allowed|not authorized|not permitted) to\\b',
    "\\b(?:does not|doesn't) allow access\\b",
    '\\bpassword authentication failed\\b',
    '\\bno password supplied\\b',
    '\\bhost key verification failed\\b',
    '\\bcould not read (?:username|password) for\\b',
    '\\bterminal prompts disabled\\b',
    '\\bdubious ownership\\b',
    '\\bmust be (?:superuser|root|privileged|run as root)\\b',
    '\\bare you root\\b',
    '\\brequires? (?:root|superuser|admin(?:istrator)?|elevated) (?:privileges?|permissions?|rights|access)\\b',
    '\\bsudo: (?:a (?:password|terminal) is required|\\d+ incorrect)',
    '\\bare too open\\b',
    '\\bunprotected private key\\b',
    '\\b(?:signaturedoesnotmatch|invalidaccesskeyid|invalidclienttokenid|expiredtoken(?:exception)?|unrecognizedclientexception)\\b',
    '\\b(?:invalid_grant|invalid_client|invalid_auth|not_authed|token_revoked|token_expired|account_inactive)\\b',
    // glibc and common tools in the user's locale
    'keine berechtigung',
    'zugriff verweigert',
    'operation ist nicht erlaubt',
    'nur lesbar',
    'permission non accordée',
    'accès refusé',
    'opération non permise',
    'en lecture seulement',
    'permiso denegado',
    'acceso denegado',
    'operación no permitida',
    'sólo lectura',
    'solo lectura',
    'permesso negato',
    'accesso negato',
    'operazione non permessa',
    'sola lettura',
    'permissão negada',
    'acesso negado',
    'operação não permitida',
    'somente para leitura',
    'отказано в доступе',
    'операция не позволена',
    'только для чтения',
    '权限不够',
    '拒绝访问',
    '不允许的操作',
    '只读文件系统',
    '許可がありません',
    'アクセスが拒否されました',
    '許可されていない操作',
    '読み込み専用ファイルシステム',
  ],
  hints: [
    'eacces',
    'eperm',
    'erofs',
    'permission',
    'denied',
    'not permitted',
    'read-only',
    'readonly',
    'authori',
    'authenticat',
    'forbidden',
    'credential',
    'api key',
    'api_key',
    'apikey',
    'token',
    'password',
    'secret',
    'signature',
    'logged in',
    'log in',
    'login',
    'no active',
    'no valid',
    'no current',
    'active account',
    'eneedauth',
    'need auth',
    'e401',
    'e403',
    'not accessible',
    'insufficient',
    'missing',
    'have',
    'not allowed',
    'allow access',
    'not authorized',
    'host key',
    'could not read',
    'terminal prompts',
    'dubious ownership',
    'must be',
    'are you root',
    'require',
    'invalid',
    'incorrect',
    'expired',
    'revoked',
    'wrong',
    'sudo:',
    'too open',
    'unprotected private key',
    'invalidaccesskey',
    'invalidclienttoken',
    'expiredtoken',
    'unrecognizedclient',
    'invalid_grant',
    'invalid_client',
    'invalid_auth',
    'not_authed',
    'token_',
    'account_inactive',
    'berechtigung',
    'verweigert',
    'nicht erlaubt',
    'nur lesbar',
    'non accordée',
    'refusé',
    'non permise',
    'lecture seulement',
    'denegado',
    'no permitida',
    'lectura',
    'negato',
    'non permessa',
    'sola lettura',
    'negada',
    'acesso negado',
    'não permitida',
    'somente para leitura',
    'отказано',
    'не позволена',
    'только для чтения',
    '权限',
    '拒绝访问',
    '不允许',
    '只读',
    '許可',
    'アクセスが拒否',
    '読み込み専用',
  ],
  statuses: [401, 403, 407],
});

/** Disk, memory, file handles, processes of the host. */
export const RESOURCES = rule('api_error', HARNESS_STUCK, {
  patterns: [
    '\\bENOSPC\\b',
    '\\bno space left on device\\b',
    '\\b(?:database or )?disk (?:is )?full\\b',
    '\\bdisk quota exceeded\\b',
    '\\bEDQUOT\\b',
    '\\bnot enough space on the disk\\b',
    '\\binsufficient (?:disk )?space\\b',
    '\\bENOMEM\\b',
    '\\bcannot allocate memory\\b',
    '\\bout of memory\\b',
    '\\boutofmemoryerror\\b',
    '^(?:\\w+\\.)*MemoryError\\b',
    '\\bheap limit allocation failed\\b',
    '\\bEMFILE\\b',
    '\\btoo many open files\\b',
    '\\bfile size limit exceeded',
    '\\bfork: (?:retry: )?resource temporarily unavailable\\b',
    '\\bcannot fork\\b',
    '\\boom[ -]?kill',
    '\\bkilled signal terminated program\\b',
    '\\binternal compiler error: killed\\b',
    // glibc in the user's locale
    'kein speicherplatz mehr verfügbar',
    'nicht genügend hauptspeicher',
    'zu viele offene dateien',
    'aucun espace disponible',
    'ne peut allouer de la mémoire',
    'trop de fichiers ouverts',
    'no queda espacio',
    'no se pudo asignar memoria',
    'demasiados ficheros abiertos',
    'spazio esaurito',
    'impossibile allocare memoria',
    'troppi file aperti',
    'não há espaço disponível',
    'não foi possível alocar memória',
    'muitos arquivos abertos',
    'не осталось свободного места',
    'невозможно выделить память',
    'слишком много открытых файлов',
    '设备上没有空间',
    '无法分配内存',
    '打开的文件过多',
    'デバイスに空き領域がありません',
    'メモリを確保できません',
    'ファイルを開きすぎです',
  ],
  hints: [
    'enospc',
    'no space left',
    'disk',
    'edquot',
    'not enough space',
    'insufficient',
    'enomem',
    'allocate memory',
    'out of memory',
    'outofmemory',
    'memoryerror',
    'heap limit',
    'emfile',
    'too many open files',
    'file size limit',
    'fork',
    'oom',
    'killed signal',
    'compiler error: killed',
    'speicherplatz',
    'hauptspeicher',
    'offene dateien',
    'espace disponible',
    'allouer',
    'fichiers ouverts',
    'no queda espacio',
    'asignar memoria',
    'ficheros abiertos',
    'spazio esaurito',
    'allocare',
    'file aperti',
    'espaço disponível',
    'alocar',
    'arquivos abertos',
    'свободного места',
    'выделить память',
    'открытых файлов',
    '没有空间',
    '分配内存',
    '文件过多',
    '空き領域',
    'メモリを確保',
    '開きすぎ',
  ],
  statuses: [507],
});

/** A daemon, database, browser or MCP server that is not running, not installed or crashed. */
export const UNAVAILABLE = rule('api_error', HARNESS, {
  patterns: [
    '\\bcannot connect to the docker daemon\\b',
    '\\bis the docker daemon running\\b',
    '\\bdocker daemon is not running\\b',
    '\\b(?:daemon|server|service|database|db|postgres|mysql|redis|browser) (?:is )?(?:not running|not started|not reachable|not available|not responding)\\b',
    '\\bis the server running\\b',
    // libpq in the user's locale
    'läuft der server',
    'le serveur est-il actif',
    'está el servidor en ejecución',
    'il server è in esecuzione',
    'o servidor está executando',
    'сервер действительно работает',
    '服务器是否在',
    'サーバーはローカルで稼働',
    'サーバーはそのホスト上で稼働',
    '\\bserver (?:is )?(?:down|unreachable|not responding)\\b',
    '\\bcould not connect to (?:the )?(?:server|database|daemon|docker)\\b',
    "\\bcan't connect to (?:local |the |remote )?(?:mysql )?server\\b",
    '\\b(?:unable|failed) to connect to (?:the )?(?:server|daemon|docker|database|bus|endpoint|mcp server)\\b',
    '\\bsystem has not been booted with systemd\\b',
    '\\bfailed to connect to bus\\b',
    '\\bconnect ENOENT\\b',
    '\\bno such device or address\\b',
    '\\bspawn \\S+ (?:ENOENT|EACCES)\\b',
    '\\b(?:is|are) not installed\\b',
    '\\bnot installed (?:on|in) (?:this|the|your)\\b',
    '\\bcan be installed with\\b',
    "\\bexecutable doesn't exist at\\b",
    '\\bplease run the following command to download new browsers\\b',
    '\\bmcp server\\b[^\\n]{0,80}\\b(?:not connected|disconnected|closed|failed to start|crashed|not running|exited|not available|unavailable)\\b',
    '^(?:error: )?not connected\\b',
    '\\b(?:client|server|transport|session) (?:is )?(?:closed|disconnected)\\b',
    '\\btransport error\\b',
    'mcp error -32000\\b',
    '\\bexited with (?:code null|signal)\\b',
    '\\bsignal: killed\\b',
    '\\bkilled by signal\\b',
    '\\bSIGKILL\\b',
    '^(?:\\S+: )?(?:line \\d+: )?\\d+ (?:killed|terminated)\\b',
    '\\btarget (?:page, context or browser )?(?:has been )?closed\\b',
    '\\bTargetClosedError\\b',
    '\\bbrowser (?:has been )?(?:closed|disconnected|crashed)\\b',
    '\\bpage crashed\\b',
    ' - no response$',
  ],
  hints: [
    'docker daemon',
    'not running',
    'not started',
    'not reachable',
    'not available',
    'not responding',
    'server running',
    'läuft der server',
    'le serveur est-il',
    'está el servidor',
    'il server è',
    'o servidor está',
    'сервер действительно',
    '服务器是否在',
    'サーバーは',
    'server',
    'connect to',
    'systemd',
    'bus',
    'connect enoent',
    'no such device or address',
    'spawn',
    'not installed',
    'can be installed',
    "executable doesn't exist",
    'download new browsers',
    'mcp server',
    'not connected',
    'closed',
    'disconnected',
    'transport error',
    '-32000',
    'exited with',
    'signal',
    'sigkill',
    'killed',
    'terminated',
    'targetclosederror',
    'crashed',
    'no response',
  ],
});

/** Lock contention and busy resources held by someone else: a later retry works. */
export const LOCKED = rule('conflict', HARNESS, {
  patterns: [
    '\\bdatabase (?:table )?is locked\\b',
    '\\bSQLITE_BUSY\\b',
    '\\.git/[\\w./-]*\\.lock\\b',
    '\\banother git process\\b',
    'ein anderer git-prozess',
    'un autre processus git',
    'otro proceso git',
    'un altro processo git',
    'outro processo git',
    '另外一个 git 进程',
    '\\b(?:could not|unable to|failed to) (?:get|acquire|obtain|lock|create) (?:the )?(?:\\w+ )?(?:frontend )?lock\\b',
    '\\berror acquiring the state lock\\b',
    '\\block (?:is )?(?:already )?held by\\b',
    '\\blocked by another (?:process|user|session|transaction|operation|instance|client)\\b',
    '\\bbeing used by another process\\b',
    '\\banother (?:api )?(?:request|process|operation|transaction|instance)\\b[^\\n]{0,80}\\b(?:currently|in progress|already running|holding)\\b',
    '\\b(?:device or )?resource (?:is )?busy\\b',
    '\\btext file busy\\b',
    '\\bE(?:TXT)?BUSY\\b',
    '\\btarget is busy\\b',
    '\\block (?:wait )?timeout\\b',
    '\\bdeadlock (?:detected|found)\\b',
    '\\bcould not obtain lock\\b',
    '\\bblocking waiting for file lock\\b',
    '\\b(?:update|operation|deployment|another operation) (?:is )?(?:already )?in progress\\b',
    // glibc in the user's locale
    'ressource ist belegt',
    'ressource occupé',
    'fichier texte occupé',
    'recurso ocupado',
    'fichero de texto está ocupado',
    'risorsa occupata',
    'file di testo occupato',
    'recurso está ocupado',
    'área de texto ocupada',
    'ресурс занято',
    'файл занят',
    '设备或资源忙',
    '文本文件忙',
    'ビジー状態です',
  ],
  hints: [
    'locked',
    'sqlite_busy',
    '.lock',
    'another',
    'anderer git',
    'processus git',
    'proceso git',
    'processo git',
    'git 进程',
    'lock',
    'busy',
    'deadlock',
    'in progress',
    'belegt',
    'occupé',
    'ocupad',
    'occupat',
    'занят',
    '忙',
    'ビジー',
  ],
  statuses: [423],
});

/** The harness corrupted its own conversation state; no change to the call fixes it. */
export const HARNESS_STATE = rule('api_error', HARNESS, {
  patterns: [
    '\\btool_use(?:_id)?\\b[^\\n]{0,200}\\btool_result\\b',
    '\\btool_result\\b[^\\n]{0,200}\\btool_use\\b',
  ],
  hints: ['tool_use', 'tool_result'],
});

/**
 * The call was cancelled or aborted from outside (a client's cancellation, an abort signal, the user
 * stopping it): nothing about the call itself is known to fail.
 */
export const CANCELLED = rule('api_error', HARNESS, {
  patterns: [
    '\\brequest (?:was |has been )?cancel+ed\\b',
    '\\b(?:operation|request|call|task|tool call) was (?:aborted|cancel+ed)\\b',
    '\\bcancel+ed by (?:the )?(?:user|client|caller)\\b',
    '\\b(?:AbortError|CancelledError|CanceledError|OperationCanceledException|TaskCanceledException)\\b',
    '\\bMCP error -32800\\b',
  ],
  hints: ['cancel', 'abort', '-32800'],
});

/** Network, DNS, TLS, proxies, 5xx and overload: the wire or the remote service failed. */
export const SERVICE_DOWN = rule('api_error', HARNESS, {
  patterns: [
    // refused, reset, closed
    '\\bECONN(?:REFUSED|RESET|ABORTED)\\b',
    '\\b(?:EPIPE|EHOSTDOWN|ENETDOWN|ENETRESET)\\b',
    '\\bE(?:HOST|NET)UNREACH\\b',
    '\\bUND_ERR_[A-Z_]+\\b',
    '\\bERR_SOCKET_[A-Z_]+\\b',
    '\\bERR_STREAM_PREMATURE_CLOSE\\b',
    '\\bsocket hang up\\b',
    '\\bsocket (?:closed|error)\\b',
    '\\bother side closed\\b',
    '\\bpremature close\\b',
    '\\bfetch failed\\b',
    '\\bfailed to fetch\\b',
    '\\bnetworkerror\\b',
    '\\bnetwork (?:error|failure|is down|is unreachable|unreachable|connection (?:lost|was lost)|request failed)\\b',
    '\\bconnection (?:was )?(?:refused|reset|closed|aborted|lost|dropped|terminated|interrupted|failed|error)\\b',
    '\\bconnection\\w*error\\b',
    '\\bconnectexception\\b',
    '\\bconnect error\\b',
    '\\bfailed to (?:establish|open) (?:a )?(?:new )?connection\\b',
    '\\bmax retries exceeded\\b',
    '\\bremote ?disconnected\\b',
    '\\bremote end closed\\b',
    '\\bempty reply from server\\b',
    '\\bno data received\\b',
    '\\b(?:recv|send) failure\\b',
    '\\bfailed to connect to\\b',
    "\\bcouldn't connect to\\b",
    '\\bcould not connect to\\b',
    '\\bunable to connect\\b',
    '\\bcannot connect to\\b',
    '\\bdial tcp\\b',
    '\\bno route to host\\b',
    '\\bhost (?:is )?unreachable\\b',
    '\\bactively refused\\b',
    '\\bforcibly closed\\b',
    '\\bunexpected end of file from server\\b',
    '\\bstream (?:disconnected|closed|reset|error)\\b',
    '\\berror sending request\\b',
    '\\bbroken pipe\\b',
    '\\bnet::err_(?:connection_\\w+|name_not_resolved|internet_disconnected|network_\\w+|address_unreachable|ssl_\\w+|cert_\\w+|proxy_\\w+|tunnel_connection_failed|empty_response|http2_\\w+|socket_not_connected)\\b',
    // DNS
    '\\bENOTFOUND\\b',
    '\\bEAI_(?:AGAIN|NONAME|NODATA|FAIL)\\b',
    '\\bgetaddrinfo\\b',
    '\\bgaierror\\b',
    "\\bcould(?: not|n't) resolve (?:host|hostname|proxy)\\b",
    '\\bunable to resolve host\\b',
    '\\bname or service not known\\b',
    '\\btemporary failure in name resolution\\b',
    '\\bnodename nor servname\\b',
    '\\bno such host\\b',
    '\\bunknownhost(?:exception)?\\b',
    '\\bunknown host\\b',
    '\\b(?:server|host) not found\\b',
    '\\bnxdomain\\b',
    '\\bnameresolutionerror\\b',
    '\\bname resolution\\b',
    '\\bdns (?:lookup|resolution|error|failure|query|server)\\b',
    '\\bserver misbehaving\\b',
    '\\bERR_NAME_NOT_RESOLVED\\b',
    // TLS
    '\\bssl certificate problem\\b',
    '\\bcertificate (?:verify failed|has expired|is not (?:yet )?valid|not trusted|signed by unknown authority|verification failed|unknown|is not trusted)\\b',
    '\\bcertificate_verify_failed\\b',
    '\\bself[- ]signed certificate\\b',
    '\\bunable to (?:get local issuer|verify the first) certificate\\b',
    '\\bunable_to_(?:get_issuer_cert|verify_leaf_signature)\\w*\\b',
    '\\b(?:depth_zero_self_signed_cert|self_signed_cert_in_chain|cert_has_expired|err_tls_cert_altname_invalid|err_cert_\\w+)\\b',
    '\\bx509: ',
    '\\bsslerror\\b',
    '\\bssl(?:_| )(?:error|handshake|routines)\\b',
    '\\btls(?:_| )(?:handshake|error|alert)\\b',
    '\\btls: ',
    '\\bhandshake (?:failure|failed)\\b',
    '\\bwrong version number\\b',
    '\\bsslhandshakeexception\\b',
    '\\bpkix path building failed\\b',
    '\\bno alternative certificate subject name\\b',
    '\\bhostname mismatch\\b',
    "\\bis not in the cert's altnames\\b",
    '\\bcannot verify [^\\n]{0,80}certificate\\b',
    '\\bcertificate verification failed\\b',
    "\\bcertificate of [^\\n]{1,80} (?:is not trusted|has expired|doesn't have a known issuer)",
    // proxies, gateways, 5xx, overload
    '\\bproxy ?error\\b',
    '\\btunnel connection failed\\b',
    '\\bupstream (?:connect|request|error|timed|prematurely|sent|server)\\b',
    '\\bno healthy upstream\\b',
    '\\binternal server error\\b',
    '\\bbad gateway\\b',
    '\\bservice (?:temporarily )?unavailable\\b',
    '\\b(?:is |currently |temporarily )unavailable\\b',
    '\\b5\\d\\d (?:Server Error|Not Implemented|HTTP Version|Insufficient Storage|Network Authentication)',
    '\\bserver error\\b',
    '\\boverloaded(?:_error)?\\b',
    '\\bunexpected line format\\b',
    '\\b(?:malformed|incomplete|truncated|garbled|unparseable|unparsable) (?:\\w+ )?response\\b',
    '\\binvalid response from (?:the )?(?:server|upstream|api|model|remote)\\b',
    // glibc, wget and Windows in the user's locale
    'verbindungsaufbau abgelehnt',
    'kommunikationspartner zurückgesetzt',
    'keine route zum zielrechner',
    'netzwerk ist nicht erreichbar',
    'name oder der dienst ist nicht bekannt',
    'fehler bei der namensauflösung',
    'auflösen des hostnamens',
    'verbindung verweigerte',
    'kann nicht aufgelöst werden',
    'résoudre l’adresse',
    "résoudre l'adresse",
    'resolver la dirección',
    'risolvere l',
    '解析主机',
    'ホストアドレス',
    'connexion refusée',
    'ré-initialisée par le correspondant',
    "aucun chemin d'accès pour atteindre",
    "le réseau n'est pas accessible",
    'nom ou service inconnu',
    'résolution du nom',
    'expressément refusée',
    'conexión rehusada',
    'reinicializada por la máquina remota',
    'no existe ninguna ruta hasta',
    'la red es inaccesible',
    'nombre o servicio desconocido',
    'resolución del nombre',
    'denegó expresamente',
    'connessione rifiutata',
    'interrotta dal corrispondente',
    "nessun instradamento per l'host",
    'rete non è raggiungibile',
    'nome o servizio sconosciuto',
    'risoluzione del nome',
    'conexão recusada',
    'fechada pela outra ponta',
    'não há rota para o host',
    'rede está fora de alcance',
    'nome ou serviço desconhecido',
    'resolução de nome',
    'в соединении отказано',
    'соединение разорвано',
    'нет маршрута до узла',
    'сеть недоступна',
    'неизвестное имя или служба',
    'разрешении имен',
    '拒绝连接',
    '连接被对方重设',
    '没有到主机的路由',
    '网络不可达',
    '未知的名称或服务',
    '域名解析',
    '积极拒绝',
    '接続を拒否されました',
    '相手からリセットされました',
    'ホストへの経路がありません',
    'ネットワークに届きません',
    '名前またはサービスが不明です',
    '名前解決',
    '拒否されたため',
  ],
  hints: [
    'econn',
    'epipe',
    'ehostdown',
    'enetdown',
    'enetreset',
    'unreach',
    'und_err',
    'err_socket',
    'premature',
    'hang up',
    'socket',
    'other side closed',
    'fetch',
    'networkerror',
    'network',
    'connection',
    'connectexception',
    'connect error',
    'max retries',
    'disconnected',
    'remote end closed',
    'empty reply',
    'no data received',
    'failure',
    'connect to',
    'unable to connect',
    'dial tcp',
    'no route to host',
    'host',
    'actively refused',
    'forcibly closed',
    'end of file from server',
    'stream',
    'error sending request',
    'broken pipe',
    'net::err_',
    'enotfound',
    'eai_',
    'getaddrinfo',
    'gaierror',
    'resolve',
    'name or service',
    'name resolution',
    'nodename',
    'nameresolution',
    'dns',
    'not found',
    'nxdomain',
    'misbehaving',
    'err_name_not_resolved',
    'certificate',
    'unable_to_',
    'self_signed',
    'cert_',
    'x509',
    'ssl',
    'tls',
    'handshake',
    'wrong version number',
    'pkix',
    'hostname mismatch',
    'altnames',
    'proxy',
    'tunnel',
    'upstream',
    'internal server error',
    'bad gateway',
    'unavailable',
    'server error',
    'not implemented',
    'http version',
    'insufficient storage',
    'network authentication',
    'overloaded',
    'line format',
    'response',
    'verbindungsaufbau',
    'zurückgesetzt',
    'zielrechner',
    'nicht erreichbar',
    'nicht bekannt',
    'namensauflösung',
    'hostnamens',
    'verweigerte',
    'aufgelöst',
    '解析主机',
    'résoudre l',
    'resolver la',
    'risolvere',
    'ホストアドレス',
    'refusée',
    'ré-initialisée',
    "chemin d'accès",
    "n'est pas accessible",
    'service inconnu',
    'résolution',
    'rehusada',
    'reinicializada',
    'ninguna ruta',
    'inaccesible',
    'servicio desconocido',
    'resolución',
    'denegó',
    'rifiutata',
    'corrispondente',
    'instradamento',
    'raggiungibile',
    'servizio sconosciuto',
    'risoluzione',
    'recusada',
    'outra ponta',
    'não há rota',
    'fora de alcance',
    'serviço desconhecido',
    'resolução',
    'отказано',
    'разорвано',
    'нет маршрута',
    'недоступна',
    'неизвестное имя',
    'разрешении имен',
    '拒绝连接',
    '重设',
    '路由',
    '不可达',
    '未知的名称',
    '域名解析',
    '积极拒绝',
    '接続を拒否',
    'リセットされました',
    '経路がありません',
    '届きません',
    'サービスが不明',
    '名前解決',
    '拒否されたため',
  ],
  statuses: [...range(500, 503), ...range(505, 506), ...range(508, 599)],
});

// ---------------------------------------------------------------------------------------------
// Tier 3: the call was wrong

/** An unknown tool name: in that session the identical call fails every time. */
export const TOOL_MISSING = rule('tool_not_found', AGENT, {
  patterns: [
    '\\b(?:unknown|unrecognized|unsupported|invalid) tool\\b',
    '\\bno such tool\\b',
    '\\btool\\s*[\'"`]?[\\w.:/-]{0,100}[\'"`]?\\s+(?:was |is )?not (?:found|available|registered)\\b',
    '\\btool\\s+(?:[\'"`][\\w.:/-]{1,100}[\'"`]|[\\w.:-]{1,100})\\s+does not exist\\b',
    '\\bmethod not found\\b',
    'mcp error -32601\\b',
  ],
  hints: ['tool', 'method not found', '-32601'],
});

/** A whole-file write failing on a missing parent says nothing about the file itself. */
export const PARENT_MISSING = rule(
  'file_not_found',
  { ...AGENT, onlyThisCall: true, quotes: true },
  { patterns: ['\\bparent directory (?:does not exist|not found)\\b'], hints: ['parent directory'] },
);

/** The directory the command ran in is not what it expects (no repository, no project file). */
export const WRONG_DIRECTORY = rule(
  'file_not_found',
  { ...AGENT, onlyThisCall: true, quotes: true },
  {
    patterns: [
      '\\bnot a git repository\\b',
      '\\b(?:no makefile|no pom|no dockerfile|no gemfile|no procfile|no rakefile)\\b[^\\n]{0,40}\\b(?:found|in this directory)\\b',
      '\\bno targets specified\\b',
      '\\bcould not find `?[\\w.-]+\\.(?:toml|json|mod|xml|lock|ya?ml|gradle|cfg)`? in\\b',
      '\\bno configuration files\\b',
      '\\bno package\\.json\\b',
      // git and make in the user's locale
      'kein git-repository',
      'un dépôt git',
      'no es un repositorio git',
      'non è un repository git',
      'não é um repositório git',
      'не найден git репозиторий',
      'git 仓库',
      'git リポジトリ',
      'keine ziele angegeben',
      'pas de cible spécifiée',
      'no se especificó ningún objetivo',
      'ターゲットが指定されておらず',
    ],
    hints: [
      'not a git repository',
      'no makefile',
      'no pom',
      'no dockerfile',
      'no gemfile',
      'no procfile',
      'no rakefile',
      'no targets',
      'could not find',
      'no configuration files',
      'no package.json',
      'git-repository',
      'dépôt git',
      'repositorio git',
      'repository git',
      'repositório git',
      'git репозиторий',
      'git 仓库',
      'git リポジトリ',
      'keine ziele',
      'pas de cible',
      'ningún objetivo',
      'ターゲットが指定',
    ],
  },
);

export const FILE_MISSING = rule(
  'file_not_found',
  { ...AGENT, quotes: true },
  {
    patterns: [
      '\\bENOENT\\b',
      '\\bENOTDIR\\b',
      '\\bno such file\\b',
      '\\bnot a directory\\b',
      '\\bFileNotFound(?:Error|Exception)?\\b',
      '\\bNotADirectoryError\\b',
      '\\bfile not found\\b',
      "\\b(?:file|path|directory|folder|module|package|script|manifest|document|image|archive)\\b[^\\n]{0,200}?\\b(?:does not|doesn't|did not|do not) (?:exist|point to)\\b",
      '\\bcannot find (?:the )?(?:file|path)\\b',
      "\\b(?:could not|couldn't|can't|cannot|unable to) (?:find|open|read|stat|access|load) (?:the )?(?:file|input file|requirements file|patch|database file|package\\.json)\\b",
      "\\bcan't open (?:file|patch)\\b",
      '\\bpathspec\\b[^\\n]{0,300}?\\bdid not match any files?\\b',
      '\\bdid not match any file\\(s\\) known to git\\b',
      '\\b404 Not Found\\b',
      '\\bModuleNotFoundError\\b',
      '\\bno module named\\b',
      '\\bcannot find (?:module|package)\\b',
      '\\bERR_MODULE_NOT_FOUND\\b',
      '\\bmodule not found\\b',
      '\\bimport(?:error)?: cannot import name\\b',
      '\\bClassNotFoundException\\b',
      '\\bcould not find or load main class\\b',
      '\\bno such (?:file|directory|module|package|script)\\b',
      '\\bcannot find or open\\b',
      "\\b(?:can't|cannot|could not|couldn't|unable to|failed to) open(?:/read)? (?:local |input )?(?:data|file)\\b",
      'stimmt mit keinen',
      'ne correspond à aucun fichier',
      'no concordó con ningún archivo',
      'non corrisponde ad alcun file',
      '未匹配任何',
      // glibc, coreutils and Windows in the user's locale
      'datei oder verzeichnis nicht gefunden',
      'ist kein verzeichnis',
      'aucun fichier ou dossier de ce type',
      "n'est pas un dossier",
      'no existe el fichero o el directorio',
      'no es un directorio',
      'file o directory non esistente',
      'non è una directory',
      'arquivo ou diretório inexistente',
      'não é um diretório',
      'нет такого файла или каталога',
      'это не каталог',
      '没有那个文件或目录',
      '不是目录',
      'そのようなファイルやディレクトリはありません',
      'ディレクトリではありません',
      'kann die angegebene datei nicht finden',
      'kann den angegebenen pfad nicht finden',
      'ne trouve pas le fichier spécifié',
      "le chemin d'accès spécifié est introuvable",
      'no puede encontrar el archivo especificado',
      'no puede encontrar la ruta especificada',
      '系统找不到指定的',
      '指定されたファイルが見つかりません',
      '指定されたパスが見つかりません',
    ],
    hints: [
      'enoent',
      'enotdir',
      'no such',
      'not a directory',
      'filenotfound',
      'notadirectory',
      'file not found',
      'exist',
      'point to',
      'cannot find',
      'could not',
      "couldn't",
      "can't",
      'cannot',
      'unable to',
      'pathspec',
      'known to git',
      '404',
      'modulenotfounderror',
      'no module named',
      'err_module_not_found',
      'module not found',
      'cannot import name',
      'classnotfound',
      'main class',
      'or open',
      'open',
      'stimmt mit keinen',
      'ne correspond à aucun',
      'no concordó',
      'non corrisponde ad alcun',
      '未匹配任何',
      'nicht gefunden',
      'kein verzeichnis',
      'aucun fichier',
      'pas un dossier',
      'no existe el fichero',
      'no es un directorio',
      'non esistente',
      'non è una directory',
      'inexistente',
      'não é um diretório',
      'нет такого файла',
      'не каталог',
      '没有那个文件',
      '不是目录',
      'そのようなファイル',
      'ディレクトリではありません',
      'nicht finden',
      'ne trouve pas',
      'introuvable',
      'no puede encontrar',
      '找不到指定',
      '見つかりません',
    ],
    statuses: [404, 410],
  },
);

/** An id, name, ref, package or version the call named that is not there. */
export const ID_MISSING = rule(
  'file_not_found',
  { ...AGENT, quotes: true },
  {
    patterns: [
      '(?:\\b|_)not[ _]found\\b',
      '\\bnotfound(?:error|exception)?\\b',
      '\\bno such \\w+',
      '\\bnosuch(?:bucket|key|upload|entity|version|object)\\b',
      '\\b(?:resource_missing|resourcemissing|resource_not_found|resourcenotfound|resource_notfound)\\b',
      '\\bresourcenotfound(?:exception)?\\b',
      "\\b(?:does not|doesn't) exist\\b",
      "\\b(?:could|can|cannot|can't) ?not be found\\b",
      '\\bcould not resolve to an? \\w+',
      '\\bunknown (?:revision|ref|branch|remote|commit|tag|object|id|entity|resource|model|channel|user|project|bucket|key|table|column|database|relation|package|version|target|variable|field|manifest|blob|image|container)\\b',
      '\\bmanifest unknown\\b',
      '\\bnot a valid (?:object name|ref|commit|branch|tag)\\b',
      '\\bbad revision\\b',
      '\\b(?:invalid reference|invalid upstream|invalid object name)\\b',
      "\\bcouldn't find remote ref\\b",
      '\\bdoes not appear to be a git repository\\b',
      '\\bno stash entries\\b',
      '\\bnot_in_[a-z]+\\b',
      '\\bis_archived\\b',
      '\\bbad object\\b',
      '\\bnot something we can merge\\b',
      '\\bis not a working tree\\b',
      '\\bno (?:branch|tag|remote|ref|commit) named\\b',
      '\\bno (?:workspaces?|projects?|packages?|dependencies|targets?|tests?|files?|matches) (?:were )?found\\b',
      '\\b(?:reference to )?undeclared (?:input )?(?:variable|resource|module|identifier)\\b',
      '\\bno matching (?:version|distribution|package|manifest)\\b',
      '\\bcould not find a version that satisfies\\b',
      '\\bE404\\b',
      '\\bETARGET\\b',
      '\\bis not in (?:this|the npm) registry\\b',
      '\\b(?:package|packages)\\(s\\) not found\\b',
      '\\bno (?:dependencies|packages|matches|results) found matching\\b',
      '\\bmissing script\\b',
      '\\bno rule to make target\\b',
      // make in the user's locale
      'keine regel vorhanden',
      'aucune règle pour fabriquer',
      'no hay ninguna regla para construir',
      'nessuna regola per generare',
      'を make するルールがありません',
      '没有规则可制作目标',
      'nicht gefunden',
      'existiert nicht',
      'introuvable',
      "n'existe pas",
      'no existe',
      'no se encontró',
      'non esiste',
      'non trovato',
      'não existe',
      'não encontrado',
      'не найден',
      'не существует',
      '不存在',
      '找不到',
      '見つかりません',
      '存在しません',
    ],
    hints: [
      'not found',
      'not_found',
      'notfound',
      'no such',
      'nosuch',
      'resource_',
      'resource_missing',
      'resource_not_found',
      'resourcenotfound',
      'resourcemissing',
      'exist',
      'resolve to',
      'be found',
      'unknown',
      'not a valid',
      'bad revision',
      'invalid reference',
      'invalid upstream',
      'invalid object',
      'remote ref',
      'git repository',
      'no stash',
      'not_in_',
      'is_archived',
      'bad object',
      'something we can merge',
      'working tree',
      'named',
      'found',
      'undeclared',
      'no matching',
      'satisfies',
      'e404',
      'etarget',
      'registry',
      '(s) not found',
      'found matching',
      'missing script',
      'no rule to make',
      'keine regel',
      'aucune règle',
      'ninguna regla',
      'nessuna regola',
      'するルールがありません',
      '没有规则',
      'nicht gefunden',
      'existiert nicht',
      'introuvable',
      "n'existe pas",
      'no existe',
      'no se encontró',
      'non esiste',
      'non trovato',
      'não existe',
      'não encontrado',
      'не найден',
      'не существует',
      '不存在',
      '找不到',
      '見つかりません',
      '存在しません',
    ],
  },
);

/** SQL the database rejected: unknown table or column, a constraint, bad data. */
export const SQL = rule(
  'validation_error',
  // Not deterministic: a migration or another statement, which names no target, often fixes it.
  { ...AGENT, deterministic: false, quotes: true },
  {
    patterns: [
      '\\bno such (?:table|column|function|index|view|savepoint)\\b',
      '\\b(?:column|relation|table|function|schema|database|type|index|view|constraint|sequence|operator)\\b[^\\n]{0,120}\\b(?:does not exist|already exists)\\b',
      '\\bunknown column\\b',
      '\\bsqlstate\\W{0,3}(?:42|23|22|21|2f|3d|3f|0a|44|2b)[0-9a-z]{3}\\b',
      '^(?:error:|fatal:)\\s+(?:42|23|22|21|2f|3d|3f|0a|44|2b)[0-9a-z]{3}:',
      '(?:\\(42|\\(23|\\(22|\\(21)[0-9a-z]{3}\\)',
      '\\bduplicate key value\\b',
      '\\bviolates (?:not-null|foreign key|check|unique|exclusion) constraint\\b',
      '\\b(?:unique|not null|foreign key|check|primary key) constraint failed\\b',
      '\\bduplicate entry\\b',
      '\\binvalid input (?:syntax|value) for\\b',
      '\\bmust appear in the group by clause\\b',
      '\\b(?:column|table) reference [^\\n]{1,80} is ambiguous\\b',
      '\\b(?:table|relation) [^\\n]{1,80} has no column named\\b',
      '\\bhas \\d+ columns but \\d+ values were supplied\\b',
      '\\b(?:programmingerror|integrityerror|dataerror)\\b',
      '\\bundefined(?:column|table|function)\\b',
      '\\bnumeric value out of range\\b',
      '\\bvalue too long for type\\b',
    ],
    hints: [
      'no such',
      'exist',
      'unknown column',
      'sqlstate',
      'error:',
      'fatal:',
      '(42',
      '(23',
      '(22',
      '(21',
      'duplicate',
      'violates',
      'constraint failed',
      'invalid input',
      'group by',
      'is ambiguous',
      'no column named',
      'values were supplied',
      'programmingerror',
      'integrityerror',
      'dataerror',
      'undefined',
      'out of range',
      'too long for type',
    ],
  },
);

export const SYNTAX = rule(
  'syntax_error',
  { ...AGENT, quotes: true },
  {
    patterns: [
      '\\bSyntaxError\\b',
      '\\bIndentationError\\b',
      '\\bTabError\\b',
      '\\bJSONDecodeError\\b',
      '\\bYAMLException\\b',
      '\\b(?:ScannerError|ParserError|ComposerError|ConstructorError)\\b',
      '\\bparse ?error\\b',
      '\\berror parsing\\b',
      '\\bfailed to parse\\b',
      '\\bunexpected (?:token|character|end of|eof|indent|identifier|string|number|keyword|symbol|input)\\b',
      '\\binvalid (?:JSON|syntax|YAML|TOML|expression|block definition|character)\\b',
      '\\bis not valid JSON\\b',
      '\\bsyntax error\\b',
      '\\berror TS1\\d{3}\\b',
      "\\bunterminated (?:\\w+|`s' command)",
      '\\bmissing separator\\b',
      '\\bunmatched [`\'"()\\[\\]{}]',
      "\\bunexpected (?:EOF|`[^`\\n]{0,20}')",
      '\\bbad config line\\b',
      "\\bcan't find string terminator\\b",
      '\\bmissing [^\\s\\w] near\\b',
      '\\bincomplete input\\b',
      '\\bEJSONPARSE\\b',
      '\\bmapping values are not allowed\\b',
      '\\bcompile error\\b',
      '^error: could not compile\\b',
      '\\bargument or block definition required\\b',
      "\\bexpected (?:an? )?(?:expression|identifier|declaration|statement|'[^'\\n]{1,4}'|`[^`\\n]{1,4}`)\\b",
    ],
    hints: [
      'syntax',
      'indentationerror',
      'taberror',
      'jsondecodeerror',
      'yamlexception',
      'scannererror',
      'parsererror',
      'composererror',
      'constructorerror',
      'parse',
      'parsing',
      'unexpected',
      'invalid',
      'not valid json',
      'error ts1',
      'unterminated',
      'missing separator',
      'unmatched',
      'bad config line',
      'string terminator',
      'near',
      'incomplete input',
      'ejsonparse',
      'mapping values',
      'compile error',
      'could not compile',
      'block definition',
      'expected',
    ],
  },
);

/** Bad arguments, flags and subcommands: the message quotes what the agent passed. */
export const USAGE = rule(
  'validation_error',
  { ...AGENT, quotes: true },
  {
    patterns: [
      '\\b(?:unknown|unrecognized|unrecognised|invalid|illegal|bad|unsupported|unexpected) (?:[\\w-]+ ){0,2}?(?:argument|parameter|param|option|flag|switch|choice|command|subcommand|action|method|operation|function|op|keyword argument|property|compiler option|value|mode|number|date|time interval|literal|id|identifier|field|key|format|type|input|version|url|uri)s?\\b',
      '\\boption [^\\n]{1,40}:? is unknown\\b',
      '\\bomitting directory\\b',
      '\\bno value for required\\b',
      '\\brequired arguments? (?:were |was )?not provided\\b',
      '\\bis not an? (?:\\S+ )?(?:command|option|subcommand)\\b',
      '\\bhas no command named\\b',
      '\\bno such (?:command|option|subcommand)\\b',
      '\\b(?:missing|required) (?:required )?(?:argument|parameter|property|field|option|operand|value|destination|file operand)s?\\b',
      '\\bis a required (?:property|field|argument|parameter)\\b',
      '\\brequires? (?:an? )?(?:argument|value|parameter)\\b',
      '\\bneeds an argument\\b',
      "\\bdoesn't allow an argument\\b",
      '\\bmissing argument to\\b',
      '\\bno input files?\\b',
      '\\b(?:too many|too few|wrong number of) arguments\\b',
      '\\bexpected [^\\n]{0,60}\\b(?:argument|expression|integer|number)\\b',
      '\\bmust specify\\b',
      '\\byou must specify\\b',
      '\\b(?:name|branch name|value) required\\b',
      '\\bdid you mean\\b',
      '\\bthe most similar commands? (?:is|are)\\b',
      '^usage: ',
      '\\bEUSAGE\\b',
      '\\bIsADirectoryError\\b',
      '\\bEISDIR\\b',
      '\\bis a directory\\b',
      '\\bonly one of\\b',
      '\\bmutually exclusive\\b',
      '\\bcannot be (?:used|specified|combined) (?:together|with)\\b',
      '\\bnot both\\b',
      "\\b(?:cannot|can't|can not) (?:specify|use|pass|set|provide|combine) both\\b",
      '\\b(?:is|are|was|were) (?:invalid|not valid)\\b',
      '\\bmust be (?:an? )?(?:valid|string|number|integer|boolean|array|object|one of|positive|non-empty|at least|at most|less|greater)\\b',
      '\\bnot a valid\\b',
      '\\b(?:integer|numeric) expression expected\\b',
      '\\barguments must be process or job ids\\b',
      // coreutils, bash and Windows in the user's locale
      'ist ein verzeichnis',
      'est un dossier',
      'es un directorio',
      'è una directory',
      'é um diretório',
      'это каталог',
      '是一个目录',
      'ディレクトリです',
      'ungültige option',
      'unbekannte option',
      'option non valide',
      'opción inválida',
      'opzione non valida',
      'opção inválida',
      'неверный ключ',
      '无效的选项',
      '無効なオプション',
      'nicht erkannte option',
      'option non reconnue',
      'opción no reconocida',
      'opzione non riconosciuta',
      'opção não reconhecida',
      'нераспознанный параметр',
      '无法识别的选项',
      '認識できないオプション',
      'ist kein git-befehl',
      "n'est pas une commande git",
      'no es un comando de git',
      '不是一个 git 命令',
      '不是 git 命令',
    ],
    hints: [
      'unknown',
      'unrecogni',
      'invalid',
      'illegal',
      'bad',
      'unsupported',
      'unexpected',
      'is not a',
      'has no command',
      'no such',
      'missing',
      'required',
      'requires',
      'require',
      'needs an argument',
      'allow an argument',
      'missing argument',
      'no input file',
      'arguments',
      'expected',
      'must specify',
      'name required',
      'value required',
      'did you mean',
      'most similar',
      'usage:',
      'eusage',
      'isadirectoryerror',
      'eisdir',
      'is a directory',
      'only one of',
      'mutually exclusive',
      'cannot be',
      'not both',
      'both',
      'invalid',
      'not valid',
      'not a valid',
      'must be',
      'expression expected',
      'process or job ids',
      'ist ein verzeichnis',
      'est un dossier',
      'es un directorio',
      'è una directory',
      'é um diretório',
      'это каталог',
      '是一个目录',
      'ディレクトリです',
      'ungültige',
      'unbekannte option',
      'is unknown',
      'omitting directory',
      'no value for required',
      'not provided',
      'non valide',
      'inválida',
      'non valida',
      'неверный ключ',
      '无效的选项',
      '無効なオプション',
      'nicht erkannte',
      'non reconnue',
      'no reconocida',
      'non riconosciuta',
      'não reconhecida',
      'нераспознанный',
      '无法识别',
      '認識できない',
      'kein git-befehl',
      'commande git',
      'comando de git',
      'git 命令',
    ],
  },
);

/** A request the service refused as malformed, whose text does not quote the agent's input. */
export const VALIDATION = rule('validation_error', AGENT, {
  patterns: [
    '\\bvalidation (?:error|failed)\\b',
    '\\bValidationError\\b',
    '\\bZodError\\b',
    '\\binvalid_type\\b',
    '\\binvalid_?request(?:_error|error)?\\b',
    '\\b400 Bad Request\\b',
    '\\b422 Unprocessable\\b',
    '\\bbad request\\b',
    '\\bunprocessable\\b',
    '\\bmethod not allowed\\b',
    '\\b(?:payload|request entity|request|content|input) (?:is )?too large\\b',
    '\\bmaximum context length\\b',
    '\\bprompt is too long\\b',
    '\\bcontext[_ ]length[_ ]exceeded\\b',
    '\\binput is too long\\b',
    '\\bexceeds (?:the )?(?:maximum|max) (?:context|token|input|length)\\b',
    'MCP error -32602\\b',
  ],
  hints: [
    'validation',
    'zoderror',
    'invalid_type',
    'invalid',
    '400 bad request',
    '422 unprocessable',
    'bad request',
    'unprocessable',
    'method not allowed',
    'too large',
    'maximum context length',
    'prompt is too long',
    'context',
    'input is too long',
    'exceeds',
    '-32602',
  ],
  statuses: [400, 405, 406, 411, 413, 414, 415, 416, 422, 431],
});

/** The call conflicts with state the agent can see, or must wait for a step it has not taken. */
export const CONFLICT = rule(
  'conflict',
  { ...AGENT, quotes: true },
  {
    patterns: [
      '\\balready exists\\b',
      '\\bEEXIST\\b',
      '\\bFileExistsError\\b',
      '\\bfile exists\\b',
      '\\bENOTEMPTY\\b',
      '\\bdirectory not empty\\b',
      '\\bis not an empty directory\\b',
      '\\bmerge conflict',
      '\\bCONFLICT \\(',
      '\\b(?:version|edit|write|update) conflict\\b',
      '^(?:error:\\s*)?conflict\\b',
      '\\b409 Conflict\\b',
      '\\bnon-fast-forward\\b',
      '\\bupdates were rejected\\b',
      '\\[rejected\\]',
      '\\bwould be overwritten\\b',
      '\\b(?:unstaged|uncommitted) changes\\b',
      '\\b(?:nothing to commit|nothing added to commit)\\b',
      '\\bnot possible to fast-forward\\b',
      '\\bdivergent branches\\b',
      '\\bis already checked out\\b',
      '\\balready (?:used by|in use by) worktree\\b',
      '\\bERESOLVE\\b',
      '\\bcould not resolve dependency\\b',
      '\\bunable to resolve dependency tree\\b',
      '\\bconflicting peer dependency\\b',
      '\\bversion solving failed\\b',
      '\\bcannot satisfy\\b',
      '\\bResolutionImpossible\\b',
      '\\bdependency conflict\\b',
      '\\bno (?:rebase|merge|cherry-pick|revert|bisect)\\b[^\\n]{0,40}\\bin progress\\b',
      '\\bthere is no merge to abort\\b',
      '\\bautomatic merge failed\\b',
      '\\byou need to resolve your current index\\b',
      '\\binconsistent dependency lock file\\b',
      '\\b(?:backend|plugin|provider|module)s? (?:re)?initiali[sz]ation required\\b',
      '\\bmodule not installed\\b',
      '\\bneeds merge\\b',
      // coreutils in the user's locale
      'die datei existiert bereits',
      'das verzeichnis ist nicht leer',
      'le fichier existe',
      "le dossier n'est pas vide",
      'el fichero ya existe',
      'el directorio no está vacío',
      'file già esistente',
      'directory non vuota',
      'arquivo existe',
      'diretório não vazio',
      'файл существует',
      'каталог не пуст',
      '文件已存在',
      '目录非空',
      'ファイルが存在します',
      'ディレクトリは空ではありません',
    ],
    hints: [
      'already exists',
      'eexist',
      'fileexistserror',
      'file exists',
      'enotempty',
      'not empty',
      'not an empty',
      'conflict',
      'non-fast-forward',
      'rejected',
      'overwritten',
      'unstaged',
      'uncommitted',
      'nothing to commit',
      'nothing added to commit',
      'fast-forward',
      'divergent',
      'checked out',
      'worktree',
      'eresolve',
      'resolve dependency',
      'dependency tree',
      'peer dependency',
      'version solving',
      'cannot satisfy',
      'resolutionimpossible',
      'dependency conflict',
      'in progress',
      'no merge to abort',
      'automatic merge failed',
      'current index',
      'inconsistent dependency lock',
      'initiali',
      'module not installed',
      'needs merge',
      'existiert bereits',
      'nicht leer',
      'fichier existe',
      'pas vide',
      'ya existe',
      'no está vacío',
      'già esistente',
      'non vuota',
      'arquivo existe',
      'não vazio',
      'файл существует',
      'не пуст',
      '已存在',
      '非空',
      'ファイルが存在します',
      '空ではありません',
    ],
    statuses: [409, 412],
  },
);

/** A command name that is not there: most often a typo of the agent's. */
export const COMMAND_NOT_FOUND = rule(
  'command_failed',
  // An install between two tries makes the same command work.
  { ...AGENT, deterministic: false, quotes: true },
  {
    patterns: [
      '\\bcommand not found\\b',
      '\\bnot recognized as (?:an internal or external command|the name of a cmdlet)\\b',
      // bash and cmd.exe in the user's locale
      'befehl nicht gefunden',
      'commande introuvable',
      'orden no encontrada',
      'no se encontró la orden',
      'comando non trovato',
      'comando não encontrado',
      'команда не найдена',
      '未找到命令',
      'コマンドが見つかりません',
      '不是内部或外部命令',
      "n'est pas reconnu en tant que commande interne",
      'no se reconoce como un comando interno',
      'nicht als interner oder externer befehl',
      '内部コマンドまたは外部コマンド',
    ],
    hints: [
      'command not found',
      'not recognized as',
      'befehl nicht gefunden',
      'commande introuvable',
      'orden no encontrada',
      'no se encontró la orden',
      'comando non trovato',
      'comando não encontrado',
      'команда не найдена',
      '未找到命令',
      'コマンドが見つかりません',
      '内部或外部命令',
      'commande interne',
      'comando interno',
      'externer befehl',
      '外部コマンド',
    ],
  },
);

/**
 * An exception raised by code the agent runs, pointing at that code or its input. Not deterministic:
 * the code is often edited by calls that do not name the file, and a rerun is then a new attempt.
 */
export const RUNTIME = rule(
  'command_failed',
  { ...AGENT, deterministic: false, spanQuotes: true },
  {
    patterns: [
      '\\b(?:TypeError|ReferenceError|RangeError|URIError|EvalError|KeyError|IndexError|ValueError|AttributeError|NameError|ZeroDivisionError|UnboundLocalError|NotImplementedError|ArithmeticError|OverflowError|LookupError|Unicode(?:De|En)codeError|StopIteration|RecursionError|NoMethodError|ArgumentError)(?::|$)',
      '\\b(?:NullPointer|ArrayIndexOutOfBounds|StringIndexOutOfBounds|IndexOutOfBounds|ClassCast|IllegalArgument|IllegalState|NumberFormat|Arithmetic|UnsupportedOperation|ConcurrentModification|NoSuchElement)Exception\\b',
      '\\bNoSuch(?:Method|Field)Error\\b',
      '\\bAssertion(?:Failed)?Error\\b',
      '\\bassertion `[^`]*` failed\\b',
      "\\bassertion [`'][^\\n]*' failed",
      '\\bassertion failed\\b',
      '\\bpanicked at\\b',
      '^panic: ',
      '\\bcannot read propert(?:y|ies) of (?:undefined|null)\\b',
      '\\bis not (?:a function|defined|iterable|a constructor|subscriptable|callable)\\b',
      '\\bhas no attribute\\b',
      '\\bunsupported operand type',
      '\\btakes \\d+ positional arguments? but\\b',
      '\\bmissing \\d+ required positional argument',
      '\\bunhashable type\\b',
      '\\bindex out of (?:range|bounds)\\b',
      '\\bdivision by zero\\b',
      '\\bmaximum (?:recursion depth|call stack size) exceeded\\b',
      '\\bcalled `(?:Option|Result)::(?:unwrap|expect)\\(\\)`',
      '\\bundefined method\\b',
    ],
    hints: [
      'error',
      'exception',
      'panic',
      'cannot read propert',
      'is not',
      'has no attribute',
      'unsupported operand',
      'positional argument',
      'unhashable',
      'out of range',
      'out of bounds',
      'division by zero',
      'maximum',
      'called `',
      'undefined method',
      'stopiteration',
      'index out of',
    ],
  },
);

export const EMPTY = rule(
  'empty_result',
  { blame: 'agent_failure', deterministic: false, tier: 'agent' },
  {
    patterns: [
      '\\b(?:no results|no matches) (?:were )?found\\b',
      '\\bempty response\\b',
      '\\breturned no results\\b',
      '\\b0 results\\b',
      '\\bresponse (?:was|is) (?:null|empty)\\b',
    ],
    hints: ['no results', 'no matches', 'empty response', '0 results', 'response was', 'response is'],
  },
);

// ---------------------------------------------------------------------------------------------
// Tier 4: failures that blame nobody

/** A command failed and says no more than that. */
export const COMMAND = rule(
  'command_failed',
  { blame: 'unknown', deterministic: false, tier: 'weak' },
  {
    patterns: [
      '\\bexit(?:ed)?(?: with)? (?:code|status)\\s*[:=]?\\s*[1-9]\\d*\\b',
      '\\breturned non-zero exit status\\b',
      '\\bnon-zero exit\\b',
      '\\bcommand failed\\b',
      '\\bnpm ERR!',
      '^npm error\\b',
      '\\bELIFECYCLE\\b',
      '\\bmake(?:\\[\\d+\\])?: \\*\\*\\*',
    ],
    hints: ['exit', 'non-zero', 'command failed', 'npm err', 'npm error', 'elifecycle', 'make'],
  },
);

/** An error the tool reports about itself: could be its bug or the request's, so nobody is blamed. */
export const API_OTHER = rule(
  'api_error',
  { blame: 'unknown', deterministic: false, tier: 'weak' },
  {
    patterns: [
      '\\bAPI error\\b',
      'MCP error -32603\\b',
      '\\binternal error\\b',
      '\\bunexpected server response\\b',
      '\\bthis is an error with \\S+ itself\\b',
      '\\bexit handler never called\\b',
      '\\bunexpected error: (?:none|null|undefined)\\b',
    ],
    hints: [
      'api error',
      '-32603',
      'internal error',
      'unexpected server response',
      'itself',
      'exit handler',
      'unexpected error',
    ],
  },
);

// ---------------------------------------------------------------------------------------------
// Structured signals

/** Killed from outside (SIGKILL: the OOM killer or a harness's hard stop; SIGTERM, SIGINT). */
export const KILLED = rule('command_failed', HARNESS, { patterns: ['(?!)'], hints: [] });

const TIERS: readonly RuleTier[] = ['verdict', 'harness', 'agent', 'weak'];

/** Every built-in text rule, in priority order: by tier, then as listed. */
export const TEXT_RULES: readonly SignatureRule[] = [
  TESTS_FAILED,
  COMPILE,
  EDIT_AMBIGUOUS,
  EDIT,
  EDIT_NOOP,
  STALE_READ,
  OUTSIDE_SANDBOX,
  SCHEMA,
  MALFORMED_HOST,
  TIMEOUT,
  RATE_LIMIT,
  QUOTA,
  PERMISSION,
  RESOURCES,
  UNAVAILABLE,
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

/** Node error codes and JSON-RPC codes. `-32602` is left to the text: it means both "bad arguments" and "no such tool". */
export function ruleForErrorCode(code: string): SignatureRule | undefined {
  return RULE_BY_CODE.get(code) ?? RULE_BY_CODE.get(code.toUpperCase());
}

/**
 * A call that brought its server down every time it was made (the MCP proxy names it so after two
 * crashes in a row with the call in flight): the call, not the environment, is what fails.
 * Recognised by exception name only: no tool's text can claim it.
 */
export const CRASHED_SERVER = rule(
  'command_failed',
  { ...AGENT, onlyThisCall: true },
  { patterns: ['\\bcrashed the mcp server\\b'], hints: ['crashed the mcp server'] },
);

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
