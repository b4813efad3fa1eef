import { Command } from 'commander';
import { commandModules } from './commands/index.js';
import { packageVersion } from './version.js';

/** Entry point of the `narrowing` command. Each command lives in its own module. */
export async function main(argv: readonly string[]): Promise<void> {
  // `narrowing replay … | head`: when the reader goes away, stop quietly. The MCP proxy has its own
  // shutdown, which flushes what it learned.
  if (argv[0] !== 'mcp') {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  const program = new Command('narrowing-guard')
    .description('Stops AI agents from repeating what already failed.')
    .version(packageVersion(), '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .enablePositionalOptions();
  for (const register of commandModules) register(program);
  await program.parseAsync([...argv], { from: 'user' });
}
