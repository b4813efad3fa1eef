/**
 * Where a learned constraint holds. The engine's context names the place it works in (repository,
 * host, GPU, model, …); a constraint keeps only the dimensions that matter for its kind, so a fact
 * about a file follows the repository to every agent working on it, while an out-of-memory ban
 * follows the GPU and the model, and stays off other GPUs. A dimension no rule names matters to
 * every constraint.
 */
import type { ConstraintScope } from './types.js';

/** Which context dimensions each kind of constraint keeps. */
export interface SharingPolicy {
  /** One failed call (a command, an API call). */
  call: string[];
  /** A fact about a target (a file does not exist, already exists, lacks a text). */
  target: string[];
  /** An approach that failed on several targets. */
  strategy: string[];
  /** A region of parameters (resources, hyperparameters: an OOM at depth ≥ 8). */
  parameter: string[];
  /** Added to call and target constraints that name an absolute path: such paths are local. */
  absolutePaths: string[];
}

export const DEFAULT_SHARING: SharingPolicy = {
  call: ['repository'],
  target: ['repository'],
  strategy: ['repository'],
  parameter: ['gpu', 'model'],
  absolutePaths: ['host'],
};

type Context = Readonly<Record<string, string>>;

/** The part of `context` a constraint of this kind carries; `undefined` when none of it does. */
export function scopedContext(
  kind: ConstraintScope,
  context: Context,
  sharing: SharingPolicy,
  targets: readonly string[] = [],
): Record<string, string> | undefined {
  const keys = Object.keys(context);
  if (keys.length === 0) return undefined;
  const local = (kind === 'call' || kind === 'target') && targets.some(namesAbsolutePath);
  const named = new Set([
    ...sharing.call,
    ...sharing.target,
    ...sharing.strategy,
    ...sharing.parameter,
    ...sharing.absolutePaths,
  ]);
  const kept: Record<string, string> = {};
  let any = false;
  for (const key of keys.sort()) {
    const wanted =
      !named.has(key) || sharing[kind].includes(key) || (local && sharing.absolutePaths.includes(key));
    if (wanted) {
      kept[key] = context[key] as string;
      any = true;
    }
  }
  return any ? kept : undefined;
}

/** A constraint holds here when every dimension it was learned in has the same value here. */
export function contextMatches(theirs: Context | undefined, ours: Context): boolean {
  if (!theirs) return true;
  for (const key in theirs) {
    if (ours[key] !== theirs[key]) return false;
  }
  return true;
}

/** `repository github.com/acme/api, gpu L4`: where a constraint holds, for people and models. */
export function describeContext(context: Context | undefined): string {
  if (!context) return '';
  return Object.entries(context)
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
}

/** A path from the root of a file system (`/srv/x`, `~/x`, `C:\x`), alone or inside a command. */
/** Whether a target names an absolute path, which holds only on the host it was learned on. */
export function namesAbsolutePath(target: string): boolean {
  return /(^|[\s='"])(\/|~\/|[A-Za-z]:[\\/])/.test(target);
}
