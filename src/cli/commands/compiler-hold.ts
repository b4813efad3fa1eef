/**
 * Keeps V8's optimising compiler (TurboFan) off for the first calls a command-line process checks,
 * and turns it back on after them. A fresh process spends most of its first hundred calls compiling
 * the guard's hottest functions at that tier on V8's threads, CPU that a replay of a short trace
 * never wins back; a long one gets its optimised code a hundred calls later, which costs it next to
 * nothing (see docs/guard.md, "A process that starts often").
 *
 * The compiler is on again before the process exits, so that a code cache written at exit is made
 * under the flags this Node starts with, which V8 checks when the next process reads it.
 */

/** Calls checked before the optimising compiler is turned back on. */
export const HELD_CALLS = 100;

export interface CompilerHold {
  /** One call checked. */
  readonly step: () => void;
  /** Turns the compiler back on, if this hold turned it off. Safe to call more than once. */
  readonly release: () => void;
}

/** Sets V8's flags (`v8.setFlagsFromString`). */
export type SetV8Flags = (flags: string) => void;

/**
 * Holds the optimising compiler for `calls` calls. Does nothing when an option of this process names
 * a tier of V8's compilers (the user chose them) or V8's flags cannot be set.
 */
export function holdOptimisingCompiler(
  calls = HELD_CALLS,
  setFlags: SetV8Flags | undefined = processFlagSetter(),
  options: string = processOptions(),
): CompilerHold {
  if (setFlags === undefined || namesACompilerTier(options)) return { step: () => {}, release: () => {} };
  let held = false;
  try {
    setFlags('--no-turbofan');
    held = true;
  } catch {
    // A Node whose V8 has no such flag: nothing is held.
  }
  let left = calls;
  const release = () => {
    if (!held) return;
    held = false;
    setFlags('--turbofan');
  };
  return {
    step: () => {
      if (held && --left <= 0) release();
    },
    release,
  };
}

function processFlagSetter(): SetV8Flags | undefined {
  try {
    const v8 = process.getBuiltinModule('node:v8');
    return (flags) => v8.setFlagsFromString(flags);
  } catch {
    return undefined;
  }
}

/** The options this process's Node runs with: its own and `NODE_OPTIONS`. */
function processOptions(): string {
  return `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
}

function namesACompilerTier(options: string): boolean {
  return /(?:^|\s)--(?:no-)?(?:turbofan|opt|max-opt|jitless|lite-mode|lite_mode|maglev|sparkplug|always-sparkplug)(?:[=\s]|$)/.test(
    options,
  );
}
