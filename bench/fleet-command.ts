/** `narrowing bench fleet`: propagation across a fleet of agents, and the per-call cost, per store. */
import type { FleetCommandOptions } from '../src/cli/commands/bench.js';
import type { CommandIO } from '../src/cli/commands/io.js';
import { type FleetReport, runFleetBench } from './fleet.js';
import { textTable } from './table.js';

export async function fleetCommand(options: FleetCommandOptions, io: CommandIO): Promise<number> {
  const report = await runFleetBench({
    ...(options.agents !== undefined && { agents: options.agents }),
    ...(options.rounds !== undefined && { rounds: options.rounds }),
    ...(options.calls !== undefined && { calls: options.calls }),
    ...(options.redis !== undefined && { redis: options.redis }),
    onProgress: (message) => io.stderr.write(`… ${message}\n`),
  });
  io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatFleet(report)}\n`);
  return report.ok ? 0 : 1;
}

const ms = (value: number | undefined) =>
  value === undefined ? '—' : Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'never';

export function formatFleet(report: FleetReport): string {
  const lines = [
    `A fleet of ${report.agents} agents on one store: from a failure learned by one agent to a block in every other`,
    '',
    ...textTable(
      [
        { title: 'store' },
        { title: 'propagation p50', align: 'right' },
        { title: 'propagation p99', align: 'right' },
        { title: 'samples', align: 'right' },
        { title: 'per call (check + record)', align: 'right' },
      ],
      report.stores.map((figures) => [
        figures.store,
        ms(figures.propagationP50Ms),
        ms(figures.propagationP99Ms),
        String(figures.samples),
        `${figures.perCallUs.toFixed(1)} µs`,
      ]),
    ),
  ];
  for (const reason of report.skipped) lines.push('', `skipped ${reason}`);
  lines.push(
    '',
    report.ok
      ? 'Redis propagation p99 is under one second.'
      : 'FAIL: Redis propagation p99 is one second or more.',
  );
  return lines.join('\n');
}
