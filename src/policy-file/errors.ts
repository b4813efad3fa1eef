import type { z } from 'zod';
import { NarrowingError } from '../core/errors.js';

/** A policy that cannot be used. `problems` holds one sentence per problem, without the source. */
export class PolicyError extends NarrowingError {
  override readonly name = 'PolicyError';

  constructor(
    readonly problems: readonly string[],
    readonly source?: string,
  ) {
    super(
      'POLICY_INVALID',
      problems.map((problem) => (source ? `${source}: ${problem}` : problem)).join('\n'),
    );
  }
}

/** `learning.radius.curve[0]`, `tools["mcp__github__*"].kind`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** How a value is quoted back to the user: short, and never a whole nested document. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'a mapping';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The closest known name, when it is close enough to be a typo of it. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  const tolerance = Math.max(1, Math.floor(name.length / 3));
  return best && best.distance <= tolerance ? best.candidate : undefined;
}

function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: unknown = schema;
  for (const key of path) {
    current = unwrap(current);
    const def = (current as { def?: { type?: string; shape?: Record<string, unknown>; valueType?: unknown } })
      .def;
    if (def?.type === 'object' && typeof key === 'string') current = def.shape?.[key];
    else if (def?.type === 'record') current = def.valueType;
    else return [];
  }
  const def = (unwrap(current) as { def?: { type?: string; shape?: Record<string, unknown> } }).def;
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

function unwrap(schema: unknown): unknown {
  let current = schema as { def?: { type?: string; innerType?: unknown } } | undefined;
  while (current?.def?.type === 'optional' || current?.def?.type === 'default')
    current = current.def.innerType as never;
  return current;
}

/** One plain sentence per zod issue, naming the field, what it accepts and what it got. */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  schema: z.ZodType,
): string[] {
  const problems: string[] = [];
  for (const issue of issues) {
    const where = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, issue.path).filter((key) => !key.startsWith('$'));
      for (const key of issue.keys) {
        const place = where ? `in ${where}` : 'at the top level';
        const suggestion = closestName(key, known);
        const hint = suggestion
          ? ` — did you mean "${suggestion}"?`
          : known.length > 0
            ? ` (known fields: ${known.join(', ')})`
            : '';
        problems.push(`unknown field "${key}" ${place}${hint}`);
      }
      continue;
    }
    if (issue.code === 'invalid_key') {
      const key = issue.path[issue.path.length - 1];
      const container = formatPath(issue.path.slice(0, -1));
      const expected = issue.issues[0]?.message ?? 'a valid name';
      problems.push(`every key in ${container} must be ${expected} (got ${describeValue(key)})`);
      continue;
    }
    const value = valueAt(input, issue.path);
    const subject = where || 'the policy';
    problems.push(`${subject} must be ${issue.message} (got ${describeValue(value)})`);
  }
  return problems;
}
