/**
 * The shape of an error text: what stays when the values a call put into it are masked. Quoted text
 * (multi-line included), URLs, paths, command-line flags, ids (UUIDs, hex digests, mixed letters and
 * digits, snake_case and camelCase names) and numbers are replaced by placeholders, letters are lower-cased and white space is
 * collapsed, so that one error reported for different arguments — or in slightly different
 * wordings of the same tool — is one shape. Ids and numbers are one placeholder: a value is a value,
 * whether it is drawn, counted or timed, and a pid, a duration or an id that gains a digit
 * (`(node:5276)`, `(node:40538)`; `2378156`, `W2378156`) leaves the shape as it was:
 *
 *     errorShape("cat: 'notes.md': No such file or directory")
 *     errorShape("cat: 'draft.txt': No such file or directory")
 *     // both: "cat: <q>: no such file or directory"
 *
 * The engine compares these shapes (the tool-call adapter hands it this function) to tell an agent
 * guessing (varied arguments, one error) from one learning; blame reads the same shapes.
 *
 * The shape is a string, cheap to hash or compare; the work is linear in the text, and texts longer
 * than `MAX_SHAPE_INPUT` are shaped from their head and tail.
 */
import { RecentTexts } from '../../core/recent-texts.js';
import { isAsciiLetter, isWordCharacter } from './white-space.js';

/** The shapes of the last errors shaped: an agent that repeats a failing call is mostly answered alike. */
const recentShapes = new RecentTexts(shapeOf);

/** What a placeholder stands for; an id and a number are one placeholder (see the module comment). */
export type ErrorShapePart = 'quote' | 'url' | 'path' | 'flag' | 'id' | 'number';

export const ERROR_SHAPE_PLACEHOLDERS: Readonly<Record<ErrorShapePart, string>> = {
  quote: '<q>',
  url: '<url>',
  path: '<path>',
  flag: '<flag>',
  id: '<id>',
  number: '<id>',
};

/** Longer texts keep this many characters, half from the head and half from the tail. */
export const MAX_SHAPE_INPUT = 8192;
/** The longest quoted text masked as one quote; a longer run is left to the other masks. */
const MAX_QUOTE = 2000;

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * Quoted text, opened where no word character precedes the quote (so the apostrophe of "don't" opens
 * nothing) and closed where none follows it. Double quotes honour backslash escapes.
 */
const QUOTED = new RegExp(
  [
    `(?<![\\w'"])"(?:[^"\\\\]|\\\\[\\s\\S]){0,${MAX_QUOTE}}"(?![\\w"])`,
    `(?<![\\w'"])'[^']{0,${MAX_QUOTE}}'(?![\\w'])`,
    `\`[^\`]{0,${MAX_QUOTE}}[\`']`,
    `‘[^’]{0,${MAX_QUOTE}}’`,
    `“[^”]{0,${MAX_QUOTE}}”`,
    `«[^»]{0,${MAX_QUOTE}}»`,
    `„[^“”]{0,${MAX_QUOTE}}[“”]`,
  ].join('|'),
  'g',
);

const URL = /\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s'"`<>()[\]{}]+/gi;
/** Something that looks like host:port or an address, e.g. `127.0.0.1:5432`, `[::1]:80`. */
const ADDRESS = /(?<![\w.:])(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\])(?::\d{1,5})?(?![\w.])/gi;
/**
 * A path: a run of path characters holding a separator (`/tmp/x`, `./a`, `src/b.ts`, `C:\x\y`), or a
 * file name with an extension (`notes.md`, `rate_limit.py`), or `~`-relative.
 */
const PATH =
  /(?<![\w<>])(?:[a-z]:\\|~\/|\.{1,2}\/|\/)?[\w.@+-]+(?:[\\/][\w.@+-]+)+[\\/]?|(?<![\w<>])(?:\.{1,2}|~)?\/(?![\w])|(?<![\w.<>/-])[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,5}(?![\w(])/gi;
/**
 * A flag as a command line writes it: `--no-verify`, `--depth=1`, `-rf`, after the start of a line,
 * white space or `=([,`. The dash comes first and what stands before it is looked at behind it, so
 * that the scan looks only at dashes (a look-behind first is tried at every position of the text).
 */
const FLAG = /-(?<=(?:^|[\s=([,])-)-?[a-z][\w-]*(?:=\S*)?/gim;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** A hex digest or commit (7+ hex digits, at least one digit and one letter, or 12+ digits). */
const HEX = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi;
/** A word that mixes letters and digits: `req_8fK2`, `abc123`, `i-0a1b`. Versions are numbers. */
const MIXED_ID = /\b(?=[\w-]*\d)(?=[\w-]*[a-z])[a-z0-9][\w-]*[a-z0-9]\b/gi;
/**
 * A name the call made up or looked up: snake_case with a lower-case letter (`old_string`,
 * `get_weather`; `ERR_MODULE_NOT_FOUND` names an error and stays) or camelCase (`getUser`).
 */
const SNAKE_NAME = /\b(?=\w*[a-z])[A-Za-z]\w*_\w+\b/g;
const CAMEL_NAME = /\b[a-z]+[A-Z]\w*\b/g;
/** Numbers, with their decimals, versions and units glued on (`1.2.3`, `30s`, `500ms`, `2.5GB`). */
const NUMBER = /(?<![\w<])[-+]?\d+(?:[.,:]\d+)*(?:[a-z]{1,3})?(?![\w>])/gi;
/**
 * White space that collapsing changes: a run of two or more characters, or one that is not a
 * space. Single spaces, most of a text's white space, are already what a run becomes.
 */
const WHITE_SPACE_TO_COLLAPSE = /\s{2,}|[^\S ]/g;
/** A placeholder run: `<id>.<id>`, `<path>:<id>:<id>` are one masked value. */
const RUN_OF_PLACEHOLDERS = /<(q|url|path|flag|id)>(?:[.:\-/]?<(?:q|url|path|flag|id)>)+/g;

/** A status or error code names the kind of error, not a value: `HTTP 404`, `-32602`. */
const STATUS_BEFORE = /(?:http|status|code|error|errno)[\s:=/"'(]{0,3}$/i;
/** Words that are codes or names, not ids: `TS2304`, `E404`, `utf8`, `http2`, `x509`. */
const CODE_WORD = /^(?:[A-Z]{1,4}\d{1,5}|[a-z]+\d{1,3}|[A-Z][A-Z_]*_\d+)$/;

function isErrorCode(number: string, before: string): boolean {
  if (/^-32\d{3}$/.test(number)) return true;
  return /^[1-5]\d\d$/.test(number) && STATUS_BEFORE.test(before);
}

/** The text to shape: head and tail of a long one. */
function bounded(text: string): string {
  if (text.length <= MAX_SHAPE_INPUT) return text;
  const half = MAX_SHAPE_INPUT / 2;
  return `${text.slice(0, half)}\n${text.slice(text.length - half)}`;
}

/** Marks in a text, each needed by some mask: a mask is skipped when the text lacks its mark. */
const DIGIT = 1;
const DASH = 2;
/** `/`, `\\` or `.`, one of which every path holds. */
const PATH_MARK = 4;
/** A lower-case letter followed by an upper-case one, as in every camelCase name. */
const CAMEL_MARK = 8;
/** Seven hex digits in a row, as in every hex digest. */
const HEX_RUN = 16;
/** Eight hex digits and a dash, as a UUID begins. */
const UUID_START = 32;
/** `[`, or digits and dots holding three dots, as every address does. */
const ADDRESS_MARK = 64;
/** Three digits in a row, as every status code and JSON-RPC error code holds. */
const DIGIT_RUN = 128;

/**
 * The marks `text` holds, in one pass. A placeholder (`<id>`, `<path>`…) holds no digit, dash, dot,
 * slash or upper-case letter, holds no two hex digits in a row, and is closed by `<` and `>`: masking
 * never adds a mark, so the marks of the text before the masks are a superset of those after each.
 */
function marksOf(text: string): number {
  let marks = 0;
  let hexRun = 0;
  let digitRun = 0;
  let dots = 0;
  let lowerBefore = false;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    // Most of a text: lower-case letters past `f` and spaces, which only end runs.
    if (code >= 103 && code <= 122) {
      hexRun = 0;
      digitRun = 0;
      dots = 0;
      lowerBefore = true;
      continue;
    }
    if (code === 32) {
      hexRun = 0;
      digitRun = 0;
      dots = 0;
      lowerBefore = false;
      continue;
    }
    let lower = false;
    if (code >= 48 && code <= 57) {
      marks |= DIGIT;
      if (++hexRun >= 7) marks |= HEX_RUN;
      if (++digitRun >= 3) marks |= DIGIT_RUN;
    } else {
      digitRun = 0;
      if ((code >= 97 && code <= 102) || (code >= 65 && code <= 70)) {
        if (++hexRun >= 7) marks |= HEX_RUN;
      } else if (code === 45) {
        marks |= DASH;
        if (hexRun >= 8) marks |= UUID_START;
        hexRun = 0;
      } else {
        hexRun = 0;
      }
      if (code === 46) {
        marks |= PATH_MARK;
        if (++dots >= 3) marks |= ADDRESS_MARK;
      } else {
        dots = 0;
        if (code === 47 || code === 92) marks |= PATH_MARK;
        else if (code === 91) marks |= ADDRESS_MARK;
      }
      if (code >= 97 && code <= 122) lower = true;
      else if (lowerBefore && code >= 65 && code <= 90) marks |= CAMEL_MARK;
    }
    lowerBefore = lower;
  }
  return marks;
}

/**
 * The error's shape: the text with its values masked (see the module comment). Two failures of one
 * tool with the same shape failed the same way, whatever the arguments were. One pass finds which
 * masks the text can hold (see `marksOf`); only those are run.
 */
export function errorShape(text: string): string {
  return recentShapes.of(String(text));
}

function shapeOf(text: string): string {
  const P = ERROR_SHAPE_PLACEHOLDERS;
  let shape = bounded(text);
  if (shape.includes('\u001b')) shape = shape.replace(ANSI, '');
  shape = shape.replace(QUOTED, P.quote);
  // Most errors hold no URL and no snake_case name: skip those scans (a third of the work) then.
  if (shape.includes('://')) shape = shape.replace(URL, P.url);
  const marks = marksOf(shape);
  if ((marks & UUID_START) !== 0) shape = shape.replace(UUID, P.id);
  if ((marks & ADDRESS_MARK) !== 0) shape = shape.replace(ADDRESS, P.url);
  if ((marks & PATH_MARK) !== 0) shape = maskPaths(shape);
  if ((marks & DASH) !== 0) shape = shape.replace(FLAG, P.flag);
  if ((marks & HEX_RUN) !== 0) shape = shape.replace(HEX, P.id);
  if ((marks & DIGIT) !== 0) shape = maskNumbersAndIds(shape, (marks & DIGIT_RUN) !== 0);
  if (shape.includes('_')) shape = shape.replace(SNAKE_NAME, P.id);
  if ((marks & CAMEL_MARK) !== 0) shape = maskCamelNames(shape);
  return collapsed(shape);
}

/** A lower-case letter before an upper-case one: where every camelCase name turns. */
const CAMEL_TURN = /[a-z][A-Z]/g;

/**
 * `text.replace(CAMEL_NAME, '<id>')`, reading only the words that turn from a lower-case letter to an
 * upper-case one. A match is a whole word (a run of `\w`: it starts at a word boundary and its `\w*`
 * runs to the next), one whose leading lower-case letters are followed by an upper-case one; a word
 * that turns later (`a1bC`) or starts otherwise (`GetUser`) is no match wherever it turns.
 */
function maskCamelNames(text: string): string {
  let out = '';
  let copied = 0;
  const length = text.length;
  CAMEL_TURN.lastIndex = 0;
  for (let found = CAMEL_TURN.exec(text); found !== null; found = CAMEL_TURN.exec(text)) {
    const turn = found.index;
    let start = turn;
    while (start > 0 && isWordCharacter(text.charCodeAt(start - 1))) start--;
    let end = turn + 2;
    while (end < length && isWordCharacter(text.charCodeAt(end))) end++;
    CAMEL_TURN.lastIndex = end;
    let lower = start;
    while (lower <= turn && text.charCodeAt(lower) >= 97 && text.charCodeAt(lower) <= 122) lower++;
    if (lower !== turn + 1) continue;
    out += `${text.slice(copied, start)}${ERROR_SHAPE_PLACEHOLDERS.id}`;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Characters a match of `PATH` is made of, by ASCII code: word characters, `.@+-/~:` and the backslash. */
const PATH_CHARACTER = new Uint8Array(128);
for (const character of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@+-/\\~:') {
  PATH_CHARACTER[character.charCodeAt(0)] = 1;
}

function isPathCharacter(code: number): boolean {
  return code < 128 && PATH_CHARACTER[code] === 1;
}

/** What a run of path characters is to `PATH`, read character by character (see `readPathRun`). */
const CANNOT_MATCH = 0;
const WHOLE_PATH = 1;
const ASK_EXPRESSION = 2;

/** `[\w.@+-]`: what a segment of a path is made of, by ASCII code. */
const SEGMENT_CHARACTER = new Uint8Array(128);
for (const character of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@+-') {
  SEGMENT_CHARACTER[character.charCodeAt(0)] = 1;
}

/**
 * What `PATH` makes of the run of path characters `text[start, end)`, told without running it in the
 * two cases most runs are:
 * - `WHOLE_PATH`: segments of `[\w.@+-]` joined by single slashes, at least two of them, a slash
 *   before the first and after the last allowed, and no `<` or `>` before the run. The first
 *   alternative matches it from its first character to its last: its greedy parts take each
 *   segment and each slash in turn, and nothing after them is looked at.
 * - `CANNOT_MATCH`: no slash, no backslash, and no `.` followed by a letter. The first two
 *   alternatives need a slash or a backslash, the third a `.` and a letter after it.
 * Anything else (a backslash, `~`, `:`, a file name with an extension) is `ASK_EXPRESSION`.
 */
function readPathRun(text: string, start: number, end: number): number {
  let slashes = 0;
  let plain = true;
  let dotLetter = false;
  let segment = 0;
  let first = start;
  if (text.charCodeAt(start) === 47) first++;
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === 47) {
      slashes++;
      // A slash opening the run, or one closing it, is allowed; any other needs a segment before it.
      if (at >= first && segment === 0) plain = false;
      segment = 0;
    } else if (code < 128 && SEGMENT_CHARACTER[code] === 1) {
      segment++;
      if (code === 46 && at + 1 < end && isAsciiLetter(text.charCodeAt(at + 1))) dotLetter = true;
    } else {
      // A backslash, `~` or `:`.
      plain = false;
      if (code === 92) slashes++;
    }
  }
  if (slashes === 0) return dotLetter ? ASK_EXPRESSION : CANNOT_MATCH;
  const before = start > 0 ? text.charCodeAt(start - 1) : 0;
  if (!plain || before === 60 || before === 62) return ASK_EXPRESSION;
  // Segments between the slashes: at least two, so a slash between two of them.
  const closing = text.charCodeAt(end - 1) === 47 ? 1 : 0;
  const opening = first > start ? 1 : 0;
  return slashes - opening - closing >= 1 ? WHOLE_PATH : ASK_EXPRESSION;
}

/** Everything up to the next `/`, `.` or backslash, where every path holds one. */
const TO_PATH_MARK = /[^./\\]*/y;
/** Everything up to the next digit. */
const TO_DIGIT = /\D*/y;

/**
 * Where the first character after `from` that `skip` does not take is (the text's length if none):
 * an expression reads past the characters a mask has no use for several times faster than a loop
 * that reads them one by one, and most of a long error is such characters.
 */
function skipped(skip: RegExp, text: string, from: number): number {
  skip.lastIndex = from;
  skip.test(text);
  return skip.lastIndex;
}

/**
 * `text.replace(PATH, '<path>')`, run only on the runs of path characters that hold a `/`, a backslash or a
 * `.`, one of which every match holds. A match lies within one run, and what the expression reads
 * beside a match (one character before it, one after) is the run's neighbour at most: so each run is
 * replaced apart, with its two neighbours as context, and the words between paths (most of a test
 * log's text) are never scanned by the expression.
 */
function maskPaths(text: string): string {
  let out = '';
  let copied = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    index = skipped(TO_PATH_MARK, text, index);
    if (index >= length) break;
    let start = index;
    while (start > 0 && isPathCharacter(text.charCodeAt(start - 1))) start--;
    let end = index + 1;
    while (end < length && isPathCharacter(text.charCodeAt(end))) end++;
    const reading = readPathRun(text, start, end);
    if (reading === CANNOT_MATCH) {
      index = end - 1;
      continue;
    }
    if (reading === WHOLE_PATH) {
      out += `${text.slice(copied, start)}${ERROR_SHAPE_PLACEHOLDERS.path}`;
      copied = end;
      index = end - 1;
      continue;
    }
    const from = start > 0 ? start - 1 : 0;
    const to = end < length ? end + 1 : end;
    const window = text.slice(from, to);
    const masked = window.replace(PATH, ERROR_SHAPE_PLACEHOLDERS.path);
    if (masked !== window) {
      // The neighbours are no path characters, so no match took them: they end the masked window as they began it.
      out += text.slice(copied, start) + masked.slice(start - from, masked.length - (to - end));
      copied = end;
    }
    index = end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Numbers, then words mixing letters and digits. A text without three digits in a row (`mayHoldCodes`
 * false) holds no status code and no JSON-RPC code: every number in it is a value, and the
 * replacement is made without asking a function about each one.
 */
function maskNumbersAndIds(text: string, mayHoldCodes: boolean): string {
  return maskMixedIds(maskNumbers(text, mayHoldCodes));
}

function maskNumbers(text: string, mayHoldCodes: boolean): string {
  const P = ERROR_SHAPE_PLACEHOLDERS;
  return mayHoldCodes
    ? text.replace(NUMBER, (number, at: number, whole: string) =>
        // A code has three digits or more: `3`, `12`, `7s` are numbers.
        number.length >= 3 && isErrorCode(number, whole.slice(Math.max(0, at - 12), at)) ? number : P.number,
      )
    : text.replace(NUMBER, P.number);
}

const maskMixedId = (word: string): string => (CODE_WORD.test(word) ? word : ERROR_SHAPE_PLACEHOLDERS.id);

/** Whether a character is one `MIXED_ID` reads within a word: a word character or `-`. */
function isIdCharacter(code: number): boolean {
  return isWordCharacter(code) || code === 45;
}

/**
 * `text.replace(MIXED_ID, …)`, run only on the runs of word characters and dashes that hold a digit.
 * Every match holds a digit and lies within one such run, and what the expression reads around a
 * run (a word boundary, the end of its look-aheads) is the same as at the ends of the run alone: so
 * replacing in each run apart gives the same text, and the rest of the text, most of a long error
 * once its numbers are masked, is never scanned by the expression.
 */
function maskMixedIds(text: string): string {
  let out = '';
  let copied = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    index = skipped(TO_DIGIT, text, index);
    if (index >= length) break;
    let start = index;
    while (start > copied && isIdCharacter(text.charCodeAt(start - 1))) start--;
    let end = index + 1;
    while (end < length && isIdCharacter(text.charCodeAt(end))) end++;
    const run = text.slice(start, end);
    const masked = namedAsId(text, start, end)
      ? ERROR_SHAPE_PLACEHOLDERS.id
      : run.replace(MIXED_ID, maskMixedId);
    if (masked !== run) {
      out += text.slice(copied, start) + masked;
      copied = end;
    }
    index = end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The label of a value drawn for the run just before a word (`run `, `container id: `, `trace=`). */
const ID_LABEL_BEFORE = /\b(?:id|run|container|request|trace|session)[:=#]?\s?$/i;
/** Letters and digits a labelled id holds at least: `run test1` names a written step. */
const LABELLED_ID_LENGTH = 8;

/**
 * Whether the word from `start` to `end` (one holding a digit) is the value an id's label names,
 * whatever its letters and digits (`run zsmszzhla27` reads as a code word, `zsmszzhla` and `27`).
 */
function namedAsId(text: string, start: number, end: number): boolean {
  return (
    end - start >= LABELLED_ID_LENGTH && ID_LABEL_BEFORE.test(text.slice(Math.max(0, start - 16), start))
  );
}

/** The masked text lower-cased, its placeholder runs made one and its white space collapsed. */
function collapsed(masked: string): string {
  // A run becomes its first placeholder, `<` and the run's first name and `>`: written as a
  // replacement text, not a function called for each run.
  const shape = masked.toLowerCase().replace(RUN_OF_PLACEHOLDERS, '<$1>');
  return shape.replace(WHITE_SPACE_TO_COLLAPSE, ' ').trim();
}

/**
 * `errorShape` running every mask, each with the plainest expression of it: what `errorShape` must
 * equal, for tests.
 */
export function errorShapeExhaustively(text: string): string {
  const P = ERROR_SHAPE_PLACEHOLDERS;
  let shape = bounded(String(text)).replace(ANSI, '');
  shape = shape.replace(QUOTED, P.quote);
  shape = shape.replace(URL, P.url);
  shape = shape.replace(UUID, P.id);
  shape = shape.replace(ADDRESS, P.url);
  shape = shape.replace(PATH, P.path);
  shape = shape.replace(/(?<=^|[\s=([,])--?[a-z][\w-]*(?:=\S*)?/gim, P.flag);
  shape = shape.replace(HEX, P.id);
  shape = maskNumbers(shape, true);
  shape = shape.replace(/[\w-]*\d[\w-]*/g, (run: string, at: number, whole: string) =>
    namedAsId(whole, at, at + run.length) ? P.id : run.replace(MIXED_ID, maskMixedId),
  );
  shape = shape.replace(SNAKE_NAME, P.id);
  shape = shape.replace(CAMEL_NAME, P.id);
  shape = shape.toLowerCase();
  shape = shape.replace(RUN_OF_PLACEHOLDERS, (run) => run.slice(0, run.indexOf('>') + 1));
  return shape.replace(/\s+/g, ' ').trim();
}

/** Whether two error texts have one shape. */
export function sameErrorShape(a: string, b: string): boolean {
  return errorShape(a) === errorShape(b);
}
