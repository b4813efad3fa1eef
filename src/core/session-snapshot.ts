/**
 * The run state of a session as `snapshot()` writes it and `restore()` reads it back: the
 * session's own bans, each detector's counters, the world tracker, the radius and the budget.
 * Snapshots come back from files and other processes, so reading one checks every field and keeps
 * only what has the right shape.
 */
import type { Constraint } from './types.js';

/** A ban held for this session only (not persisted), with how the index held it. */
export interface SessionEntry {
  readonly constraint: Constraint;
  readonly required: number;
  readonly dependsOn: readonly string[];
}

export interface SessionSnapshot {
  readonly entries: readonly SessionEntry[];
  /** Each detector's own snapshot, by detector name; each detector reads its own. */
  readonly detectors: Readonly<Record<string, unknown>>;
  readonly world: unknown;
  readonly radius: unknown;
  readonly budget: unknown;
  readonly halted?: string;
  /** The bans held until another call succeeds, by id (see `SuccessLifting.snapshot`). */
  readonly untilAnotherCall?: unknown;
  /** What the learner remembers of recent failures (see `Learner.snapshot`). */
  readonly learner?: unknown;
  /** The streak of refusals of one call (see `RefusalStreak`), when one is under way. */
  readonly refusals?: unknown;
  /** The environment the calls run in was lost, and no call has succeeded since. */
  readonly worldLost?: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readEntry(value: unknown): SessionEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { constraint, required, dependsOn } = value;
  if (!isRecord(constraint) || typeof constraint.id !== 'string' || !isRecord(constraint.evidence))
    return undefined;
  return {
    // The engine wrote it; a constraint whose id and evidence are there is taken as one.
    constraint: constraint as unknown as Constraint,
    required: typeof required === 'number' && Number.isFinite(required) ? required : 1,
    dependsOn: Array.isArray(dependsOn)
      ? dependsOn.filter((item): item is string => typeof item === 'string')
      : [],
  };
}

/** The session part of a snapshot, or undefined when there is none or it is not one. */
export function readSessionSnapshot(value: unknown): SessionSnapshot | undefined {
  if (!isRecord(value)) return undefined;
  const entries: SessionEntry[] = [];
  for (const item of Array.isArray(value.entries) ? value.entries : []) {
    const entry = readEntry(item);
    if (entry) entries.push(entry);
  }
  return {
    entries,
    detectors: isRecord(value.detectors) ? value.detectors : {},
    world: value.world,
    radius: value.radius,
    budget: value.budget,
    ...(typeof value.halted === 'string' && { halted: value.halted }),
    ...(value.untilAnotherCall !== undefined && { untilAnotherCall: value.untilAnotherCall }),
    ...(value.learner !== undefined && { learner: value.learner }),
    ...(value.refusals !== undefined && { refusals: value.refusals }),
    ...(value.worldLost === true && { worldLost: true }),
  };
}
