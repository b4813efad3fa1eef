/**
 * Whether two proposals describe the same call in every field the engine reads: the tool, the
 * arguments (equal as JSON values, keys in the same order), the step, the call id and the same
 * annotations and input schema. An outcome converted afresh from the call that was checked carries
 * such a proposal, and the engine then reuses what it worked out at the check.
 */
import type { Proposal } from './types.js';

/** Deeper values than this are not compared: the proposals are then taken to differ. */
const MAX_DEPTH = 8;

export function sameProposal(a: Proposal, b: Proposal): boolean {
  return (
    a.tool === b.tool &&
    a.step === b.step &&
    a.callId === b.callId &&
    a.annotations === b.annotations &&
    a.inputSchema === b.inputSchema &&
    sameValue(a.args, b.args, 0)
  );
}

function sameValue(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth >= MAX_DEPTH) {
    return false;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) {
      if (!sameValue(a[index], b[index], depth + 1)) return false;
    }
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (key !== otherKeys[index]) return false;
    if (!sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)) {
      return false;
    }
  }
  return true;
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
