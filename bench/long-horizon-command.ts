/** `narrowing bench long-horizon`: the table, or JSON, and optionally the chart. */
import { writeFileSync } from 'node:fs';
import type { LongHorizonCommandOptions } from '../src/cli/commands/bench.js';
import type { CommandIO } from '../src/cli/commands/io.js';
import {
  fidelityLine,
  type LongHorizonResult,
  longHorizonSections,
  longHorizonTitle,
  runLongHorizonBench,
} from './long-horizon-report.js';
import { longHorizonSvg } from './long-horizon-svg.js';
import { renderText } from './table.js';

export async function longHorizonCommand(options: LongHorizonCommandOptions, io: CommandIO): Promise<number> {
  const result = runLongHorizonBench(options);
  if (options.plot) {
    try {
      writeFileSync(options.plot, longHorizonSvg(result));
    } catch (error) {
      io.stderr.write(
        `${options.plot}: cannot write the chart (${(error as NodeJS.ErrnoException).code ?? error})\n`,
      );
      return 2;
    }
  }
  if (options.json) {
    io.stdout.write(`${JSON.stringify(longHorizonJson(result), null, 2)}\n`);
  } else {
    io.stdout.write(`${formatLongHorizon(result)}\n`);
    if (options.plot) io.stderr.write(`chart written to ${options.plot}\n`);
  }
  if (!result.fidelity.ok) {
    // Loud on standard error too: with --json, standard output is for machines.
    io.stderr.write(`${fidelityLine(result.fidelity)}\n`);
    return 1;
  }
  return 0;
}

export function longHorizonJson(result: LongHorizonResult) {
  return { config: result.config, rows: result.rows, fidelity: result.fidelity };
}

export function formatLongHorizon(result: LongHorizonResult): string {
  return [
    longHorizonTitle(result.config),
    fidelityLine(result.fidelity),
    '',
    renderText(longHorizonSections(result)),
  ].join('\n');
}
