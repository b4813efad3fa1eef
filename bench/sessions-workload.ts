/**
 * A scripted coding session against a small mock workspace, with the error texts real tools print:
 * a config file that does not exist, an edit whose text is not in the file, a type error fixed by an
 * edit, an npm script that does not exist, a branch that already exists, a script with a syntax error.
 * The same workspace answers every session, so a second session meets the world the first one left.
 */
import { toolCallToOutcome, toolCallToProposal } from '../src/adapters/tool-call/index.js';
import type { Blame, CheckResult, Clock, Outcome, Proposal, RecordResult } from '../src/core/types.js';

/** The part of `NarrowingLoop` the sessions drive. */
export interface SessionGuard {
  checkProposal(proposal: Proposal): CheckResult;
  recordOutcome(outcome: Outcome): RecordResult;
}

export interface ToolResult {
  readonly ok: boolean;
  readonly text: string;
  /** HTTP status, for tools that talk to a service. */
  readonly status?: number;
}

export interface ScriptedCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** A fixed answer, for tools outside the workspace (remote APIs and their outages). */
  readonly result?: ToolResult;
}

export interface StepReport {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly allowed: boolean;
  readonly rule?: string;
  /** Undefined when the call was blocked and never ran. */
  readonly ok?: boolean;
  /** Whether running it would have succeeded: for blocked calls, what the block prevented. */
  readonly wouldSucceed: boolean;
  readonly blame?: Blame | 'none';
  readonly newConstraints: number;
}

const INITIAL_FILES: Readonly<Record<string, string>> = {
  'package.json': JSON.stringify(
    {
      name: 'orders-api',
      version: '2.3.0',
      scripts: { build: 'tsc', test: 'vitest run', start: 'node dist/server.js' },
    },
    null,
    2,
  ),
  'src/server.ts': [
    "import express from 'express';",
    "import { config } from './policy-file/default.js';",
    '',
    'const app = express();',
    "app.get('/health', (_req, res) => res.json({ ok: true }));",
    'app.listen(port);',
    '',
  ].join('\n'),
  'src/policy-file/default.ts':
    "export const config = { port: 3000, database: 'postgres://localhost/orders' };\n",
  'src/policy-file/development.ts':
    "export const config = { port: 3001, database: 'postgres://localhost/orders_dev' };\n",
  'scripts/seed.js': 'const rows = [\n  { id: 1, total: 12.5 },\n',
};

/** A few files and a handful of commands, answering the way the real tools do. */
export class MockWorkspace {
  private readonly files: Map<string, string>;

  constructor(files: Readonly<Record<string, string>> = INITIAL_FILES) {
    this.files = new Map(Object.entries(files));
  }

  snapshot(): Record<string, string> {
    return Object.fromEntries(this.files);
  }

  run(call: ScriptedCall): ToolResult {
    if (call.result) return call.result;
    const args = call.args;
    const path = typeof args.path === 'string' ? args.path : '';
    switch (call.tool) {
      case 'read_file': {
        const content = this.files.get(path);
        return content === undefined ? missing(path) : { ok: true, text: content };
      }
      case 'list_directory': {
        const prefix = path.endsWith('/') ? path : `${path}/`;
        const names = [...this.files.keys()].filter((file) => file.startsWith(prefix));
        return { ok: true, text: names.map((file) => `[FILE] ${file.slice(prefix.length)}`).join('\n') };
      }
      case 'edit_file': {
        const content = this.files.get(path);
        if (content === undefined) return missing(path);
        const oldText = String(args.old_string ?? '');
        if (oldText === '' || !content.includes(oldText)) {
          return { ok: false, text: `Error: Could not find exact match for edit:\n${oldText}` };
        }
        this.files.set(path, content.replace(oldText, String(args.new_string ?? '')));
        return { ok: true, text: `Successfully edited ${path}` };
      }
      case 'write_file':
        this.files.set(path, String(args.content ?? ''));
        return { ok: true, text: `Successfully wrote to ${path}` };
      case 'bash':
        return this.command(String(args.command ?? ''));
      default:
        return { ok: false, text: `MCP error -32601: Unknown tool: ${call.tool}` };
    }
  }

  private command(command: string): ToolResult {
    switch (command) {
      case 'npx tsc --noEmit':
        return this.files.get('src/server.ts')?.includes('app.listen(port)')
          ? {
              ok: false,
              text: "src/server.ts(6,12): error TS2304: Cannot find name 'port'.\n\nExit code 2",
            }
          : { ok: true, text: '' };
      case 'npm run migrate':
        return {
          ok: false,
          text: [
            'npm ERR! Missing script: "migrate"',
            'npm ERR!',
            'npm ERR! To see a list of scripts, run:',
            'npm ERR!   npm run',
            '',
            'npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2026-02-18T09_00_07_412Z-debug-0.log',
          ].join('\n'),
        };
      case 'git checkout -b fix/port-config':
        return { ok: false, text: "fatal: a branch named 'fix/port-config' already exists\n\nExit code 128" };
      case 'node scripts/seed.js':
        return {
          ok: false,
          text: [
            '/home/dev/orders-api/scripts/seed.js:3',
            '',
            '',
            '',
            'SyntaxError: Unexpected end of input',
            '    at internalCompileFunction (node:internal/vm:76:18)',
            '',
            'Node.js v20.19.0',
          ].join('\n'),
        };
      case 'npm test':
        return {
          ok: true,
          text: ' ✓ test/health.test.ts (3 tests) 41ms\n\n Test Files  1 passed (1)\n      Tests  3 passed (3)',
        };
      default:
        return { ok: true, text: '' };
    }
  }
}

function missing(path: string): ToolResult {
  return { ok: false, text: `ENOENT: no such file or directory, open '${path}'` };
}

/**
 * Session one: a developer's agent makes the server read its port from the config. Read-only and
 * failing calls come after the fix, so that what it learns about them is still true at the end.
 */
export const SESSION_ONE: readonly ScriptedCall[] = [
  { tool: 'read_file', args: { path: 'src/policy-file/production.ts' } },
  {
    tool: 'edit_file',
    args: { path: 'src/policy-file/development.ts', old_string: 'port: 8080', new_string: 'port: 8081' },
  },
  { tool: 'list_directory', args: { path: 'src/config' } },
  { tool: 'read_file', args: { path: 'src/policy-file/default.ts' } },
  {
    tool: 'edit_file',
    args: {
      path: 'src/policy-file/default.ts',
      old_string: 'port: 8080',
      new_string: 'port: Number(process.env.PORT)',
    },
  },
  { tool: 'read_file', args: { path: 'src/server.ts' } },
  { tool: 'bash', args: { command: 'npx tsc --noEmit' } },
  {
    tool: 'edit_file',
    args: { path: 'src/server.ts', old_string: 'app.listen(port);', new_string: 'app.listen(config.port);' },
  },
  { tool: 'bash', args: { command: 'npx tsc --noEmit' } },
  { tool: 'bash', args: { command: 'npm run migrate' } },
  { tool: 'read_file', args: { path: 'docs/DEPLOY.md' } },
  { tool: 'bash', args: { command: 'npm run migrate' } },
  { tool: 'bash', args: { command: 'git checkout -b fix/port-config' } },
  { tool: 'bash', args: { command: 'node scripts/seed.js' } },
  { tool: 'read_file', args: { path: '.env.production' } },
  { tool: 'bash', args: { command: 'npm test' } },
];

const ENOENT_CONFIG = { tool: 'read_file', args: { path: 'src/policy-file/production.ts' } } as const;

/**
 * Agent mistakes and infrastructure faults, interleaved the way they arrive in a real run. Each fault
 * repeats, so a guard that learned from faults would have learned something.
 */
export const MIXED_WORKLOAD: readonly ScriptedCall[] = [
  ENOENT_CONFIG,
  {
    tool: 'fetch',
    args: { url: 'https://registry.npmjs.org/express' },
    result: { ok: false, text: 'MCP error -32001: Request timed out' },
  },
  {
    tool: 'get_issue',
    args: { owner: 'acme', repo: 'orders-api', issue_number: 412 },
    result: {
      ok: false,
      status: 429,
      text: 'API rate limit exceeded for user ID 7214. (429 Too Many Requests) Retry after 60 seconds.',
    },
  },
  {
    tool: 'edit_file',
    args: { path: 'src/policy-file/default.ts', old_string: 'port: 8080', new_string: 'port: 80' },
  },
  {
    tool: 'search_code',
    args: { q: 'listen repo:acme/orders-api' },
    result: {
      ok: false,
      status: 503,
      text: '503 Service Unavailable: No server is available to handle this request.',
    },
  },
  {
    tool: 'fetch',
    args: { url: 'https://registry.npmjs.org/express' },
    result: { ok: false, text: 'MCP error -32001: Request timed out' },
  },
  { tool: 'bash', args: { command: 'node scripts/seed.js' } },
  {
    tool: 'web_fetch',
    args: { url: 'https://docs.acme.dev/deploy' },
    result: { ok: false, text: 'TypeError: fetch failed\n  [cause]: Error: read ECONNRESET' },
  },
  {
    tool: 'get_issue',
    args: { owner: 'acme', repo: 'orders-api', issue_number: 412 },
    result: {
      ok: false,
      status: 429,
      text: 'API rate limit exceeded for user ID 7214. (429 Too Many Requests) Retry after 60 seconds.',
    },
  },
  { tool: 'bash', args: { command: 'git checkout -b fix/port-config' } },
  {
    tool: 'search_code',
    args: { q: 'listen repo:acme/orders-api' },
    result: {
      ok: false,
      status: 503,
      text: '503 Service Unavailable: No server is available to handle this request.',
    },
  },
  {
    tool: 'web_fetch',
    args: { url: 'https://docs.acme.dev/deploy' },
    result: { ok: false, text: 'TypeError: fetch failed\n  [cause]: Error: read ECONNRESET' },
  },
  { tool: 'read_file', args: { path: 'docs/DEPLOY.md' } },
  {
    tool: 'fetch',
    args: { url: 'https://registry.npmjs.org/express' },
    result: { ok: false, text: 'MCP error -32001: Request timed out' },
  },
  {
    tool: 'get_issue',
    args: { owner: 'acme', repo: 'orders-api', issue_number: 412 },
    result: { ok: false, text: 'MCP error -32603: Internal error' },
  },
  { tool: 'bash', args: { command: 'npm run migrate' } },
  { tool: 'bash', args: { command: 'npm run migrate' } },
  { tool: 'read_file', args: { path: 'src/server.ts' } },
  ENOENT_CONFIG,
];

/** The same call, timing out ten times in a row: the service is down, the agent did nothing wrong. */
export const TIMEOUTS: readonly ScriptedCall[] = Array.from({ length: 10 }, () => ({
  tool: 'list_workflow_runs',
  args: { owner: 'acme', repo: 'orders-api', branch: 'main' },
  result: { ok: false, text: 'MCP error -32001: Request timed out' },
}));

/** A clock that moves only when told: sessions run in simulated time. */
export class ManualClock implements Clock {
  constructor(private at: number) {}

  now(): number {
    return this.at;
  }

  advance(ms: number): void {
    this.at += ms;
  }
}

const SECONDS_PER_CALL = 5;

/**
 * Runs the calls through the guard (or none): a blocked call never runs; every call that runs is
 * recorded. `probe` answers what a blocked call would have done, on a copy of the workspace.
 */
export function runCalls(
  calls: readonly ScriptedCall[],
  workspace: MockWorkspace,
  guard: SessionGuard | undefined,
  clock: ManualClock,
): StepReport[] {
  const steps: StepReport[] = [];
  for (const call of calls) {
    clock.advance(SECONDS_PER_CALL * 1000);
    const proposal = toolCallToProposal(call.tool, call.args);
    const check = guard?.checkProposal(proposal);
    if (check && !check.allowed) {
      const probe = new MockWorkspace(workspace.snapshot()).run(call);
      steps.push({
        tool: call.tool,
        args: call.args,
        allowed: false,
        rule: check.rule,
        wouldSucceed: probe.ok,
        newConstraints: 0,
      });
      continue;
    }
    const result = workspace.run(call);
    const recorded = guard?.recordOutcome({ ...toOutcome(call, result), proposal });
    steps.push({
      tool: call.tool,
      args: call.args,
      allowed: true,
      rule: check?.rule,
      ok: result.ok,
      wouldSucceed: result.ok,
      blame: recorded?.outcome.blame,
      newConstraints: recorded?.newConstraints.length ?? 0,
    });
  }
  return steps;
}

function toOutcome(call: ScriptedCall, result: ToolResult): Outcome {
  const content = { content: [{ type: 'text', text: result.text }], ...(result.ok ? {} : { isError: true }) };
  return toolCallToOutcome(
    call.tool,
    call.args,
    content,
    result.status === undefined ? {} : { status: result.status },
  );
}

/**
 * Which of `calls` the guard would block now: what it has learned. Checking has side effects on
 * loop counters, so ask a guard whose state has already been saved.
 */
export function blockedNow(guard: SessionGuard, calls: readonly ScriptedCall[]): boolean[] {
  return calls.map((call) => !guard.checkProposal(toolCallToProposal(call.tool, call.args)).allowed);
}

/** The distinct calls that failed, in the order they first failed. */
export function failedCalls(steps: readonly StepReport[]): ScriptedCall[] {
  const seen = new Set<string>();
  const out: ScriptedCall[] = [];
  for (const step of steps) {
    if (step.ok !== false) continue;
    const key = `${step.tool}\u0000${JSON.stringify(step.args)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ tool: step.tool, args: step.args });
  }
  return out;
}
