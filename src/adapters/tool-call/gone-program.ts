/**
 * A program gone from under a command. A shell that reports an absolute path missing
 * (`bash: /usr/local/bin/node: No such file or directory`) when the command never named that path
 * was sent there by the environment: a hashed location of a program that moved, a wrapper or a
 * launcher pointing at an interpreter that is gone. Whatever the agent sends next through that
 * program fails alike until the installation is repaired, so the failure is the environment's. A
 * path the command names (`bash: /app/run.sh: No such file or directory` for `/app/run.sh`) is the
 * agent's own guess, read as a missing file.
 */

import { argumentsHold } from './argument-texts.js';
import { programName } from './program-name.js';

/** A shell's report of an absolute path it could not run: the shell, the path, the reason. */
const SHELL_PATH_MISSING =
  /^(?:[\w./-]*\/)?(?:ba|da|z|k)?sh: (?:line \d+: )?(\/[^\s:]{1,400}): No such file or directory$/m;
/** The head of the text the report is looked for in: a shell's own line opens a command's output. */
const SCANNED_CHARS = 4096;

/** Whether the shell could not find an absolute path the call's arguments never named. */
export function programGoneUnderCall(text: string, args: Readonly<Record<string, unknown>>): boolean {
  const match = SHELL_PATH_MISSING.exec(text.slice(0, SCANNED_CHARS));
  if (match === null) return false;
  const path = match[1] as string;
  const name = programName(path);
  return !argumentsHold(args, path) && !argumentsHold(args, name);
}
