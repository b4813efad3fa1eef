/**
 * The state of the workspace as the cycle detector sees it: a fingerprint that follows each change
 * the run makes, and comes back to an earlier value when the files come back to an earlier state.
 *
 * The state of each file is followed through the run: a whole write is its content, an edit leads
 * from one state to the next, and the edit that undoes another (its texts swapped) leads back to
 * the state before it. A command with unknown effects makes the workspace new, since nobody knows
 * what it wrote; so does anything this cannot follow, and a file written again with the very text it
 * is followed as holding (the agent would not write it unless it saw other text there).
 *
 * Memory is bounded: at most 1,000 files followed, the last 4 steps of 200 files remembered, texts
 * of at most 8 KiB kept (longer ones lead to a new state), and saved as hashes of at most 2 KiB texts.
 */
import { hashLanes, hashString } from '../identity/index.js';
import { kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { isRecord, readCount, readNumber, readPairs, readString } from './restore.js';
import type { CallContext } from './types.js';

/** Files followed in one run; past this the workspace is taken as new, never as an old state. */
const MAX_FILES = 1_000;
/** Files whose last few edits and writes are remembered, to recognise an undo or a rewrite. */
const MAX_STEPPED_FILES = 200;
const STEPS_PER_FILE = 4;
/** Steps kept in saved state: texts this long at most, as hashes, never the texts themselves. */
const MAX_SAVED_TEXT = 2_048;
/** Longer texts are not remembered at all (their step leads to a new state): memory stays bounded. */
const MAX_REMEMBERED_TEXT = 8_192;
/** A file the run has not changed: its state is whatever it was, and counts for nothing. */
const UNCHANGED = '';

/**
 * An edit (`before` replaced by `after`) that led a file from one state to another, or a whole write
 * (`before` absent) that put `after` in it. Texts are compared as they are; a step read back from
 * saved state has only their hashes.
 */
interface Change {
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

export interface WorkspaceStates {
  /** The workspace as it is now: equal to an earlier value when the files are as they were then. */
  fingerprint(): string;
  /** How many changes the run has made. */
  readonly changes: number;
  /** A successful call that changed the world. */
  changed(call: CallContext): void;
  /** A new session: files it has not followed. */
  clear(): void;
  snapshot(): unknown;
  restore(state: unknown): void;
}

export function createWorkspaceStates(): WorkspaceStates {
  const files = new Map<string, string>();
  const changesByFile = new LruMap<Change[]>(MAX_STEPPED_FILES);
  // Two 32-bit lanes XORed over the files the run changed, so that the fingerprint follows each
  // change in O(1) whatever the order of the changes.
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

  /** `held`: what `files` holds for `target`, read by the caller, which changed nothing since. */
  function setState(target: string, state: string, held: string | undefined): void {
    const before = held ?? UNCHANGED;
    if (before === state) return;
    if (held === undefined && files.size >= MAX_FILES) {
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

  function remember(target: string, change: Change): void {
    if (change.after.length > MAX_REMEMBERED_TEXT || (change.before?.length ?? 0) > MAX_REMEMBERED_TEXT)
      return;
    const list = changesByFile.peek(target) ?? [];
    list.push(change);
    if (list.length > STEPS_PER_FILE) list.shift();
    changesByFile.set(target, list);
  }

  /**
   * The state an edit leads to: the one it led to before from the same state, the state before an
   * edit it undoes (its texts swapped), or a new one. Texts are compared, never hashed, in a run.
   */
  function afterEdit(target: string, from: string, before: string, after: string): string {
    for (const change of changesByFile.peek(target) ?? []) {
      if (change.before === undefined) continue;
      if (change.from === from && sameText(change.before, before) && sameText(change.after, after))
        return change.to;
      if (change.to === from && sameText(change.before, after) && sameText(change.after, before))
        return change.from;
    }
    const to = `e:${++fresh}`;
    remember(target, { from, to, before: textOf(before), after: textOf(after) });
    return to;
  }

  /** The state a whole write leads to: the one an earlier write of the same content led to, or a new one. */
  function afterWrite(target: string, content: string): string {
    for (const change of changesByFile.peek(target) ?? []) {
      if (change.before === undefined && sameText(change.after, content)) return change.to;
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
      // The edits and writes followed below read other memories: what `files` holds stays as read.
      const held = files.get(target);
      const before = held ?? UNCHANGED;
      if (kind === 'delete') setState(target, 'deleted', held);
      else if (facts.replacesTarget && facts.writtenText !== undefined) {
        // Written again with the text it is followed as holding: the agent writes that only when it
        // sees the file hold something else (a tool that rewrote what it was given), so what the
        // file holds now is not known.
        const state = afterWrite(target, facts.writtenText);
        setState(target, state === held ? `u:${++fresh}` : state, held);
      } else if (
        kind === 'mutate' &&
        facts.targets.length === 1 &&
        facts.searchTexts?.length === 1 &&
        facts.writtenText !== undefined
      )
        setState(target, afterEdit(target, before, facts.searchTexts[0] as string, facts.writtenText), held);
      else setState(target, `u:${++fresh}`, held);
    }
  }

  return {
    fingerprint(): string {
      return `${epoch}:${high >>> 0}:${low >>> 0}`;
    },

    get changes(): number {
      return changes;
    },

    changed(call: CallContext): void {
      changes++;
      const kind = kindOf(call);
      // A command that changed something (even only build outputs) leaves a workspace nobody can
      // compare with an earlier one.
      if (kind === 'mutate' || kind === 'create' || kind === 'delete') followChange(call);
      else forgetFiles();
    },

    clear(): void {
      forgetFiles();
      changesByFile.clear();
      changes = 0;
    },

    snapshot(): unknown {
      return {
        files: [...files.entries()],
        steps: changesByFile
          .entries()
          .map(([target, list]) => [target, list.filter(isSavable).map(savedChange)] as const)
          .filter(([, list]) => list.length > 0),
        high,
        low,
        epoch,
        changes,
        fresh,
      };
    },

    restore(state: unknown): void {
      forgetFiles();
      changesByFile.clear();
      changes = 0;
      if (!isRecord(state)) return;
      for (const [target, value] of readPairs(state.files, MAX_FILES)) files.set(target, value);
      for (const [target, list] of readChangeLists(state.steps)) changesByFile.set(target, list);
      high = readNumber(state.high) ?? 0;
      low = readNumber(state.low) ?? 0;
      // Files dropped while reading would leave the lanes wrong: start a new epoch then.
      epoch = (readCount(state.epoch) ?? 0) + (files.size === countPairs(state.files) ? 0 : 1);
      changes = readCount(state.changes) ?? 0;
      fresh = readCount(state.fresh) ?? 0;
    },
  };
}

function countPairs(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

function isSavable(change: Change): boolean {
  return change.after.length <= MAX_SAVED_TEXT && (change.before?.length ?? 0) <= MAX_SAVED_TEXT;
}

/** Hashed once, when first saved. */
function savedText(text: Text): { length: number; hash: string } {
  text.hash ??= hashString(text.text ?? '');
  return { length: text.length, hash: text.hash };
}

function savedChange(change: Change) {
  return {
    from: change.from,
    to: change.to,
    ...(change.before && { before: savedText(change.before) }),
    after: savedText(change.after),
  };
}

function readText(value: unknown): Text | undefined {
  if (!isRecord(value)) return undefined;
  const length = readCount(value.length);
  const hash = readString(value.hash);
  return length === undefined || hash === undefined ? undefined : { length, hash };
}

function readChangeLists(value: unknown): [string, Change[]][] {
  const out: [string, Change[]][] = [];
  if (!Array.isArray(value)) return out;
  for (const item of value.slice(-MAX_STEPPED_FILES)) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || !Array.isArray(item[1])) continue;
    const list: Change[] = [];
    for (const raw of item[1].slice(-STEPS_PER_FILE)) {
      if (!isRecord(raw)) continue;
      const from = readString(raw.from);
      const to = readString(raw.to);
      const after = readText(raw.after);
      const before = raw.before === undefined ? undefined : readText(raw.before);
      if (from === undefined || to === undefined || after === undefined) continue;
      if (raw.before !== undefined && before === undefined) continue;
      list.push(before ? { from, to, before, after } : { from, to, after });
    }
    if (list.length > 0) out.push([item[0], list]);
  }
  return out;
}
