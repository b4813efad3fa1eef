/**
 * The files a script's text names in quotes (`fs.readFileSync('routes/webhooks.js', 'utf8')`,
 * `open("config/settings.yaml", "w")`, `Path('src') / 'app.py'` names `app.py`): what running it may
 * read or write. An agent whose edits keep failing writes a script that makes the change and runs
 * it; the line that runs it names only the script, so the files the script changed are read from
 * what the agent wrote into it.
 *
 * A literal is a run of characters without quotes or blanks between two quotes of one kind, of 3 to
 * 260 characters; it names a file when it ends with an extension. Every script file an agent edits
 * is read, most of them never run, so the scan looks for the rare part first: an extension right
 * before a quote (`.js'`), then reads back to the literal's opening quote. A quote closing one
 * literal may open the next (`('fs').write('a.js')`).
 */
import { normalizeTarget } from './targets.js';

/** Only the start of a long text is read: a script that rewrites files names them early. */
const MAX_SCRIPT_CHARS = 64_000;
/** At most this many files are kept per script: more is a data file, not a script's targets. */
const MAX_PATHS = 32;
const MAX_LITERAL = 260;
/** An extension that starts with a letter (`1.2.3` has none), then the quote that closes a literal. */
const EXTENSION_THEN_QUOTE = /\.[A-Za-z][A-Za-z0-9]{0,7}(["'`])/g;
/** What bounds a literal: a quote or a blank. */
const BOUNDARY = /["'`\s]/;
/** What a file's name cannot have right before its extension's dot. */
const NOT_BEFORE_EXTENSION = /[/\\"'`\s]/;
/** A URL, a module of a registry or of the runtime, a glob: no file of the workspace. */
const NOT_A_FILE = /:\/\/|^@|^node:|[*?{}<>|$%]/;

/** The files the script text names in quotes, in normal form; empty when it names none. */
export function pathsNamedInScript(text: string): readonly string[] {
  const found = new Set<string>();
  const read = text.slice(0, MAX_SCRIPT_CHARS);
  for (const match of read.matchAll(EXTENSION_THEN_QUOTE)) {
    const literal = literalBefore(read, match.index, match.index + match[0].length - 1);
    if (literal === undefined || NOT_A_FILE.test(literal)) continue;
    found.add(normalizeTarget(literal.replaceAll('\\\\', '\\')));
    if (found.size >= MAX_PATHS) break;
  }
  return [...found];
}

/**
 * The literal whose extension's dot is at `dot` and whose closing quote is at `close`: undefined when
 * the characters back from the dot reach no opening quote of the same kind within a literal's length.
 */
function literalBefore(text: string, dot: number, close: number): string | undefined {
  if (dot === 0 || NOT_BEFORE_EXTENSION.test(text[dot - 1] as string)) return undefined;
  let start = dot - 1;
  while (start > 0 && close - start <= MAX_LITERAL && !BOUNDARY.test(text[start - 1] as string)) start--;
  // A name, its dot and an extension's letter: never shorter than a literal's 3 characters.
  if (start === 0 || text[start - 1] !== text[close] || close - start > MAX_LITERAL) return undefined;
  return text.slice(start, close);
}
