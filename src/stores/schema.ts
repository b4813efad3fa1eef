/**
 * The on-disk form of persisted state, checked on every read: a file written by another version,
 * edited by hand or cut short must be recognised, never half-trusted.
 */
import { z } from 'zod';
import type { Constraint, LiftedMark, PersistedState } from '../core/types.js';
import { isReadableStateVersion, STATE_VERSION, toStoredConstraint } from './state-format.js';
import { layOutState } from './state-layout.js';

export { STATE_VERSION };

// JSON has no Infinity, and a ban that never expires may well use it.
const INFINITE = 'Infinity';

/**
 * The schemas, built on first use rather than when the module loads: a process that reads no
 * state entry (a hook event whose call no learned constraint is about) never builds them.
 */
function schemas(): StateSchemas {
  built ??= buildSchemas();
  return built;
}

type StateSchemas = ReturnType<typeof buildSchemas>;
/** Built once per process, never changed. */
let built: StateSchemas | undefined;

function buildSchemas() {
  const time = z.union([z.number(), z.literal(INFINITE).transform(() => Number.POSITIVE_INFINITY)]);

  const actionKind = z.enum(['read', 'search', 'mutate', 'create', 'delete', 'exec', 'api', 'poll', 'other']);
  const scalar = z.union([z.number(), z.string(), z.boolean()]);

  const evidence = z.looseObject({
    failures: z.number(),
    firstAt: z.number(),
    lastAt: z.number(),
    lastError: z.string(),
    calls: z.array(z.string()),
    masked: z.array(z.string()).optional(),
    answer: z.string().optional(),
    answerWithoutNumbers: z.string().max(128).optional(),
  });

  const region = z.looseObject({
    equals: z.record(z.string(), scalar).optional(),
    atLeast: z.record(z.string(), z.number()).optional(),
    atMost: z.record(z.string(), z.number()).optional(),
  });

  // Loose objects: fields added by a later minor release survive a round trip through this one.
  const constraint = z.looseObject({
    id: z.string().min(1),
    type: z.enum(['banned_strategy', 'radius_limit', 'parameter_ban']),
    scope: z.enum(['call', 'target', 'strategy', 'parameter']),
    signature: z.string(),
    actionClass: z.string(),
    tool: z.string().optional(),
    callKey: z.string().optional(),
    keyHash: z.number().int().positive().optional(),
    target: z.string().optional(),
    blocksKinds: z.array(actionKind).optional(),
    needle: z.string().optional(),
    needleHash: z.string().max(64).optional(),
    needleExcerpt: z.string().max(1024).optional(),
    dependsOnWorkspace: z.boolean().optional(),
    dependsOnFiles: z.array(z.string()).max(64).optional(),
    fileDigests: z
      .record(z.string(), z.string().max(128))
      .refine((digests) => Object.keys(digests).length <= 64, 'at most 64 files')
      .optional(),
    dependsOnService: z.string().max(256).optional(),
    region: region.optional(),
    radius: z.number().optional(),
    evidence,
    createdAt: z.number(),
    expiresAt: time,
    strikes: z.number(),
    probation: z.boolean(),
    persistent: z.boolean(),
    context: z.record(z.string(), z.string()).optional(),
    curedByReading: z.boolean().optional(),
  });

  const liftedMark = z.object({ id: z.string().min(1), at: z.number() });

  /** The frame of the file; constraints and marks are checked one by one, so one bad entry costs only itself. */
  const persistedFrame = z.object({
    version: z.number(),
    savedAt: z.number(),
    constraints: z.array(z.unknown()),
    lifted: z.array(z.unknown()),
  });
  return { constraint, liftedMark, persistedFrame };
}

/** An entry of a state file that does not match the schema: kept aside, never loaded. */
export interface RejectedEntry {
  readonly list: 'constraints' | 'lifted';
  readonly index: number;
  readonly value: unknown;
  readonly reason: string;
}

export type ParsedState =
  | {
      ok: true;
      state: PersistedState;
      /** Entries that do not match the schema, left out of `state`. */
      rejected: readonly RejectedEntry[];
      /** The version the text was written in, when older than this build's: write it back migrated. */
      olderVersion?: number;
    }
  | {
      ok: false;
      reason: string;
      /** Written by a later version of narrowing: must be left as it is, never moved or overwritten. */
      newer?: true;
    };

/** Reads the text of a state file. Never throws: a bad file is described, not trusted. */
export function parseStateText(text: string): ParsedState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const cut = text.trim().length === 0 ? 'the file is empty' : (error as Error).message;
    return { ok: false, reason: `it is not valid JSON (${cut})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: 'it is not a JSON object' };
  }
  const version = (raw as { version?: unknown }).version;
  if (!isReadableStateVersion(version)) {
    const named = version === undefined ? 'no version' : `version ${JSON.stringify(version)}`;
    const reason = `it has ${named}, and this build of narrowing reads state versions up to ${STATE_VERSION} only`;
    return typeof version === 'number' && version > STATE_VERSION
      ? { ok: false, reason, newer: true }
      : { ok: false, reason };
  }
  const { constraint, liftedMark, persistedFrame } = schemas();
  const frame = persistedFrame.safeParse(raw);
  if (!frame.success) {
    return { ok: false, reason: `it does not match the state schema:\n${z.prettifyError(frame.error)}` };
  }
  const rejected: RejectedEntry[] = [];
  const constraints = entriesOf(frame.data.constraints, constraint, 'constraints', rejected) as Constraint[];
  const lifted = entriesOf(frame.data.lifted, liftedMark, 'lifted', rejected) as LiftedMark[];
  const state: PersistedState = {
    version: 1,
    savedAt: frame.data.savedAt,
    constraints: constraints.map(toStoredConstraint),
    lifted,
  };
  return version < STATE_VERSION
    ? { ok: true, state, rejected, olderVersion: version }
    : { ok: true, state, rejected };
}

function entriesOf(
  values: readonly unknown[],
  schema: z.ZodType,
  list: RejectedEntry['list'],
  rejected: RejectedEntry[],
): unknown[] {
  const kept: unknown[] = [];
  values.forEach((value, index) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) kept.push(parsed.data);
    else rejected.push({ list, index, value, reason: z.prettifyError(parsed.error) });
  });
  return kept;
}

/** The state file's text: one constraint per line (see `state-layout.ts`), in this build's version. */
export function stateToText(state: PersistedState): string {
  return layOutState(state).text;
}

/** One constraint as a row or a message carries it (a ban that never expires included). */
export function constraintToText(value: Constraint): string {
  return JSON.stringify(toStoredConstraint(value), (_key, item: unknown) =>
    item === Number.POSITIVE_INFINITY ? INFINITE : item,
  );
}

/** A constraint read back from a row or a message; `undefined` when it is not one. */
export function parseConstraintText(text: string): Constraint | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schemas().constraint.safeParse(raw);
  // A row or a message of an older version (another build in the fleet) is migrated as it is read.
  return parsed.success ? toStoredConstraint(parsed.data as Constraint) : undefined;
}
