/**
 * `inspect`: what narrowing has learned in a state directory and what it blocked lately, for a
 * person deciding whether to trust it (or to clear a constraint that is wrong).
 */

import { describeContext } from '../core/scope.js';
import { redactText } from '../core/secrets.js';
import type { Constraint, PersistedState } from '../core/types.js';
import { describeConstraintEffect } from './constraint-words.js';
import type { BlockNote, RecentBlocks } from './journal-scan.js';
import { ruleMeaning } from './rules.js';
import { relativeTime } from './time.js';

export type ConstraintStatus = 'active' | 'probation' | 'expired';

export interface ConstraintView {
  readonly id: string;
  readonly scope: Constraint['scope'];
  readonly type: Constraint['type'];
  readonly status: ConstraintStatus;
  readonly blocks: string;
  readonly signature: string;
  readonly tool?: string;
  readonly target?: string;
  readonly failures: number;
  readonly lastError: string;
  readonly calls: readonly string[];
  readonly learnedAt: number;
  readonly lastFailureAt: number;
  /** Milliseconds since the epoch; `null` for a constraint that never expires. */
  readonly expiresAt: number | null;
  readonly strikes: number;
  /** Where the constraint holds (repository, host, GPU, model…); absent when everywhere. */
  readonly context?: Readonly<Record<string, string>>;
}

export interface Inspection {
  readonly now: number;
  /** Newest first. */
  readonly constraints: readonly ConstraintView[];
  /** Expired constraints left out (shown with `all`). */
  readonly hiddenExpired: number;
  readonly recent: RecentBlocks | undefined;
}

export interface InspectInput {
  readonly state: PersistedState | undefined;
  readonly recent: RecentBlocks | undefined;
  readonly now: number;
  /** Include expired constraints. */
  readonly all?: boolean;
}

export function buildInspection(input: InspectInput): Inspection {
  const views = (input.state?.constraints ?? [])
    .map((constraint) => viewOf(constraint, input.now))
    .sort((a, b) => b.lastFailureAt - a.lastFailureAt);
  const shown = input.all ? views : views.filter((view) => view.status !== 'expired');
  return {
    now: input.now,
    constraints: shown,
    hiddenExpired: views.length - shown.length,
    recent: input.recent,
  };
}

function viewOf(constraint: Constraint, now: number): ConstraintView {
  const status: ConstraintStatus = constraint.probation
    ? 'probation'
    : constraint.expiresAt <= now
      ? 'expired'
      : 'active';
  return {
    id: constraint.id,
    scope: constraint.scope,
    type: constraint.type,
    status,
    blocks: describeConstraintEffect(constraint),
    signature: constraint.signature,
    ...(constraint.tool !== undefined && { tool: constraint.tool }),
    ...(constraint.target !== undefined && { target: constraint.target }),
    failures: constraint.evidence.failures,
    lastError: redactText(constraint.evidence.lastError),
    calls: constraint.evidence.calls.map(redactText),
    learnedAt: constraint.createdAt,
    lastFailureAt: constraint.evidence.lastAt,
    expiresAt: Number.isFinite(constraint.expiresAt) ? constraint.expiresAt : null,
    strikes: constraint.strikes,
    ...(constraint.context !== undefined && { context: constraint.context }),
  };
}

export function isEmptyInspection(inspection: Inspection): boolean {
  return inspection.constraints.length === 0 && inspection.hiddenExpired === 0 && !inspection.recent?.total;
}

export interface InspectFormat {
  /** The state directory as the user would type it. */
  readonly stateDirLabel: string;
}

export function formatInspection(inspection: Inspection, format: InspectFormat): string {
  const { now } = inspection;
  const lines: string[] = [];
  const active = inspection.constraints.filter((view) => view.status === 'active').length;
  const probation = inspection.constraints.filter((view) => view.status === 'probation').length;
  const expired = inspection.constraints.filter((view) => view.status === 'expired').length;
  const counts = [`${active} active`, ...(probation > 0 ? [`${probation} on probation`] : [])];
  if (expired > 0) counts.push(`${expired} expired`);
  if (inspection.constraints.length === 0) {
    lines.push(`No learned constraints in force in ${format.stateDirLabel}.`);
  } else {
    lines.push(`Learned constraints in ${format.stateDirLabel} (${counts.join(', ')}):`);
  }
  inspection.constraints.forEach((view, index) => {
    lines.push('', `${index + 1}. ${capitalise(view.blocks)}`);
    lines.push(`   scope: ${view.scope} · ${view.signature} · id ${view.id}`);
    if (view.context !== undefined) lines.push(`   holds for: ${describeContext(view.context)}`);
    // The last two distinct calls: a call repeated unchanged is named once.
    const distinct = [...new Set([...view.calls].reverse())].slice(0, 2).reverse();
    const calls = distinct.length > 0 ? ` (${distinct.join('; ')})` : '';
    lines.push(
      `   evidence: ${failures(view.failures)}${calls}, last ${relativeTime(view.lastFailureAt, now)}`,
    );
    if (view.lastError.length > 0) lines.push(`   last error: ${oneLine(view.lastError, 160)}`);
    lines.push(`   ${statusLine(view, now)}`);
  });
  if (inspection.hiddenExpired > 0) {
    const them = inspection.hiddenExpired === 1 ? 'it' : 'them';
    lines.push('', `${expiredCount(inspection.hiddenExpired)} not shown (--all shows ${them}).`);
  }
  lines.push('', ...formatBlocks(inspection.recent, now));
  return `${lines.join('\n')}\n`;
}

function statusLine(view: ConstraintView, now: number): string {
  const rebans =
    view.strikes > 0 ? ` (re-imposed ${view.strikes === 1 ? 'once' : `${view.strikes} times`})` : '';
  if (view.status === 'probation') {
    return `on probation${rebans}: the next attempt is let through; if it fails the same way, the ban returns for longer`;
  }
  if (view.expiresAt === null) return `never expires${rebans}`;
  if (view.status === 'expired') {
    return `expired ${relativeTime(view.expiresAt, now)}${rebans}: the next attempt is let through on probation`;
  }
  return `expires ${relativeTime(view.expiresAt, now)}${rebans}`;
}

function formatBlocks(recent: RecentBlocks | undefined, now: number): string[] {
  if (recent === undefined) return ['No journal yet, so no blocks to show.'];
  const damaged =
    recent.badLines > 0
      ? [
          `(${recent.badLines} damaged journal line${recent.badLines === 1 ? '' : 's'} skipped: run narrowing-guard verify)`,
        ]
      : [];
  if (recent.total === 0) return ['Nothing has been blocked yet.', ...damaged];
  const shown = recent.blocks.length;
  const title =
    shown === recent.total
      ? `Blocks (${recent.total}), newest first:`
      : `Recent blocks (last ${shown} of ${recent.total}), newest first:`;
  const lines = [title];
  for (const block of [...recent.blocks].reverse()) lines.push(...blockLines(block, now));
  return [...lines, ...disputeLines(recent), ...damaged];
}

/** Disputed blocks per rule (`narrowing-guard feedback`): the field's own false-block rate. */
function disputeLines(recent: RecentBlocks): string[] {
  const rules = Object.entries(recent.byRule ?? {}).filter(([, counts]) => counts.disputed > 0);
  if (rules.length === 0) return [];
  const disputed = rules.reduce((sum, [, counts]) => sum + counts.disputed, 0);
  const lines = [
    `Disputed as wrong: ${disputed} of ${recent.total} block${recent.total === 1 ? '' : 's'}, by rule:`,
  ];
  for (const [rule, counts] of rules.sort((a, b) => b[1].disputed - a[1].disputed)) {
    lines.push(`  ${rule}: ${counts.disputed} of ${counts.blocks}`);
  }
  return lines;
}

function blockLines(block: BlockNote, now: number): string[] {
  const rule = block.rule ?? 'no rule recorded';
  const meaning = block.rule ? ruleMeaning(block.rule) : undefined;
  const head = `  ${relativeTime(block.at, now)} · ${block.tool} · ${block.verdict === 'halt' ? 'halted' : 'blocked'} by ${rule}`;
  const lines = [meaning ? `${head} (${meaning})` : head];
  if (block.reason) lines.push(`    ${oneLine(block.reason, 220)}`);
  return lines;
}

function failures(count: number): string {
  return count === 1 ? 'failed once' : count === 2 ? 'failed twice' : `failed ${count} times`;
}

function expiredCount(count: number): string {
  return count === 1 ? '1 expired constraint' : `${count} expired constraints`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whitespace collapsed and cut to `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The machine form: plain data, times as ISO strings. */
export function inspectionJson(inspection: Inspection): unknown {
  const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
  return {
    constraints: inspection.constraints.map((view) => ({
      ...view,
      learnedAt: iso(view.learnedAt),
      lastFailureAt: iso(view.lastFailureAt),
      expiresAt: iso(view.expiresAt),
    })),
    hiddenExpired: inspection.hiddenExpired,
    blocks: (inspection.recent?.blocks ?? []).map((block) => ({ ...block, at: iso(block.at) })),
    totalBlocks: inspection.recent?.total ?? 0,
    disputesByRule: inspection.recent?.byRule ?? {},
  };
}
