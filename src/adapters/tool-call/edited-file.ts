/**
 * The file an editor tool's edit changes when its path argument has a name no list knows
 * (`target_notebook`, `edited_path`, `sourceFile`): an argument whose last word says it is a path
 * or a file and whose value is one line of text. Only for edits, which must change some file.
 */

/** Last words of argument names that hold a file's path. */
const PATH_WORDS = new Set(['path', 'file', 'filename', 'filepath', 'notebook', 'document', 'uri']);
const MAX_KEYS = 64;
const MAX_PATH_CHARS = 4_096;

/** `target_notebook` → `notebook`, `sourceFile` → `file`, `edited-path` → `path`. */
function lastWordOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_\-.\s]+/)
    .filter((word) => word !== '');
  return words[words.length - 1] ?? '';
}

/** The values of arguments named as paths, in argument order; empty when there are none. */
export function editedFilesByName(args: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  let seen = 0;
  for (const key in args) {
    if (!Object.hasOwn(args, key)) continue;
    if (++seen > MAX_KEYS) break;
    const value = args[key];
    if (typeof value !== 'string') continue;
    const text = value.trim();
    if (text === '' || text.length > MAX_PATH_CHARS || text.includes('\n')) continue;
    if (PATH_WORDS.has(lastWordOf(key))) out.push(text);
  }
  return out;
}
