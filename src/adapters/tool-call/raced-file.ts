/**
 * A file that was made and removed while the command ran. A missing file whose name a run draws
 * afresh (`vite.config.ts.timestamp-1732611402918-9e1c07b5d3a24.mjs`, `.cache/tmpk2v9q0xa/out.json`,
 * a uuid) and that the call did not name was not the agent's guess: another process, or the command's
 * own clean-up, made it and took it away under the command's feet (a linter walking the tree while a
 * bundler writes its temporary config). The next run draws another name and may not meet the race,
 * so the failure is the environment's, as a lock held by someone else is. A call that names the file
 * (`cat .cache/tmpk2v9q0xa/out.json`) guessed it, and stays the agent's failure.
 */

import { maskVolatile } from '../../core/identity/index.js';
import { argumentsHold } from './argument-texts.js';

/** The head of the text the missing file is looked for in. */
const SCANNED_CHARS = 4096;
/** The most missing paths one failure is read for. */
const MAX_PATHS = 4;

/**
 * A missing path as runtimes quote it: Node's `ENOENT: no such file or directory, open '…'`,
 * Python's `[Errno 2] No such file or directory: '…'`.
 */
const QUOTED_MISSING = /\b(?:ENOENT|No such file or directory)\b[^\n'"`]{0,40}['"`]([^'"`\n]{1,400})['"`]/gi;
/**
 * A missing path as a program prints it before the reason: `cat: build/x.json: No such file or directory`
 * (in the C library's words and case, so that Node's `ENOENT: no such file…` is not read as a path).
 */
const LEADING_MISSING = /(?:^|\s)([^\s:'"`]{1,400}): No such file or directory\b/gm;

/** The words every missing path above is quoted with (in any case, as `QUOTED_MISSING` reads them). */
const MISSING_WORD = /ENOENT|No such file or directory/i;

/** The masks of the values a run draws afresh for a name; a plain number (`pytest-3`) is not one. */
const DRAWN_NAME = /<(?:epoch|id|tmp|uuid)>/;

/** The paths a failure says are missing, as it quotes them (at most a few, from the head of the text). */
export function missingPaths(text: string): string[] {
  const head = text.slice(0, SCANNED_CHARS);
  const paths: string[] = [];
  // Both shapes quote one of these words: a head without them is read once, not once for each.
  if (!MISSING_WORD.test(head)) return paths;
  for (const pattern of [QUOTED_MISSING, LEADING_MISSING]) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(head); match !== null; match = pattern.exec(head)) {
      paths.push(match[1] as string);
      if (paths.length >= MAX_PATHS) return paths;
    }
  }
  return paths;
}

/** The runs of letters and digits in a path that a run draws afresh (a stamp, an id, a temporary name). */
function drawnRuns(path: string): string[] {
  return (path.match(/[A-Za-z0-9]{6,}/g) ?? []).filter((run) => maskVolatile(run, 'result') !== run);
}

/**
 * Whether the failure is a file missing under a name drawn at run time that the call did not name:
 * every missing path the failure quotes is such a file, and there is at least one.
 */
export function fileRacedUnderCall(text: string, args: Readonly<Record<string, unknown>>): boolean {
  const paths = missingPaths(text);
  if (paths.length === 0) return false;
  return paths.every((path) => {
    if (!DRAWN_NAME.test(maskVolatile(path, 'result'))) return false;
    const drawn = drawnRuns(path);
    return drawn.length > 0 && !drawn.some((run) => argumentsHold(args, run));
  });
}
