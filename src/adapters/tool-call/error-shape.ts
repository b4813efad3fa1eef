/**
 * The shape of an error text: what stays when the values a call put into it are masked. Quoted text
 * (multi-line included), URLs, paths, command-line flags, ids (UUIDs, hex digests, mixed letters and
 * digits, snake_case and camelCase names) and numbers are replaced by placeholders, letters are lower-cased and white space is
 * collapsed, so that one error reported for different arguments — or in slightly different
 * wordings of the same tool — is one shape:
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

/** What a placeholder stands for. */
export type ErrorShapePart = 'quote' | 'url' | 'path' | 'flag' | 'id' | 'number';

export const ERROR_SHAPE_PLACEHOLDERS: Readonly<Record<ErrorShapePart, string>> = {
  quote: '<q>',
  url: '<url>',
  path: '<path>',
  flag: '<flag>',
  id: '<id>',
  number: '<n>',
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
/** A flag as a command line writes it: `--no-verify`, `--depth=1`, `-rf`. */
const FLAG = /(?<=^|[\s=([,])--?[a-z][\w-]*(?:=\S*)?/gim;
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
/** A bare integer this long is an id (`2378156` as well as `W2378156`), not a count. */
const LONG_INTEGER = /^\d{5,}$/;
/** A placeholder run: `<n>.<n>`, `<path>:<n>:<n>` are one masked value. */
const RUN_OF_PLACEHOLDERS = /<(q|url|path|flag|id|n)>(?:[.:\-/]?<(?:q|url|path|flag|id|n)>)+/g;

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

/**
 * The error's shape: the text with its values masked (see the module comment). Two failures of one
 * tool with the same shape failed the same way, whatever the arguments were.
 */
export function errorShape(text: string): string {
  const P = ERROR_SHAPE_PLACEHOLDERS;
  let shape = bounded(String(text)).replace(ANSI, '');
  shape = shape.replace(QUOTED, P.quote);
  // Most errors hold no URL and no snake_case name: skip those scans (a third of the work) then.
  if (shape.includes('://')) shape = shape.replace(URL, P.url);
  shape = shape.replace(UUID, P.id);
  shape = shape.replace(ADDRESS, P.url);
  shape = shape.replace(PATH, P.path);
  shape = shape.replace(FLAG, P.flag);
  shape = shape.replace(HEX, P.id);
  shape = shape.replace(NUMBER, (number, at: number, whole: string) =>
    isErrorCode(number, whole.slice(Math.max(0, at - 12), at))
      ? number
      : LONG_INTEGER.test(number)
        ? P.id
        : P.number,
  );
  shape = shape.replace(MIXED_ID, (word) => (CODE_WORD.test(word) ? word : P.id));
  if (shape.includes('_')) shape = shape.replace(SNAKE_NAME, P.id);
  shape = shape.replace(CAMEL_NAME, P.id);
  shape = shape.toLowerCase();
  shape = shape.replace(RUN_OF_PLACEHOLDERS, (run) => run.slice(0, run.indexOf('>') + 1));
  return shape.replace(/\s+/g, ' ').trim();
}

/** Whether two error texts have one shape. */
export function sameErrorShape(a: string, b: string): boolean {
  return errorShape(a) === errorShape(b);
}
