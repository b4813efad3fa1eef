/**
 * Runs a scenario through one agent's hook protocol as the hook process does without its helper:
 * the payload parsed by the agent's protocol, handled by the guard of the payload's project, the
 * verdict worded in the agent's own fields.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handleHookEvent } from '../../../src/hooks/handle.js';
import { HOOK_PROTOCOLS } from '../../../src/hooks/protocols.js';
import type { CommandRun, HostFixture, McpCall, McpToolResult, Session, ShellCall } from './hosts.js';

/** What the agent was told before a call: it ran (`allow`), ran with a warning, or was refused. */
export type Verdict = 'allow' | 'warn' | 'deny';

export interface Attempt {
  readonly verdict: Verdict;
  /** The reason the model reads, in the agent's own field. */
  readonly reason?: string;
}

/** An empty project with its own state directory. */
export function tempProject(): { readonly dir: string; readonly remove: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-conformance-')));
  mkdirSync(join(dir, '.narrowing'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export class HostRun {
  private calls = 0;
  constructor(
    readonly host: HostFixture,
    readonly session: Session,
  ) {}

  /** One event through the agent's protocol; the reply as the agent reads it. */
  async send(payload: unknown): Promise<Attempt> {
    const protocol = HOOK_PROTOCOLS[this.host.agent];
    const event = protocol.parse(payload);
    const verdict = await handleHookEvent(event, { onProblem: () => undefined });
    const reply = protocol.reply(event, verdict);
    const reason = reasonOf(reply.stdout);
    if (verdict.type === 'deny') return { verdict: 'deny', ...(reason !== undefined && { reason }) };
    return { verdict: verdict.type === 'warn' ? 'warn' : 'allow' };
  }

  async prompt(text = 'Run the tests'): Promise<void> {
    await this.send(this.host.prompt(this.session, text));
  }

  /**
   * The model proposes `command`; when the agent lets it run, it runs as `run` says and the agent
   * reports it. Returns what the agent was told before the call.
   */
  async shell(command: string, run: CommandRun, description?: string): Promise<Attempt> {
    const call: ShellCall = {
      id: `call_${this.host.agent}_${++this.calls}`,
      command,
      ...(description !== undefined && { description }),
    };
    const attempt = await this.send(this.host.beforeShell(this.session, call));
    if (attempt.verdict === 'deny') return attempt;
    for (const after of this.host.afterShell(this.session, call, run)) {
      if (typeof after === 'function') after();
      else await this.send(after);
    }
    return attempt;
  }

  /**
   * The model calls an MCP tool; when the agent lets it run, the server answers `result` and the
   * agent reports it. Returns what the agent was told before the call.
   */
  async mcp(
    server: string,
    tool: string,
    args: Readonly<Record<string, unknown>>,
    result: McpToolResult,
  ): Promise<Attempt> {
    const call: McpCall = { id: `call_${this.host.agent}_${++this.calls}`, server, tool, arguments: args };
    const attempt = await this.send(this.host.beforeMcp(this.session, call));
    if (attempt.verdict === 'deny') return attempt;
    for (const after of this.host.afterMcp(this.session, call, result)) {
      if (typeof after === 'function') after();
      else await this.send(after);
    }
    return attempt;
  }

  /** The same command `times` times, as an agent that keeps retrying does; the verdicts in order. */
  async repeat(times: number, command: string, run: CommandRun, descriptions?: readonly string[]) {
    const verdicts: Attempt[] = [];
    for (let index = 0; index < times; index++) {
      verdicts.push(await this.shell(command, run, descriptions?.[index]));
    }
    return verdicts;
  }
}

/** The reason in whichever field the agent reads it from. */
function reasonOf(stdout: string): string | undefined {
  if (stdout.trim() === '') return undefined;
  const reply = JSON.parse(stdout) as Record<string, unknown>;
  const specific = reply.hookSpecificOutput as Record<string, unknown> | undefined;
  const reason = specific?.permissionDecisionReason ?? reply.reason ?? reply.agent_message;
  return typeof reason === 'string' ? reason : undefined;
}
