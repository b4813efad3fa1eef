/**
 * Imports a state saved by `@sovereign-labs/narrowing` (`JSON.stringify(loop.snapshot())`) into
 * this package's persisted state, which `restore()` takes and the file store keeps.
 *
 * A file that is not such a state is refused with a `CompatError` whose `code` says why; it is never
 * half-trusted. Constraints that have no counterpart here are listed in `skipped`, with the reason.
 */
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { ML_TRIAL_TOOL } from '../adapters/ml-training/index.js';
import { canonicalParameters, DEFAULT_PARAMETER_ALIASES } from '../adapters/ml-training/parameters.js';
import { constraintId } from '../core/constraints.js';
import type { Constraint as EngineConstraint, PersistedState } from '../core/types.js';
import { writeFileAtomicSync } from '../node/atomic-file.js';
import { prepareFolderFor } from '../node/state-dir.js';
import { stateToText } from '../stores/schema.js';
import { CompatError } from './errors.js';

export interface PaperStateImportOptions {
  /** Largest state file read, in bytes. Default 16 MiB. */
  readonly maxBytes?: number;
  /** Most constraints accepted. Default 100,000. */
  readonly maxConstraints?: number;
  /** The engine tool that parameter bans apply to. Default `train`, the ML adapter's trials. */
  readonly tool?: string;
  /** Milliseconds; constraints that expired by then are skipped. Default: now. */
  readonly now?: number;
}

export interface SkippedConstraint {
  readonly id: string;
  readonly reason: string;
}

export interface ImportedPaperState {
  readonly state: PersistedState;
  readonly skipped: readonly SkippedConstraint[];
  readonly attempt: number;
  readonly sessionId?: string;
  readonly bestScore: number | null;
  readonly bestAttempt: number;
}

const MIB = 1024 * 1024;
const DEFAULT_MAX_BYTES = 16 * MIB;
const DEFAULT_MAX_CONSTRAINTS = 100_000;
const MAX_PROBLEMS = 10;
const MAX_TEXT = 300;
const MAX_CALLS = 16;

const scalar = z.union([z.number(), z.string(), z.boolean()]);
const finite = z.number().finite();

const paperConstraint = z.object({
  id: z.string().min(1).max(512),
  type: z.enum(['banned_strategy', 'radius_limit', 'parameter_ban']),
  signature: z.string().max(512),
  actionClass: z.string().max(512).optional(),
  reason: z.string().optional(),
  occurrences: finite.int().nonnegative().optional(),
  introducedAt: finite,
  // JSON writes Infinity as null.
  expiresAt: finite.nullable().optional(),
  scope: z.enum(['session', 'persistent']).optional(),
  maxChanges: finite.nullable().optional(),
  bannedParameter: z.string().min(1).max(256).optional(),
  bannedValues: z.array(z.unknown()).max(1000).optional(),
  appliesTo: z.array(z.string().max(4096)).max(10_000).optional(),
});

type PaperConstraint = z.infer<typeof paperConstraint>;

const paperState = z.object({
  constraints: z.array(z.unknown()),
  convergence: z
    .object({ bestScore: finite.nullable().optional(), bestAttempt: finite.int().optional() })
    .optional(),
  attempt: finite.int().nonnegative().optional(),
  sessionId: z.string().max(256).optional(),
});

function pathOf(path: readonly PropertyKey[]): string {
  return path
    .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
    .join('')
    .replace(/^\./, '');
}

function problemsOf(error: z.ZodError, prefix: string): string[] {
  return error.issues.map((issue) => `${prefix}${pathOf(issue.path)}: ${issue.message}`);
}

function invalid(problems: readonly string[]): CompatError {
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
  return new CompatError(
    'STATE_INVALID',
    `This is not a state saved by @sovereign-labs/narrowing: ${shown.join('; ')}${more}.`,
    shown,
  );
}

function parseText(text: string, maxBytes: number): unknown {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    throw new CompatError('STATE_TOO_LARGE', `The state is ${bytes} bytes; at most ${maxBytes} are read.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = text.trim() === '' ? 'it is empty' : (error as Error).message;
    throw new CompatError('STATE_NOT_JSON', `The state is not JSON: ${why}.`);
  }
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

function evidenceOf(constraint: PaperConstraint): EngineConstraint['evidence'] {
  return {
    failures: constraint.occurrences ?? 1,
    firstAt: constraint.introducedAt,
    lastAt: constraint.introducedAt,
    lastError: truncate(constraint.reason ?? '', MAX_TEXT),
    calls: (constraint.appliesTo ?? []).slice(0, MAX_CALLS).map((call) => truncate(call, MAX_TEXT)),
  };
}

function common(constraint: PaperConstraint) {
  return {
    signature: constraint.signature,
    evidence: evidenceOf(constraint),
    createdAt: constraint.introducedAt,
    expiresAt: constraint.expiresAt ?? Number.POSITIVE_INFINITY,
    strikes: 0,
    probation: false,
    persistent: true,
  };
}

/** The engine's constraints for one of that package's, or why there are none. */
function convert(constraint: PaperConstraint, tool: string): EngineConstraint[] | string {
  if (constraint.type === 'radius_limit') {
    return 'a radius limit belongs to one session here: each session starts without one';
  }
  if (constraint.type === 'banned_strategy') {
    if (!constraint.actionClass) return 'a strategy ban that names no action class bans nothing';
    return [
      {
        id: constraintId(['strategy', constraint.actionClass, constraint.signature, '']),
        type: 'banned_strategy',
        scope: 'strategy',
        actionClass: constraint.actionClass,
        ...common(constraint),
      },
    ];
  }
  const name = constraint.bannedParameter;
  if (!name) return 'a parameter ban that names no parameter bans nothing';
  const out: EngineConstraint[] = [];
  for (const value of constraint.bannedValues ?? []) {
    const parsed = scalar.safeParse(value);
    if (!parsed.success) continue;
    const equals = canonicalParameters({ [name]: parsed.data }, DEFAULT_PARAMETER_ALIASES, new Set());
    if (Object.keys(equals).length === 0) continue;
    const region = { equals };
    const actionClass = constraint.actionClass ?? '*';
    out.push({
      id: constraintId(['parameter', actionClass, constraint.signature, JSON.stringify(region), '']),
      type: 'parameter_ban',
      scope: 'parameter',
      actionClass,
      tool,
      region,
      ...common(constraint),
    });
  }
  return out.length > 0 ? out : `no banned value of ${name} is a number, string or boolean`;
}

/**
 * A state of that package (its JSON text, or the object `JSON.parse` made of it) as this package's.
 * Throws a `CompatError` (`STATE_TOO_LARGE`, `STATE_NOT_JSON`, `STATE_INVALID`).
 */
export function importPaperState(input: unknown, options: PaperStateImportOptions = {}): ImportedPaperState {
  const maxConstraints = options.maxConstraints ?? DEFAULT_MAX_CONSTRAINTS;
  const now = options.now ?? Date.now();
  const raw = typeof input === 'string' ? parseText(input, options.maxBytes ?? DEFAULT_MAX_BYTES) : input;
  const parsed = paperState.safeParse(raw);
  if (!parsed.success) throw invalid(problemsOf(parsed.error, ''));
  const { constraints: items } = parsed.data;
  if (items.length > maxConstraints) {
    throw new CompatError(
      'STATE_TOO_LARGE',
      `The state holds ${items.length} constraints; at most ${maxConstraints} are imported.`,
    );
  }
  const problems: string[] = [];
  const constraints: EngineConstraint[] = [];
  const skipped: SkippedConstraint[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const one = paperConstraint.safeParse(item);
    if (!one.success) {
      if (problems.length <= MAX_PROBLEMS) problems.push(...problemsOf(one.error, `constraints[${index}].`));
      return;
    }
    const constraint = one.data;
    if (constraint.expiresAt != null && constraint.expiresAt <= now) {
      skipped.push({ id: constraint.id, reason: 'it had expired' });
      return;
    }
    const converted = convert(constraint, options.tool ?? ML_TRIAL_TOOL);
    if (typeof converted === 'string') {
      skipped.push({ id: constraint.id, reason: converted });
      return;
    }
    for (const engine of converted) {
      if (seen.has(engine.id)) continue;
      seen.add(engine.id);
      constraints.push(engine);
    }
  });
  if (problems.length > 0) throw invalid(problems);
  const imported: ImportedPaperState = {
    state: { version: 1, savedAt: now, constraints, lifted: [] },
    skipped,
    attempt: parsed.data.attempt ?? 0,
    bestScore: parsed.data.convergence?.bestScore ?? null,
    bestAttempt: parsed.data.convergence?.bestAttempt ?? 0,
  };
  return parsed.data.sessionId === undefined ? imported : { ...imported, sessionId: parsed.data.sessionId };
}

/** Reads and imports a state file of that package. Also throws `STATE_UNREADABLE`. */
export function readPaperStateFile(path: string, options: PaperStateImportOptions = {}): ImportedPaperState {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > maxBytes) {
      throw new CompatError('STATE_TOO_LARGE', `${path} is ${size} bytes; at most ${maxBytes} are read.`);
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof CompatError) throw error;
    throw new CompatError('STATE_UNREADABLE', `${path} could not be read: ${(error as Error).message}.`);
  }
  try {
    return importPaperState(text, options);
  } catch (error) {
    if (error instanceof CompatError) {
      throw new CompatError(error.code, `${path}: ${error.message}`, error.problems);
    }
    throw error;
  }
}

/**
 * Converts a state file of that package into a state file of this one (`statePath`), written
 * atomically. Learned constraints already in `to` are replaced: point `to` at a new file, or let a
 * running loop `restore()` the import to merge it.
 */
export function convertPaperStateFile(
  from: string,
  to: string,
  options: PaperStateImportOptions = {},
): ImportedPaperState {
  const imported = readPaperStateFile(from, options);
  prepareFolderFor(to);
  writeFileAtomicSync(to, stateToText(imported.state));
  return imported;
}
