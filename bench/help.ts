/**
 * `--help` for the command-line scripts of this folder: a script's usage is the comment at its top,
 * printed as written there, so the two never drift apart.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The first block comment of a source text, without its comment marks. */
export function headerComment(source: string): string {
  const match = /\/\*\*([\s\S]*?)\*\//.exec(source);
  if (!match?.[1]) return '';
  return match[1]
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

/** When `argv` asks for help, prints the header comment of the script at `scriptUrl` and says so. */
export function printedHelp(argv: readonly string[], scriptUrl: string): boolean {
  if (!argv.includes('--help') && !argv.includes('-h')) return false;
  process.stdout.write(`${headerComment(readFileSync(fileURLToPath(scriptUrl), 'utf8'))}\n`);
  return true;
}
