/**
 * A session's story, gathered from its journal entries in one pass: what was proposed, what ran
 * and how it went, what was blocked and by which rule, what was learned and lifted.
 */
import type { JournalEntry } from '../audit/index.js';
import type { Blame, Constraint } from '../core/types.js';
import { describeConstraintEffect } from './constraint-words.js';
import { blocksKnownFailure } from './rules.js';

export interface ToolActivity {
  readonly tool: string;
  proposed: number;
  blocked: number;
  succeeded: number;
  failed: number;
}

export interface FailureKind {
  readonly signature: string;
  readonly blame: Blame;
  count: number;
}

export interface RuleBlocks {
  readonly rule: string;
  count: number;
  readonly tools: Map<string, number>;
  /** The first reason given under this rule. */
  readonly example: string;
}

export interface ConstraintChange {
  readonly at: number;
  readonly effect: string;
  readonly signature: string;
  readonly scope: Constraint['scope'];
  /** Lifted ones: why. */
  readonly why?: string;
}

export interface SessionStory {
  readonly sessionId: string;
  readonly firstAt: number | undefined;
  readonly lastAt: number | undefined;
  readonly proposals: number;
  readonly warned: number;
  readonly blocked: number;
  readonly halted: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly tools: readonly ToolActivity[];
  readonly failures: readonly FailureKind[];
  readonly rules: readonly RuleBlocks[];
  readonly learned: readonly ConstraintChange[];
  readonly lifted: readonly ConstraintChange[];
  /** Blocked calls that would have repeated a known failure. */
  readonly repeatsPrevented: number;
  /** New user messages and compactions (each starts a new run). */
  readonly runs: number;
}

/** At most this many learned and this many lifted constraints are told per session. */
const MAX_CHANGES = 200;

export class SessionAccumulator {
  private firstAt: number | undefined;
  private lastAt: number | undefined;
  private proposals = 0;
  private warned = 0;
  private blocked = 0;
  private halted = 0;
  private succeeded = 0;
  private failed = 0;
  private runs = 0;
  private repeatsPrevented = 0;
  private readonly tools = new Map<string, ToolActivity>();
  private readonly failures = new Map<string, FailureKind>();
  private readonly rules = new Map<string, RuleBlocks>();
  private readonly learned: ConstraintChange[] = [];
  /** By constraint id: a ban relaxed to probation and lifted later is told once, as it ended. */
  private readonly lifted = new Map<string, ConstraintChange>();
  private learnedCount = 0;
  /** Calls that failed through the agent's fault in this session. */
  private readonly failedCalls = new Set<string>();

  constructor(readonly sessionId: string) {}

  add(entry: JournalEntry): void {
    this.firstAt ??= entry.at;
    this.lastAt = entry.at;
    switch (entry.type) {
      case 'run':
        if (entry.reason !== 'reset') this.runs++;
        return;
      case 'proposal': {
        this.proposals++;
        const tool = this.tool(entry.tool);
        tool.proposed++;
        if (entry.verdict === 'warn') this.warned++;
        if (entry.verdict !== 'block' && entry.verdict !== 'halt') return;
        tool.blocked++;
        if (entry.verdict === 'halt') this.halted++;
        else this.blocked++;
        this.noteRule(entry.rule ?? 'unknown', entry.tool, entry.reason ?? '');
        if (blocksKnownFailure(entry.rule) || this.failedCalls.has(entry.callKey)) this.repeatsPrevented++;
        return;
      }
      case 'outcome': {
        const tool = this.tool(entry.tool);
        if (entry.success) {
          this.succeeded++;
          tool.succeeded++;
          return;
        }
        this.failed++;
        tool.failed++;
        const blame: Blame = entry.blame === 'none' ? 'unknown' : entry.blame;
        const signature = entry.signature ?? 'unknown_error';
        const key = `${signature}\u0000${blame}`;
        const kind = this.failures.get(key) ?? { signature, blame, count: 0 };
        kind.count++;
        this.failures.set(key, kind);
        if (blame === 'agent_failure') this.failedCalls.add(entry.callKey);
        return;
      }
      case 'constraint_added':
        this.learnedCount++;
        if (this.learned.length < MAX_CHANGES) this.learned.push(change(entry.at, entry.constraint));
        return;
      case 'constraint_lifted': {
        const id = entry.constraint.id;
        if (!this.lifted.has(id) && this.lifted.size >= MAX_CHANGES) return;
        this.lifted.delete(id);
        this.lifted.set(id, { ...change(entry.at, entry.constraint), why: entry.why });
        return;
      }
      default:
        return;
    }
  }

  story(): SessionStory & { readonly learnedCount: number } {
    return {
      sessionId: this.sessionId,
      firstAt: this.firstAt,
      lastAt: this.lastAt,
      proposals: this.proposals,
      warned: this.warned,
      blocked: this.blocked,
      halted: this.halted,
      succeeded: this.succeeded,
      failed: this.failed,
      tools: [...this.tools.values()].sort((a, b) => b.proposed - a.proposed || a.tool.localeCompare(b.tool)),
      failures: [...this.failures.values()].sort((a, b) => b.count - a.count),
      rules: [...this.rules.values()].sort((a, b) => b.count - a.count),
      learned: this.learned,
      lifted: [...this.lifted.values()],
      learnedCount: this.learnedCount,
      repeatsPrevented: this.repeatsPrevented,
      runs: this.runs,
    };
  }

  private tool(name: string): ToolActivity {
    let activity = this.tools.get(name);
    if (activity === undefined) {
      activity = { tool: name, proposed: 0, blocked: 0, succeeded: 0, failed: 0 };
      this.tools.set(name, activity);
    }
    return activity;
  }

  private noteRule(rule: string, tool: string, reason: string): void {
    let blocks = this.rules.get(rule);
    if (blocks === undefined) {
      blocks = { rule, count: 0, tools: new Map(), example: reason };
      this.rules.set(rule, blocks);
    }
    blocks.count++;
    blocks.tools.set(tool, (blocks.tools.get(tool) ?? 0) + 1);
  }
}

function change(at: number, constraint: Constraint): ConstraintChange {
  return {
    at,
    effect: describeConstraintEffect(constraint),
    signature: constraint.signature,
    scope: constraint.scope,
  };
}

export type FullStory = ReturnType<SessionAccumulator['story']>;

export interface SessionIndex {
  readonly sessions: ReadonlyMap<string, SessionAccumulator>;
  /** The session of the last entry in the journal. */
  readonly latest: string | undefined;
  readonly badLines: number;
}

/** Entries written before any session was named are grouped under this id. */
export const NO_SESSION = '(no session)';

export async function indexSessions(
  entries: AsyncIterable<JournalEntry>,
): Promise<Omit<SessionIndex, 'badLines'>> {
  const sessions = new Map<string, SessionAccumulator>();
  let latest: string | undefined;
  for await (const entry of entries) {
    const id = entry.sessionId ?? NO_SESSION;
    let session = sessions.get(id);
    if (session === undefined) {
      session = new SessionAccumulator(id);
      sessions.set(id, session);
    }
    session.add(entry);
    latest = id;
  }
  return { sessions, latest };
}

export type SessionChoice =
  | { readonly ok: true; readonly session: SessionAccumulator }
  | { readonly ok: false; readonly problem: string };

/** A session by id or unique id prefix; the latest when no id is given. */
export function chooseSession(index: Omit<SessionIndex, 'badLines'>, id: string | undefined): SessionChoice {
  if (index.sessions.size === 0) return { ok: false, problem: 'the journal has no entries yet' };
  if (id === undefined) return { ok: true, session: index.sessions.get(index.latest!)! };
  const exact = index.sessions.get(id);
  if (exact) return { ok: true, session: exact };
  const matches = [...index.sessions.keys()].filter((key) => key.startsWith(id));
  if (matches.length === 1) return { ok: true, session: index.sessions.get(matches[0]!)! };
  const known = [...index.sessions.keys()].slice(-5).reverse().join(', ');
  const problem =
    matches.length === 0
      ? `no session "${id}" in the journal (latest sessions: ${known})`
      : `"${id}" matches ${matches.length} sessions; give more of the id`;
  return { ok: false, problem };
}
