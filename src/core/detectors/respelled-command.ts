/**
 * One command, spelled again. Two spellings of one command line that differ only in how it is said
 * (its options in another order, a variable that only tunes it set before it, its program run
 * through a runner or an interpreter's `-m`: `pytest -x tests/a.py`, `python -m pytest tests/a.py
 * -x`, `PYTHONPATH=. pytest -x tests/a.py`) share the adapter's respelling key
 * (`CallFacts.respellingKey`). Once two such spellings failed in a row with an error of one shape,
 * the spelling is shown not to matter: any further spelling of it is blocked until something
 * changes. A spelling that failed itself is the
 * identical-failure rule's to judge; another error's shape, or a success that may have changed the
 * world (an edit, an install, a checkout), starts over.
 *
 * What it keeps is hashes only (keys, spellings, shapes): the session's run state holds no command
 * and no error in clear.
 */
import { provesAgentFault } from '../blame-proof.js';
import { hashString } from '../identity/index.js';
import type { ActionKind, Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { deferredShape } from './error-shape.js';
import { isHash, readCount, readEntries, readHash, readHashes, readSnapshot } from './restore.js';
import { MAX_RUN_FAILURES, MAX_RUN_SPELLINGS, runAfter, type SpellingRun } from './spelling-runs.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt } from './wording.js';

const NAME = 'respelled-command';
const VERSION = 1;
/** Commands remembered. */
const MAX_KEYS = 64;
/** Spellings that failed alike, in a row, before the next spelling is blocked. */
const SPELLINGS = 2;

/** Successes that cannot have changed what a command runs on. */
const ASKING: ReadonlySet<ActionKind> = new Set(['read', 'search', 'poll']);

/** The spellings (their ban keys) that failed in a row under a key, each with an error of one shape. */
interface Respellings extends SpellingRun {
  /**
   * The hash of the last error's shape, worked out when first asked for: a failure is shaped only
   * once another under its key is compared with it.
   */
  readonly shape: () => string;
  /**
   * The last failure as this process saw it (its error as kept, credentials taken out, quoted only
   * when a block shows it); one read from a snapshot has none.
   */
  readonly seen?: { readonly error: string; readonly description: string };
}

export function createRespelledCommandDetector(): Detector {
  const commands = new LruMap<Respellings>(MAX_KEYS);

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const respelling = call.facts.respellingKey;
      if (
        commands.size === 0 ||
        respelling === undefined ||
        !isWatched(call, call.toolPolicy.detectors.respelledCommand)
      )
        return undefined;
      const earlier = commands.peek(hashString(respelling));
      if (earlier === undefined || earlier.spellings.length < SPELLINGS) return undefined;
      // The very spelling that failed is the identical-failure rule's to judge.
      if (earlier.spellings.includes(hashString(call.banKey))) return undefined;
      return describe(call, earlier);
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      if (outcome.success) {
        if (commands.size > 0 && !ASKING.has(kindOf(call))) commands.clear();
        return;
      }
      const respelling = call.facts.respellingKey;
      // A failure the guard cannot blame on the agent says nothing about how it spelled the command.
      if (respelling === undefined || !provesAgentFault(outcome.failure)) return;
      const key = hashString(respelling);
      const shape = shapeHashOf(outcome);
      const spelling = hashString(call.banKey);
      const earlier = commands.peek(key);
      const alike = earlier !== undefined && earlier.shape() === shape();
      commands.set(key, {
        shape,
        ...runAfter(earlier, alike, spelling),
        seen: { error: outcome.text, description: call.description },
      });
    },

    reset(): void {
      // The user may have changed what the command runs on, or asked for it again.
      commands.clear();
    },

    compacted(): void {
      // The agent no longer has the errors it was shown.
      commands.clear();
    },

    changedOutside(): void {
      commands.clear();
    },

    snapshot(): unknown {
      return {
        version: VERSION,
        commands: commands
          .entries()
          .map(([key, { shape, spellings, failures }]) => [key, { shape: shape(), spellings, failures }]),
      };
    },

    restore(state: unknown): void {
      commands.clear();
      const snapshot = readSnapshot(state, VERSION);
      for (const [key, respellings] of readEntries(snapshot?.commands, MAX_KEYS, readRespellings)) {
        if (isHash(key)) commands.set(key, respellings);
      }
    },
  };
}

function readRespellings(value: Record<string, unknown>): Respellings | undefined {
  const shape = readHash(value.shape);
  const spellings = readHashes(value.spellings, MAX_RUN_SPELLINGS);
  if (shape === undefined || spellings === undefined || spellings.length === 0) return undefined;
  const failures = readCount(value.failures);
  if (failures === undefined || failures < 1 || failures > MAX_RUN_FAILURES) return undefined;
  return { shape: () => shape, spellings, failures };
}

/** The hash of the outcome's error shape, worked out on the first call of the function returned. */
function shapeHashOf(outcome: ObservedOutcome): () => string {
  const shape = deferredShape(outcome);
  let hash: string | undefined;
  return () => {
    hash ??= hashString(shape());
    return hash;
  };
}

function describe(call: CallContext, earlier: Respellings): Violation {
  const error = earlier.seen === undefined ? undefined : excerpt(earlier.seen.error);
  const failed = error === undefined ? 'failed the same way' : `failed the same way ("${error}")`;
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} runs again a command that ${failed} ${earlier.failures} times in a row, ` +
      `spelled ${earlier.spellings.length} ways (options in another order, a tuning variable set before ` +
      'it, run through a runner): how it is spelled does not change what it does, and nothing has changed since.',
    suggestion:
      'Change what the command runs on (the code, the configuration, its operands) or read the error ' +
      'again for what it asks, instead of spelling the same command another way.',
    evidence: {
      count: earlier.failures,
      calls: earlier.seen === undefined ? [] : [earlier.seen.description],
      ...(error !== undefined && { lastError: error }),
    },
  };
}
