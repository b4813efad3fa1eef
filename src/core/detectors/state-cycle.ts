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
import {
  isRecord,
  readCount,
  readEntries,
  readNumber,
  readPairs,
  readSnapshot,
  readString,
  readStrings,
} from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { times, withAlternatives } from './wording.js';

const NAME = 'state-cycle';
/** Files followed in one run; past this the workspace is taken as new, never as an old state. */
const MAX_FILES = 1_000;
/** Files whose last few edits and writes are remembered, to recognise an undo or a rewrite. */
const MAX_STEPPED_FILES = 200;
const STEPS_PER_FILE = 4;
/** Steps kept in saved state: texts this long at most, as hashes, never the texts themselves. */
const MAX_SAVED_TEXT = 2_048;
/** Longer texts are not remembered at all (their step leads to a new state): memory stays bounded. */
const MAX_REMEMBERED_TEXT = 8_192;
/** Failing commands remembered, each with the last few states it failed in. */
const MAX_COMMANDS = 1_000;
const STATES_PER_COMMAND = 8;
/** A file the run has not changed: its state is whatever it was, and counts for nothing. */
const UNCHANGED = '';
const VERSION = 1;

/**
 * An edit (`before` replaced by `after`) that led a file from one state to another, or a whole write
 * (`before` absent) that put `after` in it. Texts are compared as they are; a step read back from
 * saved state has only their hashes.
 */
interface Step {
  readonly from: string;
  readonly to: string;
  readonly before?: Text;
  readonly after: Text;
}

interface Text {
  readonly length: number;
  readonly text?: string;
  hash?: string;
}

/** Whether `text` is the remembered one, hashing only what is remembered as a hash. */
function sameText(known: Text | undefined, text: string): boolean {
  if (known === undefined || known.length !== text.length) return false;
  if (known.text !== undefined) return known.text === text;
  return known.hash === hashString(text);
}

function textOf(text: string): Text {
  return { length: text.length, text };
}

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
  const steps = new LruMap<Step[]>(MAX_STEPPED_FILES);
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

  function remember(target: string, step: Step): void {
    if (step.after.length > MAX_REMEMBERED_TEXT || (step.before?.length ?? 0) > MAX_REMEMBERED_TEXT) return;
    const list = steps.peek(target) ?? [];
    list.push(step);
    if (list.length > STEPS_PER_FILE) list.shift();
    steps.set(target, list);
  }

  /**
   * The state an edit leads to: the one it led to before from the same state, the state before an
   * edit it undoes (its texts swapped), or a new one. Texts are compared, never hashed, in a run.
   */
  function afterEdit(target: string, from: string, before: string, after: string): string {
    for (const step of steps.peek(target) ?? []) {
      if (step.before === undefined) continue;
      if (step.from === from && sameText(step.before, before) && sameText(step.after, after)) return step.to;
      if (step.to === from && sameText(step.before, after) && sameText(step.after, before)) return step.from;
    }
    const to = `e:${++fresh}`;
    remember(target, { from, to, before: textOf(before), after: textOf(after) });
    return to;
  }

  /** The state a whole write leads to: the one an earlier write of the same content led to, or a new one. */
  function afterWrite(target: string, content: string): string {
    for (const step of steps.peek(target) ?? []) {
      if (step.before === undefined && sameText(step.after, content)) return step.to;
    }
    const to = `w:${++fresh}`;
    remember(target, { from: UNCHANGED, to, after: textOf(content) });
    return to;
  }

  function followChange(call: CallContext): void {
    const { facts } = call;
    const kind = kindOf(call);
    // An edit of the file the editor has open names no file: which one changed is not followed.
    if (facts.targets.length === 0) {
      forgetFiles();
      return;
    }
    for (const target of facts.targets) {
      const before = files.get(target) ?? UNCHANGED;
      if (kind === 'delete') setState(target, 'deleted');
      else if (facts.replacesTarget && facts.writtenText !== undefined)
        setState(target, afterWrite(target, facts.writtenText));
      else if (
        kind === 'mutate' &&
        facts.targets.length === 1 &&
        facts.searchTexts?.length === 1 &&
        facts.writtenText !== undefined
      )
        setState(target, afterEdit(target, before, facts.searchTexts[0] as string, facts.writtenText));
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
      steps.clear();
      failed.clear();
      changes = 0;
    },

    snapshot(): unknown {
      return {
        version: VERSION,
        files: [...files.entries()],
        steps: steps
          .entries()
          .map(([target, list]) => [target, list.filter(isSavable).map(savedStep)] as const)
          .filter(([, list]) => list.length > 0),
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
      steps.clear();
      failed.clear();
      const snapshot = readSnapshot(state, VERSION);
      if (!snapshot) return;
      for (const [target, value] of readPairs(snapshot.files, MAX_FILES)) files.set(target, value);
      for (const [target, list] of readStepLists(snapshot.steps)) steps.set(target, list);
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

function isSavable(step: Step): boolean {
  return step.after.length <= MAX_SAVED_TEXT && (step.before?.length ?? 0) <= MAX_SAVED_TEXT;
}

/** Hashed once, when first saved. */
function savedText(text: Text): { length: number; hash: string } {
  text.hash ??= hashString(text.text ?? '');
  return { length: text.length, hash: text.hash };
}

function savedStep(step: Step) {
  return {
    from: step.from,
    to: step.to,
    ...(step.before && { before: savedText(step.before) }),
    after: savedText(step.after),
  };
}

function readText(value: unknown): Text | undefined {
  if (!isRecord(value)) return undefined;
  const length = readCount(value.length);
  const hash = readString(value.hash);
  return length === undefined || hash === undefined ? undefined : { length, hash };
}

function readStepLists(value: unknown): [string, Step[]][] {
  const out: [string, Step[]][] = [];
  for (const [target, raw] of readPairsOf(value, MAX_STEPPED_FILES)) {
    if (!Array.isArray(raw)) continue;
    const list: Step[] = [];
    for (const item of raw.slice(-STEPS_PER_FILE)) {
      if (!isRecord(item)) continue;
      const from = readString(item.from);
      const to = readString(item.to);
      const after = readText(item.after);
      const before = item.before === undefined ? undefined : readText(item.before);
      if (from === undefined || to === undefined || after === undefined) continue;
      if (item.before !== undefined && before === undefined) continue;
      list.push(before ? { from, to, before, after } : { from, to, after });
    }
    if (list.length > 0) out.push([target, list]);
  }
  return out;
}

function readPairsOf(value: unknown, limit: number): [string, unknown][] {
  if (!Array.isArray(value)) return [];
  const out: [string, unknown][] = [];
  for (const item of value.slice(-limit)) {
    if (Array.isArray(item) && typeof item[0] === 'string') out.push([item[0], item[1]]);
  }
  return out;
}
