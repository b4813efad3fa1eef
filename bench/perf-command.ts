/** `narrowing bench perf`: figures, then every target with PASS or FAIL. */
import type { PerfCommandOptions } from '../src/cli/commands/bench.js';
import type { CommandIO } from '../src/cli/commands/io.js';
import { type PerfReport, runPerfBench } from './perf.js';
import { CALL_KINDS } from './perf-workload.js';
import { duration, renderText, type Section, thousands } from './table.js';

export async function perfCommand(options: PerfCommandOptions, io: CommandIO): Promise<number> {
  const report = await runPerfBench({
    ...(options.engine ? { engine: options.engine } : {}),
    ...(options.constraints ? { constraints: options.constraints } : {}),
    ...(options.ops !== undefined ? { ops: options.ops } : {}),
    ...(options.runs !== undefined ? { runs: options.runs } : {}),
    ...(options.calls !== undefined ? { calls: options.calls } : {}),
    ...(options.journalEntries !== undefined ? { journalEntries: options.journalEntries } : {}),
    ...(options.replayCalls !== undefined ? { replayCalls: options.replayCalls } : {}),
    onProgress: (message) => io.stderr.write(`… ${message}\n`),
  });
  io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatPerf(report)}\n`);
  // Targets are reported, not enforced: timing depends on the machine.
  return 0;
}

export function environmentLine(report: PerfReport): string {
  const env = report.environment;
  const engine =
    env.engine === 'dist'
      ? 'the built package'
      : `the TypeScript sources through tsx${env.engineNote ? ` (${env.engineNote})` : ''}`;
  return `Timing ${engine}; Node ${env.node}, ${env.platform}, ${env.cpu} × ${env.cpus}, load average ${env.loadAverage} at the start (timings are only as quiet as the machine).`;
}

export function perfSections(report: PerfReport): Section[] {
  const { config, memory, journal, replay } = report;
  const hotPath: Section = {
    title: `Per call: one guard per row, loaded with its constraints and warmed up, then the median of ${config.runs} back-to-back run${config.runs === 1 ? '' : 's'} of ${thousands(config.ops)} calls`,
    columns: [
      { title: 'constraints', align: 'right' },
      { title: 'workload' },
      { title: 'check', align: 'right' },
      { title: 'record', align: 'right' },
      { title: 'check + record', align: 'right' },
    ],
    rows: report.hotPath.map((figure) => [
      thousands(figure.constraints),
      figure.workload === 'typical' ? 'typical (<200 B args)' : 'edit, 1-4 KB strings',
      duration(figure.checkNs),
      duration(figure.recordNs),
      duration(figure.pairNs),
    ]),
    notes: [
      `Typical: reads, small edits and commands (one in eight a build whose effects are unknown); every call distinct. ${Math.max(...config.constraints).toLocaleString('en-US')} vs ${Math.min(...config.constraints).toLocaleString('en-US')} constraints: typical ${report.scaling.typical.toFixed(2)}×, 4 KB edits ${report.scaling['edit-4kb'].toFixed(2)}×.`,
    ],
  };
  const typical = report.hotPath.filter((figure) => figure.byKind !== undefined);
  const byKind: Section = {
    title: 'Typical calls by kind: median check + record of one call',
    columns: [
      { title: 'constraints', align: 'right' },
      ...CALL_KINDS.map((kind) => ({ title: kind, align: 'right' as const })),
    ],
    rows: typical.map((figure) => [
      thousands(figure.constraints),
      ...CALL_KINDS.map((kind) => duration(figure.byKind?.[kind] ?? 0)),
    ]),
  };
  const other: Section = {
    title: 'Memory, journal and replay',
    columns: [{ title: 'measure' }, { title: 'result' }],
    rows: [
      [
        `heap over ${thousands(memory.calls)} calls, 10% failing in new ways`,
        `peak +${memory.peakGrowthMb.toFixed(1)} MB, end +${memory.finalGrowthMb.toFixed(1)} MB over the heap after a warm-up (${memory.baselineMb.toFixed(1)} MB${memory.gcExposed ? ', sampled after full GCs' : ', sampled without forced GC'}); ${thousands(memory.activeConstraints)} active constraints; ${memory.seconds.toFixed(1)} s${memory.stoppedEarly ? `; stopped at the time limit, ${thousands(memory.callsRequested)} asked` : ''}`,
      ],
      [
        `journal with receipts, ${thousands(journal.entries)} events`,
        `${thousands(journal.entriesPerSecond)} entries/s, hashed and written, flush included`,
      ],
      [
        'journal on the hot path (typical calls)',
        `${duration(journal.withoutNs)} without, ${duration(journal.withNs)} with: ${journal.addedNs >= 0 ? '+' : ''}${duration(journal.addedNs)} per call`,
      ],
      [`replay of a ${thousands(replay.calls)}-call trace`, `${thousands(replay.callsPerSecond)} calls/s`],
    ],
  };
  const targets: Section = {
    title: 'Targets',
    columns: [{ title: 'result' }, { title: 'target' }, { title: 'measured', align: 'right' }],
    rows: report.targets.map((target) => [target.pass ? 'PASS' : 'FAIL', target.description, target.value]),
  };
  return [hotPath, byKind, other, targets];
}

export function formatPerf(report: PerfReport): string {
  return [`Guard cost. ${environmentLine(report)}`, '', renderText(perfSections(report))].join('\n');
}
