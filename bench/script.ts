/**
 * How the command-line scripts of this folder tell that node runs them (rather than another module
 * importing them), and read their options.
 */
import { fileURLToPath } from 'node:url';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { printedHelp } from './help.js';

type ScriptOptionsConfig = NonNullable<ParseArgsConfig['options']>;
/** What `parseArgs` reads with these options. */
type ScriptValues<T extends ScriptOptionsConfig> = ReturnType<typeof parseArgs<{ options: T }>>['values'];

/** Whether the module at `moduleUrl` is the script node was started with. */
export function runAsScript(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && fileURLToPath(moduleUrl) === process.argv[1];
}

/**
 * The options of the command line when node runs the script at `moduleUrl` and it was not asked for
 * `--help` (which prints the script's header comment); undefined otherwise: imported, or helped.
 */
export function scriptOptions<const T extends ScriptOptionsConfig>(
  moduleUrl: string,
  options: T,
): ScriptValues<T> | undefined {
  if (!runAsScript(moduleUrl) || printedHelp(process.argv.slice(2), moduleUrl)) return undefined;
  return parseArgs({ options }).values;
}
