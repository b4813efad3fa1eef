/**
 * One parse of a command line for everything the adapter reads from it: describing a command asks
 * for its effects and for its attempt key, each of which needs the syntax tree, and parsing is most
 * of the cost of either. The last line parsed and its tree are kept, so the second reader of the
 * same line gets the tree at once. The tree is shared: its readers never change it.
 */
import { parse, type SyntaxNode } from 'unbash';

let lastCommand: string | undefined;
let lastTree: SyntaxNode | undefined;

/** `parse(command)` from unbash, the same tree for the same line read twice in a row. Throws as it does. */
export function parseShell(command: string): SyntaxNode {
  if (command === lastCommand && lastTree !== undefined) return lastTree;
  const tree = parse(command);
  lastCommand = command;
  lastTree = tree;
  return tree;
}
