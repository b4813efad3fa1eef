/**
 * `narrowing demo` (what `npm start` runs): a scripted agent works on a real project through the
 * real MCP proxy in front of the real filesystem server, across a proxy restart, and the receipts
 * are verified at the end.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import picocolors from 'picocolors';
import { toolCallToOutcome } from '../adapters/tool-call/index.js';
import { verifyJournal } from '../audit/index.js';
import { NarrowingError } from '../core/errors.js';
import { VERDICT_META_KEY, type VerdictMeta } from '../guard/verdict.js';
import { stateLayout } from '../node/index.js';
import { parseStateText } from '../stores/index.js';
import { createDemoProject } from './project.js';
import { type DemoStep, FIRST_SESSION, SECOND_SESSION } from './script.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'narrowing.js');

type Colours = ReturnType<typeof picocolors.createColors>;

export interface DemoOptions {
  /** Colour the output: by default only on a terminal, and never when NO_COLOR is set. */
  readonly colour?: boolean;
  /** Keep the temporary project and its `.narrowing/` folder for inspection. */
  readonly keep?: boolean;
  readonly write?: (text: string) => void;
}

interface Tally {
  /** Blocks whose claim did not hold when the call was run straight against the server. */
  wronglyBlocked: number;
  calls: number;
  ran: number;
  failed: number;
  warned: number;
  blocked: Map<string, number>;
}

/** Where the filesystem server is installed: a development dependency of this package. */
function filesystemServer(): string {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
  } catch {
    throw new NarrowingError(
      'DEPENDENCY_MISSING',
      'The demo runs the MCP filesystem server, which is not installed here. ' +
        'Install it with `npm install --no-save @modelcontextprotocol/server-filesystem` and run the demo again.',
    );
  }
}

/** Through the proxy, or (without a state dir) straight to the server, to check what a block saved. */
async function connect(project: string, stateDir?: string): Promise<Client> {
  const server = [filesystemServer(), project];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: stateDir ? [BIN, 'mcp', '--state-dir', stateDir, '--', process.execPath, ...server] : server,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'narrowing-demo-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** What the tool said, read the way the guard reads it. */
function textOf(step: DemoStep, result: unknown): string {
  return toolCallToOutcome(step.tool, step.args, result).content ?? '';
}

function oneLine(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

/** Loop rules block calls that would succeed but tell the agent nothing it does not already have. */
const LOOP_RULES = new Set(['identical-result', 'cycle', 'poll', 'non-advancing']);

/**
 * Runs a blocked call straight against the server at that moment (edits as dry runs) and checks
 * the block's claim: a failure rule says it would fail; a loop rule, that it would return again
 * exactly what the agent already has.
 */
async function blockHolds(
  direct: Client,
  step: DemoStep,
  args: Record<string, unknown>,
  rule: string,
  previous?: string,
) {
  if (step.tool !== 'edit_file' && !step.tool.startsWith('read') && !step.tool.startsWith('list'))
    return true;
  const safe = step.tool === 'edit_file' ? { ...args, dryRun: true } : args;
  try {
    const result = (await direct.callTool({ name: step.tool, arguments: safe })) as {
      content?: unknown;
      isError?: boolean;
    };
    return LOOP_RULES.has(rule)
      ? !result.isError && textOf(step, result) === previous
      : result.isError === true;
  } catch {
    return !LOOP_RULES.has(rule);
  }
}

async function runSession(
  pc: Colours,
  client: Client,
  direct: Client,
  steps: readonly DemoStep[],
  project: string,
  first: number,
  tally: Tally,
  write: (text: string) => void,
): Promise<void> {
  const lastResult = new Map<string, string>();
  for (const [index, step] of steps.entries()) {
    const args = { ...step.args, path: join(project, String(step.args.path)) };
    const shown = `${step.tool} ${String(step.args.path)}`;
    const result = (await client.callTool({ name: step.tool, arguments: args })) as {
      content?: unknown;
      isError?: boolean;
      _meta?: Record<string, unknown>;
    };
    const verdict = result._meta?.[VERDICT_META_KEY] as VerdictMeta | undefined;
    tally.calls++;
    const number = String(first + index).padStart(3);
    if (verdict && (verdict.verdict === 'block' || verdict.verdict === 'halt')) {
      tally.blocked.set(verdict.rule ?? 'unknown', (tally.blocked.get(verdict.rule ?? 'unknown') ?? 0) + 1);
      const rule = verdict.rule ?? 'unknown';
      if (!(await blockHolds(direct, step, args, rule, lastResult.get(shown)))) tally.wronglyBlocked++;
      write(`${number}  ${pc.red('BLOCK')}  ${shown.padEnd(34)} ${pc.dim(step.intent)}\n`);
      write(`       ${pc.red(`${verdict.rule}:`)} ${oneLine(verdict.reason ?? '', 150)}\n`);
      continue;
    }
    tally.ran++;
    // A warned result carries narrowing's note; the server's own answer is what a loop repeats.
    if (!verdict) lastResult.set(shown, textOf(step, result));
    const label = verdict?.verdict === 'warn' ? pc.yellow('warn ') : pc.green('allow');
    if (verdict?.verdict === 'warn') tally.warned++;
    write(`${number}  ${label}  ${shown.padEnd(34)} ${pc.dim(step.intent)}\n`);
    if (result.isError) {
      tally.failed++;
      write(`       ${pc.dim(`failed: ${oneLine(textOf(step, result), 120)}`)}\n`);
    }
    if (verdict?.verdict === 'warn')
      write(`       ${pc.yellow(`${verdict.rule}:`)} ${oneLine(verdict.reason ?? '', 150)}\n`);
  }
}

export async function runDemo(options: DemoOptions = {}): Promise<number> {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const pc = picocolors.createColors(
    options.colour ?? (options.write === undefined && process.stdout.isTTY === true && !process.env.NO_COLOR),
  );
  const project = createDemoProject();
  const stateDir = join(project, '.narrowing');
  const layout = stateLayout(stateDir);
  const tally: Tally = { wronglyBlocked: 0, calls: 0, ran: 0, failed: 0, warned: 0, blocked: new Map() };
  try {
    write(`${pc.bold('narrowing demo')}: a scripted agent works on a small project through the MCP proxy\n`);
    write(
      `${pc.dim(`project ${project} (real files, the real @modelcontextprotocol/server-filesystem)`)}\n\n`,
    );

    write(`${pc.bold('Session 1')} ${pc.dim('narrowing-guard mcp -- mcp-server-filesystem')}\n`);
    const direct = await connect(project);
    const first = await connect(project, stateDir);
    await runSession(pc, first, direct, FIRST_SESSION, project, 1, tally, write);
    await first.close();

    const learned = countConstraints(layout.state);
    write(
      `\n${pc.bold('Session 2')} ${pc.dim(`the proxy restarted; ${plural(learned, 'learned constraint')} loaded from ${layout.state}`)}\n`,
    );
    const second = await connect(project, stateDir);
    await runSession(pc, second, direct, SECOND_SESSION, project, FIRST_SESSION.length + 1, tally, write);
    await second.close();
    await direct.close();

    const receipts = verifyJournal(layout.journal);
    write(
      receipts.ok
        ? `\n${pc.green('Receipts verified')}: ${receipts.count} receipts in ${layout.journal} form an unbroken hash chain.\n`
        : `\n${pc.red('Receipts broken')} at #${receipts.brokenAt}: ${receipts.problem}\n`,
    );
    const blocked = [...tally.blocked.values()].reduce((sum, count) => sum + count, 0);
    const rules = [...tally.blocked.entries()].map(([rule, count]) => `${rule} ${count}`).join(', ');
    write(
      `${pc.bold('Summary')}: ${plural(tally.calls, 'call')} proposed, ${tally.ran} ran (${tally.failed} failed, ${tally.warned} with a warning), ` +
        `${blocked} blocked before running (${rules}).\n`,
    );
    write(
      tally.wronglyBlocked === 0
        ? 'Checked against the server itself, at that moment: every call blocked as a failure fails, and every call\n' +
            'blocked as a loop returns exactly what the agent already had (edits run as dry runs).\n'
        : `${pc.red(`${plural(tally.wronglyBlocked, 'block')} did not hold`)} when the calls were run straight against the server.\n`,
    );
    write(
      `${pc.dim('Look closer: narrowing-guard inspect / explain / verify --state-dir <dir>; run again with --keep to keep it.')}\n`,
    );
    return receipts.ok && tally.wronglyBlocked === 0 ? 0 : 1;
  } finally {
    if (options.keep) write(`${pc.dim(`kept ${project}`)}\n`);
    else if (existsSync(project)) rmSync(dirname(project), { recursive: true, force: true });
  }
}

function countConstraints(path: string): number {
  try {
    const stored = parseStateText(readFileSync(path, 'utf8'));
    return stored.ok ? stored.state.constraints.length : 0;
  } catch {
    return 0;
  }
}

/** `1 learned constraint`, `2 learned constraints`. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
