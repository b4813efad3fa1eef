/**
 * The entry point `narrowing bench` loads: one function per subcommand. Each benchmark module is
 * imported only when its subcommand runs.
 */
import type { BenchCommands } from '../src/cli/commands/bench.js';

export const commands: BenchCommands = {
  async longHorizon(options, io) {
    const { longHorizonCommand } = await import('./long-horizon-command.js');
    return longHorizonCommand(options, io);
  },
  async sessions(options, io) {
    const { sessionsCommand } = await import('./sessions-command.js');
    return sessionsCommand(options, io);
  },
  async mlSearch(options, io) {
    const { mlSearchCommand } = await import('./ml-search-command.js');
    return mlSearchCommand(options, io);
  },
  async perf(options, io) {
    const { perfCommand } = await import('./perf-command.js');
    return perfCommand(options, io);
  },
  async proxy(options, io) {
    const { proxyCommand } = await import('./proxy-command.js');
    return proxyCommand(options, io);
  },
  async fleet(options, io) {
    const { fleetCommand } = await import('./fleet-command.js');
    return fleetCommand(options, io);
  },
};
