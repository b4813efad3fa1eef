/**
 * A command line that runs one program file and does nothing else (`python3 solve.py`,
 * `./run_check.sh`, `cd ctf && node exploit.js`): what it does is the file's to say, and only a
 * change can make the same line do something else.
 */

/** Interpreters given a script file to run. */
const INTERPRETER = /^(?:python[\d.]*|pypy3?|node|bash|sh|zsh|ruby|perl|php|lua|sage|deno|bun|tsx|ts-node)$/;
/** A script file by its extension, not an option. */
const SCRIPT_FILE = /^[^-\s][^\s]*\.(?:py|sage|m?[jt]s|c[jt]s|sh|rb|pl|php|lua)$/;
/** A program named by its path, from here, from home or from the root; a folder is no program. */
const PROGRAM_PATH = /^(?:\.{1,2}|~)?\/[^\s]*[^/\s]$/;
/** What makes a line more than one command: a pipe, a redirection, a list, a background job. */
const MORE_THAN_ONE = /[|<>&;`$()]/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/;
const MOVE = /^cd\s+\S+$/;

/** Whether the line runs one program file and nothing else (after a move of the directory). */
export function runsScriptFile(line: string): boolean {
  const parts = line
    .split(/&&|\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  while (parts.length > 1 && MOVE.test(parts[0] as string)) parts.shift();
  if (parts.length !== 1) return false;
  const command = parts[0] as string;
  if (MORE_THAN_ONE.test(command)) return false;
  const words = command.split(/\s+/).filter((word) => !ASSIGNMENT.test(word));
  const program = words[0];
  if (program === undefined) return false;
  if (PROGRAM_PATH.test(program)) return true;
  if (!INTERPRETER.test(program)) return false;
  const file = words.slice(1).find((word) => !word.startsWith('-'));
  return file !== undefined && SCRIPT_FILE.test(file);
}
