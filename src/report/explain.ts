/**
 * `explain`: a session told in plain English — what the agent did, what narrowing stopped and why,
 * what it learned, and what that saved.
 */
import { oneLine } from './inspect.js';
import { ruleMeaning } from './rules.js';
import type { FullStory, ToolActivity } from './session.js';
import { dateTime, shortDuration } from './time.js';

/**
 * What one avoided call is taken to cost: the tool run plus the model turn that reads its failure
 * and decides again. The defaults are deliberately modest (a short tool call and a small turn).
 */
export interface SavingsAssumption {
  readonly secondsPerCall: number;
  readonly costPerCall: number;
}

export const DEFAULT_SAVINGS: SavingsAssumption = { secondsPerCall: 10, costPerCall: 0.003 };

export interface Savings {
  readonly blockedCalls: number;
  /** Blocked calls that would have repeated a known failure: the only ones counted as saved. */
  readonly repeatsPrevented: number;
  readonly seconds: number;
  readonly costUsd: number;
  readonly assumption: SavingsAssumption;
}

export function estimateSavings(story: FullStory, assumption: SavingsAssumption): Savings {
  const repeats = story.repeatsPrevented;
  return {
    blockedCalls: story.blocked + story.halted,
    repeatsPrevented: repeats,
    seconds: repeats * assumption.secondsPerCall,
    costUsd: repeats * assumption.costPerCall,
    assumption,
  };
}

export interface ExplainFormat {
  readonly journalLabel: string;
  readonly assumption: SavingsAssumption;
  /** Time zone for dates; the local one by default. */
  readonly timeZone?: string;
}

export function formatExplanation(story: FullStory, format: ExplainFormat): string {
  const lines = [
    `Session ${story.sessionId}`,
    `${when(story, format.timeZone)} · journal ${format.journalLabel}`,
    '',
    'What the agent did',
    ...activity(story),
    '',
    'What was blocked, and why',
    ...blocked(story),
    '',
    'What narrowing learned',
    ...learned(story),
    '',
    'What it saved',
    ...saved(estimateSavings(story, format.assumption)),
  ];
  return `${lines.join('\n')}\n`;
}

function when(story: FullStory, timeZone: string | undefined): string {
  if (story.firstAt === undefined || story.lastAt === undefined) return 'no recorded time';
  const start = dateTime(story.firstAt, timeZone);
  const end = dateTime(story.lastAt, timeZone);
  const endText = end.slice(0, 10) === start.slice(0, 10) ? end.slice(11) : end;
  return `${start} to ${endText} (${shortDuration(story.lastAt - story.firstAt)})`;
}

function activity(story: FullStory): string[] {
  if (story.proposals === 0) return ['  No tool calls were proposed.'];
  const stopped = story.blocked + story.halted;
  const ran = story.proposals - stopped;
  const outcomes = `${story.succeeded} succeeded, ${story.failed} failed`;
  const warned = story.warned > 0 ? `, ${story.warned} with a warning` : '';
  const runs = story.runs > 0 ? ` over ${story.runs + 1} runs (new user messages or compactions)` : '';
  const lines = [
    `  ${calls(story.proposals)} proposed${runs}: ${ran} ran (${outcomes}${warned})` +
      (stopped > 0 ? ` and ${stopped} ${stopped === 1 ? 'was' : 'were'} blocked before running.` : '.'),
  ];
  let width = 0;
  for (const tool of story.tools) width = Math.max(width, tool.tool.length);
  for (const tool of story.tools) lines.push(`  ${tool.tool.padEnd(width)}  ${toolLine(tool)}`);
  const agent = story.failures.filter((kind) => kind.blame === 'agent_failure');
  const harness = story.failures.filter((kind) => kind.blame === 'harness_fault');
  const unknown = story.failures.filter((kind) => kind.blame === 'unknown');
  const list = (kinds: typeof story.failures) =>
    kinds.map((kind) => `${kind.signature} ×${kind.count}`).join(', ');
  if (agent.length > 0) lines.push(`  Failures caused by the call itself: ${list(agent)}.`);
  if (harness.length > 0) {
    lines.push(`  Failures of the infrastructure (never held against the agent): ${list(harness)}.`);
  }
  if (unknown.length > 0) lines.push(`  Failures of unclear cause (not learned from): ${list(unknown)}.`);
  return lines;
}

function toolLine(tool: ToolActivity): string {
  const parts = [`${tool.proposed} proposed`];
  if (tool.succeeded > 0) parts.push(`${tool.succeeded} succeeded`);
  if (tool.failed > 0) parts.push(`${tool.failed} failed`);
  if (tool.blocked > 0) parts.push(`${tool.blocked} blocked`);
  return parts.join(' · ');
}

function blocked(story: FullStory): string[] {
  if (story.rules.length === 0) return ['  Nothing was blocked.'];
  const lines: string[] = [];
  for (const rule of story.rules) {
    const tools = [...rule.tools].map(([tool, count]) => `${tool} ×${count}`).join(', ');
    const meaning = ruleMeaning(rule.rule);
    lines.push(`  ${rule.rule} — ${plural(rule.count, 'block')} (${tools})${meaning ? `: ${meaning}` : ''}`);
    const example = rule.example.split(/ Last error: /)[0] ?? '';
    if (example.length > 0) lines.push(`    e.g. ${oneLine(example, 200)}`);
  }
  return lines;
}

function learned(story: FullStory): string[] {
  if (story.learnedCount === 0 && story.lifted.length === 0) {
    return ['  Nothing new: no constraint was learned or lifted.'];
  }
  const lines: string[] = [];
  for (const change of story.learned) lines.push(`  + learned: ${change.effect} (${change.signature})`);
  more(lines, story.learnedCount - story.learned.length, 'learned');
  for (const change of story.lifted) {
    lines.push(`  - lifted:  ${change.effect} — ${change.why ?? 'it no longer held'}`);
  }
  return lines;
}

function more(lines: string[], count: number, what: string): void {
  if (count > 0) lines.push(`  … and ${count} more ${what}`);
}

function saved(savings: Savings): string[] {
  if (savings.blockedCalls === 0) return ['  Nothing to count: no call was blocked.'];
  const { secondsPerCall, costPerCall } = savings.assumption;
  const lines = [
    `  ${savings.repeatsPrevented} of ${plural(savings.blockedCalls, 'blocked call')} would have repeated a known failure.`,
  ];
  if (savings.repeatsPrevented > 0) {
    lines.push(
      `  Estimated saving: about ${shortDuration(savings.seconds * 1000)} of agent time and ${dollars(savings.costUsd)},`,
      `  assuming ${secondsPerCall} s and ${dollars(costPerCall)} per avoided call ` +
        '(set with --seconds-per-call and --cost-per-call).',
    );
  }
  return lines;
}

function calls(count: number): string {
  return plural(count, 'tool call');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function dollars(amount: number): string {
  return amount >= 1 ? `$${amount.toFixed(2)}` : `$${Number(amount.toFixed(4))}`;
}

/** The machine form of an explanation. */
export function explanationJson(story: FullStory, assumption: SavingsAssumption): unknown {
  const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());
  return {
    sessionId: story.sessionId,
    startedAt: iso(story.firstAt),
    endedAt: iso(story.lastAt),
    calls: {
      proposed: story.proposals,
      ran: story.proposals - story.blocked - story.halted,
      succeeded: story.succeeded,
      failed: story.failed,
      warned: story.warned,
      blocked: story.blocked,
      halted: story.halted,
    },
    tools: story.tools,
    failures: story.failures,
    blocks: story.rules.map((rule) => ({
      rule: rule.rule,
      count: rule.count,
      tools: Object.fromEntries(rule.tools),
      example: rule.example,
    })),
    learned: story.learned.map((change) => ({ ...change, at: iso(change.at) })),
    lifted: story.lifted.map((change) => ({ ...change, at: iso(change.at) })),
    learnedCount: story.learnedCount,
    savings: estimateSavings(story, assumption),
  };
}
