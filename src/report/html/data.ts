/**
 * The figures of `narrowing-guard report`, gathered from journal entries in one pass: a timeline of
 * calls, failures, warnings, blocks, compactions and new prompts; the constraints learned with their
 * evidence; disputes; and what was saved, with the method of the estimate. Bounded whatever the
 * journal holds: a report of a month of entries is as small as one of an hour.
 */
import type { JournalEntry } from '../../audit/index.js';
import { redactText } from '../../core/secrets.js';
import { describeConstraintEffect } from '../constraint-words.js';
import { blocksKnownFailure, ruleMeaning } from '../rules.js';

/** At most this many points on the timeline, this many constraints and disputes listed. */
export const MAX_BUCKETS = 240;
export const MAX_LISTED = 200;
/** Longest text (an error, a reason) kept for one item. */
export const MAX_TEXT = 300;
/** Gaps between calls longer than this are a person away, not the agent working. */
const MAX_WORK_GAP_MS = 10 * 60 * 1000;
/** Characters per token: the usual rule of thumb for English text and code. */
export const CHARS_PER_TOKEN = 4;

export interface Timeline {
  /** Start of each bucket, in seconds since the epoch (uPlot's x values). */
  readonly at: number[];
  readonly bucketSeconds: number;
  readonly calls: number[];
  readonly failures: number[];
  readonly warnings: number[];
  readonly blocks: number[];
  readonly compactions: number[];
  readonly prompts: number[];
}

export interface LearnedConstraint {
  readonly id: string;
  readonly at: number;
  readonly effect: string;
  readonly scope: string;
  readonly signature: string;
  readonly failures: number;
  readonly lastError: string;
  readonly calls: readonly string[];
  /** Why it was lifted, when it was. */
  readonly lifted?: string;
}

export interface RuleCount {
  readonly rule: string;
  readonly meaning?: string;
  readonly blocks: number;
  readonly disputed: number;
}

export interface DisputeNote {
  readonly at: number;
  readonly tool: string;
  readonly rule?: string;
  readonly why: string;
}

export interface Saved {
  readonly callsBlocked: number;
  /** Blocks of calls that would have repeated a known failure. */
  readonly repeatsPrevented: number;
  readonly tokens: number;
  readonly seconds: number;
  /** Median gap between consecutive calls of this selection, in seconds (the time one call took). */
  readonly secondsPerCall: number;
  readonly method: string;
}

export interface ReportData {
  readonly sessions: readonly string[];
  readonly from: number | undefined;
  readonly to: number | undefined;
  readonly totals: {
    readonly calls: number;
    readonly failures: number;
    readonly warnings: number;
    readonly blocks: number;
    readonly compactions: number;
    readonly prompts: number;
    readonly disputes: number;
    readonly learned: number;
    readonly lifted: number;
  };
  readonly timeline: Timeline;
  readonly constraints: readonly LearnedConstraint[];
  readonly rules: readonly RuleCount[];
  readonly disputes: readonly DisputeNote[];
  readonly saved: Saved;
}

interface Event {
  readonly at: number;
  readonly kind: 'call' | 'failure' | 'warning' | 'block' | 'compaction' | 'prompt';
}

export const SAVINGS_METHOD =
  'Calls blocked: refused calls (block or halt) in the journal. Tokens spared: for each blocked call, ' +
  'the output the same call recorded when it last ran in this selection (its error text as the journal ' +
  `keeps it, at most 500 characters, so a lower bound), at ${CHARS_PER_TOKEN} characters a token; a blocked ` +
  'call never seen running counts the mean of the recorded outputs. Time spared: blocked calls times the ' +
  'median gap between consecutive calls of the selection (gaps over 10 minutes, a person away, left out), ' +
  'the time one more call took in this session. Neither counts the model turns a refusal also spares.';

/** Collects the figures of the entries given (already chosen by session or time). */
export class ReportAccumulator {
  private readonly sessions = new Set<string>();
  private readonly events: Event[] = [];
  private readonly totals = {
    calls: 0,
    failures: 0,
    warnings: 0,
    blocks: 0,
    compactions: 0,
    prompts: 0,
    disputes: 0,
    learned: 0,
    lifted: 0,
  };
  private readonly constraints = new Map<string, LearnedConstraint>();
  private readonly rules = new Map<string, { blocks: number; disputed: number }>();
  private readonly disputes: DisputeNote[] = [];
  /** The recorded output size of each call key's last run. */
  private readonly outputChars = new Map<string, number>();
  private outputTotal = 0;
  private outputCount = 0;
  /** Output sizes of blocked calls (undefined: never seen running). */
  private readonly blockedOutputs: (number | undefined)[] = [];
  private repeatsPrevented = 0;
  private readonly failedCalls = new Set<string>();
  private lastCallAt: number | undefined;
  private readonly gaps: number[] = [];
  private from: number | undefined;
  private to: number | undefined;

  add(entry: JournalEntry): void {
    if (entry.sessionId !== undefined) this.sessions.add(entry.sessionId);
    this.from = this.from === undefined ? entry.at : Math.min(this.from, entry.at);
    this.to = this.to === undefined ? entry.at : Math.max(this.to, entry.at);
    switch (entry.type) {
      case 'run':
        if (entry.reason === 'reset') return;
        this.lastCallAt = undefined;
        if (entry.reason === 'compact') {
          this.totals.compactions++;
          this.events.push({ at: entry.at, kind: 'compaction' });
        } else {
          this.totals.prompts++;
          this.events.push({ at: entry.at, kind: 'prompt' });
        }
        return;
      case 'proposal':
        this.proposal(entry);
        return;
      case 'outcome': {
        const chars = entry.error?.length ?? 0;
        if (!entry.success) {
          this.totals.failures++;
          this.events.push({ at: entry.at, kind: 'failure' });
          this.outputChars.set(entry.callKey, chars);
          this.outputTotal += chars;
          this.outputCount++;
          if (entry.blame === 'agent_failure') this.failedCalls.add(entry.callKey);
        }
        return;
      }
      case 'constraint_added':
        this.totals.learned++;
        this.learned(entry.at, entry.constraint);
        return;
      case 'constraint_lifted': {
        this.totals.lifted++;
        const known = this.constraints.get(entry.constraint.id);
        if (known) this.constraints.set(known.id, { ...known, lifted: cut(entry.why) });
        return;
      }
      case 'dispute':
        this.totals.disputes++;
        if (entry.verdict !== 'warn') this.rule(entry.rule).disputed++;
        if (this.disputes.length < MAX_LISTED) {
          this.disputes.push({
            at: entry.at,
            tool: cut(entry.tool),
            ...(entry.rule !== undefined && { rule: cut(entry.rule) }),
            why: cut(entry.why),
          });
        }
        return;
      default:
        return;
    }
  }

  private proposal(entry: Extract<JournalEntry, { type: 'proposal' }>): void {
    this.totals.calls++;
    this.events.push({ at: entry.at, kind: 'call' });
    if (this.lastCallAt !== undefined) {
      const gap = entry.at - this.lastCallAt;
      if (gap >= 0 && gap <= MAX_WORK_GAP_MS) this.gaps.push(gap);
    }
    this.lastCallAt = entry.at;
    if (entry.verdict === 'warn') {
      this.totals.warnings++;
      this.events.push({ at: entry.at, kind: 'warning' });
      return;
    }
    if (entry.verdict !== 'block' && entry.verdict !== 'halt') return;
    this.totals.blocks++;
    this.events.push({ at: entry.at, kind: 'block' });
    this.rule(entry.rule).blocks++;
    this.blockedOutputs.push(this.outputChars.get(entry.callKey));
    if (blocksKnownFailure(entry.rule) || this.failedCalls.has(entry.callKey)) this.repeatsPrevented++;
  }

  private rule(rule: string | undefined): { blocks: number; disputed: number } {
    const name = rule ?? 'unknown';
    let counts = this.rules.get(name);
    if (counts === undefined) {
      counts = { blocks: 0, disputed: 0 };
      this.rules.set(name, counts);
    }
    return counts;
  }

  private learned(
    at: number,
    constraint: Extract<JournalEntry, { type: 'constraint_added' }>['constraint'],
  ): void {
    if (this.constraints.has(constraint.id)) this.constraints.delete(constraint.id);
    else if (this.constraints.size >= MAX_LISTED) return;
    const evidence = constraint.evidence ?? { failures: 0, lastError: '', calls: [] };
    this.constraints.set(constraint.id, {
      id: String(constraint.id),
      at,
      effect: cut(describeConstraintEffect(constraint)),
      scope: String(constraint.scope),
      signature: cut(String(constraint.signature)),
      failures: Number(evidence.failures) || 0,
      lastError: cut(redactText(String(evidence.lastError ?? ''))),
      calls: (Array.isArray(evidence.calls) ? evidence.calls : [])
        .slice(-3)
        .map((call) => cut(redactText(String(call)))),
    });
  }

  result(): ReportData {
    return {
      sessions: [...this.sessions],
      from: this.from,
      to: this.to,
      totals: { ...this.totals },
      timeline: timeline(this.events, this.from, this.to),
      constraints: [...this.constraints.values()],
      rules: [...this.rules.entries()]
        .map(([rule, counts]) => ({
          rule,
          ...(ruleMeaning(rule) && { meaning: ruleMeaning(rule) }),
          ...counts,
        }))
        .sort((a, b) => b.blocks - a.blocks || a.rule.localeCompare(b.rule)),
      disputes: this.disputes,
      saved: this.saved(),
    };
  }

  private saved(): Saved {
    const mean = this.outputCount === 0 ? 0 : this.outputTotal / this.outputCount;
    const chars = this.blockedOutputs.reduce<number>((sum, size) => sum + (size ?? mean), 0);
    const secondsPerCall = median(this.gaps) / 1000;
    return {
      callsBlocked: this.totals.blocks,
      repeatsPrevented: this.repeatsPrevented,
      tokens: Math.round(chars / CHARS_PER_TOKEN),
      seconds: Math.round(this.totals.blocks * secondsPerCall),
      secondsPerCall: Math.round(secondsPerCall * 10) / 10,
      method: SAVINGS_METHOD,
    };
  }
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const NICE_BUCKETS_S = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 21_600, 86_400];

function timeline(events: readonly Event[], from: number | undefined, to: number | undefined): Timeline {
  const empty = { calls: [], failures: [], warnings: [], blocks: [], compactions: [], prompts: [] };
  if (from === undefined || to === undefined) return { at: [], bucketSeconds: 1, ...empty };
  const span = Math.max(1, (to - from) / 1000);
  const bucketSeconds =
    NICE_BUCKETS_S.find((size) => span / size <= MAX_BUCKETS) ??
    Math.ceil(span / MAX_BUCKETS / 86_400) * 86_400;
  const start = Math.floor(from / 1000 / bucketSeconds) * bucketSeconds;
  const count = Math.min(MAX_BUCKETS + 1, Math.floor((to / 1000 - start) / bucketSeconds) + 1);
  const series = {
    calls: new Array<number>(count).fill(0),
    failures: new Array<number>(count).fill(0),
    warnings: new Array<number>(count).fill(0),
    blocks: new Array<number>(count).fill(0),
    compactions: new Array<number>(count).fill(0),
    prompts: new Array<number>(count).fill(0),
  };
  const key = {
    call: 'calls',
    failure: 'failures',
    warning: 'warnings',
    block: 'blocks',
    compaction: 'compactions',
    prompt: 'prompts',
  } as const;
  for (const event of events) {
    const index = Math.min(count - 1, Math.max(0, Math.floor((event.at / 1000 - start) / bucketSeconds)));
    series[key[event.kind]][index]! += 1;
  }
  return {
    at: Array.from({ length: count }, (_, index) => start + index * bucketSeconds),
    bucketSeconds,
    ...series,
  };
}

function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}
