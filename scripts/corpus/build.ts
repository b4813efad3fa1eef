/**
 * Rebuilds the corpus of real agent runs from fetched copies of the repositories the manifest pins:
 * converts every run to the trace format, labels it by the calibration rules, and writes, per half,
 * `traces/*.jsonl` and `labels.jsonl` under the output directory (outside the repository: the
 * traces are other people's text).
 *
 *     npx tsx scripts/corpus/build.ts --out DIR [--labels FILE] GIT_DIR...
 *
 * Each GIT_DIR is a git directory (bare, or a checkout's `.git`) of one source; a source is matched
 * to the directory that holds its pinned commit. `--labels FILE` also writes every run's labels to
 * one file (the copy the repository keeps), keeping the lines of the sources left out.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTraceEvent } from '../../src/trace/write.js';
import { convertAiderChat } from './convert-aider.js';
import { convertAiderHistory } from './convert-aider-history.js';
import { convertAdaptAlfworld } from './convert-alfworld.js';
import { convertAlfworldLog } from './convert-alfworld-log.js';
import { convertAlfworldSteps } from './convert-alfworld-steps.js';
import { convertBalrogEpisode } from './convert-balrog.js';
import { convertClaudeTranscript } from './convert-claude.js';
import { convertClineTask } from './convert-cline.js';
import { convertClineExport } from './convert-cline-export.js';
import { convertClaudeScreen } from './convert-claude-screen.js';
import { convertCodexRun } from './convert-codex.js';
import {
  type CheckpointSession,
  checkpointSession,
  convertCheckpointSession,
  latestCopies,
} from './convert-entire.js';
import { convertFireActTrajectories } from './convert-fireact.js';
import { convertGeminiScreen } from './convert-gemini-screen.js';
import { convertHyperAgentRecords } from './convert-hyperagent.js';
import { convertKnowAgentTrajectories } from './convert-knowagent.js';
import { convertKnowAgentAlfworld } from './convert-knowagent-alfworld.js';
import { convertReacTreeRun } from './convert-reactree.js';
import { convertZorkLog } from './convert-zork.js';
import { convertZorkGptEpisode } from './convert-zorkgpt.js';
import { convertStoryDump } from './convert-storydump.js';
import { convertInterCodeResults } from './convert-intercode.js';
import { convertMiniSweAgent } from './convert-mini.js';
import { convertMiniScreen } from './convert-mini-screen.js';
import { convertMintResults } from './convert-mint.js';
import { convertNatTrajectories } from './convert-nat.js';
import { convertNyuCtfConversation } from './convert-nyu-ctf.js';
import { convertReActNotebook, notebookRunPrefix } from './convert-notebook.js';
import { convertOpenHandsOutput } from './convert-openhands.js';
import { convertReflexionLogs } from './convert-react.js';
import { convertSpecStory } from './convert-specstory.js';
import { convertSpecStoryTools } from './convert-specstory-tools.js';
import { convertSweAgentTraj } from './convert-swe-agent.js';
import { convertGeminiChat, currentChatRecords, onePerSession } from './convert-gemini.js';
import { convertTauBench } from './convert-tau.js';
import { convertAdaptTextCraft } from './convert-textcraft.js';
import { convertTerminusTrial, terminusTrialOf } from './convert-terminus.js';
import { type ConvertedRun, type RunSource, safeName } from './events.js';
import { blobSizes, listFiles, readFile, resolveCommit } from './git.js';
import { labelRun, type RunLabels } from './label.js';

export type Half = 'design' | 'validation';
/** What the validation half needs to measure the guard's judgement with some confidence. */
export const VALIDATION_LOOPS = 30;
export const VALIDATION_CALLS = 20_000;
export const HALVES: readonly Half[] = ['design', 'validation'];

export interface ManifestSource {
  readonly id: string;
  readonly half: Half;
  readonly repo: string;
  readonly commit: string;
  readonly licence: string;
  readonly agent: string;
  readonly format:
    | 'tau-bench'
    | 'swe-agent'
    | 'mini-swe-agent'
    | 'mini-screen'
    | 'openhands'
    | 'claude'
    | 'hyperagent'
    | 'aider'
    | 'aider-history'
    | 'reflexion'
    | 'fireact'
    | 'terminus'
    | 'react-notebook'
    | 'intercode'
    | 'mint'
    | 'nyu-ctf'
    | 'adapt-alfworld'
    | 'alfworld-steps'
    | 'alfworld-log'
    | 'adapt-textcraft'
    | 'balrog-textworld'
    | 'reactree'
    | 'zork-log'
    | 'zorkgpt-episode'
    | 'storydump'
    | 'knowagent'
    | 'knowagent-alfworld'
    | 'nat'
    | 'claude-screen'
    | 'gemini-screen'
    | 'specstory'
    | 'specstory-tools'
    | 'codex'
    | 'gemini'
    | 'cline'
    | 'cline-export'
    | 'entire';
  /** A regular expression the paths of the source's files match. */
  readonly include: string;
}

export interface LabelRecord extends RunLabels {
  readonly half: Half;
  readonly source: string;
  readonly agent: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));
export const MANIFEST_PATH = join(HERE, 'manifest.json');

export function readManifest(path = MANIFEST_PATH): ManifestSource[] {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { sources: ManifestSource[] };
  return manifest.sources;
}

function pinOf(source: ManifestSource): string {
  return `${source.repo}@${source.commit.slice(0, 12)}`;
}

function convertFile(source: ManifestSource, path: string, content: string): ConvertedRun[] {
  const from: RunSource = { pin: pinOf(source), path, licence: source.licence, agent: source.agent };
  const stem = basename(path).replace(/\.(traj\.json|traj|jsonl|json|md|ipynb)$/, '');
  switch (source.format) {
    case 'tau-bench':
      return convertTauBench(content, from, source.id);
    case 'swe-agent':
      return [convertSweAgentTraj(content, from, `${source.id}-${stem}`, `${source.agent} run ${stem}`)];
    case 'mini-swe-agent':
      return [convertMiniSweAgent(content, from, `${source.id}-${stem}`, `${source.agent} run ${stem}`)];
    case 'mini-screen': {
      // A Terminal-Bench trial keeps its pane under `TRIAL/sessions/agent.log`: the trial names the run.
      const trial = basename(dirname(dirname(path)));
      return [convertMiniScreen(content, from, safeName(`${source.id}-${trial}`), `${source.agent} run ${trial}`)];
    }
    case 'openhands':
      return convertOpenHandsOutput(content, from, `${source.id}-${basename(dirname(path))}`);
    case 'aider':
      return convertAiderChat(content, from, `${source.id}-${stem}`, `${source.agent} run ${stem}`);
    case 'aider-history':
      return convertAiderHistory(content, from, source.id, `${source.agent} session`);
    case 'fireact':
      return convertFireActTrajectories(content, from, source.id);
    case 'adapt-alfworld':
      return convertAdaptAlfworld(content, from, source.id);
    case 'alfworld-steps':
      return convertAlfworldSteps(content, from, source.id);
    case 'alfworld-log':
      return convertAlfworldLog(content, from, source.id);
    case 'reactree':
      return convertReacTreeRun(content, from, source.id);
    case 'zork-log':
      return convertZorkLog(content, from, source.id);
    case 'zorkgpt-episode':
      return convertZorkGptEpisode(content, from, source.id);
    case 'storydump':
      return convertStoryDump(content, from, source.id);
    case 'adapt-textcraft':
      return convertAdaptTextCraft(content, from, source.id);
    case 'balrog-textworld':
      return convertBalrogEpisode(content, from, source.id);
    case 'knowagent':
      return convertKnowAgentTrajectories(content, from, source.id);
    case 'knowagent-alfworld':
      return convertKnowAgentAlfworld(content, from, source.id);
    case 'nat':
      return convertNatTrajectories(content, from, source.id);
    case 'mint':
      return convertMintResults(content, from, source.id);
    case 'nyu-ctf':
      return convertNyuCtfConversation(content, from, source.id);
    case 'intercode':
      return convertInterCodeResults(content, from, source.id);
    case 'react-notebook':
      return convertReActNotebook(content, from, notebookRunPrefix(source.id, stem), stem);
    case 'claude-screen':
      return convertClaudeScreen(content, from, `${source.id}-${stem}`);
    case 'gemini-screen':
      return convertGeminiScreen(content, from, `${source.id}-${stem}`);
    case 'specstory':
      return [convertSpecStory(content, from, `${source.id}-${stem}`)];
    case 'specstory-tools':
      return [convertSpecStoryTools(content, from, `${source.id}-${stem}`)];
    case 'codex': {
      const run = basename(path).replace(/\.(jsonl|log)$/, '');
      return [convertCodexRun(content, from, `${source.id}-${run}`, `${source.agent} run ${run}`)];
    }
    case 'gemini':
      return [convertGeminiChat(content, from, `${source.id}-${stem}`, `${source.agent} run ${stem}`)];
    case 'cline': {
      const task = basename(dirname(path));
      return [convertClineTask(content, from, `${source.id}-${task}`, `${source.agent} task ${task}`)];
    }
    case 'cline-export':
      return [convertClineExport(content, from, safeName(`${source.id}-${stem}`), `${source.agent} task ${stem}`)];
    case 'hyperagent':
      throw new Error('HyperAgent records are converted per source, not per file');
    case 'reflexion':
      throw new Error('Reflexion logs are converted per source, not per file');
    case 'terminus':
      throw new Error('Terminus episodes are converted per trial, not per file');
    case 'entire':
      throw new Error('Entire checkpoints are converted per session, not per file');
    case 'claude': {
      const session = path.includes('/subagents/')
        ? `${basename(dirname(dirname(path))).slice(0, 8)}-${stem}`
        : stem === 'transcript'
          ? basename(dirname(path))
          : stem;
      return [convertClaudeTranscript(content, from, `${source.id}-${session}`)];
    }
  }
}

/** The runs of one source, read from the git directory that holds its commit. */
export function convertSource(source: ManifestSource, gitDir: string): ConvertedRun[] {
  const include = new RegExp(source.include);
  const runs: ConvertedRun[] = [];
  const names = new Set<string>();
  const included = listFiles(gitDir, source.commit).filter((file) => include.test(file)).sort();
  const paths = source.format === 'gemini' ? currentChatRecords(included) : included;
  // A HyperAgent record repeats the earlier steps of its chain, a Reflexion log prints a run again in
  // every later trial, and a folder of Gemini CLI chat records may hold a session more than once, so
  // the runs of these sources come from all their files at once.
  const files = () => paths.map((path) => ({ path, content: readFile(gitDir, source.commit, path) }));
  const from = { pin: pinOf(source), licence: source.licence, agent: source.agent };
  const converted =
    source.format === 'hyperagent'
      ? [convertHyperAgentRecords(files(), from, source.id)]
      : source.format === 'reflexion'
        ? [convertReflexionLogs(files(), from, source.id)]
        : source.format === 'terminus'
          ? terminusTrials(source, gitDir, paths)
          : source.format === 'entire'
            ? entireSessions(source, gitDir, paths)
            : source.format === 'gemini'
              ? onePerSession(files()).map(({ path, content }) => convertFile(source, path, content))
              : paths.map((path) => convertFile(source, path, readFile(gitDir, source.commit, path)));
  for (const fileRuns of converted) {
    for (const run of fileRuns) {
      if (!run.events.some((event) => event.type === 'call')) continue;
      let name = run.name;
      for (let copy = 2; names.has(name); copy++) name = `${run.name}-${copy}`;
      names.add(name);
      runs.push({ ...run, name });
    }
  }
  return runs;
}

/** A Terminus trial spreads over one directory of episodes: each trial becomes one run. */
function terminusTrials(source: ManifestSource, gitDir: string, paths: readonly string[]): ConvertedRun[][] {
  const trials = new Map<string, string[]>();
  for (const path of paths) {
    const trial = terminusTrialOf(path);
    if (trial) trials.set(trial, [...(trials.get(trial) ?? []), path]);
  }
  return [...trials].map(([trial, files]) => {
    const stem = basename(trial);
    const from: RunSource = { pin: pinOf(source), path: trial, licence: source.licence, agent: source.agent };
    const contents = files.map((path) => ({ path, content: readFile(gitDir, source.commit, path) }));
    return [convertTerminusTrial(contents, from, `${source.id}-${stem}`, `${source.agent} run ${stem}`)];
  });
}

/** Entire's checkpoints keep a session once per commit it made: each session becomes one run, its latest copy. */
function entireSessions(source: ManifestSource, gitDir: string, paths: readonly string[]): ConvertedRun[][] {
  const transcripts = paths.filter((path) => path.endsWith('/full.jsonl'));
  const sizes = blobSizes(gitDir, source.commit, transcripts);
  const sessions = paths
    .filter((path) => path.endsWith('/metadata.json'))
    .map((path) => {
      const dir = dirname(path);
      return checkpointSession(path, readFile(gitDir, source.commit, path), sizes.get(`${dir}/full.jsonl`) ?? 0);
    })
    .filter((session): session is CheckpointSession => session !== undefined);
  return latestCopies(sessions).map((session) => {
    const path = `${session.dir}/full.jsonl`;
    const from: RunSource = { pin: pinOf(source), path, licence: source.licence, agent: source.agent };
    // OpenCode's session ids open with `ses_`, the same in every session.
    const name = `${source.id}-${session.sessionId.replace(/^ses_/, '').slice(0, 8)}`;
    return [convertCheckpointSession(session, readFile(gitDir, source.commit, path), from, name)];
  });
}

function findGitDir(source: ManifestSource, gitDirs: readonly string[]): string | undefined {
  return gitDirs.find((dir) => {
    try {
      return resolveCommit(dir, source.commit) === source.commit;
    } catch {
      return false;
    }
  });
}

interface Built {
  readonly records: LabelRecord[];
  readonly missing: ManifestSource[];
}

export function buildCorpus(out: string, gitDirs: readonly string[], progress: (line: string) => void): Built {
  const records: LabelRecord[] = [];
  const missing: ManifestSource[] = [];
  for (const half of HALVES) {
    rmSync(join(out, half), { recursive: true, force: true });
    mkdirSync(join(out, half, 'traces'), { recursive: true });
  }
  for (const source of readManifest()) {
    const gitDir = findGitDir(source, gitDirs);
    if (!gitDir) {
      missing.push(source);
      progress(`${source.id}: no given repository holds ${source.repo}@${source.commit.slice(0, 12)}; left out`);
      continue;
    }
    const runs = convertSource(source, gitDir);
    let calls = 0;
    let loops = 0;
    for (const run of runs) {
      const file = `${run.name}.jsonl`;
      writeFileSync(join(out, source.half, 'traces', file), `${run.events.map((event) => formatTraceEvent(event)).join('\n')}\n`);
      const labels = labelRun(file, run.events);
      calls += labels.calls;
      loops += labels.loops.length;
      records.push({ half: source.half, source: source.id, agent: source.agent, ...labels });
    }
    progress(`${source.id} (${source.half}): ${runs.length} runs, ${calls} calls, ${loops} loops`);
  }
  for (const half of HALVES) {
    const lines = records.filter((record) => record.half === half).map((record) => JSON.stringify(record));
    writeFileSync(join(out, half, 'labels.jsonl'), lines.length > 0 ? `${lines.join('\n')}\n` : '');
  }
  writeFileSync(join(out, 'manifest.json'), readFileSync(MANIFEST_PATH));
  return { records, missing };
}

/**
 * The labels file's text: the runs just labelled, and, for each source this build left out (its
 * repository not given), the lines the file held for it, so that rebuilding some sources never drops
 * the others' labels. Sources in the manifest's order.
 */
export function labelsFileText(
  records: readonly LabelRecord[],
  missing: readonly ManifestSource[],
  kept: string,
): string {
  const left = new Set(missing.map((source) => source.id));
  const keptLines = kept.split('\n').filter((line) => line.trim() !== '');
  const keptOf = (id: string) =>
    keptLines.filter((line) => (JSON.parse(line) as { source?: unknown }).source === id);
  const builtOf = (id: string) =>
    records
      .filter((record) => record.source === id)
      .map((record) =>
        JSON.stringify({
          ...record,
          justified: record.justified.map(({ step, rule }) => ({ step, rule })),
          loops: record.loops.map(({ start, end, wasted }) => ({ start, end, wasted })),
        }),
      );
  const ids = [...new Set([...records.map((record) => record.source), ...left])];
  const order = readManifest().map((source) => source.id);
  ids.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const lines = ids.flatMap((id) => (left.has(id) ? keptOf(id) : builtOf(id)));
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

export function statusMarkdown(records: readonly LabelRecord[], missing: readonly ManifestSource[]): string {
  const lines = [
    '# Corpus of real agent runs',
    '',
    'Built by `npx tsx scripts/corpus/build.ts --out DIR GIT_DIR...` from the sources pinned in',
    '`scripts/corpus/manifest.json`. Tune rules on `design/` only; run `validation/` only to measure.',
    '',
    '| half | source | agent | runs | calls | wasted calls | loops |',
    '|---|---|---|---:|---:|---:|---:|',
  ];
  const sources = [...new Set(records.map((record) => `${record.half}\u0000${record.source}`))];
  for (const key of sources) {
    const [half, source] = key.split('\u0000') as [string, string];
    const rows = records.filter((record) => record.half === half && record.source === source);
    const sum = (pick: (record: LabelRecord) => number) => rows.reduce((total, record) => total + pick(record), 0);
    lines.push(
      `| ${half} | ${source} | ${rows[0]?.agent ?? ''} | ${rows.length} | ${sum((record) => record.calls)} | ${sum((record) => record.justified.length)} | ${sum((record) => record.loops.length)} |`,
    );
  }
  for (const half of HALVES) {
    const rows = records.filter((record) => record.half === half);
    const sum = (pick: (record: LabelRecord) => number) => rows.reduce((total, record) => total + pick(record), 0);
    lines.push(`| ${half} | **all** | | ${rows.length} | ${sum((record) => record.calls)} | ${sum((record) => record.justified.length)} | ${sum((record) => record.loops.length)} |`);
  }
  if (missing.length > 0) lines.push('', `Left out (no repository given): ${missing.map((source) => source.id).join(', ')}.`);
  const validation = records.filter((record) => record.half === 'validation');
  const loops = validation.reduce((total, record) => total + record.loops.length, 0);
  const calls = validation.reduce((total, record) => total + record.calls, 0);
  const enough = loops >= VALIDATION_LOOPS && calls >= VALIDATION_CALLS;
  lines.push(
    '',
    enough
      ? `The validation half reaches the ${VALIDATION_LOOPS} labelled loops and ${VALIDATION_CALLS} calls it needs.`
      : `The validation half does NOT yet reach the ${VALIDATION_LOOPS} labelled loops and ${VALIDATION_CALLS} calls it needs (it has ${loops} loops and ${calls} calls): add sources to the manifest.`,
  );
  lines.push(
    '',
    'Each half holds `traces/*.jsonl` (trace format) and `labels.jsonl` (one line per run: `trace`, `source`,',
    '`agent`, `calls`, `justified` wasted steps with the rule that made them, `loops`).',
    '',
    'Score a built checkout on both halves:',
    '',
    '    npm run results -- --corpus DIR [--preset P]    # builds the guard first',
    '',
  );
  return lines.join('\n');
}

function parseArgs(argv: readonly string[]): { out: string; labels?: string; gitDirs: string[] } {
  let out: string | undefined;
  let labels: string | undefined;
  const gitDirs: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--out') out = argv[++index];
    else if (arg === '--labels') labels = argv[++index];
    else gitDirs.push(arg);
  }
  if (!out || gitDirs.length === 0) {
    throw new Error('usage: build.ts --out DIR [--labels FILE] GIT_DIR... (the git directories of the manifest\'s sources)');
  }
  return { out, gitDirs, ...(labels && { labels }) };
}

async function main(): Promise<number> {
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const { records, missing } = buildCorpus(options.out, options.gitDirs, (line) => process.stderr.write(`${line}\n`));
  writeFileSync(join(options.out, 'STATUS.md'), statusMarkdown(records, missing));
  if (options.labels) {
    const kept = existsSync(options.labels) ? readFileSync(options.labels, 'utf8') : '';
    writeFileSync(options.labels, labelsFileText(records, missing, kept));
  }
  process.stdout.write(statusMarkdown(records, missing));
  return missing.length > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = await main();
