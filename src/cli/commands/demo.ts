import type { Command } from 'commander';

const HELP = `
Runs a scripted agent (no model needed) on a small project in a temporary folder, through
\`narrowing-guard mcp\` in front of the real MCP filesystem server. It shows each call with its
verdict, restarts the proxy to show a learned constraint surviving, verifies the receipts,
and sums up. This is what \`npm start\` runs.

Example:
  $ narrowing-guard demo
  $ narrowing-guard demo --keep     # keep the project and its .narrowing/ folder to inspect`;

export function register(program: Command): void {
  program
    .command('demo')
    .description('watch a scripted agent work through the MCP proxy, across a restart')
    .option('--keep', 'keep the temporary project and its .narrowing/ folder')
    .addHelpText('after', HELP)
    .action(async (options: { keep?: boolean }) => {
      const { runDemo } = await import('../../demo/run.js');
      process.exitCode = await runDemo({ keep: options.keep });
    });
}
