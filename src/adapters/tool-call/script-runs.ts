/**
 * A command line that runs one program file and does nothing else (`python3 solve.py`,
 * `./run_check.sh`, `cd ctf && node exploit.js`): what it does is the file's to say, and only a
 * change can make the same line do something else.
 */
import type { SyntaxNode } from 'unbash';
import { isLiteralWord } from './shell-effects.js';
import { readableTree } from './shell-parse.js';

/** Interpreters given a script file to run. */
const INTERPRETER = /^(?:python[\d.]*|pypy3?|node|bash|sh|zsh|ruby|perl|php|lua|sage|deno|bun|tsx|ts-node)$/;
/** A script file by its extension, not an option. */
const SCRIPT_FILE = /^[^-\s][^\n]*\.(?:py|sage|m?[jt]s|c[jt]s|sh|rb|pl|php|lua)$/;
/** A program named by its path, from here, from home or from the root; a folder is no program. */
const PROGRAM_PATH = /^(?:\.{1,2}|~)?\/[^\n]*[^/\s]$/;
/** Lines longer than this are not read: a script run is a short line. */
const MAX_LINE_CHARS = 1_024;

type Command = Extract<SyntaxNode, { type: 'Command' }>;
type CommandArgument = Command['args'][number];

/**
 * Whether the line runs one program file and nothing else, after moves of the directory: its
 * commands, in statements or a `&&` list, are `cd PLACE`s and then one plain command (no pipe,
 * redirection, background job or expansion), read as the shell reads it.
 */
export function runsScriptFile(line: string): boolean {
  return scriptFileRun(line) !== undefined;
}

/** The program file the line runs, as it names it (see `runsScriptFile`); undefined for any other line. */
export function scriptFileRun(line: string): string | undefined {
  if (line.length > MAX_LINE_CHARS) return undefined;
  const commands = plainCommands(line);
  if (commands === undefined) return undefined;
  const last = commands.pop();
  if (last === undefined || !commands.every(movesDirectory) || movesDirectory(last)) return undefined;
  if (!last.every((word) => word.type === 'Word' && isLiteralWord(word))) return undefined;
  const [program, ...args] = last.map((word) => (word as { value: string }).value);
  if (program === undefined) return undefined;
  if (PROGRAM_PATH.test(program)) return program;
  if (!INTERPRETER.test(program)) return undefined;
  const file = args.find((word) => !word.startsWith('-'));
  return file !== undefined && SCRIPT_FILE.test(file) ? file : undefined;
}

/** A file whose name says it is a script (`fix.py`, `migrate.cjs`, `run.sh`). */
export function isScriptFile(path: string): boolean {
  return SCRIPT_FILE.test(path);
}

/** `cd PLACE`, wherever the place is: the commands after it run there. */
function movesDirectory(words: readonly CommandArgument[]): boolean {
  const [name, place] = words;
  return words.length === 2 && name?.type === 'Word' && name.value === 'cd' && place?.type === 'Word';
}

/**
 * The words of each command of the line, in order, when every command is one program without
 * redirections and they are joined only by `&&`, `;` or new lines; undefined otherwise (and for a
 * line the parser cannot read).
 */
function plainCommands(line: string): (readonly CommandArgument[])[] | undefined {
  const script = readableTree(line);
  if (script?.type !== 'Script') return undefined;
  const commands: (readonly CommandArgument[])[] = [];
  for (const statement of script.commands) {
    if (statement.background) return undefined;
    const node = statement.command;
    const parts = node.type === 'AndOr' ? node.commands : [node];
    if (node.type === 'AndOr' && node.operators.some((operator) => operator !== '&&')) return undefined;
    for (const part of parts) {
      const words = part.type === 'Command' ? wordsOf(part) : undefined;
      if (words === undefined) return undefined;
      commands.push(words);
    }
  }
  return commands;
}

/** A command's name and arguments, its environment assignments left out; undefined with redirections. */
function wordsOf(command: Command): readonly CommandArgument[] | undefined {
  if (command.name === undefined || command.redirects.length > 0) return undefined;
  return [command.name, ...command.args];
}
