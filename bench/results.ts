/**
 * Runs the benchmarks and writes what they measured: `docs/results.md`, the chart
 * `docs/long-horizon.svg`, and the part of README.md between `<!-- results:start -->` and
 * `<!-- results:end -->` when those markers exist. Every number comes from a run; none is typed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { HOOK_ENTRY, type HookBenchRow } from '../src/hooks/bench.js';
import { runBlameCorpusCommand } from './blame-corpus.js';
import { runCorpusCommand } from './corpus-command.js';
import { runFleetBench } from './fleet.js';
import { formatFleet } from './fleet-command.js';
import {
  issueTargetRows,
  issueTargetsText,
  readTestTiming,
  type TargetRow,
  type TestTiming,
} from './issue-targets.js';
import { PUBLISHED_GUARD } from './long-horizon.js';
import {
  fidelityLine,
  type LongHorizonResult,
  longHorizonSections,
  longHorizonTitle,
  runLongHorizonBench,
} from './long-horizon-report.js';
import { longHorizonSvg } from './long-horizon-svg.js';
import { type MlSearchReport, runMlSearch } from './ml-search.js';
import { mlSearchConfig, mlSearchSections } from './ml-search-command.js';
import { type PerfOptions, type PerfReport, runPerfBench } from './perf.js';
import { environmentLine, methodLines, perfSections } from './perf-command.js';
import {
  PROXY_ADDED_MEDIAN_MS,
  type ProxyBenchOptions,
  type ProxyBenchResult,
  proxyTargets,
  runProxyBench,
} from './proxy.js';
import { runSessionsBench, type SessionsReport } from './sessions.js';
import { sessionsSections } from './sessions-command.js';
import { markdownTable, renderMarkdown, type Section } from './table.js';

export type Benchmark = 'long-horizon' | 'sessions' | 'ml-search' | 'perf' | 'proxy' | 'fleet' | 'hooks';
export const BENCHMARKS: readonly Benchmark[] = [
  'long-horizon',
  'sessions',
  'ml-search',
  'perf',
  'proxy',
  'fleet',
  'hooks',
];

export interface ResultsOptions {
  /** The repository root: `docs/` and `README.md` are there. */
  readonly root: string;
  readonly only?: readonly Benchmark[];
  /** Smaller runs of perf and proxy: to check the pipeline, not to publish. */
  readonly quick?: boolean;
  readonly onProgress?: (message: string) => void;
  /** What the CI measured of `npm test`, for the table's last row. */
  readonly testTiming?: TestTiming;
}

export interface ResultsOutcome {
  readonly resultsPath: string;
  readonly chartPath?: string;
  readonly readmeUpdated: boolean;
  /** Benchmarks that failed to run or whose expectations failed, with why. */
  readonly problems: readonly string[];
  /** The performance targets, with this run's figures and verdicts. */
  readonly targets: readonly TargetRow[];
}

const START = '<!-- results:start -->';
const END = '<!-- results:end -->';

const MODERATE_PERF: PerfOptions = {};
const QUICK_PERF: PerfOptions = {
  constraints: [10, 1_000],
  ops: 200,
  runs: 4,
  calls: 20_000,
  journalEntries: 1_000,
  replayCalls: 2_000,
  processes: 2,
};
const PROXY_MEDIAN_TARGET_MS = PROXY_ADDED_MEDIAN_MS;
const PROXY_THROUGHPUT_TARGET = 0.8;

function percent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

const MODERATE_PROXY: ProxyBenchOptions = { calls: 500, concurrentCalls: 2_000 };
const QUICK_PROXY: ProxyBenchOptions = { calls: 200, concurrentCalls: 200, concurrency: 4, warmup: 200 };

interface Collected {
  longHorizon?: LongHorizonResult;
  sessions?: SessionsReport;
  mlSearch?: MlSearchReport;
  perf?: PerfReport;
  proxy?: ProxyBenchResult;
  /** What `narrowing-guard bench fleet` prints. */
  fleet?: string;
  /** What `narrowing-guard bench hooks` prints. */
  hooks?: string;
  /** Its rows, for the targets' table. */
  hookRows?: readonly HookBenchRow[];
}

export async function generateResults(options: ResultsOptions): Promise<ResultsOutcome> {
  const only = new Set(options.only ?? BENCHMARKS);
  const progress = options.onProgress ?? (() => undefined);
  const problems: string[] = [];
  const collected: Collected = {};
  const attempt = async (name: Benchmark, run: () => Promise<void>) => {
    if (!only.has(name)) return;
    progress(`running ${name}`);
    try {
      await run();
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
    }
  };

  await attempt('long-horizon', async () => {
    collected.longHorizon = runLongHorizonBench();
    if (!collected.longHorizon.fidelity.ok)
      problems.push(`long-horizon: ${fidelityLine(collected.longHorizon.fidelity)}`);
  });
  await attempt('sessions', async () => {
    collected.sessions = await runSessionsBench();
    for (const check of collected.sessions.checks) {
      if (!check.pass) problems.push(`sessions: ${check.title} failed: ${check.summary}`);
    }
  });
  await attempt('ml-search', async () => {
    collected.mlSearch = runMlSearch(mlSearchConfig());
  });
  await attempt('perf', async () => {
    collected.perf = await runPerfBench({
      ...(options.quick ? QUICK_PERF : MODERATE_PERF),
      onProgress: progress,
    });
  });
  await attempt('proxy', async () => {
    collected.proxy = await runProxyBench(options.quick ? QUICK_PROXY : MODERATE_PROXY);
  });
  await attempt('fleet', async () => {
    const report = await runFleetBench(options.quick ? { rounds: 5, calls: 500 } : {});
    collected.fleet = formatFleet(report);
    if (!report.ok) problems.push('fleet: not every store propagated every constraint');
  });
  await attempt('hooks', async () => {
    const { benchHooks } = await import('../src/hooks/bench.js');
    const chunks: string[] = [];
    const sink = { write: (chunk: string) => chunks.push(chunk) };
    const hook = builtHook(options.root);
    let rows: readonly HookBenchRow[] = [];
    const code = await benchHooks(
      {
        hook,
        ...(options.quick ? { runs: 5, constraints: 4_000 } : {}),
        onReport: (report) => {
          rows = report.rows;
        },
      },
      {
        stdout: sink,
        stderr: sink,
      },
    );
    collected.hooks = chunks.join('').trimEnd();
    collected.hookRows = rows;
    if (code !== 0) problems.push('hooks: a latency target was not met');
  });

  const docs = join(options.root, 'docs');
  mkdirSync(docs, { recursive: true });
  let chartPath: string | undefined;
  if (collected.longHorizon) {
    chartPath = join(docs, 'long-horizon.svg');
    writeFileSync(chartPath, longHorizonSvg(collected.longHorizon));
  }
  // The benchmarks not run this time keep the figures of the run that last measured them.
  const skipped = BENCHMARKS.filter((name) => !only.has(name));
  const saved = skipped.length > 0 ? readSavedResults(docs) : undefined;
  const shown: Collected = { ...keptFigures(saved, skipped), ...collected };
  const shownProblems = [
    ...(saved?.problems.filter((problem) => skipped.some((name) => problem.startsWith(`${name}:`))) ?? []),
    ...problems,
  ];
  const savedResults: SavedResults = { version: 1, collected: shown, problems: shownProblems };
  writeFileSync(join(docs, SAVED_RESULTS), `${JSON.stringify(savedResults)}\n`);
  const resultsPath = join(docs, 'results.md');
  const targets = issueTargetRows({
    ...(shown.perf && { perf: shown.perf }),
    ...(shown.proxy && { proxy: shown.proxy }),
    ...(shown.hookRows && { hooks: shown.hookRows }),
    ...(options.testTiming && { testTiming: options.testTiming }),
  });
  writeFileSync(resultsPath, resultsPage(shown, shownProblems, targets));

  const readmePath = join(options.root, 'README.md');
  let readmeUpdated = false;
  if (existsSync(readmePath)) {
    const readme = readFileSync(readmePath, 'utf8');
    const updated = replaceResultsSection(readme, readmeSummary(shown, targets));
    if (updated !== undefined && updated !== readme) {
      writeFileSync(readmePath, updated);
      readmeUpdated = true;
    }
  }
  return { resultsPath, ...(chartPath ? { chartPath } : {}), readmeUpdated, problems, targets };
}

/** What the page and the README section are made from, kept so that `--only` can redo one part. */
const SAVED_RESULTS = 'results.json';

interface SavedResults {
  readonly version: 1;
  readonly collected: Collected;
  readonly problems: readonly string[];
}

const COLLECTED_KEY: Readonly<Record<Benchmark, keyof Collected>> = {
  'long-horizon': 'longHorizon',
  sessions: 'sessions',
  'ml-search': 'mlSearch',
  perf: 'perf',
  proxy: 'proxy',
  fleet: 'fleet',
  hooks: 'hooks',
};

/** The figures saved by the last run, or `undefined` when there are none that this version reads. */
function readSavedResults(docs: string): SavedResults | undefined {
  try {
    const value = JSON.parse(readFileSync(join(docs, SAVED_RESULTS), 'utf8')) as Partial<SavedResults>;
    if (value.version !== 1 || typeof value.collected !== 'object' || !Array.isArray(value.problems)) {
      return undefined;
    }
    return value as SavedResults;
  } catch {
    return undefined;
  }
}

function keptFigures(saved: SavedResults | undefined, names: readonly Benchmark[]): Collected {
  const kept: Record<string, unknown> = {};
  for (const name of names) {
    const key = COLLECTED_KEY[name];
    if (saved?.collected[key] !== undefined) kept[key] = saved.collected[key];
  }
  // The hook benchmark's rows go with its text.
  if (names.includes('hooks') && saved?.collected.hookRows !== undefined)
    kept.hookRows = saved.collected.hookRows;
  return kept as Collected;
}

/**
 * The bundled hook of the build at `root`, as an agent runs it: the entry the package's bin loads
 * (CommonJS; the ES module entry beside it starts Node's ES module loader, which no agent's hook pays).
 */
export function builtHook(root: string): string {
  return join(root, 'dist', 'hooks', HOOK_ENTRY);
}

/** The text with the part between the markers replaced; undefined when the markers are missing. */
export function replaceResultsSection(text: string, section: string): string | undefined {
  const start = text.indexOf(START);
  const end = text.indexOf(END, start + START.length);
  if (start < 0 || end < 0) return undefined;
  return `${text.slice(0, start + START.length)}\n${section.trim()}\n${text.slice(end)}`;
}

const CAVEATS = {
  fleet:
    'It does not show agents on separate machines: the agents run in one process on this machine, each with its own connections, and Redis is a local server.',
  hooks:
    'It does not show an agent under its own load: each hook call is timed right after a bare `node -e 0` on the same machine, and the ratios, not the milliseconds, are what carries over.',
  longHorizon:
    "It does not show real agents: the agent is a simulation whose forgetting (a 30% chance to replay a failure that left its memory window) is the paper's model, not a measurement.",
  sessions:
    'It does not show how often real agents restart or repeat failures across sessions; it shows only that what was learned is kept, and that outages teach nothing.',
  mlSearch:
    "It does not show real training: the memory wall, the score surface and the proposers are models calibrated on the paper's v6 run, not a GPU or an LLM.",
  perf: 'It does not show end-to-end latency: tool execution, the model and the transport cost far more. The yardsticks are written from their published descriptions, not the original code, and the sentinel does much less than the guard (no learning, no blame, nothing after the call). Ratios hold on a busy machine better than absolute figures, but they are not immune to it: a core taken away mid-block lands on whichever guard runs then.',
  proxy:
    'It does not show slow or remote servers, beside which this cost vanishes, nor a machine with a core to spare for the proxy: in this run client, proxy and server share the same cores, so the time the proxy spends is taken from the other two. `narrowing bench proxy --breakdown` says where the added latency and the CPU go, from proxies without learning and without a journal timed in the same rounds.',
};

function environment(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `Node ${process.version} on ${process.platform}-${process.arch}, ${cpu} × ${cpus().length}`;
}

/** The targets table in Markdown, for the page and the README. */
function targetsTable(targets: readonly TargetRow[]): string[] {
  return markdownTable(
    [{ title: 'what' }, { title: 'target' }, { title: 'measured' }, { title: 'verdict' }],
    targets.map((row) => [row.what, row.target, row.measured, row.verdict]),
  );
}

const TARGETS_NOTE =
  'Ratios compare figures taken in the same run, interleaved; absolute CPU figures are CPU time, not wall-clock time. A row is met when every figure in it meets its target in this run; a figure from one run on a shared machine is not a guarantee.';

function resultsPage(
  collected: Collected,
  problems: readonly string[],
  targets: readonly TargetRow[],
): string {
  const out: string[] = [
    '# Results',
    '',
    `Generated by \`npm run results\` (${environment()}, ${new Date().toISOString().slice(0, 10)}). Every number on`,
    "this page comes from a run of the benchmarks in `bench/`; the paper's figures are quoted from it",
    'for comparison. Reproduce any table with the `narrowing bench` command named in its section.',
  ];
  if (problems.length > 0) {
    out.push('', '**Problems in this run:**', '', ...problems.map((problem) => `- ${problem}`));
  }
  out.push('', '## Performance targets', '', ...targetsTable(targets), '', TARGETS_NOTE);
  const { longHorizon, sessions, mlSearch, perf, proxy } = collected;
  if (longHorizon) {
    out.push(
      ...pageSection(
        'Long-horizon tool calls (`narrowing bench long-horizon`)',
        [
          `${longHorizonTitle(longHorizon.config)}.`,
          fidelityLine(longHorizon.fidelity),
          '![Repeated failures against horizon, and false blocks per run](long-horizon.svg)',
        ],
        longHorizonSections(longHorizon),
        CAVEATS.longHorizon,
      ),
    );
  }
  if (sessions) {
    out.push(
      ...pageSection(
        'Sessions and blame (`narrowing bench sessions`)',
        [],
        sessionsSections(sessions),
        CAVEATS.sessions,
      ),
    );
  }
  if (mlSearch) {
    out.push(
      ...pageSection(
        'Hyperparameter search, simulated (`narrowing bench ml-search`)',
        [],
        mlSearchSections(mlSearch),
        CAVEATS.mlSearch,
      ),
    );
  }
  if (perf) {
    out.push(
      ...pageSection(
        'What the guard costs (`narrowing bench perf`)',
        [environmentLine(perf), ...methodLines(perf)],
        perfSections(perf),
        CAVEATS.perf,
      ),
    );
  }
  if (proxy) {
    out.push(
      ...pageSection('MCP proxy overhead (`narrowing bench proxy`)', [], proxySections(proxy), CAVEATS.proxy),
    );
  }
  out.push(...printedSections(collected));
  return `${out.join('\n')}\n`;
}

/** One benchmark's part of the page: its heading, opening paragraphs, tables and what it does not show. */
function pageSection(
  heading: string,
  paragraphs: readonly string[],
  tables: readonly Section[],
  caveat: string,
): string[] {
  return [
    '',
    `## ${heading}`,
    '',
    ...paragraphs.flatMap((text) => [text, '']),
    renderMarkdown(tables),
    '',
    caveat,
  ];
}

/** The benchmarks whose own printout is the figure: shown as printed, with what they do not show. */
function printedSections(collected: Collected): string[] {
  const out: string[] = [];
  if (collected.fleet) {
    out.push(
      '',
      '**A fleet sharing one store** (`narrowing-guard bench fleet`)',
      '',
      '```',
      collected.fleet,
      '```',
      '',
      CAVEATS.fleet,
    );
  }
  if (collected.hooks) {
    out.push(
      '',
      '**Agent hooks at start-up** (`narrowing-guard bench hooks`)',
      '',
      '```',
      collected.hooks,
      '```',
      '',
      CAVEATS.hooks,
    );
  }
  return out;
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

function proxySections(result: ProxyBenchResult): Section[] {
  const { latency, throughput } = result;
  const targets: Section = {
    title: 'Targets',
    columns: [{ title: 'result' }, { title: 'target' }, { title: 'measured', align: 'right' }],
    rows: proxyTargets(result).map((target) => [
      target.pass ? 'PASS' : 'FAIL',
      target.description,
      target.value,
    ]),
  };
  return [
    {
      title: `tools/call \`${result.tool}\` on server-everything, ${latency.direct.count} calls each way, interleaved`,
      columns: [
        { title: '' },
        { title: 'median', align: 'right' },
        { title: 'p99', align: 'right' },
        { title: `calls/s, ${throughput.concurrency} callers`, align: 'right' },
      ],
      rows: [
        ['direct', ms(latency.direct.medianMs), ms(latency.direct.p99Ms), Math.round(throughput.direct)],
        [
          'through narrowing',
          ms(latency.proxied.medianMs),
          ms(latency.proxied.p99Ms),
          Math.round(throughput.proxied),
        ],
        ['added', ms(latency.addedMedianMs), ms(latency.addedP99Ms), '—'],
        [
          'through a process that only copies bytes',
          ms(latency.relay.medianMs),
          ms(latency.relay.p99Ms),
          Math.round(throughput.relay),
        ],
        [
          'through a process that reads and rewrites every message as JSON',
          ms(latency.jsonRelay.medianMs),
          ms(latency.jsonRelay.p99Ms),
          Math.round(throughput.jsonRelay),
        ],
      ],
    },
    targets,
  ];
}

/** The short version for the README: the headline of each benchmark, and a link to the rest. */
function readmeSummary(collected: Collected, targets: readonly TargetRow[]): string {
  const out: string[] = [
    '**Performance targets** (`npm run results`)',
    '',
    ...targetsTable(targets),
    '',
    TARGETS_NOTE,
    '',
  ];
  const { longHorizon, sessions, mlSearch, perf, proxy } = collected;
  if (longHorizon) {
    out.push(
      "**Long-horizon tool calls** (seed 42, 200 calls; the paper's simulated agent, whose memory window",
      `forgets failures). ${fidelityLine(longHorizon.fidelity)}`,
      '',
      ...longHorizonReadmeTable(longHorizon),
      '',
      CAVEATS.longHorizon,
      '',
      '![Repeated failures against horizon, and false blocks per run](docs/long-horizon.svg)',
    );
  }
  if (sessions) {
    const passed = sessions.checks.filter((check) => check.pass).length;
    out.push(
      '',
      `**Sessions and blame**: ${passed} of ${sessions.checks.length} checks pass.`,
      '',
      ...markdownTable(
        [{ title: 'check' }, { title: 'result' }],
        sessions.checks.map((check) => [check.title, `${check.pass ? 'PASS' : 'FAIL'}: ${check.summary}`]),
      ),
      '',
      CAVEATS.sessions,
    );
  }
  if (mlSearch) {
    out.push(
      '',
      "**Hyperparameter search** (the paper's v6 GPU run, simulated: OOMs over 5 seeds × 25 trials)",
      '',
    );
    out.push(...mlSearchReadmeTable(mlSearch), '', CAVEATS.mlSearch);
  }
  if (perf) {
    const passed = perf.targets.filter((target) => target.pass).length;
    out.push(
      '',
      `**What the guard costs**: ${passed} of ${perf.targets.length} targets met. ${environmentLine(perf)}`,
      '',
      ...methodLines(perf).flatMap((line) => [line, '']),
      ...markdownTable(
        [{ title: 'target' }, { title: 'measured', align: 'right' }, { title: 'result' }],
        perf.targets.map((target) => [target.description, target.value, target.pass ? 'PASS' : 'FAIL']),
      ),
      '',
      CAVEATS.perf,
    );
  }
  if (proxy) {
    out.push(
      '',
      ...markdownTable(
        [{ title: 'target' }, { title: 'measured', align: 'right' }, { title: 'result' }],
        proxyTargets(proxy).map((target) => [
          target.description,
          target.value,
          target.pass ? 'PASS' : 'FAIL',
        ]),
      ),
      '',
      `**MCP proxy**: ${ms(proxy.latency.addedMedianMs)} added at the median (target: at most ${PROXY_MEDIAN_TARGET_MS} ms, ${proxy.latency.addedMedianMs < PROXY_MEDIAN_TARGET_MS ? 'PASS' : 'FAIL'}), ${ms(proxy.latency.addedP99Ms)} at p99, per \`tools/call\` (${proxy.latency.direct.count} calls each way against server-everything); with ${proxy.throughput.concurrency} concurrent callers ${Math.round(proxy.throughput.proxied)} calls/s through narrowing against ${Math.round(proxy.throughput.direct)} direct, ${percent(proxy.throughput.proxied / proxy.throughput.direct)} (target: at least 80%, ${proxy.throughput.proxied / proxy.throughput.direct >= PROXY_THROUGHPUT_TARGET ? 'PASS' : 'FAIL'}); a process that only copies bytes between the two keeps ${percent(proxy.throughput.relay / proxy.throughput.direct)}, the floor for any stdio proxy on this machine. ${CAVEATS.proxy}`,
    );
  }
  out.push(...printedSections(collected));
  out.push('', 'Every table, per seed and window, with the methods: [docs/results.md](docs/results.md).');
  return out.join('\n');
}

function longHorizonReadmeTable(result: LongHorizonResult): string[] {
  const { rows, config } = result;
  const at = (window: number, mode: 'vanilla' | 'precise' | 'strict') =>
    rows.find((row) => row.seed === 42 && row.window === window && row.calls === 200 && row.mode === mode);
  const cells = (
    row:
      | { repeatedFailures: number; blocked: number; falseBlocks: number; successfulCalls: number }
      | undefined,
  ) => (row ? `${row.repeatedFailures} / ${row.blocked} / ${row.falseBlocks} / ${row.successfulCalls}` : '—');
  const guard = (window: number) => cells(PUBLISHED_GUARD.find((published) => published.window === window));
  return markdownTable(
    [
      { title: 'window' },
      { title: 'vanilla' },
      { title: "paper's guard (published)" },
      { title: 'narrowing, precise' },
      { title: 'narrowing, strict' },
    ],
    config.windows.map((window) => [
      String(window),
      cells(at(window, 'vanilla')),
      guard(window),
      cells(at(window, 'precise')),
      cells(at(window, 'strict')),
    ]),
  ).concat([
    '',
    'Each cell: repeated failures / blocked / false blocks (blocked calls that would have succeeded) / successful calls.',
  ]);
}

function mlSearchReadmeTable(report: MlSearchReport): string[] {
  const proposers = [...new Set(report.rows.map((row) => row.proposer))];
  const modes = [...new Set(report.rows.map((row) => row.mode))];
  return markdownTable(
    [
      { title: 'proposer' },
      ...modes.map((mode) => ({ title: `${mode}: OOMs (blocked)`, align: 'right' as const })),
    ],
    proposers.map((proposer) => [
      proposer,
      ...modes.map((mode) => {
        const row = report.rows.find((entry) => entry.proposer === proposer && entry.mode === mode);
        return row ? `${row.ooms} (${row.blockedProposals})` : '—';
      }),
    ]),
  );
}

/** `npx tsx scripts/results.ts [--quick] [--only long-horizon,ml-search]` */
const USAGE = `Usage: npm run results -- [--quick] [--only ${[...BENCHMARKS, 'corpus'].join(',')}]
                          [--test-timing FILE] [--corpus DIR [--preset P]] [--blame-corpus DIR]

Runs the benchmarks (all of them, or those --only names), writes docs/results.md and the
results section of README.md, and prints each target with its verdict. With --corpus DIR or
--blame-corpus DIR alone, only those corpora are scored: the real agent runs of scripts/corpus
and the real error texts of scripts/blame-corpus, each half by half. --test-timing FILE adds
the \`npm test\` row from a timing file written by .ci/run.
`;

export async function main(argv: readonly string[]): Promise<number> {
  let parsed: ReturnType<typeof parseResultsArgs>;
  try {
    parsed = parseResultsArgs(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { quick } = parsed;
  const named = parsed.only?.split(',').filter((name) => name !== '');
  // The corpus of real runs is measured on its own (`--corpus DIR`), apart from the benchmarks.
  const corpus = parsed.corpus;
  const only = named?.filter((name) => name !== 'corpus');
  const unknown = only?.filter((name) => !BENCHMARKS.includes(name as Benchmark)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(
      `--only takes some of ${BENCHMARKS.join(', ')}, corpus (got "${unknown.join(',')}")\n`,
    );
    return 2;
  }
  const root = fileURLToPath(new URL('..', import.meta.url));
  const io = { stdout: process.stdout, stderr: process.stderr };
  const preset = parsed.preset;
  const blameCorpus = parsed.blameCorpus;
  const scoreCorpora = async (): Promise<number> => {
    const runs =
      corpus !== undefined || blameCorpus === undefined
        ? await runCorpusCommand(corpus, { root, ...(preset && { preset }) }, io)
        : 0;
    const texts =
      blameCorpus !== undefined || corpus === undefined
        ? await runBlameCorpusCommand(blameCorpus, { root }, io)
        : 0;
    return Math.max(runs, texts);
  };
  const corporaAlone =
    ((corpus !== undefined || blameCorpus !== undefined) && named === undefined) ||
    (named !== undefined && only?.length === 0);
  if (corporaAlone) return scoreCorpora();
  const timingPath = parsed.testTiming;
  const testTiming = readTestTiming(timingPath);
  if (timingPath !== undefined && testTiming === undefined) {
    process.stderr.write(
      `--test-timing ${timingPath}: no timing there; write one with \`.ci/timed FILE npm test\` (or run .ci/run)\n`,
    );
    return 2;
  }
  const outcome = await generateResults({
    root,
    quick,
    ...(testTiming && { testTiming }),
    ...(only ? { only: only as Benchmark[] } : {}),
    onProgress: (message) => process.stderr.write(`… ${message}\n`),
  });
  process.stderr.write(
    `wrote ${outcome.resultsPath}${outcome.chartPath ? ` and ${outcome.chartPath}` : ''}; README ${outcome.readmeUpdated ? 'updated' : 'unchanged (no results markers, or nothing new)'}\n`,
  );
  process.stdout.write(`${issueTargetsText(outcome.targets)}\n`);
  for (const problem of outcome.problems) process.stderr.write(`problem: ${problem}\n`);
  await runCorpusCommand(corpus, { root, ...(preset && { preset }) }, io);
  await runBlameCorpusCommand(blameCorpus, { root }, io);
  return outcome.problems.length > 0 ? 1 : 0;
}

/** The command line of `npm run results`: an unknown option is an error, never a full run. */
function parseResultsArgs(argv: readonly string[]) {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      help: { type: 'boolean', short: 'h' },
      quick: { type: 'boolean' },
      only: { type: 'string' },
      corpus: { type: 'string' },
      'blame-corpus': { type: 'string' },
      preset: { type: 'string' },
      'test-timing': { type: 'string' },
    },
  });
  return {
    help: values.help === true,
    quick: values.quick === true,
    only: values.only,
    corpus: values.corpus,
    blameCorpus: values['blame-corpus'],
    preset: values.preset,
    testTiming: values['test-timing'],
  };
}
