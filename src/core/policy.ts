/**
 * Every threshold the engine uses, with the defaults of the `precise` preset. The shape is plain
 * data; validation with readable errors lives in the outer layer (`src/config`).
 */
import { DEFAULT_SHARING, type SharingPolicy } from './scope.js';
import type { ActionKind } from './types.js';

export type PresetName = 'precise' | 'strict' | 'off';
export type Enforcement = 'enforce' | 'advisory';

export interface DetectorThresholds {
  /**
   * The paper's corroboration: failures of the same call, against unchanged state, before it is
   * banned. A deterministic signature (missing file, failed edit) needs `deterministicThreshold`.
   * A failure the adapter cannot blame (an error text it does not know) needs `unknownThreshold`
   * failures with the same error text, of this call or of another call of the same tool on the same
   * targets, and bans only the exact calls that failed, for the session. One that the adapter reads
   * as deterministic (its error quotes the call's own arguments) needs `deterministicThreshold`.
   */
  identicalFailure: {
    enabled: boolean;
    threshold: number;
    deterministicThreshold: number;
    unknownThreshold: number;
  };
  /**
   * Repeats count only when each comes within `withinCalls` proposals of the previous one: back to
   * back is a loop; coming back to a file after doing something else is not.
   */
  identicalResult: {
    enabled: boolean;
    warnAt: number;
    blockAt: number;
    withinCalls: number;
    /**
     * A read or search run again after other calls, with nothing changed since, that returned the
     * same answer every time: blocked at this occurrence (0 turns it off).
     */
    revisitBlockAt: number;
    /**
     * Re-runs of earlier reads and searches, one after another (one first ask of a new query may come
     * between two), each returning what it returned before: after this many in a row, the next re-run
     * of an earlier query is blocked (0: off).
     */
    rerunStreak: number;
    /**
     * Calls of one tool that came back as they had before, nothing having been done since: once two
     * did within this many calls, the tool's next such call is blocked on its first repeat (0: off).
     */
    repeatWindow: number;
  };
  /**
   * A tool whose results carry nothing new, whatever the input: `blockAfter` results the tool itself
   * flagged, or `emptyBlockAfter` empty answers in a row (a few absent symbols are normal).
   */
  nonAdvancing: { enabled: boolean; blockAfter: number; emptyBlockAfter: number };
  /**
   * Varied calls of one tool failing with errors of one shape (guessing). `effect: 'warn'` only
   * steers; the default blocks the `blockAt`th guess. Edits are never judged by this rule.
   */
  errorStreak: { enabled: boolean; warnAt: number; blockAt: number; effect: 'warn' | 'block' };
  cycle: { enabled: boolean; minPeriod: number; maxPeriod: number; repetitions: number };
  poll: { enabled: boolean; warnAt: number; blockAt: number };
  creationRate: { enabled: boolean; max: number; windowSeconds: number };
  toolHealth: { enabled: boolean; openAfter: number; cooldownSeconds: number; maxCooldownSeconds: number };
  /**
   * An edit whose text is not in the file as last read in full, with nothing changed since: warned the
   * first time, blocked once an edit of the unchanged file has failed.
   */
  absentText: { enabled: boolean };
  /**
   * A call with an outside effect (booking, message, payment, new record) that already succeeded,
   * repeated with the same arguments in the same run. Declare a tool `kind: 'poll'`, or turn this
   * off for it, when doing it twice is meant.
   */
  duplicateEffect: { enabled: boolean };
  /**
   * A command that failed, run again after edits that only brought the files back to a state in
   * which it already failed (an edit and its undoing, a file written back as it was).
   */
  stateCycle: { enabled: boolean };
  /**
   * A read, edit or delete of a file a tool reported creating, once that tool's creations have been
   * seen not to take (a file it created was missing right after, with nothing in between).
   */
  unseenCreation: { enabled: boolean };
  /**
   * A search-and-replace edit of a file the agent has not been shown, after two such guesses at it
   * were not found with nothing changing it in between: read it first.
   */
  blindEdit: { enabled: boolean };
  /**
   * Edits of one file failing one after another with one kind of error, the file neither read nor
   * changed in between: the `warnAt`th is steered. Varied edits often succeed, so by default the rule
   * only steers (`effect: 'warn'`); `effect: 'block'` blocks the `blockAt`th.
   */
  editStreak: { enabled: boolean; warnAt: number; blockAt: number; effect: 'warn' | 'block' };
  /**
   * A retry that still asks for something the tool said does not exist or is not available, and
   * only adds list items to the call that failed (one more flight beside the unavailable one).
   */
  unavailableValue: { enabled: boolean };
  /**
   * A command spelled another way (its options reordered, a tuning variable such as `PYTHONPATH`
   * set before it, run through a runner or `python -m`) after two such spellings failed in a row
   * with an error of one shape.
   */
  respelledCommand: { enabled: boolean };
  /**
   * A search-and-replace edit whose text carries a numbered view's line numbers (`   313\t`), once
   * such an edit of the same unchanged file was not found.
   */
  numberedCopy: { enabled: boolean };
  /**
   * Re-reads across context compactions: a second cycle of compaction, re-reading the same unchanged
   * files and compacting again with nothing written or learned in between (one re-read after a
   * compaction is always allowed).
   */
  compactionCycle: { enabled: boolean };
  convergence: {
    enabled: boolean;
    direction: 'minimize' | 'maximize';
    plateauWindow: number;
    tolerance: number;
    /** Consecutive blocked proposals after which the run is exhausted. */
    exhaustAfterBlocks: number;
  };
}

export interface LearningPolicy {
  /** Learn constraints from agent failures at all (the `off` preset turns this off). */
  enabled: boolean;
  /**
   * Which failures widen from the call to its target: `missing` widens only "does not exist"
   * and "already exists"; `all` also bans the failing action on the target for any signature, once
   * two different calls failed that way on it (one empty search is about itself). An edit whose
   * text was not found never widens: the next edit is judged by its own text.
   */
  targetScope: 'missing' | 'all';
  /**
   * What a change relieves. `workspace`: any file change relieves bans on commands and searches,
   * which may read every file (after an edit, the failing test may pass), and a change made through
   * a service relieves bans on the service's calls (a cancellation may free a seat). `target`: a
   * change of a ban's own target relieves it; a failing command is relieved only by an edit of a file
   * it names, a configuration change, or a command whose effects are unknown (a formatter, an install).
   */
  invalidation: 'workspace' | 'target';
  /** Same action class + signature over this many distinct targets seeds a strategy ban. */
  strategyMinTargets: number;
  /** What a strategy ban does: `warn` keeps legitimate calls running, `block` is the paper's. */
  strategyEffect: 'warn' | 'block' | 'off';
  radius: { enabled: boolean; curve: number[]; shrinkAfter: number; relaxAfter: number };
  ttlSeconds: { call: number; target: number; strategy: number; parameter: number };
  /** An expired ban that fails again on probation comes back for this many times longer. */
  probationFactor: number;
  /** Caps that keep memory bounded; the oldest constraints are evicted first. */
  maxConstraints: number;
}

export interface BudgetPolicy {
  maxSteps?: number;
  tokenBudget?: number;
  costLimit?: number;
  timeoutMs?: number;
  reserveTokens: number;
  reserveCostFraction: number;
}

/** Overrides for one tool, matched by exact name or glob (`mcp__github__*`). */
export interface ToolPolicy {
  /** Exempt from every loop detector and from learned bans. */
  exempt?: boolean;
  /** Overrides the action kind the adapter would infer. */
  kind?: ActionKind;
  alternatives?: string[];
  detectors?: DeepPartial<DetectorThresholds>;
}

export interface Policy {
  preset: PresetName;
  enforcement: Enforcement;
  learning: LearningPolicy;
  detectors: DetectorThresholds;
  budget: BudgetPolicy;
  tools: Record<string, ToolPolicy>;
  /** Alternatives to suggest when a tool is blocked or its circuit is open. */
  alternatives: Record<string, string[]>;
  /** Where learned constraints hold; constraints from another context are not applied. */
  context: Record<string, string>;
  /** Which of the context's dimensions each kind of constraint keeps (see `scope.ts`). */
  sharing: SharingPolicy;
  /** Where learned state is kept: `file`, `sqlite`, `memory` or a `redis://` URL. Default `file`. */
  store?: string;
  /** Emit an OpenTelemetry span for each verdict (needs `@opentelemetry/api`). Default false. */
  otel?: boolean;
}

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends (infer U)[] ? U[] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};

export type PolicyInput = DeepPartial<Omit<Policy, 'tools'>> & { tools?: Record<string, ToolPolicy> };

const DAY = 24 * 60 * 60;

function preciseDefaults(): Policy {
  return {
    preset: 'precise',
    enforcement: 'enforce',
    learning: {
      enabled: true,
      targetScope: 'missing',
      invalidation: 'workspace',
      strategyMinTargets: 3,
      strategyEffect: 'warn',
      radius: { enabled: true, curve: [5, 3, 2, 1], shrinkAfter: 2, relaxAfter: 1 },
      ttlSeconds: { call: 7 * DAY, target: 7 * DAY, strategy: DAY, parameter: 7 * DAY },
      probationFactor: 2,
      // About 1 KB each: 40,000 keep the heap bounded by ~40 MB, and a project rarely learns that
      // many distinct failures within the week a constraint lives.
      maxConstraints: 40_000,
    },
    detectors: {
      identicalFailure: { enabled: true, threshold: 2, deterministicThreshold: 1, unknownThreshold: 2 },
      identicalResult: {
        enabled: true,
        warnAt: 3,
        blockAt: 5,
        withinCalls: 1,
        // Off: re-reading an unchanged file after other work is often how an agent refreshes its
        // context, and blocking it stops a call that would succeed. Opt in with 3 or 4.
        revisitBlockAt: 0,
        rerunStreak: 2,
        repeatWindow: 8,
      },
      nonAdvancing: { enabled: true, blockAfter: 3, emptyBlockAfter: 5 },
      errorStreak: { enabled: true, warnAt: 3, blockAt: 5, effect: 'block' },
      cycle: { enabled: true, minPeriod: 2, maxPeriod: 8, repetitions: 3 },
      poll: { enabled: true, warnAt: 3, blockAt: 6 },
      creationRate: { enabled: true, max: 3, windowSeconds: 60 },
      toolHealth: { enabled: true, openAfter: 5, cooldownSeconds: 120, maxCooldownSeconds: 1800 },
      absentText: { enabled: true },
      duplicateEffect: { enabled: true },
      stateCycle: { enabled: true },
      unseenCreation: { enabled: true },
      blindEdit: { enabled: true },
      editStreak: { enabled: true, warnAt: 3, blockAt: 5, effect: 'warn' },
      unavailableValue: { enabled: true },
      respelledCommand: { enabled: true },
      numberedCopy: { enabled: true },
      compactionCycle: { enabled: true },
      convergence: {
        enabled: true,
        direction: 'minimize',
        plateauWindow: 10,
        tolerance: 0,
        exhaustAfterBlocks: 15,
      },
    },
    budget: { reserveTokens: 512, reserveCostFraction: 0.1 },
    tools: {},
    alternatives: {},
    context: {},
    sharing: {
      call: [...DEFAULT_SHARING.call],
      target: [...DEFAULT_SHARING.target],
      strategy: [...DEFAULT_SHARING.strategy],
      parameter: [...DEFAULT_SHARING.parameter],
      absolutePaths: [...DEFAULT_SHARING.absolutePaths],
    },
  };
}

/** The built-in presets. `strict` trades some legitimate work for the paper's recall. */
export function presetPolicy(name: PresetName): Policy {
  const policy = preciseDefaults();
  policy.preset = name;
  if (name === 'strict') {
    policy.detectors.identicalFailure.threshold = 1;
    policy.learning.targetScope = 'all';
    policy.learning.invalidation = 'target';
    policy.learning.strategyMinTargets = 2;
    policy.learning.radius.shrinkAfter = 1;
  }
  if (name === 'off') {
    policy.learning.enabled = false;
    policy.learning.strategyEffect = 'off';
    policy.learning.radius.enabled = false;
    for (const detector of Object.values(policy.detectors)) detector.enabled = false;
  }
  return policy;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Overlays `patch` on `base` recursively; arrays and scalars replace. Returns a new object. */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    out[key] = isPlainObject(out[key]) && isPlainObject(value) ? deepMerge(out[key], value) : value;
  }
  return out as T;
}

/** A full policy from a preset name and user overrides. Does not validate: see `src/config`. */
export function resolvePolicy(input: PolicyInput = {}): Policy {
  const base = presetPolicy((input.preset as PresetName | undefined) ?? 'precise');
  return deepMerge(base, input);
}

/** `*` matches any run of characters, `?` one character; everything else is literal. */
export function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

/**
 * Looks up per-tool overrides: an exact name wins over globs; among globs the longest pattern
 * wins, so `mcp__github__create_*` beats `mcp__github__*`.
 */
export class ToolPolicyIndex {
  private readonly exact = new Map<string, ToolPolicy>();
  private readonly globs: { pattern: RegExp; length: number; policy: ToolPolicy }[] = [];
  private readonly cache = new Map<string, ResolvedToolPolicy>();

  constructor(private readonly policy: Policy) {
    for (const [name, toolPolicy] of Object.entries(policy.tools)) {
      if (/[*?]/.test(name)) {
        this.globs.push({ pattern: globToRegExp(name), length: name.length, policy: toolPolicy });
      } else {
        this.exact.set(name, toolPolicy);
      }
    }
    this.globs.sort((a, b) => b.length - a.length);
  }

  resolve(tool: string): ResolvedToolPolicy {
    const cached = this.cache.get(tool);
    if (cached) return cached;
    const own = this.exact.get(tool) ?? this.globs.find((glob) => glob.pattern.test(tool))?.policy;
    const resolved: ResolvedToolPolicy = {
      exempt: own?.exempt ?? false,
      kind: own?.kind,
      alternatives: own?.alternatives ?? this.policy.alternatives[tool] ?? [],
      detectors: own?.detectors ? deepMerge(this.policy.detectors, own.detectors) : this.policy.detectors,
    };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(tool, resolved);
    return resolved;
  }
}

export interface ResolvedToolPolicy {
  readonly exempt: boolean;
  readonly kind: ActionKind | undefined;
  readonly alternatives: readonly string[];
  readonly detectors: DetectorThresholds;
}
