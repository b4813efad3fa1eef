/**
 * The identity of calls and results: volatile values (timestamps, UUIDs, epochs, temp paths, hex
 * ids, durations, pids) masked, then hashed, so that two runs of the same call compare equal.
 */
import { RecentTexts } from '../recent-texts.js';
import {
  boundedArguments,
  type CanonicalOptions,
  canonicalJson,
  MAX_KEYS,
  quotedKey,
  sortKeys,
  stringForm,
  wasCut,
  watchForCuts,
} from './canonical-json.js';
import {
  fingerprintOf,
  hashingAsLegacy,
  hashString,
  LANE1_MULTIPLIER,
  LANE1_SEED,
  LANE2_MULTIPLIER,
  LANE2_SEED,
  LONG_TEXT,
  TextHash,
} from './hashing.js';

/** Private copies for the scan's loop: an imported binding is loaded from its cell on every character. */
const SEED_1 = LANE1_SEED;
const SEED_2 = LANE2_SEED;
const MULTIPLIER_1 = LANE1_MULTIPLIER;
const MULTIPLIER_2 = LANE2_MULTIPLIER;

export type MaskKind =
  | 'timestamp'
  | 'uuid'
  | 'epoch'
  | 'temp-path'
  | 'hex-id'
  | 'duration'
  | 'pid'
  | 'clock'
  | 'address'
  | 'port'
  | 'random-id';

interface RuleCommon {
  readonly kind: MaskKind;
  /** The rule's bit in what `candidateRules` returns. */
  readonly bit: number;
  /** Applies only once an earlier rule masked something in this text. */
  readonly afterMasking?: true;
}
/** A rule that replaces what an expression matches with a fixed text (`$1` and the like allowed). */
interface ReplacingRule extends RuleCommon {
  readonly pattern: RegExp;
  readonly replacement: string;
}
/** A rule that masks by hand: what each match becomes depends on the match. */
interface MaskingRule extends RuleCommon {
  readonly mask: (text: string) => string;
}
type MaskRule = ReplacingRule | MaskingRule;

const TIMESTAMP_BIT = 1;
const COMPACT_TIMESTAMP_BIT = 2;
const UUID_BIT = 4;
const EPOCH_BIT = 8;
const TEMP_PATH_BIT = 16;
const HEX_ID_BIT = 32;
const DURATION_BIT = 64;
const PID_BIT = 128;
const CLOCK_BIT = 256;
/**
 * A run of 8 or more letters and digits with both in it, that switches between them twice or is 10
 * long (a random id, a memory address), or `tmp` (a temporary name).
 */
const RANDOM_BIT = 512;
/** A colon followed by 4 digits or more (a port, a pid). */
const AFTER_COLON_BIT = 1024;
/** A quoted key naming time taken (`"duration_ms"`, `"latencyMs"`) whose colon is followed by a number. */
const TIMED_FIELD_BIT = 2048;
/** A colon after `id` in any case, a quote or spaces between or not (`x-request-id:`, `"trace_id":`). */
const ID_COLON_BIT = 4096;
/** Not a rule: the text has a character JSON escapes (or a surrogate, which it may). */
const ESCAPE_BIT = 8192;
const RULE_BITS = ESCAPE_BIT - 1;
/** The rules that may match a text without a digit. */
const NEEDS_NO_DIGIT = UUID_BIT | TEMP_PATH_BIT | ID_COLON_BIT;
/** `tm` and `id` (in lower case) as two characters read at once: the first's code above the second's. */
const TM = (116 << 16) | 109;
const ID = (105 << 16) | 100;
/** Both halves' lower-case bit: two letters read at once, in any case, compare with `TM` or `ID`. */
const LOWER_PAIR = (32 << 16) | 32;

const TIMESTAMP: MaskRule = {
  kind: 'timestamp',
  // A file name's time may spell its milliseconds after a dash too (`2026-02-13T02-13-01-029Z`).
  pattern:
    /\b\d{4}-\d{2}-\d{2}[T_ ]\d{2}[:-]\d{2}(?:[:-]\d{2}(?:[.,]\d+|-\d{3}(?=Z))?)?(?:Z|[+-]\d{2}:?\d{2})?/g,
  replacement: '<time>',
  bit: TIMESTAMP_BIT,
};
const COMPACT_TIMESTAMP: MaskRule = {
  kind: 'timestamp',
  pattern: /\b20\d{2}[01]\d[0-3]\d[T_-]?[0-2]\d[0-5]\d[0-5]\d\b/g,
  replacement: '<time>',
  bit: COMPACT_TIMESTAMP_BIT,
};
const UUID: MaskRule = {
  kind: 'uuid',
  pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  replacement: '<uuid>',
  bit: UUID_BIT,
};
const EPOCH: MaskRule = {
  kind: 'epoch',
  pattern: /\b1[6-9]\d{8}(?:\d{3})?\b/g,
  replacement: '<epoch>',
  bit: EPOCH_BIT,
};
/** Only the random part of a temporary path: `/tmp/output.txt` stays what it is. */
const TEMP_PATH: MaskRule = {
  kind: 'temp-path',
  pattern:
    /(\/(?:private\/)?(?:tmp|var\/tmp|var\/folders\/[^/\s]+\/[^/\s]+\/T)\/)(?=[A-Za-z_.-]*\d)([A-Za-z0-9_.-]{6,})/g,
  replacement: '$1<tmp>',
  bit: TEMP_PATH_BIT,
};
const HEX_ID: MaskRule = {
  kind: 'hex-id',
  pattern: /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}\b/gi,
  replacement: '<hex>',
  bit: HEX_ID_BIT,
};
const DURATION: MaskRule = {
  kind: 'duration',
  // Compound forms first (`0m41.923s` from `time`, `1h2m`, `2m30s`), then a number and its unit.
  pattern:
    /\b\d+(?:h\d+m(?:\d+(?:\.\d+)?s)?|m\d+(?:\.\d+)?s|h\d+m)\b|\b\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds|m|min|mins|minutes|h|hrs|hours)\b/g,
  replacement: '<duration>',
  bit: DURATION_BIT,
};
const PID: MaskRule = { kind: 'pid', pattern: /\b(pid[:= ]\s*)\d+/gi, replacement: '$1<pid>', bit: PID_BIT };
/** A program's name and its process id in parentheses, as a warning starts (`(node:48213)`); never a file's line. */
const PROCESS_TAG: MaskRule = {
  kind: 'pid',
  pattern: /\(([A-Za-z][A-Za-z_-]{0,31}):\d{4,7}\)/g,
  replacement: '($1:<pid>)',
  bit: AFTER_COLON_BIT,
};
/** A memory address (`0x7f3a2b1c4d50`): where a run put an object, which differs on every run. */
const ADDRESS: MaskRule = {
  kind: 'address',
  pattern: /\b0x[0-9a-fA-F]{8,16}\b/g,
  replacement: '0x<address>',
  bit: RANDOM_BIT,
};
/**
 * A port the system picked for the run (32768 and above, its ephemeral range) after a local
 * address (`127.0.0.1:54321`, `localhost:40123`, `[::1]:50022`); a service's own port stays.
 */
const EPHEMERAL_PORT: MaskRule = {
  kind: 'port',
  pattern:
    /((?:\blocalhost|\b\d{1,3}(?:\.\d{1,3}){3}|\]):)(?:3276[89]|327[7-9]\d|32[89]\d\d|3[3-9]\d{3}|[45]\d{4}|6[0-5]\d{3})\b/g,
  replacement: '$1<port>',
  bit: AFTER_COLON_BIT,
};
/** A temporary file's random name outside a temporary folder (`query_engine.dll.tmp76932`, `tmp.X1aB2cD3eF`). */
const TEMP_NAME: MaskRule = {
  kind: 'temp-path',
  pattern:
    /(?<![A-Za-z0-9])tmp(?:[._-](?=[A-Za-z0-9]*\d)[A-Za-z0-9]{8,}|(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{5,})(?![A-Za-z0-9])/g,
  replacement: '<tmp>',
  bit: RANDOM_BIT,
};
/**
 * The words of a structured result's key that name time taken (`duration_ms`, `elapsed`, `latencyMs`)
 * or time gone by since something (`idle_for_seconds`, `uptime`, `seconds_since_heartbeat`): a
 * clock's reading, which moves between two answers that are otherwise the same. Time left
 * (`eta_seconds`, `remaining`) is not among them: it moving is the answer changing.
 */
const TIMED_KEY_WORDS = String.raw`(?:[Dd]uration|[Ee]lapsed|[Tt]ook|[Ll]atency|_ms|Ms|_millis|Millis|[Ii]dle|[Uu]ptime|[Ss]ince)`;
/**
 * How long something took, or has gone by, under a structured result's key (`"duration_ms": 412`,
 * `"elapsed": 3.2`, `"idle_for_seconds": 7`): the keys are named for it, the value is a bare number.
 */
const DURATION_FIELD: MaskRule = {
  kind: 'duration',
  pattern: new RegExp(String.raw`("[A-Za-z_]*${TIMED_KEY_WORDS}[A-Za-z_]*"\s*:\s*)-?\d+(?:\.\d+)?`, 'g'),
  replacement: '$1<duration>',
  bit: TIMED_FIELD_BIT,
};
/** `DURATION_FIELD`'s key, read from its opening quote: whether a quoted key names time taken. */
const TIMED_KEY = new RegExp(String.raw`"[A-Za-z_]*${TIMED_KEY_WORDS}[A-Za-z_]*"`, 'y');

/**
 * Whether the quoted key whose closing quote is at `closing` names time taken, as `DURATION_FIELD`
 * reads keys: letters and underscores alone between its quotes.
 */
function namesTimeTaken(text: string, closing: number): boolean {
  let start = closing - 1;
  for (; start >= 0; start--) {
    const code = text.charCodeAt(start);
    if (code !== 95 && ((code | 32) < 97 || (code | 32) > 122)) break;
  }
  if (start < 0 || text.charCodeAt(start) !== 34) return false;
  TIMED_KEY.lastIndex = start;
  return TIMED_KEY.test(text);
}

/**
 * Whether a run of letters and digits (8 or more, both in it) looks drawn at random rather than
 * written, by how its characters mix: written names put their digits in one or two places
 * (`Uint8Array`, `html5lib`, `RemovedInDjango40Warning`), random ids switch between letters and
 * digits throughout (`8f3kq2zx9`, `45281d9d4`). Hex-only runs in one case (request ids, short
 * hashes, container ids) need two switches or a length of 12, other runs in one case three switches;
 * mixed-case runs (base 62) a length of 10, short lowercase runs (a written name's are words) and
 * three switches or five changes of case.
 */
export function looksRandom(token: string): boolean {
  let switches = 0;
  let upper = false;
  let lowercase = 0;
  let lowercaseRuns = 0;
  let hexOnly = true;
  let wasDigit = false;
  let wasLower = false;
  // Letters next to each other in different cases: a name in camel case changes case once per word.
  let caseChanges = 0;
  for (let index = 0; index < token.length; index++) {
    const code = token.charCodeAt(index);
    const digit = code <= 57;
    if (index > 0 && digit !== wasDigit) switches++;
    const lower = code >= 97;
    if (index > 0 && !digit && !wasDigit && lower !== wasLower) caseChanges++;
    wasDigit = digit;
    if (lower) {
      lowercase++;
      if (!wasLower) lowercaseRuns++;
      if (code > 102) hexOnly = false;
    } else if (!digit) {
      upper = true;
      if (code > 70) hexOnly = false;
    }
    wasLower = lower;
  }
  // A run of digits alone, or of letters alone, is not what this reads.
  if (switches === 0) return false;
  if (upper && lowercase > 0) {
    // Written names in mixed case are words run together, whose lowercase runs are long.
    return token.length >= 10 && lowercase < 2.5 * lowercaseRuns && (switches >= 3 || caseChanges >= 5);
  }
  if (hexOnly) return switches >= 2 || token.length >= 12;
  return switches >= 3;
}

/**
 * A run of letters and digits that looks drawn at random (see `looksRandom`); not one after a
 * backslash, which is an escape's (`Usu\\u00e1rio`).
 */
const RANDOM_ID: MaskRule = { kind: 'random-id', bit: RANDOM_BIT, mask: maskRandomIds };

/**
 * Each run of 8 or more letters and digits, with both in it and not after a backslash, that looks
 * random, as `<id>`: one pass over the text (an expression would try its lookarounds at every
 * character, which costs more than all the other rules together).
 */
function maskRandomIds(text: string): string {
  let out = '';
  let copied = 0;
  const length = text.length;
  let index = 0;
  while (index < length) {
    const start = index;
    let digit = false;
    let letter = false;
    for (; index < length; index++) {
      const code = text.charCodeAt(index);
      if (code >= 48 && code <= 57) digit = true;
      else if (code < 128 && (code | 32) >= 97 && (code | 32) <= 122) letter = true;
      else break;
    }
    if (
      index - start >= 8 &&
      digit &&
      letter &&
      (start === 0 || text.charCodeAt(start - 1) !== 92) &&
      looksRandom(text.slice(start, index))
    ) {
      out += `${text.slice(copied, start)}<id>`;
      copied = index;
    }
    if (index === start) index++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
/**
 * A value a run's, a container's, a job's or a build's label names (`run saqauascu9j`, `container
 * 4fmfjegtrp6`, `job=X7KQ2MBZPA`): drawn at random, though its letters and digits may happen to mix
 * as a written name's do, since the label says what it is. Ten letters and digits or more, both in
 * it, in one case: a name in camel case after the label (`job deployStaging2`) is written. The labels
 * of an id, a request, a trace and a session are `DRAWN_LABELLED_ID`'s.
 */
const LABELLED_ID: MaskRule = {
  kind: 'random-id',
  pattern:
    /(\b(?:run|Run|container|Container|job|Job|build|Build)\b[:=#]?\s?)(?:(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{10,}|(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{10,})(?![A-Za-z0-9])/g,
  replacement: '$1<id>',
  bit: RANDOM_BIT,
};
/**
 * A value the label of a request, a trace, a session, a correlation or an id names (`x-request-id:
 * req_2OwvdNR9edA264`, `request id: 146740535959`, `trace_id=aL0TTQRKzwDXnt`): those labels name
 * values drawn for the run, so ten or more letters and digits after one are an id in any case, and
 * ten digits or more alone too, behind a short lowercase prefix (`req_`, `sess_`) or not. A job's,
 * a build's, a run's or a container's label may name a written name (`job deployStaging2`): those
 * are `LABELLED_ID`'s.
 */
const DRAWN_LABELLED_ID: MaskRule = {
  kind: 'random-id',
  pattern:
    /(\b(?:(?:[Rr]equest|[Ss]ession|[Tt]race|[Cc]orrelation)(?:[_-]?(?:id|ID|Id))?|id|ID|Id)\b[:=#]?\s?(?:[a-z]{2,8}_)?)(?:(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{10,}|\d{10,})(?![A-Za-z0-9])/g,
  replacement: '$1<id>',
  // Ten digits alone set the epoch's bit, not the random one's.
  bit: RANDOM_BIT | EPOCH_BIT,
};
/**
 * A request's, a trace's or a correlation's id under its label, in a structured result too
 * (`"request_id": "req_d3569024"`, `trace-id: 4f9a21c0`; after a colon, which the scan for candidate
 * rules looks for): those labels name values drawn for the call, so six or more letters and digits
 * with both in them are one, however seldom they switch between the two (`DRAWN_LABELLED_ID` needs
 * ten, `RANDOM_ID` a mix that looks drawn).
 */
const REQUEST_ID: MaskRule = {
  kind: 'random-id',
  pattern:
    /(\b(?:[Rr]equest|[Tt]race|[Cc]orrelation)[_-]?(?:id|ID|Id)"?\s?:\s?"?(?:[a-z]{2,8}_)?)(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{6,}(?![A-Za-z0-9])/g,
  replacement: '$1<id>',
  bit: ID_COLON_BIT,
};
/**
 * Whether a run of letters alone looks drawn at random rather than written: a quarter of it or more
 * in each case, and its case changing four times or more. A name in camel case is mostly lowercase
 * (`ProductNameField`, `myProductName`), and one with capitals in runs changes case seldom
 * (`XMLHttpRequest`, `HTMLDivElement`).
 */
export function looksDrawnLetters(token: string): boolean {
  let caseChanges = 0;
  let lowercase = 0;
  let wasLower = false;
  for (let index = 0; index < token.length; index++) {
    const lower = token.charCodeAt(index) >= 97;
    if (index > 0 && lower !== wasLower) caseChanges++;
    if (lower) lowercase++;
    wasLower = lower;
  }
  const uppercase = token.length - lowercase;
  return caseChanges >= 4 && lowercase * 4 >= token.length && uppercase * 4 >= token.length;
}

/**
 * A value of letters alone the label of an id names (`x-request-id: req_pRluTgKJfPqHje`,
 * `"trace_id": "QmXkTzLpRwVbNc"`, `requestId: kHqWzBnTyMvXpL`): drawn for the run, so it may hold no
 * digit, which `DRAWN_LABELLED_ID` needs; ten letters or more that look drawn (`looksDrawnLetters`),
 * so a written name after the label (`id: ProductName`) stays.
 */
const DRAWN_LETTERS_PATTERN =
  /((?:(?<![A-Za-z0-9])(?:id|Id|ID)|(?<=[a-z])(?:Id|ID))"?\s?:\s?"?(?:[a-z]{2,8}_)?)([A-Za-z]{10,64})(?![A-Za-z0-9])/g;
const DRAWN_LETTERS_ID: MaskRule = {
  kind: 'random-id',
  mask: (text) =>
    text.replace(DRAWN_LETTERS_PATTERN, (match, label: string, value: string) =>
      looksDrawnLetters(value) ? `${label}<id>` : match,
    ),
  bit: ID_COLON_BIT,
};
/**
 * The rest of an id one of whose parts was masked (`test-<epoch>-zdfxjzcqa`): a random part may
 * happen to look written, its place in the id says what it is.
 */
const ID_PART: MaskRule = {
  kind: 'random-id',
  pattern: /(<(?:epoch|hex|uuid|id)>[-_])[A-Za-z0-9]{6,}(?![A-Za-z0-9])/g,
  replacement: '$1<id>',
  bit: RULE_BITS,
  afterMasking: true,
};
/** A temporary name as Python and `mkstemp` draw them (`/tmp/tmpqyhchoyb`), which may hold no digit. */
const TEMP_DRAWN: MaskRule = {
  kind: 'temp-path',
  pattern:
    /(\/(?:private\/)?(?:tmp|var\/tmp|var\/folders\/[^/\s]+\/[^/\s]+\/T)\/)tmp[a-z0-9_]{8}(?![A-Za-z0-9_.-])/g,
  replacement: '$1<tmp>',
  bit: TEMP_PATH_BIT,
};
/**
 * The folders under a temporary one that a run numbers (`pytest-of-dev/pytest-17/test_export0/`,
 * `go-build2217749331/b001/`): their digits; the file's own name stays.
 */
const TEMP_FOLDERS_PATTERN =
  /(\/(?:private\/)?(?:tmp|var\/tmp|var\/folders\/[^/\s]+\/[^/\s]+\/T)\/)((?:[^/\s'"`]+\/)+)/g;
const TEMP_FOLDERS: MaskRule = {
  kind: 'temp-path',
  mask: (text) =>
    text.replace(
      TEMP_FOLDERS_PATTERN,
      (_path, root: string, folders: string) => `${root}${folders.replace(/\d+/g, '<n>')}`,
    ),
  bit: TEMP_PATH_BIT,
};
/**
 * What a clock prints: the time of day with seconds (`17:03:58`, `5:04:01 PM`, never `a.ts:12:34`,
 * whose numbers follow a colon), the weekday and date beside it (`Wed Nov 25`), how long the machine
 * has been up and its load (`up 3 days, 4:12`, `load average: 0.52, 0.58, 0.59`). Each needs a digit
 * followed by a colon in the text, which a clock's output always has.
 */
const CLOCK_TIME: MaskRule = {
  kind: 'clock',
  pattern: /(?<![\w:.])(?:[01]?\d|2[0-3]):[0-5]\d:[0-5]\d(?:[.,]\d+)?(?:\s?[AaPp]\.?[Mm]\.?)?(?![\w:])/g,
  replacement: '<clock>',
  bit: CLOCK_BIT,
};
/** A weekday and date printed beside a time of day (`Wed Nov 25 17:03:58`, `Wed, 25 Nov 2026 17:03:58`). */
const CLOCK_DATE: MaskRule = {
  kind: 'clock',
  pattern:
    /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\.?,?\s+(?:\d{1,2}\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2})(?:,?\s+\d{4})?(?=,?\s+\d{1,2}:\d{2}:\d{2})/g,
  replacement: '<date>',
  bit: CLOCK_BIT,
};
/** `uptime`'s line: the time, how long the machine has been up, its users and its load. */
const UPTIME: MaskRule = {
  kind: 'clock',
  pattern:
    /\b\d{1,2}:\d{2}(?::\d{2})?\s{1,4}up\s[^\n]{0,80}?load averages?:\s*\d+(?:[.,]\d+)?,?\s+\d+(?:[.,]\d+)?,?\s+\d+(?:[.,]\d+)?/g,
  replacement: '<uptime>',
  bit: CLOCK_BIT,
};

/**
 * Which values count as volatile depends on what is compared. Arguments keep hex ids and
 * durations (two commits, or two timeouts, are different calls); shapes and results mask them.
 */
const ARGUMENT_RULES: readonly MaskRule[] = [TIMESTAMP, COMPACT_TIMESTAMP, UUID, EPOCH, TEMP_PATH];
const SHAPE_RULES: readonly MaskRule[] = [...ARGUMENT_RULES, HEX_ID];
const RESULT_RULES: readonly MaskRule[] = [
  ...SHAPE_RULES,
  UPTIME,
  CLOCK_DATE,
  CLOCK_TIME,
  DURATION,
  PID,
  PROCESS_TAG,
  ADDRESS,
  EPHEMERAL_PORT,
  TEMP_NAME,
  TEMP_DRAWN,
  TEMP_FOLDERS,
  DURATION_FIELD,
  LABELLED_ID,
  DRAWN_LABELLED_ID,
  REQUEST_ID,
  DRAWN_LETTERS_ID,
  RANDOM_ID,
  ID_PART,
];
const HEX_ONLY: readonly MaskRule[] = [HEX_ID];
/** The bits of the rules arguments are masked by. */
const ARGUMENT_BITS = ARGUMENT_RULES.reduce((bits, rule) => bits | rule.bit, 0);

/** What each ASCII character can start or continue, for `candidateRules`: anything else is 0. */
const DIGIT = 1;
const HEX_LETTER = 2;
/** `-`, `/` and `p`, where a rule may need a closer look, and what JSON escapes. */
const MARK = 3;
/** The other letters, which continue a run of letters and digits. */
const LETTER = 4;
/** What a character is to a run of letters and digits: outside it, a letter of it, a digit of it. */
const NOT_IN_RUN = 0;
const LETTER_IN_RUN = 1;
const DIGIT_IN_RUN = 2;
/** What each ASCII character is to a run of letters and digits; anything else is outside one. */
const RUN_CLASS = new Uint8Array(128);
for (let code = 48; code <= 57; code++) RUN_CLASS[code] = DIGIT_IN_RUN;
for (let code = 65; code <= 90; code++) {
  RUN_CLASS[code] = LETTER_IN_RUN;
  RUN_CLASS[code + 32] = LETTER_IN_RUN;
}
const CHARACTER_CLASS = new Uint8Array(128);
for (let code = 0; code < 32; code++) CHARACTER_CLASS[code] = MARK;
for (let code = 48; code <= 57; code++) CHARACTER_CLASS[code] = DIGIT;
for (let code = 65; code <= 90; code++) {
  CHARACTER_CLASS[code] = LETTER;
  CHARACTER_CLASS[code + 32] = LETTER;
}
for (const letter of 'abcdefABCDEF') CHARACTER_CLASS[letter.charCodeAt(0)] = HEX_LETTER;
for (const mark of '-/:pP"\\') CHARACTER_CLASS[mark.charCodeAt(0)] = MARK;
/**
 * Both of the above in one byte (the kind in the low three bits, the run class above them), so that
 * the scan reads one table per character rather than two.
 */
const SCAN_CLASS = new Uint8Array(128);
for (let code = 0; code < 128; code++)
  SCAN_CLASS[code] = (CHARACTER_CLASS[code] as number) | ((RUN_CLASS[code] as number) << 3);
/** A non-ASCII character other than a surrogate: outside any run, and of kind 0. */
const OUTSIDE = 0;

/**
 * The first letters of the duration units (m, µ, u, n, s, h). A duration's last digit is followed
 * by one of them, or by a space and then one of them.
 */
const AFTER_NUMBER = new Uint8Array(256);
for (const start of 'mµunsh') AFTER_NUMBER[start.charCodeAt(0)] = 1;

/** A superset of what `\s` matches, which is all a necessary condition needs. */
function mayBeSpace(code: number): boolean {
  return code <= 32 || code === 160 || code >= 0x1680;
}

/**
 * The rules that might match `text`, as bits, from one pass over it: a necessary condition for
 * each rule, so that most texts are never scanned by a regular expression at all. Every condition
 * is implied by a match of its rule; replacing a masked value only shortens runs, so conditions
 * read on the original text hold for every later rule.
 */
function candidateRules(text: string, hashInto?: TextHash): number {
  let digits = 0;
  let hex = 0;
  let bits = 0;
  // Two bits kept apart until the loop ends. V8 drops a loop's optimised code the first time it runs
  // an operation it never saw run (it has no feedback on its operands), and a clock or a duration may
  // first turn up well into a process's first calls: setting a boolean is no such operation, and the
  // bits are combined after the loop on every text, without a branch. Rare characters (`tmp`, `pid`)
  // are compared the same way, on every `p`.
  let clock = false;
  let duration = false;
  let sawDigit = false;
  // The run of letters and digits this character is in: where it started, what its last character
  // was (a letter, a digit, or nothing yet), and how often it switched between the two: a random
  // id's does, a name's seldom. A run with a switch has both.
  let runStart = 0;
  let previous: number = NOT_IN_RUN;
  let switches = 0;
  // Since the last colon no letter was seen (2: the colon closed a quoted key, spaces between or not,
  // whose closing quote is at `keyEnd`, and no digit followed yet).
  let afterColon = 0;
  let keyEnd = 0;
  // The text's hash, as `hashString` would compute it, in the same pass: a result is usually hashed
  // just as it was scanned. It is kept to the end even once some rule may apply: most texts a rule
  // may apply to come out of the masking as they went in (a source file's `"total": 12.5`), and are
  // then not hashed a second time.
  const hashing = hashInto !== undefined;
  let lane1 = SEED_1;
  let lane2 = SEED_2;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (hashing) {
      lane1 = Math.imul(lane1 ^ code, MULTIPLIER_1);
      lane2 = Math.imul(lane2 ^ code, MULTIPLIER_2);
    }
    const scanClass =
      code < 128 ? (SCAN_CLASS[code] as number) : code >= 0xd800 && code <= 0xdfff ? MARK : OUTSIDE;
    const kind = scanClass & 7;
    const inRun = scanClass >> 3;
    if (inRun !== previous) {
      if (previous === NOT_IN_RUN) runStart = index;
      else if (inRun === NOT_IN_RUN) switches = 0;
      else switches++;
      previous = inRun;
    }
    if (kind === 0) {
      // Outside any run, where `switches` is 0: a random id is not being read.
      digits = 0;
      hex = 0;
      continue;
    }
    if (switches !== 0 && index - runStart >= 7 && (switches >= 2 || index - runStart >= 9))
      bits |= RANDOM_BIT;
    if (kind === LETTER || kind === HEX_LETTER) {
      digits = 0;
      afterColon = 0;
      if (kind === LETTER) hex = 0;
      else if (++hex === 16) bits |= HEX_ID_BIT;
      // The lower-case letters after it but `p` (most of a text) read here, as the loop would read
      // them: each stays in this run, needs nothing reset, and moves the count of hex digits only;
      // a random id's condition only grows along the run, so it is asked at the last one.
      let ahead = index + 1;
      for (; ahead < length; ahead++) {
        const letter = text.charCodeAt(ahead);
        if (letter < 97 || letter > 122 || letter === 112) break;
        if (hashing) {
          lane1 = Math.imul(lane1 ^ letter, MULTIPLIER_1);
          lane2 = Math.imul(lane2 ^ letter, MULTIPLIER_2);
        }
        if (letter > 102) hex = 0;
        else if (++hex === 16) bits |= HEX_ID_BIT;
      }
      if (ahead > index + 1) {
        index = ahead - 1;
        if (switches !== 0 && index - runStart >= 7 && (switches >= 2 || index - runStart >= 9))
          bits |= RANDOM_BIT;
      }
    } else if (kind === DIGIT) {
      sawDigit = true;
      if (++hex === 16) bits |= HEX_ID_BIT;
      if (++digits === 8) bits |= COMPACT_TIMESTAMP_BIT;
      else if (digits === 10) bits |= EPOCH_BIT;
      if (afterColon !== 0) {
        if (digits === 4) bits |= AFTER_COLON_BIT;
        // A key is read once, at the first digit after its colon, and only while no timed one was found.
        if (afterColon === 2) {
          if ((bits & TIMED_FIELD_BIT) === 0 && namesTimeTaken(text, keyEnd)) bits |= TIMED_FIELD_BIT;
          afterColon = 1;
        }
      }
      // Reads past the end are ruled out before they happen: one makes V8 drop the loop's optimised
      // code and rebuild it without its fast character reads. A unit needs a character after the digit.
      if (index + 1 < length) {
        const next = text.charCodeAt(index + 1);
        if (AFTER_NUMBER[next & 255] === 1 && next < 256) duration = true;
        else if (
          index + 2 < length &&
          mayBeSpace(next) &&
          AFTER_NUMBER[text.charCodeAt(index + 2) & 255] === 1
        )
          duration = true;
      }
    } else {
      // `tmp`, which starts a temporary name: read at every `p`, its bit set without a branch (see `clock`).
      if (code === 112 && index >= 2)
        bits |= ((text.charCodeAt(index - 2) << 16) | text.charCodeAt(index - 1)) === TM ? RANDOM_BIT : 0;
      if (code === 58) {
        if (digits > 0) clock = true;
        // A key's closing quote may stand apart from its colon (`"took" : 12`).
        let before = index - 1;
        while (before >= 0 && mayBeSpace(text.charCodeAt(before))) before--;
        afterColon = before >= 0 && text.charCodeAt(before) === 34 ? 2 : 1;
        keyEnd = before;
        // The label of an id (`request-id:`, `"trace_id":`), before its quote if it has one.
        const label = afterColon === 2 ? before - 1 : before;
        if (label >= 1)
          bits |=
            ((text.charCodeAt(label - 1) << 16) | text.charCodeAt(label) | LOWER_PAIR) === ID
              ? ID_COLON_BIT
              : 0;
      } else if (code === 45) {
        if (digits >= 4) bits |= TIMESTAMP_BIT;
        if (hex >= 8) bits |= UUID_BIT;
      } else if (code === 47) {
        // `tmp/` read character by character: a call out of the loop for each slash of a path costs
        // more than the rest of the scan of it.
        if (
          index + 4 < length &&
          text.charCodeAt(index + 1) === 116 &&
          text.charCodeAt(index + 2) === 109 &&
          text.charCodeAt(index + 3) === 112 &&
          text.charCodeAt(index + 4) === 47
        ) {
          bits |= TEMP_PATH_BIT;
        } else if (
          index + 12 < length &&
          text.charCodeAt(index + 1) === 118 &&
          text.startsWith('var/folders/', index + 1)
        ) {
          bits |= TEMP_PATH_BIT;
        }
      } else if ((code | 32) === 112) {
        afterColon = 0;
        // `pid` in any case: read at every `p`, its bit set without a branch (see `clock`).
        if (index + 2 < length)
          bits |=
            (((text.charCodeAt(index + 1) | 32) << 16) | (text.charCodeAt(index + 2) | 32)) === ID
              ? PID_BIT
              : 0;
      } else {
        bits |= ESCAPE_BIT;
      }
      digits = 0;
      hex = 0;
    }
  }
  // Every rule needs a digit except a UUID's, which can be all letters, and a temporary name as
  // Python draws it (`/tmp/tmpqyhchoyb`).
  bits |= (clock ? CLOCK_BIT : 0) | (duration ? DURATION_BIT : 0);
  const candidates = sawDigit ? bits : bits & (ESCAPE_BIT | NEEDS_NO_DIGIT);
  if (hashing) hashInto?.resume(lane1, lane2, text.length);
  return candidates;
}

/**
 * `candidateRules`, written out a second time for long texts (results, long arguments) alone. V8
 * optimises a loop for the kinds of string it has read: `candidateRules` reads every key, argument
 * and short result, as views of other strings, concatenations and flat strings of one or two bytes a
 * character, and each kind it has met makes every character read of every later text cost more:
 * about three times as much as when it reads flat strings only. Long texts mostly come as flat
 * strings, so this copy, which reads nothing else, reads them at that speed. Its body must stay the
 * same as `candidateRules`'s, character for character: a test compares them.
 */
function candidateRulesOfLongText(text: string, hashInto?: TextHash): number {
  let digits = 0;
  let hex = 0;
  let bits = 0;
  // Two bits kept apart until the loop ends. V8 drops a loop's optimised code the first time it runs
  // an operation it never saw run (it has no feedback on its operands), and a clock or a duration may
  // first turn up well into a process's first calls: setting a boolean is no such operation, and the
  // bits are combined after the loop on every text, without a branch. Rare characters (`tmp`, `pid`)
  // are compared the same way, on every `p`.
  let clock = false;
  let duration = false;
  let sawDigit = false;
  // The run of letters and digits this character is in: where it started, what its last character
  // was (a letter, a digit, or nothing yet), and how often it switched between the two: a random
  // id's does, a name's seldom. A run with a switch has both.
  let runStart = 0;
  let previous: number = NOT_IN_RUN;
  let switches = 0;
  // Since the last colon no letter was seen (2: the colon closed a quoted key, spaces between or not,
  // whose closing quote is at `keyEnd`, and no digit followed yet).
  let afterColon = 0;
  let keyEnd = 0;
  // The text's hash, as `hashString` would compute it, in the same pass: a result is usually hashed
  // just as it was scanned. It is kept to the end even once some rule may apply: most texts a rule
  // may apply to come out of the masking as they went in (a source file's `"total": 12.5`), and are
  // then not hashed a second time.
  const hashing = hashInto !== undefined;
  let lane1 = SEED_1;
  let lane2 = SEED_2;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (hashing) {
      lane1 = Math.imul(lane1 ^ code, MULTIPLIER_1);
      lane2 = Math.imul(lane2 ^ code, MULTIPLIER_2);
    }
    const scanClass =
      code < 128 ? (SCAN_CLASS[code] as number) : code >= 0xd800 && code <= 0xdfff ? MARK : OUTSIDE;
    const kind = scanClass & 7;
    const inRun = scanClass >> 3;
    if (inRun !== previous) {
      if (previous === NOT_IN_RUN) runStart = index;
      else if (inRun === NOT_IN_RUN) switches = 0;
      else switches++;
      previous = inRun;
    }
    if (kind === 0) {
      // Outside any run, where `switches` is 0: a random id is not being read.
      digits = 0;
      hex = 0;
      continue;
    }
    if (switches !== 0 && index - runStart >= 7 && (switches >= 2 || index - runStart >= 9))
      bits |= RANDOM_BIT;
    if (kind === LETTER || kind === HEX_LETTER) {
      digits = 0;
      afterColon = 0;
      if (kind === LETTER) hex = 0;
      else if (++hex === 16) bits |= HEX_ID_BIT;
      // The lower-case letters after it but `p` (most of a text) read here, as the loop would read
      // them: each stays in this run, needs nothing reset, and moves the count of hex digits only;
      // a random id's condition only grows along the run, so it is asked at the last one.
      let ahead = index + 1;
      for (; ahead < length; ahead++) {
        const letter = text.charCodeAt(ahead);
        if (letter < 97 || letter > 122 || letter === 112) break;
        if (hashing) {
          lane1 = Math.imul(lane1 ^ letter, MULTIPLIER_1);
          lane2 = Math.imul(lane2 ^ letter, MULTIPLIER_2);
        }
        if (letter > 102) hex = 0;
        else if (++hex === 16) bits |= HEX_ID_BIT;
      }
      if (ahead > index + 1) {
        index = ahead - 1;
        if (switches !== 0 && index - runStart >= 7 && (switches >= 2 || index - runStart >= 9))
          bits |= RANDOM_BIT;
      }
    } else if (kind === DIGIT) {
      sawDigit = true;
      if (++hex === 16) bits |= HEX_ID_BIT;
      if (++digits === 8) bits |= COMPACT_TIMESTAMP_BIT;
      else if (digits === 10) bits |= EPOCH_BIT;
      if (afterColon !== 0) {
        if (digits === 4) bits |= AFTER_COLON_BIT;
        // A key is read once, at the first digit after its colon, and only while no timed one was found.
        if (afterColon === 2) {
          if ((bits & TIMED_FIELD_BIT) === 0 && namesTimeTaken(text, keyEnd)) bits |= TIMED_FIELD_BIT;
          afterColon = 1;
        }
      }
      // Reads past the end are ruled out before they happen: one makes V8 drop the loop's optimised
      // code and rebuild it without its fast character reads. A unit needs a character after the digit.
      if (index + 1 < length) {
        const next = text.charCodeAt(index + 1);
        if (AFTER_NUMBER[next & 255] === 1 && next < 256) duration = true;
        else if (
          index + 2 < length &&
          mayBeSpace(next) &&
          AFTER_NUMBER[text.charCodeAt(index + 2) & 255] === 1
        )
          duration = true;
      }
    } else {
      // `tmp`, which starts a temporary name: read at every `p`, its bit set without a branch (see `clock`).
      if (code === 112 && index >= 2)
        bits |= ((text.charCodeAt(index - 2) << 16) | text.charCodeAt(index - 1)) === TM ? RANDOM_BIT : 0;
      if (code === 58) {
        if (digits > 0) clock = true;
        // A key's closing quote may stand apart from its colon (`"took" : 12`).
        let before = index - 1;
        while (before >= 0 && mayBeSpace(text.charCodeAt(before))) before--;
        afterColon = before >= 0 && text.charCodeAt(before) === 34 ? 2 : 1;
        keyEnd = before;
        // The label of an id (`request-id:`, `"trace_id":`), before its quote if it has one.
        const label = afterColon === 2 ? before - 1 : before;
        if (label >= 1)
          bits |=
            ((text.charCodeAt(label - 1) << 16) | text.charCodeAt(label) | LOWER_PAIR) === ID
              ? ID_COLON_BIT
              : 0;
      } else if (code === 45) {
        if (digits >= 4) bits |= TIMESTAMP_BIT;
        if (hex >= 8) bits |= UUID_BIT;
      } else if (code === 47) {
        // `tmp/` read character by character: a call out of the loop for each slash of a path costs
        // more than the rest of the scan of it.
        if (
          index + 4 < length &&
          text.charCodeAt(index + 1) === 116 &&
          text.charCodeAt(index + 2) === 109 &&
          text.charCodeAt(index + 3) === 112 &&
          text.charCodeAt(index + 4) === 47
        ) {
          bits |= TEMP_PATH_BIT;
        } else if (
          index + 12 < length &&
          text.charCodeAt(index + 1) === 118 &&
          text.startsWith('var/folders/', index + 1)
        ) {
          bits |= TEMP_PATH_BIT;
        }
      } else if ((code | 32) === 112) {
        afterColon = 0;
        // `pid` in any case: read at every `p`, its bit set without a branch (see `clock`).
        if (index + 2 < length)
          bits |=
            (((text.charCodeAt(index + 1) | 32) << 16) | (text.charCodeAt(index + 2) | 32)) === ID
              ? PID_BIT
              : 0;
      } else {
        bits |= ESCAPE_BIT;
      }
      digits = 0;
      hex = 0;
    }
  }
  // Every rule needs a digit except a UUID's, which can be all letters, and a temporary name as
  // Python draws it (`/tmp/tmpqyhchoyb`).
  bits |= (clock ? CLOCK_BIT : 0) | (duration ? DURATION_BIT : 0);
  const candidates = sawDigit ? bits : bits & (ESCAPE_BIT | NEEDS_NO_DIGIT);
  if (hashing) hashInto?.resume(lane1, lane2, text.length);
  return candidates;
}

/** Longer texts are left as they are: masking them would cost more than it could match. */
const MASK_SCAN_LIMIT = 1_000_000;

function maskWith(rules: readonly MaskRule[], text: string, found?: Set<MaskKind>): string {
  if (text.length > MASK_SCAN_LIMIT) return text;
  const candidates = text.length >= LONG_TEXT ? candidateRulesOfLongText(text) : candidateRules(text);
  return applyRules(rules, text, candidates, found);
}

function applyRules(
  rules: readonly MaskRule[],
  text: string,
  candidates: number,
  found?: Set<MaskKind>,
  end = rules.length,
): string {
  if ((candidates & RULE_BITS) === 0) return text;
  let out = text;
  for (let index = 0; index < end; index++) {
    const rule = rules[index] as MaskRule;
    if ((candidates & rule.bit) === 0 || (rule.afterMasking && out === text)) continue;
    let masked: string;
    if ('mask' in rule) {
      masked = rule.mask(out);
    } else {
      rule.pattern.lastIndex = 0;
      if (!rule.pattern.test(out)) continue;
      rule.pattern.lastIndex = 0;
      masked = out.replace(rule.pattern, rule.replacement);
    }
    if (masked === out) continue;
    out = masked;
    found?.add(rule.kind);
  }
  return out;
}

/** Hashes a short argument text while it is scanned for volatile values. */
const maskedHash = new TextHash();

/**
 * `hashString(maskVolatile(text))`: a short text in which no volatile value can be is hashed by the
 * scan that looks for them, one pass over it instead of two.
 */
export function hashMaskedArgument(text: string): string {
  if (text.length >= LONG_TEXT || text.length > MASK_SCAN_LIMIT)
    return hashString(maskWith(ARGUMENT_RULES, text));
  const candidates = candidateRules(text, maskedHash);
  if ((candidates & ARGUMENT_BITS) === 0) return maskedHash.finish();
  return hashOfMasked(text, applyRules(ARGUMENT_RULES, text, candidates), maskedHash);
}

export type MaskScope = 'argument' | 'shape' | 'result';

function rulesFor(scope: MaskScope): readonly MaskRule[] {
  return scope === 'argument' ? ARGUMENT_RULES : scope === 'shape' ? SHAPE_RULES : RESULT_RULES;
}

export function maskVolatile(text: string, scope: MaskScope = 'argument'): string {
  return maskWith(rulesFor(scope), text);
}

/**
 * `maskVolatile` trying every rule's expression, without the scan that skips most of them: what
 * the scan must always agree with.
 */
export function maskVolatileExhaustively(text: string, scope: MaskScope = 'argument'): string {
  return applyRules(rulesFor(scope), text, RULE_BITS);
}

export interface CallIdentity {
  /** Same key = the same call after masking timestamps, UUIDs, epochs and temp-path noise. */
  readonly callKey: string;
  /** Coarser: also masks hex ids; used to see runaway creation of same-shaped resources. */
  readonly shapeKey: string;
  /** What was masked, so an explanation can say so. */
  readonly masked: readonly MaskKind[];
  /**
   * 30 bits of the call key's hash: enough to count distinct calls in a window of thousands
   * without keeping their keys alive.
   */
  readonly fingerprint: number;
}

const KEY_STRING_LIMIT = 512;

/** Texts longer than this are identified exactly: masking them costs more than it could match. */
const MASKED_TEXT_LIMIT = 1024;
const NOTHING_MASKED: readonly MaskKind[] = Object.freeze([]);
/**
 * Shared by every call: identifying is synchronous, so one call never sees another's findings. It is
 * replaced rather than cleared, and only when used: clearing gives a set a new table each time, and
 * the chain of tables a long-lived set leaves that way outlives young-generation collections.
 */
let found = new Set<MaskKind>();

function maskArgument(text: string): string {
  return text.length > MASKED_TEXT_LIMIT ? text : maskWith(ARGUMENT_RULES, text, found);
}
const ARGUMENT_FORM: CanonicalOptions = { maxString: KEY_STRING_LIMIT, mapString: maskArgument };

/** Identifying is synchronous and never re-entered, so one hasher serves every call. */
const argumentsHash = new TextHash();

export interface IdentifiedCall {
  readonly identity: CallIdentity;
  /**
   * The arguments the engine works on: the caller's own, or, when they were hostile or huge, a
   * bounded copy (see `boundedArguments`), whose bounds the identity then shows.
   */
  readonly args: Readonly<Record<string, unknown>>;
}

type ArgumentNormalizer = (args: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>;

const AS_THEY_ARE: ArgumentNormalizer = (args) => args;

/**
 * `identifyCall` that never throws and tells when the arguments had to be bounded. The arguments
 * are identified in the adapter's normal form (`normalizeArguments`), so that two spellings of one
 * call are one call.
 */
export function identifyArguments(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  normalizeArguments: ArgumentNormalizer = AS_THEY_ARE,
): IdentifiedCall {
  let keys: string[] | undefined;
  try {
    keys = Object.keys(args);
  } catch {
    keys = undefined;
  }
  if (keys === undefined || keys.length > MAX_KEYS) {
    // Huge (or unreadable) at the top: bounded at once, its keys enumerated this once only.
    const bounded = boundedArguments(args, keys);
    return { identity: identifyCall(tool, normalizeArguments(bounded)), args: bounded };
  }
  watchForCuts();
  let normal = args;
  try {
    normal = normalizeArguments(args);
  } catch {
    // A getter that throws: identified as it is, where it becomes a marker.
  }
  const identity = identifyCall(tool, normal);
  if (!wasCut()) return { identity, args };
  const bounded = boundedArguments(args);
  return { identity: identifyCall(tool, normalizeArguments(bounded)), args: bounded };
}

export function identifyCall(tool: string, args: unknown): CallIdentity {
  if (found.size > 0) found = new Set<MaskKind>();
  const hash = argumentsHash.reset();
  const keys = flatKeys(args);
  let argumentHash: string;
  let fingerprint: number;
  if (keys && hashFlatArguments(args as Record<string, unknown>, keys, hash)) {
    argumentHash = hash.finish();
    fingerprint = hash.fingerprint;
  } else {
    // Long arguments (an edit's texts, a file written whole): their written form, hashed whole.
    const form = keys === undefined ? undefined : flatArgumentForm(args as Record<string, unknown>, keys);
    argumentHash = hashString(form ?? canonicalJson(args, ARGUMENT_FORM));
    fingerprint = fingerprintOf(argumentHash);
  }
  return new Identity(tool, args, argumentHash, fingerprint, found.size === 0 ? NOTHING_MASKED : [...found]);
}

/** The shape key is read only for creations, so it is worked out on first use. */
class Identity implements CallIdentity {
  readonly callKey: string;
  private shape: string | undefined;

  constructor(
    private readonly tool: string,
    private readonly args: unknown,
    argumentHash: string,
    readonly fingerprint: number,
    readonly masked: readonly MaskKind[],
  ) {
    this.callKey = `${tool}#${argumentHash}`;
  }

  get shapeKey(): string {
    if (this.shape === undefined) {
      const { tool } = this;
      const argumentForm = canonicalJson(this.args, ARGUMENT_FORM);
      const shapeForm = maskWith(HEX_ONLY, argumentForm);
      this.shape =
        shapeForm === argumentForm
          ? `${tool}~${this.callKey.slice(tool.length + 1)}`
          : `${tool}~${hashString(shapeForm)}`;
    }
    return this.shape;
  }
}

/**
 * The sorted keys of a flat object of scalars — most tool arguments — whose canonical form
 * `hashFlatArguments` can hash directly; undefined for anything else, which takes the general path.
 */
function flatKeys(args: unknown): string[] | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  let keys: string[];
  try {
    const prototype = Object.getPrototypeOf(args);
    if (prototype !== Object.prototype && prototype !== null) return undefined;
    keys = Object.keys(args);
    if (keys.length > 32) return undefined;
    for (const key of keys) {
      const value = (args as Record<string, unknown>)[key];
      const type = typeof value;
      if (type === 'bigint' || (type === 'object' && value !== null)) return undefined;
      if (type === 'number' && !Number.isFinite(value)) return undefined;
    }
  } catch {
    // A throwing getter or proxy: the canonical form writes it as a marker.
    return undefined;
  }
  return sortKeys(keys);
}

/**
 * Hashes the canonical form of flat arguments, exactly as `canonicalJson` writes it, unwritten.
 * False, and the hash left unfinished, as soon as the form is too long for the streamed hash.
 */
function hashFlatArguments(
  args: Readonly<Record<string, unknown>>,
  keys: readonly string[],
  hash: TextHash,
): boolean {
  hash.addCode(OPEN_BRACE);
  let first = true;
  for (const key of keys) {
    const value = args[key];
    const type = typeof value;
    if (type === 'undefined' || type === 'function' || type === 'symbol') continue;
    if (!first) hash.addCode(COMMA);
    first = false;
    addJsonString(hash, key, candidateRules(key));
    hash.addCode(COLON);
    if (type === 'string') {
      // Checked before the string is scanned: a long one ends the streamed hash at once.
      if (hash.size + Math.min((value as string).length, KEY_STRING_LIMIT) >= LONG_TEXT) return false;
      addArgumentString(hash, value as string);
    } else if (type === 'number') hash.add(JSON.stringify(value === 0 ? 0 : value));
    else if (type === 'boolean') hash.add(value ? 'true' : 'false');
    else hash.add('null');
  }
  hash.addCode(CLOSE_BRACE);
  return !hash.isLong;
}

/**
 * `canonicalJson(args, ARGUMENT_FORM)` of flat arguments (see `flatKeys`), written directly: flat
 * arguments have no depth, cycles or bounds to watch for. Undefined when a value cannot be read, for
 * the general path to write as it writes unreadable values.
 */
function flatArgumentForm(
  args: Readonly<Record<string, unknown>>,
  keys: readonly string[],
): string | undefined {
  try {
    let form = '{';
    let first = true;
    for (const key of keys) {
      const value = args[key];
      const type = typeof value;
      if (type === 'undefined' || type === 'function' || type === 'symbol') continue;
      if (!first) form += ',';
      first = false;
      form += quotedKey(key);
      if (type === 'string') form += stringForm(maskArgument(value as string), KEY_STRING_LIMIT);
      else if (type === 'number') form += JSON.stringify(value === 0 ? 0 : value);
      else if (type === 'boolean') form += value ? 'true' : 'false';
      else form += 'null';
    }
    return `${form}}`;
  } catch {
    return undefined;
  }
}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const COMMA = 44;
const COLON = 58;
const QUOTE = 34;

/** A string argument as the canonical form writes it: masked, and cut down when long. */
function addArgumentString(hash: TextHash, text: string): void {
  if (text.length > KEY_STRING_LIMIT) {
    hash.add(stringForm(maskArgument(text), KEY_STRING_LIMIT));
    return;
  }
  const candidates = candidateRules(text);
  // Masking only ever replaces characters JSON leaves alone with ones it leaves alone too.
  addJsonString(hash, applyRules(ARGUMENT_RULES, text, candidates, found), candidates);
}

/** `JSON.stringify(text)`, hashed; written out only when the scan saw something to escape. */
function addJsonString(hash: TextHash, text: string, candidates: number): void {
  if ((candidates & ESCAPE_BIT) !== 0) {
    hash.add(JSON.stringify(text));
    return;
  }
  hash.addCode(QUOTE).add(text).addCode(QUOTE);
}

/** The digests of the last long results digested: an agent that repeats a failing call is mostly answered alike. */
const recentLongDigests = new RecentTexts(digestLongResult);

/** A long result's digest, its volatile values masked. */
function digestLongResult(content: string): string {
  return hashString(applyRules(RESULT_RULES, content, candidateRulesOfLongText(content)));
}

/** Hashes a short result while it is scanned for volatile values. */
const resultHash = new TextHash();

/**
 * Digest of a whole result after masking what changes between identical runs: `hashString` of the
 * masked text. A short text is hashed by the scan itself while no rule may apply.
 */
export function digestResult(content: string | undefined): string {
  if (content === undefined || content.length === 0) return 'empty';
  if (content.length > MASK_SCAN_LIMIT) return hashString(content);
  if (content.length >= LONG_TEXT) {
    // Generation 1 hashes give other digests: those are never kept.
    return hashingAsLegacy() ? digestLongResult(content) : recentLongDigests.of(content);
  }
  const candidates = candidateRules(content, resultHash);
  if ((candidates & RULE_BITS) === 0) return resultHash.finish();
  return hashOfMasked(content, applyRules(RESULT_RULES, content, candidates), resultHash);
}

/** Characters of a failure's start and of its end read for `digestWithoutNumbers`. */
const NUMBERLESS_WINDOW = 1_024;
/** A number, and a run of hex digits holding a digit (a hash, a uuid's part, an address). */
const NUMBER_LIKE = /[0-9a-f]*\d[0-9a-f]*/gi;

/**
 * Digest of a failure's text with every number left out, and every run of hex digits holding one (a
 * hash, a uuid, an address): two runs of one call that failed with the same words and other
 * counters, pids, build numbers, sizes or drawn ids (`Run #1001`, `[worker-7869]`, `heap used: 41
 * MB`) failed the same way, as an error's shape counts it. The text is masked as a result is first
 * (a drawn id of letters alone, a temporary name), so that a failure whose numbers and drawn values
 * both changed is alike too. Bounded: a long text is read by its first and last 1,024 characters,
 * where its error is.
 */
export function digestWithoutNumbers(content: string): string {
  return hashString(textWithoutNumbers(content));
}

/** The text `digestWithoutNumbers` digests: masked as a result, every number-like run as `#`. */
export function textWithoutNumbers(content: string): string {
  const text =
    content.length <= 2 * NUMBERLESS_WINDOW
      ? content
      : `${content.slice(0, NUMBERLESS_WINDOW)}\n${content.slice(-NUMBERLESS_WINDOW)}`;
  return maskWith(RESULT_RULES, text).replace(NUMBER_LIKE, '#');
}

/** The hash of `masked`: the scan's hash of `text` when masking left it as it was. */
function hashOfMasked(text: string, masked: string, scanned: TextHash): string {
  return masked === text ? scanned.finish() : hashString(masked);
}

/** The two copies of the scan that finds which masks may apply, for a test that they stay one. */
export const CANDIDATE_SCANS = { candidateRules, candidateRulesOfLongText } as const;
