/**
 * One parse of a command line for everything the adapter reads from it: describing a command asks
 * for its effects and for its attempt key, each of which needs the syntax tree, and parsing is most
 * of the cost of either. The tree is kept on the line's reading (see `commandReading`), so every
 * later reader of the same line gets it at once. The tree is shared: its readers never change it.
 *
 * Most command lines an agent runs are one program and its plain words (`npm test -- a.test.ts`,
 * `git diff --stat src/a.ts`): those are split on spaces into the tree unbash would build for them,
 * without running its lexer and parser. Anything else (quotes, expansions, operators, redirections,
 * keywords, assignments) is parsed by unbash.
 */
import { forEachChild, parse, type SyntaxNode } from 'unbash';
import { type CommandReading, commandReading } from './command-reading.js';

/** `parse(command)` from unbash, the same tree for a line read lately. Throws as it does. */
export function parseShell(command: string): SyntaxNode {
  return treeOf(commandReading(command));
}

/** The tree of a line's reading, parsed on first use. Throws as unbash does. */
export function treeOf(reading: CommandReading): SyntaxNode {
  if (!reading.parsed) {
    try {
      reading.tree = plainCommand(reading) ?? parse(reading.text);
    } catch (error) {
      reading.parseError = error;
    }
    reading.parsed = true;
  }
  if (reading.tree === undefined) throw reading.parseError;
  return reading.tree;
}

/**
 * The tree of a line the parser reads whole, without an error it recovered from; undefined for any
 * other line. Never throws.
 */
export function readableTree(text: string): SyntaxNode | undefined {
  let tree: SyntaxNode;
  try {
    tree = parseShell(text);
  } catch {
    return undefined;
  }
  return (tree as { errors?: readonly unknown[] }).errors?.length ? undefined : tree;
}

/**
 * Visits the nodes of a tree, depth first, at most `maxNodes` of them. Returns false, having stopped,
 * when the tree holds more or when `visit` returns false; true when every node was visited.
 */
export function visitTree(
  tree: SyntaxNode,
  maxNodes: number,
  visit: (node: SyntaxNode) => boolean | undefined,
): boolean {
  const pending: SyntaxNode[] = [tree];
  let visited = 0;
  while (pending.length > 0) {
    const node = pending.pop() as SyntaxNode;
    if (++visited > maxNodes || visit(node) === false) return false;
    forEachChild(node, (child) => {
      pending.push(child);
    });
  }
  return true;
}

/** A character without which a line holds no pipeline, list, sequence or job in the background. */
const HIDING_OPERATOR = /[|;&\n]/;

/**
 * True when the line's exit status may be another command's than the one that failed: a pipeline
 * (`grep x a.ts | head`) ends with its last command's status, a list with `||` (`cat .env || true`)
 * with the status of the command run after a failure, commands in sequence (`cd app; ls`) with the
 * last one's, and a command sent to the background (`python3 server.py &`) with 0 at once. Status 0
 * then says nothing of how the others ended. A line the parser cannot read is taken as none of these.
 */
export function statusMayHideFailure(command: string): boolean {
  if (!HIDING_OPERATOR.test(command)) return false;
  try {
    return hidesFailure(parseShell(command));
  } catch {
    return false;
  }
}

function hidesFailure(node: SyntaxNode): boolean {
  switch (node.type) {
    case 'Script':
      return node.commands.length > 1 || node.commands.some(hidesFailure);
    case 'AndOr':
      return node.operators.includes('||') || node.commands.some(hidesFailure);
    case 'Statement':
      return node.background === true || hidesFailure(node.command);
    case 'Pipeline':
      return node.commands.length > 1;
    default:
      return false;
  }
}

/** Longer lines go to unbash: a plain line this long is rare, and its words cost nothing to bound. */
const MAX_PLAIN_CHARS = 1_024;

/**
 * Characters a plain word may hold: ones no shell gives a meaning inside a word, so that the word is
 * its own text and value. `=` is allowed, but not in the first word (an assignment) and not beside a
 * word that makes a later one an assignment (`export A=b`).
 */
const PLAIN = new Uint8Array(128);
for (let code = 48; code <= 57; code++) PLAIN[code] = 1;
for (let code = 65; code <= 90; code++) PLAIN[code] = 1;
for (let code = 97; code <= 122; code++) PLAIN[code] = 1;
for (const mark of '_-./:,+@%^=') PLAIN[mark.charCodeAt(0)] = 1;
const SPACE = 32;
const EQUALS = 61;

/**
 * Words that change how the words around them are read, wherever they stand: reserved words, and
 * the builtins whose arguments are assignments. A line holding one is left to unbash.
 */
const NOT_PLAIN_WORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  'coproc',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'alias',
  'let',
  'eval',
]);

/** A word as unbash gives it: its text, position and value, and no parts (nothing in it expands). */
interface PlainWord {
  readonly type: 'Word';
  readonly text: string;
  readonly pos: number;
  readonly end: number;
  readonly value: string;
  readonly parts: undefined;
}

/**
 * The tree unbash builds for a line of plain words separated by spaces, or undefined when the line
 * is anything else: a script of one statement running one command, its first word the program's name.
 */
function plainCommand(reading: CommandReading): SyntaxNode | undefined {
  const command = reading.text;
  const length = command.length;
  if (length === 0 || length > MAX_PLAIN_CHARS) return undefined;
  const words: PlainWord[] = [];
  const texts: string[] = [];
  let start = -1;
  for (let index = 0; index <= length; index++) {
    const code = index < length ? command.charCodeAt(index) : SPACE;
    if (code === SPACE) {
      // A line that starts with a space is left to unbash; spaces between words are skipped.
      if (start < 0) {
        if (index === 0) return undefined;
        continue;
      }
      const text = command.slice(start, index);
      if (NOT_PLAIN_WORDS.has(text)) return undefined;
      texts.push(text);
      words.push({ type: 'Word', text, pos: start, end: index, value: text, parts: undefined });
      start = -1;
      continue;
    }
    if (code >= 128 || PLAIN[code] !== 1) return undefined;
    if (code === EQUALS && words.length === 0) return undefined;
    if (start < 0) start = index;
  }
  const name = words[0];
  if (name === undefined || command.charCodeAt(length - 1) === SPACE) return undefined;
  // Split on single spaces, with none at either end: the words `trim().split(/\s+/)` gives.
  reading.splitInto(texts);
  reading.plainWords = texts;
  const end = (words[words.length - 1] as PlainWord).end;
  // Every field unbash's nodes have, read through a getter there (`args`, `redirects`) or not.
  const suffix = words.slice(1);
  const tree = {
    type: 'Script',
    pos: 0,
    end,
    shebang: undefined,
    commands: [
      {
        type: 'Statement',
        pos: 0,
        end,
        command: { type: 'Command', pos: 0, end, name, prefix: [], suffix, args: suffix, redirects: [] },
        background: undefined,
      },
    ],
    errors: undefined,
  };
  return tree as unknown as SyntaxNode;
}

/**
 * The name of the program whose exit status a line's is, when it reads only one such program: the
 * last statement that does not run in the background, and in it the last command of a `&&` list or
 * a pipeline (`cd app && curl -s …`, `sleep 3; curl -s …`). A `||` list (`curl … || echo down`)
 * may end with either side's status, and a line the parser cannot read names none.
 */
export function statusProgram(command: string): string | undefined {
  const tree = readableTree(command);
  if (tree?.type !== 'Script') return undefined;
  const last = tree.commands.filter((statement) => !statement.background).at(-1);
  let node: SyntaxNode | undefined = last?.command;
  while (node !== undefined) {
    if (node.type === 'AndOr') {
      if (node.operators.some((operator) => operator !== '&&')) return undefined;
      node = node.commands.at(-1);
    } else if (node.type === 'Pipeline') {
      if (node.prefixes.length > 0) return undefined;
      node = node.commands.at(-1);
    } else if (node.type === 'Command') {
      return node.name?.type === 'Word' ? node.name.value : undefined;
    } else return undefined;
  }
  return undefined;
}

/**
 * Whether a line leaves a program running after it answers: a statement of its own sent to the
 * background (`npm run dev &`, `nohup python worker.py > log 2>&1 &`). A line the parser cannot
 * read leaves none.
 */
export function startsBackgroundJob(command: string): boolean {
  if (!command.includes('&')) return false;
  const tree = readableTree(command);
  return tree?.type === 'Script' && tree.commands.some((statement) => statement.background === true);
}

/** Nodes a line's commands are looked for in: past this many, the line's text is split instead. */
const MAX_LIST_NODES = 2_000;

/**
 * The pipelines a line runs, in order, each as the text of its stages (`cd app && python3 -c "a; b"
 * | tail -3` runs `cd app`, then `python3 -c "a; b"` piped into `tail -3`). The commands of loops,
 * conditionals, groups and subshells are the line's too; a here-document's lines are its command's
 * input, and the commands of a `$(…)` are a word's. Undefined for a line the parser cannot read
 * whole, or one holding more than `MAX_LIST_NODES` nodes.
 */
export function pipelinesOf(reading: CommandReading): readonly (readonly string[])[] | undefined {
  let tree: SyntaxNode;
  try {
    tree = treeOf(reading);
  } catch {
    return undefined;
  }
  if ((tree as { errors?: readonly unknown[] }).errors?.length) return undefined;
  const text = reading.text;
  const pipelines: string[][] = [];
  let budget = MAX_LIST_NODES;
  const spanOf = (node: SyntaxNode): string => text.slice(node.pos, node.end);
  const visit = (node: SyntaxNode): boolean => {
    if (--budget < 0) return false;
    switch (node.type) {
      case 'Script':
      case 'CompoundList':
        return node.commands.every(visit);
      case 'Statement':
        return visit(node.command);
      case 'AndOr':
        return node.commands.every(visit);
      case 'Pipeline': {
        // A loop or group piped on (`for f in *; do …; done | tail`): the commands inside it, as
        // the first stage of a pipeline is the command of a line, the stages after it its filters.
        const first = node.commands[0];
        if (first === undefined) return true;
        if (first.type !== 'Command') return visit(first);
        pipelines.push(node.commands.map(spanOf));
        return true;
      }
      case 'Command':
      case 'TestCommand':
      case 'ArithmeticCommand':
        pipelines.push([spanOf(node)]);
        return true;
      default: {
        // A compound command: its commands are in its lists, never in its words.
        let complete = true;
        forEachChild(node, (child) => {
          if (complete && HOLDS_COMMANDS.has(child.type)) complete = visit(child);
        });
        return complete;
      }
    }
  };
  return visit(tree) ? pipelines : undefined;
}

/** The children of a compound command that hold commands: lists, branches and commands. */
const HOLDS_COMMANDS: ReadonlySet<string> = new Set([
  'CompoundList',
  'Statement',
  'AndOr',
  'Pipeline',
  'Command',
  'TestCommand',
  'ArithmeticCommand',
  'If',
  'Elif',
  'For',
  'ArithmeticFor',
  'Select',
  'While',
  'Case',
  'CaseItem',
  'Subshell',
  'BraceGroup',
  'Redirected',
  'Function',
  'Coproc',
]);
