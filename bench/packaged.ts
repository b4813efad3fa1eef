/**
 * The benchmarks that need nothing but the engine: bundled into the published package, so that
 * `narrowing-guard bench long-horizon` and `bench ml-search` run wherever narrowing is installed.
 * The others time the sources, start child scripts or talk to development-only servers, and run
 * from a checkout.
 */
import type { BenchCommands } from '../src/cli/commands/bench.js';

export const commands: Pick<BenchCommands, 'longHorizon' | 'mlSearch'> = {
  async longHorizon(options, io) {
    const { longHorizonCommand } = await import('./long-horizon-command.js');
    return longHorizonCommand(options, io);
  },
  async mlSearch(options, io) {
    const { mlSearchCommand } = await import('./ml-search-command.js');
    return mlSearchCommand(options, io);
  },
};
