/**
 * Commands that print what a service logged: `docker logs app`, `kubectl logs deploy/api`,
 * `journalctl -u nginx`, `tail -n 200 logs/app.log`, each perhaps filtered (`| grep -i error`). Their
 * output is the service's account of itself: the errors in it are the service's, they were written
 * before the command ran, and the next run shows what was logged since. A failure only their text
 * suggests (a saved terminal shows no exit status) is nobody's fault and no reason to refuse a rerun.
 */

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
 * What one command, its program and arguments read past wrappers, does among a log printer's
 * company: prints a log, only prints or filters text, or something else. The shell reader asks this
 * of every command of a line: a line prints a service's logs when one of its commands prints a log,
 * the others only filter text or wait, and nothing is written.
 */
export function logRoleOf(program: string, args: readonly string[]): 'prints' | 'filters' | undefined {
  if (printsLog(program, args)) return 'prints';
  return TEXT_TOOLS.has(program) ? 'filters' : undefined;
}
