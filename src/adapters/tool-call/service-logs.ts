/**
 * Commands that print what a service logged: `docker logs app`, `kubectl logs deploy/api`,
 * `journalctl -u nginx`, `tail -n 200 logs/app.log`, each perhaps filtered (`| grep -i error`). Their
 * output is the service's account of itself: the errors in it are the service's, they were written
 * before the command ran, and the next run shows what was logged since. A failure only their text
 * suggests (a saved terminal shows no exit status) is nobody's fault and no reason to refuse a rerun.
 */

import { programIndex } from './shell-effects.js';

/** Longer command lines are not read. */
const MAX_COMMAND_CHARS = 4_096;
/** What separates the commands of a line: `&&`, `||`, `;`, `|` and new lines. */
const SEPARATOR = /&&|\|\||[;|\n]/;
/** Programs whose `logs` subcommand prints a service's or a container's log. */
const LOG_SUBCOMMAND = new Set(['docker', 'podman', 'docker-compose', 'kubectl', 'oc', 'nerdctl']);
/** Programs that print the system journal. */
const JOURNALS = new Set(['journalctl', 'dmesg']);
/** Programs that print or filter text: a log printer's company in a pipeline, or a log file's reader. */
const TEXT_TOOLS = new Set([
  'cat',
  'tail',
  'head',
  'less',
  'more',
  'grep',
  'egrep',
  'rg',
  'awk',
  'sed',
  'sort',
  'uniq',
  'cut',
  'wc',
  'tr',
  'jq',
  'sleep',
  'echo',
]);
/** A path that names a log: `app.log`, `server.log.1`, `logs/app.txt`, `/var/log/syslog`. */
const LOG_PATH = /(?:\.log(?:\.\d+)?$|(?:^|\/)(?:logs?)\/)/;

/** The words of one command, without variable assignments, wrappers and `timeout N`. */
function wordsOf(segment: string): string[] {
  const words = segment
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 0);
  return words.slice(programIndex(words));
}

/** Whether the command prints a log: a `logs` subcommand, the journal, or a reader of a log file. */
function printsLog(program: string, args: readonly string[]): boolean {
  if (JOURNALS.has(program)) return true;
  if (LOG_SUBCOMMAND.has(program)) {
    // `docker logs`, `docker container logs`, `docker compose logs`: the first words that are not options.
    const subcommands = args.filter((arg) => !arg.startsWith('-')).slice(0, 2);
    return subcommands.includes('logs');
  }
  if (!TEXT_TOOLS.has(program)) return false;
  return args.some((arg) => !arg.startsWith('-') && LOG_PATH.test(arg.replace(/^["']|["']$/g, '')));
}

/**
 * Whether a command line prints a log and does nothing else: every command in it prints a log or
 * only filters text, and one of them prints a log.
 */
export function printsServiceLogs(command: string | undefined): boolean {
  if (typeof command !== 'string' || command.length > MAX_COMMAND_CHARS) return false;
  // Redirections write files: such a line does more than print.
  if (/(?:^|[^0-9&])>/.test(command.replace(/[0-9]?>&[0-9]/g, ''))) return false;
  let printer = false;
  for (const segment of command.split(SEPARATOR)) {
    const [name, ...args] = wordsOf(segment);
    if (name === undefined) continue;
    const program = name.slice(name.lastIndexOf('/') + 1);
    if (printsLog(program, args)) printer = true;
    else if (!TEXT_TOOLS.has(program)) return false;
  }
  return printer;
}
