/**
 * Persistence and blame, as the paper claims them: a second session restored from the first does not
 * rediscover its failures (from a snapshot, and through the default file store in a new process);
 * ten timeouts in a row teach nothing; in a mix of agent mistakes and outages, only the mistakes
 * narrow the agent.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createToolCallAdapter, toolCallToProposal } from '../src/adapters/tool-call/index.js';
import { NarrowingEngine } from '../src/core/loop.js';
import type { Blame } from '../src/core/types.js';
import { NarrowingLoop } from '../src/narrowing.js';
import { chooseEngine, type EngineKind, engineModuleUrl } from './engine.js';
import {
  blockedNow,
  failedCalls,
  ManualClock,
  MIXED_WORKLOAD,
  MockWorkspace,
  runCalls,
  type ScriptedCall,
  SESSION_ONE,
  type StepReport,
  TIMEOUTS,
} from './sessions-workload.js';

export type SessionCheckId = 'snapshot-restore' | 'file-store-new-process' | 'timeouts' | 'mixed-blame';

export interface SessionCheck {
  readonly id: SessionCheckId;
  readonly title: string;
  readonly expectation: string;
  readonly pass: boolean;
  readonly figures: Readonly<Record<string, number | string>>;
  /** The figures in one sentence. */
  readonly summary: string;
}

export interface SessionsReport {
  readonly ok: boolean;
  readonly checks: readonly SessionCheck[];
}

export interface SessionsOptions {
  /** The engine the child process runs: the TypeScript sources, or the build in `dist/`. */
  readonly engine?: EngineKind;
  readonly onProgress?: (message: string) => void;
}

const START = Date.UTC(2026, 1, 18, 9);
const HOUR = 60 * 60 * 1000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const adapter = createToolCallAdapter();

function newGuard(clock: ManualClock, sessionId: string): NarrowingEngine {
  return new NarrowingEngine({ adapter: createToolCallAdapter(), clock, sessionId });
}

function count(steps: readonly StepReport[], test: (step: StepReport) => boolean): number {
  return steps.reduce((total, step) => total + (test(step) ? 1 : 0), 0);
}

const failedAgain = (step: StepReport) => step.ok === false;
const falseBlock = (step: StepReport) => !step.allowed && step.wouldSucceed;
const seededBy = (steps: readonly StepReport[]) =>
  steps.reduce((total, step) => total + step.newConstraints, 0);

export async function runSessionsBench(options: SessionsOptions = {}): Promise<SessionsReport> {
  const progress = options.onProgress ?? (() => undefined);
  progress('session 2 restored from a snapshot of session 1');
  const snapshot = snapshotRestore();
  progress('session 1 in a new process with the default file store, then session 2 here');
  const fileStore = await fileStoreInNewProcess(options.engine ?? 'source');
  progress('ten consecutive timeouts');
  const timeouts = consecutiveTimeouts();
  progress('agent failures mixed with harness faults');
  const mixed = mixedBlame();
  const checks = [snapshot, fileStore, timeouts, mixed];
  return { ok: checks.every((check) => check.pass), checks };
}

interface Retry {
  readonly calls: readonly ScriptedCall[];
  /** Blocked by session one's guard at its end: what session one had learned. */
  readonly known: readonly boolean[];
  readonly guarded: readonly StepReport[];
  readonly vanilla: readonly StepReport[];
}

function retryFigures(retry: Retry, carried: (index: number) => boolean) {
  const learned = retry.known.filter(Boolean).length;
  const tally = (steps: readonly StepReport[], test: (index: number) => boolean) =>
    steps.filter((step, index) => test(index) && failedAgain(step)).length;
  return {
    distinctFailures: retry.calls.length,
    learned,
    blocked: count(retry.guarded, (step) => !step.allowed),
    rediscovered: tally(retry.guarded, (index) => retry.known[index] === true && carried(index)),
    rediscoveredVanilla: tally(retry.vanilla, (index) => retry.known[index] === true && carried(index)),
    uncorroboratedRerun: tally(retry.guarded, (index) => retry.known[index] !== true),
    nowSucceeding: count(retry.vanilla, (step) => step.ok === true),
    falseBlocks: count(retry.guarded, falseBlock),
  };
}

/** (a) The paper's snapshot()/restore(): session two starts from session one's full snapshot. */
export function snapshotRestore(): SessionCheck {
  const clock = new ManualClock(START);
  const workspace = new MockWorkspace();
  const first = newGuard(clock, 'session-1');
  const steps = runCalls(SESSION_ONE, workspace, first, clock);
  // Through JSON, as a snapshot travels to disk and back.
  const saved = JSON.parse(JSON.stringify(first.snapshot()));
  const calls = failedCalls(steps);
  const known = blockedNow(first, calls);
  clock.advance(HOUR);
  const second = newGuard(clock, 'session-2');
  second.restore(saved);
  const guarded = runCalls(calls, new MockWorkspace(workspace.snapshot()), second, clock);
  const vanilla = runCalls(calls, new MockWorkspace(workspace.snapshot()), undefined, clock);
  const figures = {
    sessionOneCalls: steps.length,
    constraintsSeeded: seededBy(steps),
    ...retryFigures({ calls, known, guarded, vanilla }, () => true),
  };
  return {
    id: 'snapshot-restore',
    title: 'session 2 restored from session 1 snapshot()',
    expectation:
      'none of the failures session 1 learned runs and fails again; nothing that now works is blocked',
    pass:
      figures.rediscovered === 0 &&
      figures.falseBlocks === 0 &&
      figures.learned > 0 &&
      figures.rediscoveredVanilla === figures.learned,
    figures,
    summary: [
      `session 1: ${figures.sessionOneCalls} calls, ${figures.distinctFailures} distinct failing calls, ${figures.learned} learned.`,
      `Session 2 proposes them first: ${figures.rediscovered} of the ${figures.learned} learned fail again (vanilla: ${figures.rediscoveredVanilla});`,
      `${figures.blocked} blocked, ${figures.falseBlocks} false blocks, ${figures.nowSucceeding} fixed in session 1 and allowed,`,
      `${figures.uncorroboratedRerun} seen to fail only once in session 1 (not yet corroborated) runs again.`,
    ].join(' '),
  };
}

interface ChildReport {
  readonly failed: ScriptedCall[];
  readonly known: boolean[];
  readonly files: Record<string, string>;
  readonly calls: number;
  readonly learned: number;
  readonly persisted: number;
  readonly endedAt: number;
}

/** The built engine when asked for and current; the sources otherwise. */
function engineModule(requested: EngineKind): { kind: EngineKind; url: string } {
  const { kind } = chooseEngine(requested);
  return { kind, url: engineModuleUrl(kind, 'narrowing') };
}

async function runChild(engineUrl: string, statePath: string): Promise<ChildReport> {
  const script = join(ROOT, 'bench', 'sessions-child.ts');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', script, engineUrl, statePath],
    { cwd: ROOT, timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } },
  );
  const line = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as ChildReport;
}

/**
 * (b) Session one runs in a child process with the default file store and exits; session two, in
 * this process, opens the same file. Commands are not carried, by design: whether a command fails
 * depends on every file of the workspace, which may change between processes without the guard
 * seeing it, so their bans live for the session only. The exception is a failure that names the
 * configuration file it depends on (a missing npm script): it is carried with a digest of that
 * file, as the file probe reads it in the working directory, and holds while the file is unchanged.
 */
export async function fileStoreInNewProcess(kind: EngineKind = 'source'): Promise<SessionCheck> {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-sessions-'));
  try {
    const statePath = join(dir, 'state.json');
    const engine = engineModule(kind);
    const child = await runChild(engine.url, statePath);
    const clock = new ManualClock(child.endedAt + HOUR);
    const problems: string[] = [];
    const second = new NarrowingLoop({
      statePath,
      clock,
      sessionId: 'session-2',
      onProblem: (message) => problems.push(message),
    });
    const loaded = second.getActiveConstraints().length;
    const guarded = runCalls(child.failed, new MockWorkspace(child.files), second, clock);
    const vanilla = runCalls(child.failed, new MockWorkspace(child.files), undefined, clock);
    await second.close();
    const isCommand = (call: ScriptedCall) =>
      adapter.describeCall(toolCallToProposal(call.tool, call.args)).kind === 'exec';
    const commands = child.failed.map(isCommand);
    const retry = { calls: child.failed, known: child.known, guarded, vanilla };
    const figures = {
      childEngine: engine.kind,
      sessionOneCalls: child.calls,
      constraintsSeeded: child.learned,
      persisted: child.persisted,
      loaded,
      ...retryFigures(retry, (index) => commands[index] !== true),
      commandsRerun: guarded.filter((step, index) => commands[index] && failedAgain(step)).length,
      storeProblems: problems.length,
    };
    return {
      id: 'file-store-new-process',
      title: 'default file store, session 1 in another process',
      expectation:
        'every learned failure about files and edits is blocked in the new process; learned command failures are kept for their session only, unless they name an unchanged configuration file',
      pass:
        figures.rediscovered === 0 &&
        figures.falseBlocks === 0 &&
        figures.rediscoveredVanilla > 0 &&
        figures.loaded === figures.persisted &&
        figures.storeProblems === 0,
      figures,
      summary: [
        `The child process (${engine.kind === 'dist' ? 'built engine' : 'engine sources'}) learned ${figures.learned} of ${figures.distinctFailures} failing calls and saved ${figures.persisted} constraints; the new process loads ${figures.loaded}.`,
        `Proposed again: ${figures.rediscovered} learned file or edit failures fail again (vanilla: ${figures.rediscoveredVanilla}),`,
        `${figures.commandsRerun} commands run again (session-scoped by design), ${figures.falseBlocks} false blocks.`,
      ].join(' '),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** (c) Ten timeouts of one call: the service is down, so nothing is learned about the agent. */
export function consecutiveTimeouts(): SessionCheck {
  const clock = new ManualClock(START);
  const loop = newGuard(clock, 'timeouts');
  const steps = runCalls(TIMEOUTS, new MockWorkspace(), loop, clock);
  const next = TIMEOUTS[0] as ScriptedCall;
  const eleventh = loop.checkProposal(toolCallToProposal(next.tool, next.args));
  const figures = {
    timeouts: count(steps, (step) => step.ok === false && step.blame === 'harness_fault'),
    constraintsSeeded: seededBy(steps),
    activeConstraints: loop.getActiveConstraints().length,
    persisted: loop.exportState().constraints.length,
    eleventhVerdict: eleventh.verdict,
    eleventhRule: eleventh.rule ?? 'none',
  };
  return {
    id: 'timeouts',
    title: '10 consecutive timeouts',
    expectation: 'zero constraints; the next attempt is not blocked',
    pass:
      figures.timeouts === 10 &&
      figures.constraintsSeeded === 0 &&
      figures.activeConstraints === 0 &&
      figures.persisted === 0 &&
      eleventh.allowed,
    figures,
    summary: `${figures.timeouts} timeouts recorded as harness faults, ${figures.constraintsSeeded} constraints seeded, ${figures.activeConstraints} active; an 11th attempt gets "${figures.eleventhVerdict}"${eleventh.rule ? ` (${eleventh.rule})` : ''}`,
  };
}

/** (d) Agent mistakes between timeouts, 429s, 503s and dropped connections. */
export function mixedBlame(): SessionCheck {
  const clock = new ManualClock(START);
  const loop = newGuard(clock, 'mixed');
  const steps = runCalls(MIXED_WORKLOAD, new MockWorkspace(), loop, clock);
  const blames: Blame[] = ['agent_failure', 'harness_fault', 'unknown'];
  const failures = (blame: Blame) => count(steps, (step) => step.ok === false && step.blame === blame);
  const seeded = (blame: Blame) =>
    steps.filter((step) => step.blame === blame).reduce((total, step) => total + step.newConstraints, 0);
  const outageBlocked = steps.filter(
    (step, index) => !step.allowed && MIXED_WORKLOAD[index]?.result !== undefined,
  ).length;
  const figures: Record<string, number> = { calls: steps.length };
  for (const blame of blames) {
    figures[`${blame}Failures`] = failures(blame);
    figures[`${blame}Constraints`] = seeded(blame);
  }
  figures.blocked = count(steps, (step) => !step.allowed);
  figures.outageCallsBlocked = outageBlocked;
  return {
    id: 'mixed-blame',
    title: 'agent failures mixed with harness faults',
    expectation: 'constraints come only from agent failures; no call to a failing service is blocked',
    pass:
      figures.harness_faultConstraints === 0 &&
      figures.unknownConstraints === 0 &&
      (figures.agent_failureConstraints ?? 0) > 0 &&
      outageBlocked === 0,
    figures,
    summary: `agent failures: ${figures.agent_failureFailures} → ${figures.agent_failureConstraints} constraints; harness faults (timeouts, 429, 503, ECONNRESET): ${figures.harness_faultFailures} → ${figures.harness_faultConstraints}; unknown: ${figures.unknownFailures} → ${figures.unknownConstraints}; ${figures.blocked} repeats of agent failures blocked, ${outageBlocked} outage calls blocked`,
  };
}
