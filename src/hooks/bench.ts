/**
 * `narrowing-guard bench hooks`: what a hook costs at start-up, the price the agent pays on every
 * tool call. Spawns the hook as an agent does, interleaved with bare `node -e 0` starts measured in
 * the same run, and prints the medians and their ratios against the targets: at most 2× a bare
 * start with a small state, at most 3× with 40,000 learned constraints.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopDaemons } from './daemon-client.js';

export interface HookBenchOptions {
  /** Timed hook calls per scenario (default 21). */
  readonly runs?: number;
  /** Learned constraints in the large scenario (default 40000). */
  readonly constraints?: number;
  /** The bundled hook; default the one beside this module in the build. */
  readonly hook?: string;
  readonly json?: boolean;
}

export interface HookBenchIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

interface Scenario {
  readonly name: string;
  readonly target: number;
  readonly bareMs: number;
  readonly hookMs: number;
  readonly ratio: number;
  readonly met: boolean;
}

export async function benchHooks(options: HookBenchOptions, io: HookBenchIO): Promise<number> {
  const hook = options.hook ?? fileURLToPath(new URL('./hook.js', import.meta.url));
  if (!existsSync(hook)) {
    io.stderr.write(
      `narrowing-guard: ${hook} does not exist: run \`npm run build\` first, or pass --hook <file>\n`,
    );
    return 2;
  }
  const runs = options.runs ?? 21;
  const constraints = options.constraints ?? 40_000;
  const scenarios = [
    await scenario(hook, 'hook, small state', 2, runs, 0),
    await scenario(hook, `hook, ${constraints.toLocaleString('en-US')} constraints`, 3, runs, constraints),
  ];
  if (options.json) io.stdout.write(`${JSON.stringify({ runs, scenarios })}\n`);
  else io.stdout.write(table(scenarios, runs));
  return scenarios.every((entry) => entry.met) ? 0 : 1;
}

async function scenario(
  hook: string,
  name: string,
  target: number,
  runs: number,
  constraints: number,
): Promise<Scenario> {
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-bench-hooks-')));
  const stateDir = join(project, '.narrowing');
  mkdirSync(stateDir);
  writeFileSync(join(project, 'README.md'), '# Project\n');
  if (constraints > 0) writeFileSync(join(stateDir, 'state.json'), learnedState(project, constraints));
  const events = sessionEvents(project);
  const call = (index: number) =>
    timed(process.execPath, [hook, 'claude-code', '--idle-ms', '30000'], events(index));
  try {
    // The first calls start the helper and load the state; an agent pays that once per session.
    for (let i = 0; i < 4; i += 1) await call(i);
    await waitForHelper(stateDir);
    const bare: number[] = [];
    const hooked: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      bare.push(await timed(process.execPath, ['-e', '0']));
      hooked.push(await call(4 + i));
    }
    const bareMs = median(bare);
    const hookMs = median(hooked);
    const ratio = hookMs / bareMs;
    return { name, target, bareMs, hookMs, ratio, met: ratio <= target };
  } finally {
    // Returns once the helper has written its last files and exited.
    await stopDaemons(stateDir);
    rmSync(project, { recursive: true, force: true });
  }
}

/** Before and after events of a session reading and editing files, as Claude Code sends them. */
function sessionEvents(project: string): (index: number) => string {
  return (index) => {
    const step = Math.floor(index / 2);
    const file = join(project, `src/module-${step % 7}.ts`);
    const base = {
      session_id: 'bench-session',
      transcript_path: join(project, 'transcript.jsonl'),
      cwd: project,
      tool_name: 'Read',
      tool_input: { file_path: file },
      tool_use_id: `toolu_bench${step}`,
    };
    return JSON.stringify(
      index % 2 === 0
        ? { ...base, hook_event_name: 'PreToolUse' }
        : {
            ...base,
            hook_event_name: 'PostToolUse',
            tool_response: { type: 'text', file: { filePath: file, content: `// module ${step}\n` } },
          },
    );
  };
}

/** A state file holding `count` learned bans on missing files, as the file store writes it. */
function learnedState(project: string, count: number): string {
  const now = Date.now();
  const constraints = Array.from({ length: count }, (_, i) => {
    const target = join(project, `gen/missing-${i}.ts`);
    return {
      id: `c_${i.toString(16).padStart(16, '0')}`,
      type: 'banned_strategy',
      scope: 'call',
      signature: 'file_not_found',
      actionClass: 'file_read',
      tool: 'Read',
      callKey: `Read#${i.toString(16).padStart(16, '0')}`,
      target,
      meaning: 'target-missing',
      dependsOnWorkspace: false,
      evidence: {
        failures: 1,
        firstAt: now - 60_000,
        lastAt: now - 60_000,
        lastError: 'File does not exist.',
        calls: [`Read {file_path: "${target}"}`],
      },
      createdAt: now - 60_000,
      expiresAt: now + 7 * 24 * 3_600_000,
      strikes: 0,
      probation: false,
      persistent: true,
    };
  });
  return `${JSON.stringify({ version: 1, savedAt: now, constraints, lifted: [] }, null, 2)}\n`;
}

async function waitForHelper(stateDir: string): Promise<void> {
  const { readdirSync } = await import('node:fs');
  for (let i = 0; i < 200; i += 1) {
    if (readdirSync(stateDir).some((name) => name.endsWith('.sock'))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Milliseconds from spawn to exit. */
function timed(command: string, args: readonly string[], stdin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'],
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function table(scenarios: readonly Scenario[], runs: number): string {
  const lines = [
    `Hook start-up: medians of ${runs} calls, each after a bare \`node -e 0\` start timed in the same run`,
    '',
  ];
  lines.push(
    `${'scenario'.padEnd(30)}${'node -e 0'.padStart(11)}${'hook'.padStart(10)}${'ratio'.padStart(8)}${'target'.padStart(9)}`,
  );
  for (const entry of scenarios) {
    lines.push(
      `${entry.name.padEnd(30)}${`${entry.bareMs.toFixed(0)} ms`.padStart(11)}${`${entry.hookMs.toFixed(0)} ms`.padStart(10)}` +
        `${`${entry.ratio.toFixed(2)}×`.padStart(8)}${`≤ ${entry.target}×`.padStart(9)}  ${entry.met ? 'met' : 'MISSED'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
