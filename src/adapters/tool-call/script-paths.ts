/**
 * The files a script's text names in quotes (`fs.readFileSync('routes/webhooks.js', 'utf8')`,
 * `open("config/settings.yaml", "w")`, `Path('src') / 'app.py'` names `app.py`): what running it may
 * read or write. An agent whose edits keep failing writes a script that makes the change and runs
 * it; the line that runs it names only the script, so the files the script changed are read from
 * what the agent wrote into it.
 */
import { normalizeTarget } from './targets.js';

/** Only the start of a long text is read: a script that rewrites files names them early. */
const MAX_SCRIPT_CHARS = 64_000;
/** At most this many files are kept per script: more is a data file, not a script's targets. */
const MAX_PATHS = 32;
/**
 * A literal in single, double or back quotes, on one line, without blanks. Only its opening quote
 * is consumed, so that a closing quote taken for an opening one (`('fs').write('a.js')`) leaves the
 * next literal's opening quote to be read as one.
 */
const QUOTED = /(["'`])(?=([^"'`\s]{3,260})\1)/g;
/** A file's name: something, a dot, then an extension that starts with a letter (`1.2.3` is none). */
const FILE_NAME = /[^/\\]\.[A-Za-z][A-Za-z0-9]{0,7}$/;
/** A URL, a module of a registry or of the runtime, a glob: no file of the workspace. */
const NOT_A_FILE = /:\/\/|^@|^node:|[*?{}<>|$%]/;

/** The files the script text names in quotes, in normal form; empty when it names none. */
export function pathsNamedInScript(text: string): readonly string[] {
  const found = new Set<string>();
  for (const match of text.slice(0, MAX_SCRIPT_CHARS).matchAll(QUOTED)) {
    const literal = match[2] as string;
    if (!FILE_NAME.test(literal) || NOT_A_FILE.test(literal)) continue;
    found.add(normalizeTarget(literal.replaceAll('\\\\', '\\')));
    if (found.size >= MAX_PATHS) break;
  }
  return [...found];
}
