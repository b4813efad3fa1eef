/**
 * What looks like a credential in a text: bearer tokens, provider keys (GitHub, OpenAI, Anthropic,
 * AWS, Google, Slack, Stripe, Hugging Face, npm), JWTs, private keys, passwords in URLs, in
 * command lines and in `key: value` or `"key": "value"` pairs.
 *
 * Pure and dependency-free, so that the engine itself redacts what it keeps (block reasons,
 * evidence) as well as the journal and the store: no secret reaches a reason, the state file or
 * the journal, whichever layer writes it. Linear time: every repeat is bounded.
 */

import { BUILT_SECRET_HINTS } from './built-secret-hints.js';
import { hashLanes, hashString } from './identity/hashing.js';
import type { Constraint, Evidence } from './types.js';

export const REDACTED = '[REDACTED]';

const SECRET_WORDS = [
  'token',
  'passw(?:or)?d',
  'passphrase',
  'secret',
  'authori[sz]ation',
  'api[-_]?key',
  'access[-_]?key',
  'private[-_]?key',
  'credential',
  'cookie',
  'session',
];
export const SECRET_KEY = new RegExp(SECRET_WORDS.join('|'), 'i');

/** Query parameters that carry credentials: `?access_token=…`, `&sig=…`. */
const SECRET_PARAMS = [
  'access_token',
  'id_token',
  'refresh_token',
  'token',
  'api[-_]?key',
  'key',
  'password',
  'passwd',
  'secret',
  'client_secret',
  'signature',
  'sig',
];
/** Names of environment variables that carry credentials: `GITHUB_TOKEN=…`. */
const SECRET_VARIABLE_WORDS = [
  'token',
  'passw(?:or)?d',
  'secret',
  'api[-_]?key',
  'access[-_]?key',
  'private[-_]?key',
];

/** `max_tokens: 4096` is a count, not a credential. Only numbers under such keys are kept. */
export const TOKEN_COUNT_KEY = /tokens|tokenizer|token[-_]?(?:count|limit|budget|usage)/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

interface SecretPattern {
  readonly pattern: RegExp;
  readonly replacement: string;
  /** Hints (see `HINT_TEXTS`), one of which every match of the pattern contains; all when absent. */
  readonly needs?: readonly Hint[];
}

/**
 * Something every pattern needs, by name: the text a pattern cannot match without. Found in one
 * scan of the text, they spare a text the patterns it cannot match (a `token=` calls for the
 * query-parameter pattern and the `key = value` ones, not for the fifteen others).
 */
type Hint =
  | 'assignment'
  | 'at'
  | 'private-key'
  | 'authorization'
  | 'bearer'
  | 'openai'
  | 'stripe'
  | 'github'
  | 'gitlab'
  | 'slack-token'
  | 'aws'
  | 'google'
  | 'jwt'
  | 'hugging-face'
  | 'npm'
  | 'secret-word'
  | 'mysql'
  | 'slack-webhook'
  | 'credential-command'
  | 'provider';

const SECRET_WORD_HINT: readonly Hint[] = ['secret-word'];

const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    pattern: /-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    replacement: REDACTED,
    needs: ['private-key'],
  },
  // A header written out as text: `Authorization: Basic dXNlcjpwYXNz`.
  {
    pattern: /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^\s"',;]+(?:[ \t]+[^\s"',;]+)?/gi,
    replacement: `$1${REDACTED}`,
    needs: ['authorization'],
  },
  // Real bearer tokens carry digits; the lookahead spares prose such as "Bearer authentication".
  { pattern: /\bBearer\s+(?=[\w.~+/=-]*\d)[\w.~+/=-]{8,}/gi, replacement: REDACTED, needs: ['bearer'] },
  { pattern: /\bsk-[\w-]{16,}/g, replacement: REDACTED, needs: ['openai'] },
  // Stripe secret and restricted keys (live and test), Hugging Face and npm tokens.
  { pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g, replacement: REDACTED, needs: ['stripe'] },
  { pattern: /\bhf_[A-Za-z0-9]{30,}/g, replacement: REDACTED, needs: ['hugging-face'] },
  { pattern: /\bnpm_[A-Za-z0-9]{36,}/g, replacement: REDACTED, needs: ['npm'] },
  { pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, replacement: REDACTED, needs: ['github'] },
  { pattern: /\bgithub_pat_\w{20,}/g, replacement: REDACTED, needs: ['github'] },
  { pattern: /\bglpat-[\w-]{20,}/g, replacement: REDACTED, needs: ['gitlab'] },
  { pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replacement: REDACTED, needs: ['slack-token'] },
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replacement: REDACTED, needs: ['aws'] },
  { pattern: /\bAIza[\w-]{35}/g, replacement: REDACTED, needs: ['google'] },
  // A JWT, from the first `eyJ` of its run of characters whose rest of the run ends at a `.`: that end
  // is looked for once from where the run starts, not again from each `eyJ` in it (`eyJ-eyJ-…`).
  {
    pattern: /(?<![\w-])(?=[\w-]*\.[\w-]{8,}\.[\w-]{8,})([\w-]*?)\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g,
    replacement: `$1${REDACTED}`,
    needs: ['jwt'],
  },
  // The password in `https://user:password@host/`. Bounded repeats keep hostile input linear.
  {
    // `scheme:/user:password@` too: a URL inside a path someone normalised (`//` collapsed).
    pattern: /(\b[a-z][a-z0-9+.-]{0,30}:\/\/?[^\s/:@]{0,256}:)[^\s/@]{1,512}@/gi,
    replacement: `$1${REDACTED}@`,
    needs: ['at'],
  },
  {
    pattern: new RegExp(`([?&#;](?:${SECRET_PARAMS.join('|')})=)[^&#\\s"']+`, 'gi'),
    replacement: `$1${REDACTED}`,
    needs: ['assignment'],
  },
  // Environment-style assignments in command lines and error texts: `GITHUB_TOKEN=…`.
  {
    pattern: new RegExp(
      `\\b(\\w{0,64}(?:${SECRET_VARIABLE_WORDS.join('|')})\\w{0,64}=)(["']?)[^\\s"'&;]+`,
      'gi',
    ),
    replacement: `$1$2${REDACTED}`,
    needs: SECRET_WORD_HINT,
  },
  // The same with spaces or a colon, as config files, YAML, JSON inside a text and logs write it:
  // `password: hunter2`, `"password": "a b"`, `aws_secret_access_key = wJalr…`. A number under a
  // `token` word is a count (`max_tokens: 4096`), not a credential.
  {
    pattern: new RegExp(
      `\\b(\\w{0,64}(?:${SECRET_VARIABLE_WORDS.join('|')})\\w{0,64}["']?[ \\t]*[:=][ \\t]*)` +
        `(?!\\d+(?:[\\s,;}\\]]|$)|\\[REDACTED\\])(?:"[^"\\n]{0,512}"|'[^'\\n]{0,512}'|[^\\s"',;}\\]]+)`,
      'gi',
    ),
    replacement: `$1${REDACTED}`,
    needs: SECRET_WORD_HINT,
  },
  // `mysql -u root -pS3cret db`: the password glued to `-p`.
  {
    pattern:
      /(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]{0,512}?\s-p)(?:"[^"\n]{0,512}"|'[^'\n]{0,512}'|[^\s"']+)/gi,
    replacement: `$1${REDACTED}`,
    needs: ['mysql'],
  },
  // Slack incoming webhooks: the URL itself is the credential.
  {
    pattern: /(\bhttps:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[\w/-]{8,}/gi,
    replacement: `$1${REDACTED}`,
    needs: ['slack-webhook'],
  },
  // More provider keys with a shape of their own: Slack app-level tokens, Stripe webhook secrets,
  // SendGrid, PyPI and DigitalOcean tokens.
  {
    pattern:
      /\b(?:xapp-\d-[A-Za-z0-9-]{20,}|whsec_[A-Za-z0-9+/=]{24,}|SG\.[\w-]{16,32}\.[\w-]{30,64}|pypi-[\w-]{50,}|dop_v1_[a-f0-9]{64})/g,
    replacement: REDACTED,
    needs: ['provider'],
  },
  // An AWS secret access key named as such, however it is separated from its name: a space
  // (`aws configure set aws_secret_access_key wJalr…`), a colon or an equals sign, in any case.
  {
    pattern:
      /(\b\w{0,32}secret_?access_?key["']?(?:[ \t]*[:=][ \t]*|[ \t]+)["']?)(?!\[REDACTED\])[A-Za-z0-9/+=]{16,}/gi,
    replacement: `$1${REDACTED}`,
    needs: ['provider', 'secret-word'],
  },
  // Credential commands, whatever the secret looks like. A value piped into a login or a
  // `--password-stdin` (`echo hunter2 | docker login -u me --password-stdin`).
  {
    pattern:
      /(\b(?:echo|printf)(?:[ \t]+-[neE]{1,3})*(?:[ \t]+(?:"%s(?:\\n)?"|'%s(?:\\n)?'|%s))?[ \t]+)(?:"[^"\n]{1,512}"|'[^'\n]{1,512}'|[^\s|;&'"]{1,512})(?=[ \t]*\|[^\n;&|]{0,256}?(?:--password-stdin|--with-token|--stdin|\blogin\b|\bpasswd\b|\bchpasswd\b))/gi,
    replacement: `$1${REDACTED}`,
    needs: ['credential-command'],
  },
  // …or given in a here-string: `docker login -u me --password-stdin <<< hunter2`.
  {
    pattern:
      /((?:--password-stdin|--with-token|--stdin|\blogin\b)[^\n;&|]{0,256}?<<<[ \t]*)(?:"[^"\n]{1,512}"|'[^'\n]{1,512}'|[^\s|;&]{1,512})/gi,
    replacement: `$1${REDACTED}`,
    needs: ['credential-command'],
  },
  // A registry login's `-p`/`--password` value: `docker login -u me -p hunter2 registry.example`.
  {
    pattern:
      /(\b(?:docker|podman|nerdctl|buildah|skopeo|oras|crane|helm(?:[ \t]+registry)?)[ \t]+login\b[^\n;&|]{0,256}?[ \t](?:-p(?:[ \t]+|=)?|--password(?:[ \t]+|=)))(?!-)(?:"[^"\n]{1,512}"|'[^'\n]{1,512}'|[^\s|;&'"]{1,512})/gi,
    replacement: `$1${REDACTED}`,
    needs: ['credential-command'],
  },
  // A long option named for a secret, its value after a space: `--password hunter2`,
  // `--client-secret …`, `--api-key …`. Counts stay (`--max-tokens 4096`).
  {
    pattern:
      /([ \t]--[\w-]{0,32}(?:passw(?:or)?d|pass|secret|api-?key|access-?key|auth-?token)(?![\w-]*(?:stdin|file))[\w-]{0,16}[ \t]+)(?!-|\d+(?:\s|$)|\[REDACTED\])(?:"[^"\n]{1,512}"|'[^'\n]{1,512}'|[^\s|;&'"]{1,512})/gi,
    replacement: `$1${REDACTED}`,
    needs: ['credential-command', 'secret-word'],
  },
  // `kubectl create secret … --from-literal=name=value`, `aws configure set <secret-ish> value`.
  {
    pattern: /(--from-literal=[^=\s]{1,128}=)(?:"[^"\n]{1,512}"|'[^'\n]{1,512}'|[^\s|;&'"]{1,512})/gi,
    replacement: `$1${REDACTED}`,
    needs: ['credential-command'],
  },
  {
    pattern:
      /(\baws[ \t]+configure[ \t]+set[ \t]+[\w.-]{0,64}(?:secret|token|password|key)[\w.-]{0,64}[ \t]+)(?!\[REDACTED\])[^\s|;&]{1,512}/gi,
    replacement: `$1${REDACTED}`,
    needs: ['credential-command'],
  },
  // `htpasswd -b file user password` and `curl -u user:password`.
  {
    pattern:
      /(\bhtpasswd\b[^\n;&|]{0,256}?[ \t]-[a-zA-Z]{0,4}b[a-zA-Z]{0,4}(?:[ \t]+-[a-zA-Z]{1,4}){0,4}[ \t]+[^\s;&|]{1,256}[ \t]+[^\s;&|]{1,256}[ \t]+)(?:"[^"\n]{1,512}"|'[^'\n]{1,512}'|[^\s|;&'"]{1,512})/gi,
    replacement: `$1${REDACTED}`,
    needs: ['credential-command'],
  },
  {
    pattern: /(\bcurl\b[^\n;&|]{0,512}?[ \t](?:-u|--user)[ \t]*["']?[^\s:"']{1,128}:)[^\s"'@]{1,512}/gi,
    replacement: `$1${REDACTED}`,
    needs: ['credential-command'],
  },
];

const HINT_BITS: ReadonlyMap<Hint, number> = new Map(
  (
    [
      'assignment',
      'at',
      'private-key',
      'authorization',
      'bearer',
      'openai',
      'stripe',
      'github',
      'gitlab',
      'slack-token',
      'aws',
      'google',
      'jwt',
      'hugging-face',
      'npm',
      'secret-word',
      'mysql',
      'slack-webhook',
      'credential-command',
      'provider',
    ] as const
  ).map((hint, index) => [hint, 1 << index] as const),
);

function bit(hint: Hint): number {
  return HINT_BITS.get(hint) as number;
}

/** Every bit: a pattern that names no hint runs on every text. */
const ALL_HINTS = -1;

/**
 * The hints as the literal texts they are found by, in lower case and compared without regard to
 * the case of ASCII letters, as a case-insensitive expression compares them. Optional characters
 * are written out: `api-key`, `api_key`, `apikey`.
 */
const HINT_TEXTS: readonly (readonly [string, Hint])[] = [
  // A credential in a query string ends its parameter's name, and every such name ends in one of
  // these: code full of `=` (`const retries = 3;`) runs that pattern only where one is.
  ...['token=', 'key=', 'password=', 'passwd=', 'secret=', 'signature=', 'sig='].map(
    (text) => [text, 'assignment'] as const,
  ),
  ['@', 'at'],
  ['-----begin', 'private-key'],
  ['authorization', 'authorization'],
  ['authorisation', 'authorization'],
  ['bearer', 'bearer'],
  ['sk-', 'openai'],
  ['sk_', 'stripe'],
  ['rk_', 'stripe'],
  ...[...'pousr'].map((letter) => [`gh${letter}_`, 'github'] as const),
  ['github_pat_', 'github'],
  ['glpat-', 'gitlab'],
  ['xox', 'slack-token'],
  ['akia', 'aws'],
  ['asia', 'aws'],
  ['aiza', 'google'],
  ['eyj', 'jwt'],
  ['hf_', 'hugging-face'],
  ['npm_', 'npm'],
  ['passw', 'secret-word'],
  ['secret', 'secret-word'],
  ['token', 'secret-word'],
  ...['api', 'access', 'private'].flatMap((word) =>
    ['-', '_', ''].map((joint) => [`${word}${joint}key`, 'secret-word'] as const),
  ),
  ['mysql', 'mysql'],
  ['mariadb', 'mysql'],
  ['hooks.slack', 'slack-webhook'],
  ...[
    'login',
    'stdin',
    'with-token',
    'htpasswd',
    'from-literal',
    'configure',
    'curl',
    '--pass',
    '--secret',
    '--api',
  ].map((text) => [text, 'credential-command'] as const),
  ...['xapp-', 'whsec_', 'sg.', 'pypi-', 'dop_v1_', 'sk_live_', 'secretaccesskey'].map(
    (text) => [text, 'provider'] as const,
  ),
];

/** The cases of an ASCII letter, or the character itself. */
function casesOf(code: number): number[] {
  return code >= 97 && code <= 122 ? [code, code - 32] : [code];
}

/** A hint of three characters or more, found through two pairs of characters that follow each other in it. */
interface PairHint {
  readonly text: string;
  /** Where the pair stands in the hint: the first pair's index in it, or the next one. */
  readonly offset: number;
  readonly bits: number;
}

/**
 * Pairs of letters common in code and prose, the most common first. A hint is looked for through
 * the two rarest pairs that follow each other in it, so that a text without credentials (code full
 * of `const`, `context`, `key`) seldom hands the scan a pair to compare further. Which pairs are
 * chosen changes how fast the scan is, never what it finds.
 */
const COMMON_PAIRS = (
  'co on ns st nt te ex xt ke ey va al lu ue re et rn ur th he in er an at en nd ti es or of ed is it ar ' +
  'to ng se ha as ou io le ve me de hi ri ro ic ne ea ra ce li ch ll be ma si om ca el ta la di fo ho pe ' +
  'ec pr no ct us ac ot il tr ly nc ut ss so rs un lo wa ge ie wh ee wi em ad ol rt po we na ul ni ts mo ' +
  'ow pa im mi ai sh ir su id os iv ia am fi ci vi pl ig tu ev ld ry mp fe bl ab ty op ok fa au ef up'
).split(' ');

/** How often a pair of hint characters stands in a text without credentials, as a rough weight. */
function pairWeight(pair: string): number {
  const rank = COMMON_PAIRS.indexOf(pair);
  if (rank >= 0) return 1_000 - rank;
  return /^[a-z]{2}$/.test(pair) ? 10 : 1;
}

/** Where in `hint` the two pairs that follow each other are rarest: the first one's index. */
function rarestPairs(hint: string): number {
  let best = 0;
  let bestWeight = Number.POSITIVE_INFINITY;
  for (let first = 0; first + 2 < hint.length; first++) {
    const weight = pairWeight(hint.slice(first, first + 2)) + pairWeight(hint.slice(first + 1, first + 3));
    if (weight < bestWeight) {
      best = first;
      bestWeight = weight;
    }
  }
  return best;
}

/**
 * The tables the scan of hints reads (see `hintsIn`). A build works them out once and ships them
 * (see `./built-secret-hints.ts`): worked out here, they cost a fresh process some milliseconds of
 * its start, and its first failure reads them.
 */
interface HintTables {
  /**
   * The hint texts of three characters or more by two pairs of their characters that follow each
   * other (the rarest two, see `rarestPairs`), as one number: `first * 128 + second`, in every case.
   * Each place such a hint can stand in a text puts one of these two pairs at an even index: the scan
   * looks pairs up two characters at a time, at even indexes only, and compares the few that begin
   * or continue a hint further. Filled at every index, so that it stays a flat array (one written
   * here and there would be a dictionary).
   */
  readonly byPair: PairHint[][];
  /** The bits of the hints each pair may stand in, by pair: 0 for a pair in no hint. */
  readonly pairBits: Int32Array;
  /**
   * The characters that stand before and after each pair in the hints it stands in, as 128 bits
   * each (four words a pair, a character's bit in the word of its code's upper two bits), in every
   * case; every character when a hint begins or ends with the pair. Code is full of pairs such as
   * `ke` and `ok` (`lookup`, `'key-1'`), which stand in hints (`token`, `api_key`): the characters
   * around one rule out most of its hints before any is compared in full.
   */
  readonly before: Int32Array;
  readonly after: Int32Array;
}

const NO_PAIR_HINTS: PairHint[] = [];

function emptyHintTables(): HintTables {
  return {
    byPair: new Array<PairHint[]>(128 * 128).fill(NO_PAIR_HINTS),
    pairBits: new Int32Array(128 * 128),
    before: new Int32Array(128 * 128 * 4),
    after: new Int32Array(128 * 128 * 4),
  };
}

function allowAround(table: Int32Array, pair: number, hint: string, at: number): void {
  if (at < 0 || at >= hint.length) {
    table.fill(-1, pair * 4, pair * 4 + 4);
    return;
  }
  for (const code of casesOf(hint.charCodeAt(at))) {
    const word = pair * 4 + (code >> 5);
    table[word] = (table[word] as number) | (1 << (code & 31));
  }
}

function addPairHint(tables: HintTables, pair: number, hint: PairHint): void {
  tables.pairBits[pair] = (tables.pairBits[pair] as number) | hint.bits;
  tables.byPair[pair] = [...(tables.byPair[pair] as PairHint[]), hint];
  allowAround(tables.before, pair, hint.text, hint.offset - 1);
  allowAround(tables.after, pair, hint.text, hint.offset + 2);
}

/** The tables worked out from `HINT_TEXTS`. */
function hintTablesOfTexts(): HintTables {
  const tables = emptyHintTables();
  for (const [text, hint] of HINT_TEXTS) {
    if (text.length < 3) continue;
    const first = rarestPairs(text);
    for (let offset = first; offset <= first + 1; offset++) {
      for (const one of casesOf(text.charCodeAt(offset))) {
        for (const two of casesOf(text.charCodeAt(offset + 1))) {
          addPairHint(tables, one * 128 + two, { text, offset, bits: bit(hint) });
        }
      }
    }
  }
  return tables;
}

/** The hint texts the tables are made of, as one text: a build's tables are read only for these. */
function hintTextsKey(): string {
  return HINT_TEXTS.map((entry) => `${entry[0]}\u0001${entry[1]}`).join('\u0000');
}

/** Numbers a pair takes before its hints: the pair, its bits, four words before it and four after, its count of hints. */
const PAIR_HEAD = 11;

/**
 * The tables as numbers, pair after pair: for each pair some hint stands in, `PAIR_HEAD` numbers
 * (see there), then each of its hints as its index in `HINT_TEXTS` and its offset.
 */
function encodeHintTables(tables: HintTables): number[] {
  const numbers: number[] = [];
  for (let pair = 0; pair < 128 * 128; pair++) {
    const hints = tables.byPair[pair] as PairHint[];
    if (hints.length === 0) continue;
    numbers.push(pair, tables.pairBits[pair] as number);
    for (const table of [tables.before, tables.after])
      for (let word = 0; word < 4; word++) numbers.push(table[pair * 4 + word] as number);
    numbers.push(hints.length);
    for (const hint of hints) {
      const index = HINT_TEXTS.findIndex(([text, named]) => text === hint.text && bit(named) === hint.bits);
      numbers.push(index, hint.offset);
    }
  }
  return numbers;
}

/** The tables `encodeHintTables` wrote as `numbers`. */
function decodeHintTables(numbers: readonly number[]): HintTables {
  const tables = emptyHintTables();
  // Read by index rather than taken apart: a process runs this once, before V8 compiles it, and
  // taking an array apart there walks an iterator.
  const texts = HINT_TEXTS.map((entry) => entry[0]);
  const bits = HINT_TEXTS.map((entry) => bit(entry[1]));
  let at = 0;
  while (at < numbers.length) {
    const pair = numbers[at] as number;
    tables.pairBits[pair] = numbers[at + 1] as number;
    for (let word = 0; word < 4; word++) {
      tables.before[pair * 4 + word] = numbers[at + 2 + word] as number;
      tables.after[pair * 4 + word] = numbers[at + 6 + word] as number;
    }
    const count = numbers[at + 10] as number;
    at += PAIR_HEAD;
    const hints: PairHint[] = [];
    for (let index = 0; index < count; index++, at += 2) {
      const text = numbers[at] as number;
      hints.push({
        text: texts[text] as string,
        offset: numbers[at + 1] as number,
        bits: bits[text] as number,
      });
    }
    tables.byPair[pair] = hints;
  }
  return tables;
}

/** The build's tables, when it holds some for these hint texts; otherwise worked out here. */
const HINT_TABLES_FROM_BUILD =
  BUILT_SECRET_HINTS !== undefined && BUILT_SECRET_HINTS.texts === hintTextsKey();
const HINT_TABLES =
  BUILT_SECRET_HINTS !== undefined && HINT_TABLES_FROM_BUILD
    ? decodeHintTables(BUILT_SECRET_HINTS.table)
    : hintTablesOfTexts();
const HINTS_BY_PAIR = HINT_TABLES.byPair;
const PAIR_HINT_BITS = HINT_TABLES.pairBits;
const BEFORE_PAIR = HINT_TABLES.before;
const AFTER_PAIR = HINT_TABLES.after;

/** For the build, which ships the tables, and for the tests, which compare the two ways of making them. */
export const HINT_TABLE_MAKING = {
  /** The tables as the build ships them. */
  shipped: (): { readonly texts: string; readonly table: readonly number[] } => ({
    texts: hintTextsKey(),
    table: encodeHintTables(hintTablesOfTexts()),
  }),
  ofTexts: hintTablesOfTexts,
  decode: decodeHintTables,
  /** Whether this module read its tables from the build. */
  fromBuild: HINT_TABLES_FROM_BUILD,
} as const;

/**
 * The hints shorter than three characters (`@`), which a pair at an even index may miss: each found
 * as a text when it holds no letter (`@` has no case), as an expression that ignores the case of
 * ASCII letters otherwise, as the pairs do. A search for a text costs a fraction of an expression's.
 */
interface ShortHint {
  readonly text: string;
  /** Undefined when the hint holds no ASCII letter. */
  readonly pattern: RegExp | undefined;
  readonly bits: number;
}
const SHORT_HINTS: ShortHint[] = [];
for (const [text, hint] of HINT_TEXTS) {
  if (text.length >= 3) continue;
  const pattern = /[a-z]/i.test(text)
    ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i')
    : undefined;
  SHORT_HINTS.push({ text, pattern, bits: bit(hint) });
}

/** Whether `table` lets the character at `at` of `text` stand beside `pair` (any past either end). */
function allowedBeside(table: Int32Array, pair: number, text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return true;
  // Past ASCII, as in `hintsIn`: a character can only be let through by its low seven bits.
  const code = text.charCodeAt(at) & 127;
  return ((table[(pair << 2) | (code >> 5)] as number) & (1 << (code & 31))) !== 0;
}

/** Whether `text` holds `hint` (lower case) at `at`, its letters in either case. */
function holdsAt(text: string, at: number, hint: string): boolean {
  if (at < 0 || at + hint.length > text.length) return false;
  for (let index = 0; index < hint.length; index++) {
    const wanted = hint.charCodeAt(index);
    const code = text.charCodeAt(at + index);
    if (code !== wanted && !(wanted >= 97 && wanted <= 122 && code === wanted - 32)) return false;
  }
  return true;
}

/**
 * The hints `text` holds, as bits; 0 when it holds none. One pass over the pairs of characters at even
 * indexes (see `HINTS_BY_PAIR`): half the look-ups of a pass over every pair, and only the pairs that
 * belong to a hint not found yet are compared further (code is full of pairs such as `ke` and `ok`,
 * which belong to hints: once their hints are found, or when they hold none not yet found, a look-up
 * in `PAIR_HINT_BITS` passes them by).
 */
function hintsIn(text: string): number {
  let found = 0;
  for (const short of SHORT_HINTS) {
    if (short.pattern === undefined ? text.includes(short.text) : short.pattern.test(text))
      found |= short.bits;
  }
  const last = text.length - 1;
  for (let at = 0; at < last; at += 2) {
    // A character past ASCII stands for the ASCII one of its low seven bits: it can only bring a
    // pair to be compared in full (`holdsAt`), never hide one, and it spares a test for each pair.
    const pair = ((text.charCodeAt(at) & 127) << 7) | (text.charCodeAt(at + 1) & 127);
    const bits = PAIR_HINT_BITS[pair] as number;
    if (
      bits !== 0 &&
      (bits & ~found) !== 0 &&
      allowedBeside(AFTER_PAIR, pair, text, at + 2) &&
      allowedBeside(BEFORE_PAIR, pair, text, at - 1)
    )
      found = hintsAtPair(text, at, pair, found);
  }
  return found;
}

/**
 * The hints `text` holds, as bits, by the scan `redactText` uses (`hintsIn`), and by looking for
 * every hint's text in turn: what the scan, whichever pairs it passes by, must always agree with.
 */
export function hintBits(text: string): number {
  return hintsIn(text);
}

export function hintBitsExhaustively(text: string): number {
  const lower = text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  let found = 0;
  for (const [hintText, hint] of HINT_TEXTS) if (lower.includes(hintText)) found |= bit(hint);
  return found;
}

/** `found` with the bits of the hints that `pair`, at `at`, stands in in `text`. */
function hintsAtPair(text: string, at: number, pair: number, found: number): number {
  let bits = found;
  const hints = HINTS_BY_PAIR[pair] as PairHint[];
  for (let index = 0; index < hints.length; index++) {
    const hint = hints[index] as PairHint;
    if ((bits & hint.bits) === 0 && holdsAt(text, at - hint.offset, hint.text)) bits |= hint.bits;
  }
  return bits;
}

/** The bits of the hints a pattern needs, one of which must be in the text for it to match. */
const PATTERN_NEEDS: readonly number[] = SECRET_PATTERNS.map((secret) =>
  secret.needs === undefined ? ALL_HINTS : secret.needs.reduce((bits, hint) => bits | bit(hint), 0),
);

/**
 * Replaces what looks like a credential inside a text, keeping the rest readable. Only the patterns
 * whose hints the text holds run: a replacement brings in no hint the text did not hold (`[`, `]`
 * and the letters of REDACTED make none), so a pattern whose hint is not in the text as given
 * cannot match after an earlier pattern ran either.
 */
export function redactText(text: string): string {
  if (text.length < 8) return text;
  if (text.length < LONG_REDACTION) return recentShortRedaction(text) ?? redactShort(text, hintsIn(text));
  if (text.length <= MAX_REMEMBERED_LONG) return redactLong(text);
  const hints = hintsIn(text);
  return hints === 0 ? text : redactHinted(text, hints);
}

/**
 * Short texts redacted lately, and what they became, whether or not they hold a hint. A failure hands
 * the same short texts to redaction several times (a call's path for its arguments, for its
 * description and for its strategy), and a check the same ones (a suggestion, the last error two
 * violations quote): one comparison with a text kept here instead of a scan. Few, each replaced in
 * turn, so that a text kept here that is a view of a long output keeps it alive only briefly.
 */
const REMEMBERED_SHORT = 32;
const recentShortTexts: (string | undefined)[] = new Array<string | undefined>(REMEMBERED_SHORT).fill(
  undefined,
);
const recentShortClean: string[] = new Array<string>(REMEMBERED_SHORT).fill('');
let nextShort = 0;

function recentShortRedaction(text: string): string | undefined {
  for (let index = 0; index < REMEMBERED_SHORT; index++) {
    if (recentShortTexts[index] === text) return recentShortClean[index];
  }
  return undefined;
}

/** `redactText` of a short text that holds `hints`, kept among the recent ones. */
function redactShort(text: string, hints: number): string {
  const clean = hints === 0 ? text : redactHinted(text, hints);
  recentShortTexts[nextShort] = text;
  recentShortClean[nextShort] = clean;
  nextShort = (nextShort + 1) % REMEMBERED_SHORT;
  return clean;
}

/**
 * Long texts redacted lately, and what they became. A call's long argument (an edit's kilobytes of
 * code) is redacted where its credentials are looked for and again where the call is described, at
 * its check and again at its outcome: comparing it with a text kept here costs a fraction of a scan.
 */
const LONG_REDACTION = 1024;
const MAX_REMEMBERED_LONG = 64 * 1024;
const REMEMBERED_LONG = 4;
const recentLong: { readonly text: string; readonly clean: string }[] = [];
let nextLong = 0;

function redactLong(text: string): string {
  for (let index = 0; index < recentLong.length; index++) {
    const entry = recentLong[index] as { readonly text: string; readonly clean: string };
    if (entry.text === text) return entry.clean;
  }
  const hints = hintsIn(text);
  const clean = hints === 0 ? text : redactHinted(text, hints);
  recentLong[nextLong] = { text, clean };
  nextLong = (nextLong + 1) % REMEMBERED_LONG;
  return clean;
}

/** `redactText` of a text that holds `hints` (not 0). */
function redactHinted(text: string, hints: number): string {
  let out = text;
  for (let index = 0; index < SECRET_PATTERNS.length; index++) {
    if (((PATTERN_NEEDS[index] as number) & hints) === 0) continue;
    const { pattern, replacement } = SECRET_PATTERNS[index] as SecretPattern;
    pattern.lastIndex = 0;
    out = out.replace(pattern, replacement);
  }
  return out;
}

/**
 * Texts redacted lately, and what they became. A learned constraint's evidence (its last error, the
 * calls that failed, its target) is redacted again each time the constraint is shown (every check it
 * decides), and remembering it makes that a lookup. Only short texts that hold a hint are kept (the
 * rest need no pattern run, and one scan tells), and not many: a few hundred kilobytes at most.
 */
const REMEMBERED_REDACTIONS = 256;
const REMEMBERED_REDACTION_LENGTH = 1024;
let recentRedactions = new Map<string, string>();
/**
 * Hashes of texts redacted once, not yet remembered. A text is remembered on its second sighting:
 * in a run of failures each check shows a last error it has never shown, and copying every one of
 * them (see below) would cost more than redacting it.
 */
let seenOnce = new Set<number>();

/** `redactText`, remembering its answer for texts shown again and again. */
export function redactRemembered(text: string): string {
  if (text.length < 8 || text.length > REMEMBERED_REDACTION_LENGTH) return redactText(text);
  const known = recentRedactions.get(text) ?? recentShortRedaction(text);
  if (known !== undefined) return known;
  // A text without hints is its own redaction, found in one scan: remembering it would cost more.
  const hints = hintsIn(text);
  const clean = redactShort(text, hints);
  if (hints === 0) return text;
  const hash = hashLanes(text).low;
  if (!seenOnce.has(hash)) {
    if (seenOnce.size >= REMEMBERED_REDACTIONS * 4) seenOnce = new Set();
    seenOnce.add(hash);
    return clean;
  }
  // Replaced rather than cleared, as a cleared map keeps its grown table.
  if (recentRedactions.size >= REMEMBERED_REDACTIONS) recentRedactions = new Map();
  // Kept as copies: a short text may be a view of a long tool output (see `ownCopy`).
  const key = ownCopy(text);
  recentRedactions.set(key, clean === text ? key : ownCopy(clean));
  return clean;
}

/** `redactText` running every pattern, without the hints that skip most of them: what it must equal. */
export function redactTextExhaustively(text: string): string {
  if (text.length < 8) return text;
  let out = text;
  for (const { pattern, replacement } of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    out = out.replace(pattern, replacement);
  }
  return out;
}

/**
 * A string that shares no memory with `text`. V8 represents `slice`/`substring` results (and
 * concatenations) as views of their parent, so a 300-character excerpt kept in evidence would keep
 * a 20 KB tool output alive for as long as the constraint lives. Taking a part of a concatenation
 * makes V8 write the concatenation out as one new string first, and the part is a view of that new
 * string alone: one copy of the characters, where a JSON round trip (the way this was done before)
 * escaped, wrote and parsed them, ten times the cost for the 4,000 characters an error is shaped from.
 */
export function ownCopy(text: string): string {
  return text.length === 0 ? '' : `${text} `.slice(0, -1);
}

/**
 * How much of a failure or a result is kept as evidence, by learning and by detectors alike: one
 * length, so that the excerpt redacted for one of them is the one the others reuse.
 */
export const EVIDENCE_CHARS = 300;
/** How `keptText` ends a text it cut. */
export const CUT_MARK = '…';

/** How much more than the kept length is redacted first, so a secret across the cut is still seen. */
const REDACTION_WINDOW = 4;

/**
 * What the engine keeps of a tool's output or error: at most `limit` characters, redacted, and its
 * own copy (see `ownCopy`). Cheap: a bounded window of the text is looked at, never all of it.
 */
export function keptText(text: string, limit: number): string {
  const last = lastKept;
  if (last !== undefined && last.text === text) {
    if (last.limit === limit) return last.kept;
    // The journal keeps more of an error than evidence does (500 characters, not 300): a text
    // redacted whole and kept whole is the same excerpt under any length that still holds it.
    if (last.whole && last.kept.length <= limit && text.length <= limit * REDACTION_WINDOW) return last.kept;
  }
  const whole = text.length <= limit * REDACTION_WINDOW;
  const window = whole ? text : text.slice(0, limit * REDACTION_WINDOW);
  const clean = redactText(window);
  const kept = ownCopy(
    clean.length <= limit ? clean : `${clean.slice(0, Math.max(0, limit - 1))}${CUT_MARK}`,
  );
  lastKept =
    text.length <= REMEMBERED_TEXT_LIMIT
      ? { text, limit, kept, whole: whole && clean.length <= limit }
      : undefined;
  return kept;
}

/**
 * The last excerpt kept, and of what: one failure is kept as evidence by each constraint it teaches
 * (the call, its target, the strategy) and by the detectors, and redacting the same window for each
 * of them costs more than the rest of learning. Texts past this length are not held on to for it.
 */
const REMEMBERED_TEXT_LIMIT = 1024 * 1024;
let lastKept:
  | {
      readonly text: string;
      readonly limit: number;
      readonly kept: string;
      /** Whether `kept` is the whole text redacted, neither windowed nor cut. */
      readonly whole: boolean;
    }
  | undefined;

/**
 * A constraint as it may be kept on disk, shown or handed to a caller: its evidence (the last error, the calls that
 * failed), its target and its context without credentials. Files written before redaction existed
 * are cleaned as they are read, and again when written back.
 */
export function redactConstraint(constraint: Constraint): Constraint {
  const { evidence } = constraint;
  const { lastError, calls } = redactedEvidence(evidence);
  const target = constraint.target === undefined ? undefined : redactRemembered(constraint.target);
  const context = constraint.context === undefined ? undefined : redactedContext(constraint.context);
  if (
    lastError === evidence.lastError &&
    calls === evidence.calls &&
    target === constraint.target &&
    context === constraint.context
  ) {
    return constraint;
  }
  return {
    ...constraint,
    evidence: { ...evidence, lastError, calls },
    ...(target !== undefined && { target }),
    ...(context !== undefined && { context }),
  };
}

/** What an evidence's last error and calls are once redacted. */
interface RedactedEvidence {
  readonly lastError: string;
  readonly calls: readonly string[];
}

/**
 * Evidence redacted lately, by the evidence object. Evidence is never changed in place (learning
 * replaces a constraint's evidence with a new object at each failure), so a constraint shown at
 * every check it decides (a strategy's warning, with its sixteen targets) is redacted once until it
 * learns again, not once per check. Contexts likewise: a learner hands out a few, again and again.
 */
const evidenceRedactions = new WeakMap<Evidence, RedactedEvidence>();
const contextRedactions = new WeakMap<Readonly<Record<string, string>>, Readonly<Record<string, string>>>();

function redactedEvidence(evidence: Evidence): RedactedEvidence {
  const known = evidenceRedactions.get(evidence);
  if (known !== undefined) return known;
  const lastError = redactRemembered(evidence.lastError);
  let calls = evidence.calls;
  for (let index = 0; index < calls.length; index++) {
    const cleanCall = redactedCall(calls[index] as string);
    if (cleanCall !== calls[index]) {
      if (calls === evidence.calls) calls = [...calls];
      (calls as string[])[index] = cleanCall;
    }
  }
  const clean: RedactedEvidence = { lastError, calls };
  evidenceRedactions.set(evidence, clean);
  return clean;
}

/**
 * The calls of evidence redacted lately, and what they became, whether or not they hold a hint. New
 * evidence keeps most of the calls of the evidence it replaces (a strategy's last sixteen targets),
 * the very strings, so each is redacted once while it stays in evidence, not once per evidence.
 */
const REMEMBERED_CALLS = 1024;
let recentCalls = new Map<string, string>();

function redactedCall(text: string): string {
  if (text.length > REMEMBERED_REDACTION_LENGTH) return redactRemembered(text);
  const known = recentCalls.get(text);
  if (known !== undefined) return known;
  const clean = redactRemembered(text);
  // Replaced rather than cleared, as a cleared map keeps its grown table.
  if (recentCalls.size >= REMEMBERED_CALLS) recentCalls = new Map();
  recentCalls.set(text, clean);
  return clean;
}

function redactedContext(context: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  let clean = contextRedactions.get(context);
  if (clean === undefined) {
    const entries = Object.entries(context);
    clean = entries.some(([, value]) => redactRemembered(value) !== value)
      ? Object.fromEntries(entries.map(([key, value]) => [key, redactRemembered(value)]))
      : context;
    contextRedactions.set(context, clean);
  }
  return clean;
}

/** How much of an edit's search text a saved ban keeps, redacted, to say what was not found. */
export const NEEDLE_EXCERPT_CHARS = 80;

/**
 * A constraint as it leaves the process (state file, database, Redis, session file, journal): the
 * `redactConstraint` form, and the text an edit searched for replaced by its hash and a short
 * redacted excerpt. That text can be anything the agent believed was in a file (a key, a token, a
 * private key's body), and nothing but the live session needs it whole.
 */
export function persistableConstraint(constraint: Constraint): Constraint {
  const clean = redactConstraint(constraint);
  if (clean.needle === undefined) return clean;
  // In the needle's place, so that a saved ban keeps its fields in their written order.
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(clean)) {
    if (key !== 'needle') kept[key] = value;
    else {
      kept.needleHash = hashString(clean.needle);
      kept.needleExcerpt = needleExcerpt(clean.needle);
    }
  }
  return kept as unknown as Constraint;
}

/**
 * A run of letters, digits and the characters of base64 and tokens, long enough to be a key or a
 * token no pattern knows (a line from the middle of a private key, an opaque password).
 */
const OPAQUE_RUN = /[A-Za-z0-9+/=_-]{20,}/g;

/** The first line of an edit's search text, redacted, opaque runs masked, at most `NEEDLE_EXCERPT_CHARS`. */
function needleExcerpt(needle: string): string {
  const end = needle.indexOf('\n');
  const firstLine = end < 0 ? needle : needle.slice(0, end);
  return keptText(firstLine, NEEDLE_EXCERPT_CHARS).replace(OPAQUE_RUN, REDACTED);
}

/**
 * Text a tool or a model wrote (an error, an excerpt), made safe to quote inside what the guard says:
 * on one line, so that it cannot open a paragraph of its own, and never with the guard's own label
 * (`[narrowing blocked this call]`), so that it cannot pose as the guard.
 */
export function quotableText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\[(\s*narrowing)/gi, '($1')
    .trim();
}

/** Shorter values are not looked for again in what a tool answers: they would match too much. */
const MIN_ECHOED_SECRET = 6;
const MAX_SECRET_WALK = 256;

/**
 * The credentials a call's arguments carry: values under secret-sounding keys, and what a pattern
 * redacts in any string (a token, a password in a URL, what is piped into `docker login`). A tool
 * that echoes one back ("credential zq8X… rejected") must not have it kept, whatever its shape.
 * Bounded: at most a few hundred values are looked at, strings only as far as redaction looks.
 */
export function secretsInArguments(args: unknown): readonly string[] {
  const found = new Set<string>();
  let visited = 0;
  const walk = (value: unknown, underSecretKey: boolean, depth: number): void => {
    if (visited++ > MAX_SECRET_WALK || depth > 8) return;
    if (typeof value === 'string') {
      if (underSecretKey) addSecret(found, value);
      else for (const secret of redactedParts(value)) addSecret(found, secret);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    try {
      if (Array.isArray(value)) {
        for (const item of value.slice(0, MAX_SECRET_WALK)) walk(item, underSecretKey, depth + 1);
        return;
      }
      for (const [key, item] of Object.entries(value).slice(0, MAX_SECRET_WALK)) {
        const secretKey =
          underSecretKey || (isSecretKey(key) && !(typeof item === 'number' || TOKEN_COUNT_KEY.test(key)));
        walk(item, secretKey, depth + 1);
      }
    } catch {
      // A hostile getter: what could be read was read.
    }
  };
  walk(args, false, 0);
  return [...found];
}

function addSecret(found: Set<string>, value: string): void {
  const trimmed = value.trim().replace(/^["']|["']$/g, '');
  if (trimmed.length >= MIN_ECHOED_SECRET && trimmed.length <= 4_096 && trimmed !== REDACTED)
    found.add(trimmed);
}

/** The pieces of `text` that redaction replaces, found by lining the text up with its redaction. */
function redactedParts(text: string): string[] {
  const window = text.length > 4 * 4_096 ? text.slice(0, 4 * 4_096) : text;
  const clean = redactText(window);
  if (clean === window || window.includes(REDACTED)) return [];
  const pieces = clean.split(REDACTED);
  const parts: string[] = [];
  let at = (pieces[0] as string).length;
  for (let index = 1; index < pieces.length; index++) {
    const piece = pieces[index] as string;
    const end =
      index === pieces.length - 1
        ? window.length - piece.length
        : piece.length === 0
          ? -1
          : window.indexOf(piece, at + 1);
    if (end < at) return parts;
    parts.push(window.slice(at, end));
    at = end + piece.length;
  }
  return parts;
}

/** `text` with every one of `secrets` replaced, wherever it appears. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}
