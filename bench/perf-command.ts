/** `narrowing bench perf`: figures, then every target with its measured ratio and PASS or FAIL. */
import type { PerfCommandOptions } from '../src/cli/commands/bench.js';
import type { CommandIO } from '../src/cli/commands/io.js';
import { type CallStats, type ColdSeries, type PerfReport, runPerfBench } from './perf.js';
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
    ...(options.processes !== undefined ? { processes: options.processes } : {}),
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
  return `Timing ${engine}; Node ${env.node}, ${env.platform}, ${env.cpu} × ${env.cpus}, load average ${env.loadAverage} at the start.`;
}

/** How the figures were taken, for the results page and the README. */
export function methodLines(report: PerfReport): string[] {
  const { config } = report;
  return [
    `Every call is made as the README's loop makes it: \`toolCallToProposal\` and \`checkProposal\`, then \`toolCallToOutcome\` and \`recordOutcome\` on a fresh outcome, timed together call by call. One call in ten fails (a missing file, an edit whose text is not there, a type error, a timeout, and one failure in four a test run with 20 KB of output). The guard, a recursion sentinel (canonical JSON, SHA-256, a ring of 10 calls) and the paper's guard held in memory (action-class and target bans) get the same calls, ${thousands(config.ops)} at a time, taking turns for ${config.runs} blocks each after a warm-up (and, before the first row, one whole round of every row that is not counted, so that no row pays for code still being compiled): the ratios compare figures taken on the same machine at the same moments.`,
    `Cold start: ${config.processes} fresh processes of each way of starting, one after another and taking turns: the engine bundled into one script and run from V8's code cache, as the command line and the hook run theirs (one process more before them writes the cache), and the build's modules imported with no cache, as a program that uses the library does. Each times loading the engine, constructing the guard, its first call and its calls 2-10, 11-100 and 101-1,000 in CPU time, then its steady state after a warm-up. Journal: the whole process's CPU time (user and system, the writer's threads too) per call with and without a journal with receipts, closed before the clock stops so that deferred hashing and writes count. Replay: \`narrowing replay FILE --json\` run in this process on a trace file, reading and printing included, after one untimed replay of a trace of other calls (warm), in calls per second of the process's CPU time (every thread's) like the other figures, so that a busy machine does not count; calls per second of wall-clock time beside it.`,
  ];
}

/** The guard's mean per outcome: succeeding, then each kind of failure the workload has. */
function outcomeCells(figure: PerfReport['comparisons'][number]): string {
  const names =
    figure.workload === 'typical'
      ? ['succeeding', 'failingShort', 'failingLong']
      : ['succeeding', 'failing4kb'];
  return names
    .map((name) => {
      const stats = figure.byOutcome[name];
      return stats === undefined || stats.calls === 0 ? '—' : duration(stats.meanNs);
    })
    .join(' / ');
}

function statsCells(stats: CallStats): string[] {
  return [duration(stats.meanNs), duration(stats.p50Ns), duration(stats.p99Ns)];
}

export function perfSections(report: PerfReport): Section[] {
  const { memory, journal, replay, coldStart } = report;
  const comparison: Section = {
    title:
      'Per call (check + record, conversion included), beside the yardsticks: mean CPU time / p50 / p99 wall-clock latency',
    columns: [
      { title: 'constraints', align: 'right' },
      { title: 'workload' },
      { title: 'narrowing', align: 'right' },
      { title: 'succeeding / failing: short, 20 KB (typical) or 4 KB edits', align: 'right' },
      { title: 'recursion sentinel', align: 'right' },
      { title: "paper's guard", align: 'right' },
      { title: 'vs sentinel', align: 'right' },
      { title: 'vs paper', align: 'right' },
    ],
    rows: report.comparisons.map((figure) => [
      thousands(figure.constraints),
      figure.workload === 'typical' ? 'typical (<200 B args)' : 'edit, 1-4 KB strings',
      statsCells(figure.narrowing).join(' / '),
      outcomeCells(figure),
      statsCells(figure.sentinel).join(' / '),
      statsCells(figure.paper).join(' / '),
      `${(figure.narrowing.meanNs / figure.sentinel.meanNs).toFixed(2)}×`,
      `${(figure.narrowing.meanNs / figure.paper.meanNs).toFixed(2)}×`,
    ]),
    notes: [
      "Means are CPU time over whole blocks of calls; p50 and p99 are single calls on the wall clock, so they include the clock's own cost (some tens of nanoseconds) and, on a busy machine, time the process waited for a core. Succeeding and failing: the guard's mean over blocks of each; failures apart by what they print (short errors, 20 KB test runs), and for edits the failing 4 KB ones. The sentinel only decides before a call and never learns from a failure; the paper's guard bans whole action classes after two failures alike, so it checks less once it has banned them.",
    ],
  };
  const { cached, writing, library } = coldStart;
  const cold: Section = {
    title: `Cold start: medians over ${coldStart.processes} fresh processes of each way of starting`,
    columns: [
      { title: 'measure' },
      { title: 'code-cached bundle', align: 'right' },
      { title: 'its first process (writes the cache)', align: 'right' },
      { title: 'library import, no cache', align: 'right' },
    ],
    rows: [
      [
        'loading the engine and the tool-call adapter (wall / CPU)',
        ...[cached, writing, library].map(
          (series) => `${series.importMs.toFixed(1)} / ${series.importCpuMs.toFixed(1)} ms`,
        ),
      ],
      [
        'constructing the guard',
        ...[cached, writing, library].map((series) => `${series.openMs.toFixed(2)} ms`),
      ],
      ...(
        [
          ['first call', (series: ColdSeries) => series.firstNs],
          ['calls 2-10, mean', (series: ColdSeries) => series.calls2To10Ns],
          ['calls 11-100, mean', (series: ColdSeries) => series.calls11To100Ns],
          ['first 100 calls, total', (series: ColdSeries) => series.first100Ns * 100],
          ['calls 101-1,000, mean', (series: ColdSeries) => series.calls101To1000Ns],
          ['steady state, same process, mean', (series: ColdSeries) => series.steadyNs],
        ] as const
      ).map(([measure, pick]) => [
        measure,
        ...[cached, writing, library].map((series) => duration(pick(series))),
      ]),
    ],
    notes: [
      `The code-cached bundle: the engine bundled into one script as the command line's is, run by the build's code-cache loader as the command line and the hook run theirs; its first process wrote the cache at its exit, and ${coldStart.cacheHits} of the ${cached.processes} after it read that cache. The library import: the build's modules, imported as a program that uses the library does.`,
    ],
  };
  const other: Section = {
    title: 'Memory, journal and replay',
    columns: [{ title: 'measure' }, { title: 'result' }],
    rows: [
      [
        `heap over ${thousands(memory.calls)} calls, 10% failing in new ways, some with 20 KB outputs`,
        `peak +${memory.peakGrowthMb.toFixed(1)} MB, end +${memory.finalGrowthMb.toFixed(1)} MB over the heap after a warm-up (${memory.baselineMb.toFixed(1)} MB${memory.gcExposed ? ', sampled after full GCs' : ', sampled without forced GC'}); ${thousands(memory.activeConstraints)} active constraints; ${memory.seconds.toFixed(1)} s${memory.stoppedEarly ? `; stopped at the time limit, ${thousands(memory.callsRequested)} asked` : ''}`,
      ],
      [
        `journal with receipts, CPU per call, ${thousands(journal.calls)} calls × ${journal.runs} runs`,
        `${duration(journal.withoutNs)} without, ${duration(journal.withNs)} with: +${duration(journal.addedNs)} per call`,
      ],
      [
        `replay of a ${thousands(replay.calls)}-call trace file`,
        `${thousands(replay.callsPerSecond)} calls per CPU second (${thousands(replay.callsPerWallSecond)} per wall-clock second)`,
      ],
    ],
  };
  const targets: Section = {
    title: 'Targets',
    columns: [{ title: 'result' }, { title: 'target' }, { title: 'measured', align: 'right' }],
    rows: report.targets.map((target) => [target.pass ? 'PASS' : 'FAIL', target.description, target.value]),
  };
  return [comparison, cold, other, targets];
}

export function formatPerf(report: PerfReport): string {
  return [
    `Guard cost. ${environmentLine(report)}`,
    '',
    ...methodLines(report).flatMap((line) => [line, '']),
    renderText(perfSections(report)),
  ].join('\n');
}
