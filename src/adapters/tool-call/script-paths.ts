/**
 * The files a script's text names in quotes (`fs.readFileSync('routes/webhooks.js', 'utf8')`,
 * `open("config/settings.yaml", "w")`, `Path('src') / 'app.py'` names `app.py`): what running it may
 * read or write. An agent whose edits keep failing writes a script that makes the change and runs
 * it; the line that runs it names only the script, so the files the script changed are read from
 * what the agent wrote into it.
 *
 * A literal is a run of characters without quotes or blanks between two quotes of one kind, of 3 to
 * 260 characters; it names a file when it ends with an extension. Every script file an agent edits
 * is read, most of them never run, so the scan looks for the rare part first: it goes from dot to
 * dot, takes a dot that starts an extension closed by a quote (`.js'`), then reads back to the
 * literal's opening quote. A quote closing one literal may open the next (`('fs').write('a.js')`).
 */
import { normalizeTarget } from './targets.js';
import { isAsciiDigit, isAsciiLetter, isWhiteSpace } from './white-space.js';

/** Only the start of a long text is read: a script that rewrites files names them early. */
const MAX_SCRIPT_CHARS = 64_000;
/** At most this many files are kept per script: more is a data file, not a script's targets. */
const MAX_PATHS = 32;
const MAX_LITERAL = 260;
/** An extension: a letter, then at most this many letters or digits, then the quote that closes a literal. */
const MAX_EXTENSION_TAIL = 7;
/** A URL, a module of a registry or of the runtime, a glob: no file of the workspace. */
const NOT_A_FILE = /:\/\/|^@|^node:|[*?{}<>|$%]/;

/** The files the script text names in quotes, in normal form; empty when it names none. */
export function pathsNamedInScript(text: string): readonly string[] {
  const found = new Set<string>();
  const end = Math.min(text.length, MAX_SCRIPT_CHARS);
  // From dot to dot: a dot is rarer than the characters a pattern tries one by one.
  for (let dot = text.indexOf('.'); dot !== -1 && dot < end; dot = text.indexOf('.', dot + 1)) {
    const close = closingQuoteAfterExtension(text, dot, end);
    if (close === -1) continue;
    const literal = literalBefore(text, dot, close);
    if (literal === undefined || NOT_A_FILE.test(literal)) continue;
    found.add(normalizeTarget(literal.replaceAll('\\\\', '\\')));
    if (found.size >= MAX_PATHS) break;
  }
  return [...found];
}

/**
 * Where the quote that closes the extension starting at the dot at `dot` is (`.js'`): an extension
 * starts with a letter (`1.2.3` has none); -1 when no quote follows it before `end`.
 */
function closingQuoteAfterExtension(text: string, dot: number, end: number): number {
  if (dot + 1 >= end || !isAsciiLetter(text.charCodeAt(dot + 1))) return -1;
  const last = Math.min(end, dot + 3 + MAX_EXTENSION_TAIL);
  for (let at = dot + 2; at < last; at++) {
    const code = text.charCodeAt(at);
    if (code === 34 || code === 39 || code === 96) return at;
    if (!isAsciiLetter(code) && !isAsciiDigit(code)) return -1;
  }
  return -1;
}

/**
 * The literal whose extension's dot is at `dot` and whose closing quote is at `close`: undefined when
 * the characters back from the dot reach no opening quote of the same kind within a literal's length.
 */
function literalBefore(text: string, dot: number, close: number): string | undefined {
  if (dot === 0) return undefined;
  // What a file's name cannot have right before its extension's dot: a slash (`src/.env` is all
  // name, no extension) or what bounds a literal.
  const before = text.charCodeAt(dot - 1);
  if (before === 47 || before === 92 || isBoundary(before)) return undefined;
  let start = dot - 1;
  while (start > 0 && close - start <= MAX_LITERAL && !isBoundary(text.charCodeAt(start - 1))) start--;
  // A name, its dot and an extension's letter: never shorter than a literal's 3 characters.
  if (start === 0 || text.charCodeAt(start - 1) !== text.charCodeAt(close) || close - start > MAX_LITERAL)
    return undefined;
  return text.slice(start, close);
}

/** What bounds a literal: a quote or a blank. */
function isBoundary(code: number): boolean {
  return code === 34 || code === 39 || code === 96 || isWhiteSpace(code);
}
