/**
 * Queries of structured files (`jq '.items[] | select(.id == "A-4")' data.json`, `cat data.json | jq
 * .version`, `yq '.services.web' compose.yml`): a command that asks a question of a file's content.
 * Its blank or `null` answer says the question found nothing there, as a search's "No results" does;
 * the same file asked again in other words, nothing having changed, finds nothing again.
 */
import type { SyntaxNode } from 'unbash';
import { programName } from './program-name.js';
import { wordOf } from './shell-effects.js';
import { readableTree, visitTree } from './shell-parse.js';
import { normalizeTarget } from './targets.js';

/** Programs that take a query and the files it is asked of (the jq family, and yq for YAML). */
const QUERY_PROGRAMS = new Set(['jq', 'gojq', 'jaq', 'yq', 'xq']);
/** yq's subcommands, which come before its query. */
const QUERY_SUBCOMMANDS = new Set(['e', 'eval', 'ea', 'eval-all']);
/** Options followed by a name and a value (`--arg id A-4`). */
const TWO_VALUES = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
/** Options followed by one value (`--indent 2`, yq's `-o json`). */
const ONE_VALUE = new Set(['--indent', '-L', '-o', '--output-format', '-p', '--input-format', '-I']);
/** Options after which the query comes from a file: every word left is a file asked. */
const QUERY_FROM_FILE = new Set(['-f', '--from-file']);
/** Options that make the words after the query arguments, not files. */
const ARGUMENTS_FOLLOW = new Set(['--args', '--jsonargs']);
/** Options under which the program reads no input (`jq -n '…'`): it asks no file. */
const NO_INPUT = /^(?:-[a-zA-Z]*n[a-zA-Z]*|--null-input)$/;
/** Programs that pass a file on to the query through a pipe (`cat data.json | jq …`). */
const FEEDERS = new Set(['cat']);

const MAX_NODES = 2_000;
const MAX_LINE_CHARS = 4_096;

/**
 * The files a command line asks a query of, sorted, when it runs a query program over named files:
 * its own operands, or those of a `cat` that feeds it. Undefined for any other line, and for a
 * query whose input is not a named file (`curl … | jq`, `jq -n`). Callers check that the line only
 * reads files: a line that also writes is a change, not a question.
 */
export function queriedFiles(text: string): readonly string[] | undefined {
  if (text.length > MAX_LINE_CHARS || !mayQuery(text)) return undefined;
  const commands = commandWords(text);
  if (commands === undefined) return undefined;
  const asked: string[] = [];
  const fed: string[] = [];
  let queries = false;
  for (const words of commands) {
    const program = programName(words[0] ?? '');
    if (QUERY_PROGRAMS.has(program)) {
      const files = filesOfQuery(words.slice(1));
      if (files === undefined) return undefined;
      queries = true;
      asked.push(...files);
    } else if (FEEDERS.has(program)) {
      for (const word of words.slice(1)) if (!word.startsWith('-')) fed.push(word);
    }
  }
  if (!queries) return undefined;
  const files = asked.length > 0 ? asked : fed;
  if (files.length === 0) return undefined;
  return [...new Set(files.map(normalizeTarget))].sort();
}

/** Whether the line names a query program at all: most lines do not, and are not parsed here. */
function mayQuery(text: string): boolean {
  return /\b(?:go|ja)?jq\b|\b[xy]q\b/.test(text);
}

function discardsOutput(redirect: Extract<SyntaxNode, { type: 'Redirect' }>): boolean {
  const { operator } = redirect;
  if (operator !== '>' && operator !== '&>' && operator !== '>|') return false;
  const stream = (redirect as { descriptor?: { value?: unknown } }).descriptor?.value;
  return stream !== 2 && stream !== '2' && redirect.target?.value === '/dev/null';
}

/** The files a query program's arguments name; undefined when it reads no input. */
function filesOfQuery(args: readonly string[]): string[] | undefined {
  const files: string[] = [];
  let queryRead = false;
  let optionsEnd = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as string;
    if (!optionsEnd && word === '--') {
      optionsEnd = true;
      continue;
    }
    if (!optionsEnd && word.startsWith('-') && word.length > 1) {
      if (NO_INPUT.test(word)) return undefined;
      if (ARGUMENTS_FOLLOW.has(word)) break;
      if (TWO_VALUES.has(word)) index += 2;
      else if (ONE_VALUE.has(word)) index += 1;
      else if (QUERY_FROM_FILE.has(word)) {
        index += 1;
        queryRead = true;
      }
      continue;
    }
    if (!queryRead) {
      if (files.length === 0 && QUERY_SUBCOMMANDS.has(word)) continue;
      // `jq empty a.json` checks that the file parses: it prints nothing when it does.
      if (word.trim() === 'empty') return undefined;
      queryRead = true;
      continue;
    }
    files.push(word);
  }
  return files;
}

/** Each command of the line as the words its shell passes it (a word that expands as written). */
function commandWords(text: string): (readonly string[])[] | undefined {
  const script = readableTree(text);
  if (script === undefined) return undefined;
  const commands: string[][] = [];
  const whole = visitTree(script, MAX_NODES, (node) => {
    // Output thrown away (`jq . a.json > /dev/null`): the line checks that the query runs, and
    // prints nothing whatever the file holds.
    if (node.type === 'Redirect' && discardsOutput(node)) return false;
    if (node.type === 'Command') {
      const words: string[] = node.name === undefined ? [] : [wordOf(node.name)];
      for (const arg of node.args) if (arg.type === 'Word') words.push(wordOf(arg));
      commands.push(words);
    }
    return true;
  });
  return whole ? commands : undefined;
}
