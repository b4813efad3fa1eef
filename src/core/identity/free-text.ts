/**
 * Arguments that do not change what a call does: free text the model writes beside it (a shell
 * command's `description`, an `explanation`), which it rewrites on every retry. The tool declares
 * them (`annotations.narrowing.freeText`); a call is identified, described and compared without
 * them, so that a retry with new words is still the same call.
 */
import type { Proposal } from '../types.js';

const NONE: readonly string[] = [];

/**
 * The proposal's arguments without the free text its tool declares, nor what `undeclared` (the
 * adapter's reading) finds to be words about the call; the same object when there is none.
 */
export function withoutFreeText(
  proposal: Proposal,
  undeclared?: (args: Readonly<Record<string, unknown>>, inputSchema?: unknown) => readonly string[],
): Readonly<Record<string, unknown>> {
  const args = (proposal.args ?? {}) as Readonly<Record<string, unknown>>;
  const declared = proposal.annotations?.narrowing?.freeText ?? NONE;
  let out: Record<string, unknown> | undefined;
  try {
    const found = undeclared === undefined ? NONE : undeclared(args, proposal.inputSchema);
    if (declared.length === 0 && found.length === 0) return args;
    const fields = found.length === 0 ? declared : declared.length === 0 ? found : [...declared, ...found];
    for (const field of fields) {
      if (typeof field !== 'string' || !Object.hasOwn(args, field)) continue;
      out ??= { ...args };
      delete out[field];
    }
  } catch {
    // Arguments that cannot be read or copied: identified as they are, where they are bounded.
    return args;
  }
  return out ?? args;
}
