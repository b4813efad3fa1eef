/**
 * Flip-flops: edits that bring the files back to a state in which a command already failed, then
 * the same command again. Each edit is a change, so the command's ban is relieved each time; but
 * the workspace is what it was when the command failed, and the command fails the same way.
 *
 * The state of each file is followed through the run: a whole write is its content, an edit leads
 * from one state to the next, and the edit that undoes another (its texts swapped) leads back to
 * the state before it. A command with unknown effects makes the workspace new, since nobody knows
 * what it wrote; so does anything this detector cannot follow.
 */
import { hashLanes, hashString } from '../identity/index.js';
import type { Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { readCount, readEntries, readNumber, readSnapshot, readString, readStrings } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { times, withAlternatives } from './wording.js';

const NAME = 'state-cycle';
/** Files followed in one run; past this the workspace is taken as new, never as an old state. */
const MAX_FILES = 1_000;
/** Edits remembered with the state they lead to, and their undoing. */
const MAX_TRANSITIONS = 2_000;
/** Failing commands remembered, each with the last few states it failed in. */
const MAX_COMMANDS = 1_000;
const STATES_PER_COMMAND = 8;
/** A file the run has not changed: its state is whatever it was, and counts for nothing. */
const UNCHANGED = '';
const VERSION = 1;

interface Failed {
  /** Fingerprints of the workspace when the command failed. */
  readonly states: string[];
  /** How many changes the run had made when it last failed: a block needs a change since. */
  changesAtLastFailure: number;
  failures: number;
  signature: string;
  lastError: string;
}

export function createStateCycleDetector(): Detector {
  const files = new Map<string, string>();
  const transitions = new LruMap<string>(MAX_TRANSITIONS);
  const failed = new LruMap<Failed>(MAX_COMMANDS);
  // The workspace fingerprint: two 32-bit lanes XORed over the files the run changed, so that it
  // follows each change in O(1) whatever the order of the changes.
  let high = 0;
  let low = 0;
  /** Bumped when the workspace changed in a way nobody can follow. */
  let epoch = 0;
  let changes = 0;
  let fresh = 0;

  function toggle(target: string, state: string): void {
    if (state === UNCHANGED) return;
    const lanes = hashLanes(`${target}\u0000${state}`);
    high ^= lanes.high;
    low ^= lanes.low;
  }

  function setState(target: string, state: string): void {
    const before = files.get(target) ?? UNCHANGED;
    if (before === state) return;
    if (!files.has(target) && files.size >= MAX_FILES) {
      forgetFiles();
      return;
    }
    toggle(target, before);
    toggle(target, state);
    files.set(target, state);
  }

  function forgetFiles(): void {
    files.clear();
    high = 0;
    low = 0;
    epoch++;
  }

  function fingerprint(): string {
    return `${epoch}:${high >>> 0}:${low >>> 0}`;
  }

  /** The state an edit leads to from `from`; the swapped edit is remembered as leading back. */
  function afterEdit(from: string, oldText: string, newText: string): string {
    const forward = `${hashString(oldText)}>${hashString(newText)}`;
    const known = transitions.peek(`${from}|${forward}`);
    if (known !== undefined) return known;
    const next = `e:${hashString(`${from}|${forward}`)}`;
    transitions.set(`${from}|${forward}`, next);
    transitions.set(`${next}|${hashString(newText)}>${hashString(oldText)}`, from);
    return next;
  }

  function followChange(call: CallContext): void {
    const { facts } = call;
    const kind = kindOf(call);
    for (const target of facts.targets) {
      const before = files.get(target) ?? UNCHANGED;
      if (kind === 'delete') setState(target, 'deleted');
      else if (facts.replacesTarget && facts.writtenText !== undefined)
        setState(target, `w:${hashString(facts.writtenText)}`);
      else if (
        kind === 'mutate' &&
        facts.targets.length === 1 &&
        facts.searchTexts?.length === 1 &&
        facts.writtenText !== undefined
      )
        setState(target, afterEdit(before, facts.searchTexts[0] as string, facts.writtenText));
      else setState(target, `u:${++fresh}`);
    }
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      if (kindOf(call) !== 'exec' || !isWatched(call, call.toolPolicy.detectors.stateCycle)) return undefined;
      const earlier = failed.peek(call.banKey);
      if (!earlier || earlier.changesAtLastFailure === changes) return undefined;
      return earlier.states.includes(fingerprint()) ? describe(call, earlier) : undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome) || !isWatched(call, call.toolPolicy.detectors.stateCycle)) return;
      const kind = kindOf(call);
      if (outcome.success) {
        // It can succeed: whatever state it failed in before is no evidence any more.
        if (kind === 'exec') failed.delete(call.banKey);
        if (!outcome.changedWorld) return;
        changes++;
        // A command that changed something (even only build outputs) leaves a workspace nobody
        // can compare with an earlier one.
        if (kind === 'exec') forgetFiles();
        else if (kind === 'mutate' || kind === 'create' || kind === 'delete') followChange(call);
        else forgetFiles();
        return;
      }
      if (kind !== 'exec' || outcome.failure?.blame !== 'agent_failure') return;
      const state = fingerprint();
      const earlier = failed.peek(call.banKey);
      if (earlier) {
        if (!earlier.states.includes(state)) earlier.states.push(state);
        if (earlier.states.length > STATES_PER_COMMAND) earlier.states.shift();
        earlier.changesAtLastFailure = changes;
        earlier.failures++;
        earlier.signature = outcome.failure.signature;
        earlier.lastError = outcome.text.slice(0, 160);
      } else {
        failed.set(call.banKey, {
          states: [state],
          changesAtLastFailure: changes,
          failures: 1,
          signature: outcome.failure.signature,
          lastError: outcome.text.slice(0, 160),
        });
      }
    },

    // What the files are does not depend on who asked: a new user message keeps the states, and a
    // new session starts from files it has not followed.
    reset(reason): void {
      if (reason !== 'session') return;
      forgetFiles();
      transitions.clear();
      failed.clear();
      changes = 0;
    },

    snapshot(): unknown {
      return {
        version: VERSION,
        files: [...files.entries()],
        transitions: transitions.entries(),
        // Error texts stay out of saved state; the reason then quotes none.
        failed: failed
          .entries()
          .map(([key, value]) => [key, { ...value, states: [...value.states], lastError: '' }] as const),
        high,
        low,
        epoch,
        changes,
        fresh,
      };
    },

    restore(state: unknown): void {
      forgetFiles();
      transitions.clear();
      failed.clear();
      const snapshot = readSnapshot(state, VERSION);
      if (!snapshot) return;
      for (const [target, value] of readPairs(snapshot.files, MAX_FILES)) files.set(target, value);
      for (const [key, value] of readPairs(snapshot.transitions, MAX_TRANSITIONS))
        transitions.set(key, value);
      for (const [key, value] of readEntries(snapshot.failed, MAX_COMMANDS, readFailed))
        failed.set(key, value);
      high = readNumber(snapshot.high) ?? 0;
      low = readNumber(snapshot.low) ?? 0;
      // Files dropped while reading would leave the lanes wrong: start a new epoch then.
      epoch = (readCount(snapshot.epoch) ?? 0) + (files.size === countPairs(snapshot.files) ? 0 : 1);
      changes = readCount(snapshot.changes) ?? 0;
      fresh = readCount(snapshot.fresh) ?? 0;
    },
  };
}

function describe(call: CallContext, earlier: Failed): Violation {
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} failed ${times(earlier.failures)} with ${earlier.signature}, once with the files ` +
      'exactly as they are now: the edits since have only brought them back to that state.' +
      (earlier.lastError === '' ? '' : ` Last error: ${earlier.lastError.replace(/\s+/g, ' ').trim()}`),
    suggestion: withAlternatives(
      'Undoing and redoing the same edits goes round in a circle. Make a change not tried yet, or read the error again for what it asks for.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: earlier.failures, calls: [call.description] },
  };
}

function readPairs(value: unknown, limit: number): [string, string][] {
  if (!Array.isArray(value)) return [];
  const out: [string, string][] = [];
  for (const item of value.slice(-limit)) {
    if (Array.isArray(item) && typeof item[0] === 'string' && typeof item[1] === 'string')
      out.push([item[0], item[1]]);
  }
  return out;
}

function countPairs(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

function readFailed(raw: Record<string, unknown>): Failed | undefined {
  const signature = readString(raw.signature);
  const failures = readCount(raw.failures);
  const changesAtLastFailure = readCount(raw.changesAtLastFailure);
  const states = readStrings(raw.states, STATES_PER_COMMAND);
  if (signature === undefined || failures === undefined || changesAtLastFailure === undefined)
    return undefined;
  if (states.length === 0) return undefined;
  return { states, failures, changesAtLastFailure, signature, lastError: readString(raw.lastError) ?? '' };
}
