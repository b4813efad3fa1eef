import { Command } from 'commander';
import { commandModules } from './commands/index.js';
import { packageVersion } from './version.js';

/** Entry point of the `narrowing` command. Each command lives in its own module. */
export async function main(argv: readonly string[]): Promise<void> {
  const program = new Command('narrowing')
    .description('Stops AI agents from repeating what already failed.')
    .version(packageVersion(), '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions();
  for (const register of commandModules) register(program);
  await program.parseAsync([...argv], { from: 'user' });
}
