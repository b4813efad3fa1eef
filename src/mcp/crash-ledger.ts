import { identifyArguments } from '../core/identity/index.js';

/** A call the ledger watches while it runs. */
export interface WatchedCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** Why a call is held responsible for crashing the server. */
export interface CrashVerdict {
  /** How the server ended the second time ("exited with code 3"). */
  readonly exit: string;
}

/**
 * Which call brings the server down. Each time the server exits while calls are in flight, the
 * ledger notes their identities (tool and arguments, volatile values masked). A call is held
 * responsible when it was in flight at two crashes in a row and is the only call that was in flight
 * at both: one crash proves nothing (the server may have died of something else), and calls that
 * merely ran beside a crasher are never blamed. A call that completes normally is cleared.
 *
 * Identities are worked out only when they are needed (at a crash, and for calls that end while
 * the last crash is remembered), not for every call the server answers: a call's arguments are
 * not changed while it runs, so its identity is the same whenever it is taken.
 */
export class CrashLedger {
  private readonly running = new Set<WatchedCall>();
  /** The calls in flight at the last crash. */
  private lastCrash = new Set<string>();
  /** Calls held responsible, with how the server ended. */
  private readonly culprits = new Map<string, CrashVerdict>();

  /** A call starts; the returned function ends it (`completed` when the server answered it). */
  begin(call: WatchedCall): (completed: boolean) => void {
    // Its own entry, even when the same object is watched twice at once.
    const watched: WatchedCall = { tool: call.tool, args: call.args };
    this.running.add(watched);
    return (completed) => {
      this.running.delete(watched);
      if (completed && this.lastCrash.size > 0) this.lastCrash.delete(keyOf(watched));
    };
  }

  /** The server went down on its own (not closed by the proxy) with `exit` as the reason. */
  crashed(exit: string): void {
    const inFlight = new Set<string>();
    for (const call of this.running) inFlight.add(keyOf(call));
    const repeated = [...inFlight].filter((key) => this.lastCrash.has(key));
    const [culprit] = repeated;
    if (repeated.length === 1 && culprit !== undefined) this.culprits.set(culprit, { exit });
    this.lastCrash = inFlight;
  }

  /** Whether the call brought the server down twice in a row, and how. */
  culprit(call: WatchedCall): CrashVerdict | undefined {
    if (this.culprits.size === 0) return undefined;
    return this.culprits.get(keyOf(call));
  }
}

function keyOf(call: WatchedCall): string {
  return identifyArguments(call.tool, call.args).identity.callKey;
}

/** The error a call gets when it brought the server down twice in a row: the call is at fault. */
export class CallCrashedServerError extends Error {
  override readonly name = 'CallCrashedServerError';

  constructor(tool: string, verdict: CrashVerdict) {
    super(
      `${tool} crashed the MCP server twice in a row with these arguments (the server ${verdict.exit}); ` +
        'the same call will be refused: change the arguments or take another approach',
    );
  }
}
