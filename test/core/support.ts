import {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../src/adapters/tool-call/index.js';
import type { Entry } from '../../src/core/constraints.js';
import { NarrowingEngine, type NarrowingEngineOptions } from '../../src/core/loop.js';
import type { CheckResult, Clock, Constraint, Evidence, RecordResult } from '../../src/core/types.js';

/** A clock the test moves by hand, in seconds. */
export class ManualClock implements Clock {
  private ms = Date.UTC(2026, 2, 2, 10, 0, 0);
  now(): number {
    return this.ms;
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export type ToolResult =
  | string
  | { error: string }
  | { text: string; isError?: boolean; meta?: Record<string, unknown> };

/** A guarded agent: proposes a call, and runs it (with the given result) only when allowed. */
export class Agent {
  readonly clock = new ManualClock();
  readonly loop: NarrowingEngine;

  constructor(options: Partial<NarrowingEngineOptions> = {}) {
    this.loop = new NarrowingEngine({ adapter: createToolCallAdapter(), clock: this.clock, ...options });
  }

  check(tool: string, args: Record<string, unknown>): CheckResult {
    return this.loop.checkProposal(toolCallToProposal(tool, args));
  }

  /** Checks, and when allowed records `result` as what the tool returned. */
  call(
    tool: string,
    args: Record<string, unknown>,
    result: ToolResult,
  ): { check: CheckResult; record?: RecordResult } {
    this.clock.advance(5);
    const proposal = toolCallToProposal(tool, args);
    const check = this.loop.checkProposal(proposal);
    if (!check.allowed) return { check };
    const outcome = toolCallToOutcome(tool, args, toMcpResult(result));
    const record = this.loop.recordOutcome({ ...outcome, proposal });
    return { check, record };
  }

  /**
   * A new agent holding this one's snapshot with `state` as the session part of the rule `detector`:
   * as a new process reads back a state file whose part of that rule is hostile or corrupt.
   */
  restoredWith(detector: string, state: unknown): Agent {
    const agent = new Agent();
    agent.loop.restore({ ...this.loop.snapshot(), session: { detectors: { [detector]: state } } });
    return agent;
  }

  /** The verdicts of a sequence of identical calls that all return `result`. */
  repeat(times: number, tool: string, args: Record<string, unknown>, result: ToolResult): string[] {
    return Array.from({ length: times }, () => this.call(tool, args, result).check.verdict);
  }
}

function toMcpResult(result: ToolResult): unknown {
  if (typeof result === 'string') return { content: [{ type: 'text', text: result }] };
  if ('error' in result) return new Error(result.error);
  return { content: [{ type: 'text', text: result.text }], isError: result.isError, _meta: result.meta };
}

export const ENOENT = (path: string) => ({
  text: `ENOENT: no such file or directory, open '${path}'`,
  isError: true,
});

/**
 * A learned call ban as the engine keeps one: unenforced fields at their defaults (never expiring,
 * no strikes, not persistent), `evidence` filled in from what the test gives.
 */
export function learnedBan(
  fields: Omit<Partial<Constraint>, 'evidence'> &
    Pick<Constraint, 'id' | 'signature' | 'actionClass'> & {
      evidence?: Partial<Evidence>;
    },
): Constraint {
  const { evidence, ...rest } = fields;
  return {
    type: 'banned_strategy',
    scope: 'call',
    createdAt: 0,
    expiresAt: 1e12,
    strikes: 0,
    probation: false,
    persistent: false,
    ...rest,
    evidence: { failures: 1, firstAt: 0, lastAt: 0, lastError: '', calls: [], ...evidence },
  };
}

/** `ban` as the constraint index holds it: enforced, lifted by a change of `dependsOn`. */
export function banEntry(ban: Constraint, dependsOn: readonly string[] = []): Entry {
  return { constraint: { ...ban }, required: 1, dependsOn };
}
