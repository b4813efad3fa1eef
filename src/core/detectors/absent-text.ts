/**
 * An edit whose text is not in the file as the agent last read it, while nothing has changed the
 * file since: the edit tool will answer "not found". This is certain rather than predicted, so it
 * blocks — but only on evidence that cannot mislead. The check is line by line on collapsed
 * whitespace, so line-number prefixes, re-indentation and CRLF in a read result never make it fire
 * on text that is really there; partial, truncated or wrapped reads are not trusted at all; and a
 * command with unknown effects (a formatter, `sed -i`) makes it forget every file. A test run or a
 * build, which writes only outputs, forgets nothing. An editor refusing an edit because the file
 * changed since it was read (another writer) makes it forget that file until it is read whole again.
 */
import type { Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt } from './wording.js';

const NAME = 'absent-text';
const MAX_FILES = 64;
const MAX_FILE_CHARS = 256 * 1024;
/** Lines shorter than this say too little to be sure of ("}", ");"). */
const MIN_LINE = 3;
const TRUNCATED =
  /truncat|clipped|lines? omitted|more lines|too (?:large|long)|\[\.\.\.|\.\.\. \(\d|…\s*$|\blines? \d+\s*(?:-|–|to)\s*\d+ of \d+|\bshowing (?:the )?(?:first )?\d+/i;
/**
 * A line an output limit put in place of what it cut out, anywhere in the result: `[... 1234
 * characters truncated ...]`, `[... omitted 40 of 900 lines ...]`, `<truncated 12 lines>`.
 */
const CUT_MARKER =
  /^[ \t[(<{*#/-]*(?:\.\.\.|…)?[^\n]{0,40}\b(?:truncated|omitted|clipped|elided)\b[^\n]{0,80}$/im;
/**
 * Read tools of coding agents return at most 2,000 lines unless asked for more, sometimes without a
 * word: a longer answer may not be the whole file.
 */
const MAX_LINES = 1_000;

interface Seen {
  /** The content as read; collapsed only when an edit of the file is checked, which is rarer. */
  raw: string;
  /** The content with every run of whitespace collapsed to one space, once computed. */
  collapsed?: string;
  /** Whether the read is plainly the whole file, once judged (at the first check, not every read). */
  trusted?: boolean;
  /** The proposal count when it was read, to say how long ago. */
  readonly at: number;
  /**
   * Earlier versions of the file, newest first, when `raw` is what exact replacements made of what
   * was read: text is taken as absent only when it is in none of them, so an edit the tool reported
   * but did not make (or made differently) can never make this fire.
   */
  readonly earlier?: readonly string[];
}

/** Versions of one file kept besides the newest. */
const MAX_EARLIER = 3;

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Only a result that is plainly the whole file, as text, is worth remembering. */
function trustworthy(content: string): boolean {
  if (content.length === 0 || content.length > MAX_FILE_CHARS) return false;
  let lines = 1;
  for (let at = content.indexOf('\n'); at >= 0 && lines <= MAX_LINES; at = content.indexOf('\n', at + 1))
    lines++;
  if (lines > MAX_LINES) return false;
  if (TRUNCATED.test(content.slice(-400)) || TRUNCATED.test(content.slice(0, 400))) return false;
  // An output limit that kept the head and the tail cut out the middle.
  if (CUT_MARKER.test(content)) return false;
  // A result wrapped in JSON escapes its quotes and newlines: the file's lines would not appear.
  const wrapped = /^\s*[[{]/.test(content) && !content.includes('\n') && content.includes('\\n');
  return !wrapped && !content.includes('\u0000');
}

export function createAbsentTextDetector(): Detector {
  const files = new LruMap<Seen>(MAX_FILES);
  /** Files an edit failed on, with nothing changing them since: the next absent text there blocks. */
  const failedEdits = new LruMap<true>(MAX_FILES);
  let proposals = 0;

  function remember(target: string, content: string): void {
    if (content.length > 0 && content.length <= MAX_FILE_CHARS)
      files.set(target, { raw: content, at: proposals });
    else files.delete(target);
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const { facts } = call;
      if (!isWatched(call, call.toolPolicy.detectors.absentText) || kindOf(call) !== 'mutate')
        return undefined;
      if (!facts.searchTexts || facts.targets.length !== 1) return undefined;
      const target = facts.targets[0] as string;
      const seen = files.peek(target);
      if (!seen) return undefined;
      seen.trusted ??= trustworthy(seen.raw);
      if (!seen.trusted) return undefined;
      seen.collapsed ??= collapse(seen.raw);
      const content = seen.collapsed;
      const earlier = seen.earlier?.map(collapse) ?? [];
      for (const text of facts.searchTexts) {
        for (const line of text.split('\n')) {
          const wanted = collapse(line);
          if (
            wanted.length >= MIN_LINE &&
            !content.includes(wanted) &&
            !earlier.some((version) => version.includes(wanted))
          )
            return describe(call, target, wanted, proposals - seen.at, failedEdits.peek(target) === true);
        }
      }
      return undefined;
    },

    afterCheck(): void {
      proposals++;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      const { facts } = call;
      if (!outcome.success) {
        if (outcome.failure?.targetChangedSinceRead) {
          // Another writer changed the file: what was read of it says nothing until it is read whole.
          for (const target of facts.targets) {
            files.delete(target);
            failedEdits.delete(target);
          }
          return;
        }
        if (facts.kind === 'mutate' && facts.searchTexts && facts.targets.length === 1)
          failedEdits.set(facts.targets[0] as string, true);
        return;
      }
      if (facts.kind === 'read' && facts.readsWholeTarget && facts.targets.length === 1) {
        remember(facts.targets[0] as string, outcome.content);
        return;
      }
      if (!outcome.changedWorld || facts.leavesSourcesAlone) return;
      if (facts.kind === 'exec' || facts.targets.length === 0) {
        files.clear();
        failedEdits.clear();
        return;
      }
      for (const target of facts.targets) failedEdits.delete(target);
      const replaced =
        facts.targets.length === 1
          ? afterReplacement(files.peek(facts.targets[0] as string), facts)
          : undefined;
      for (const target of facts.targets) files.delete(target);
      if (replaced) {
        files.set(facts.targets[0] as string, replaced);
        return;
      }
      // A whole-file write leaves exactly what it wrote.
      if (facts.replacesTarget && facts.writtenText !== undefined && facts.targets.length === 1) {
        remember(facts.targets[0] as string, facts.writtenText);
      }
    },

    reset(): void {
      // Between user messages, files may be edited by hand outside the agent's view.
      files.clear();
      failedEdits.clear();
    },

    snapshot(): unknown {
      return { version: 1 };
    },

    restore(): void {
      files.clear();
      failedEdits.clear();
    },
  };
}

/**
 * What an exact replacement (`old_string` → `new_string`) made of a file read in full: the text it
 * searched for, found verbatim once in what was read, replaced by what it wrote. Anything less
 * certain (several search texts, text not found verbatim or found twice, a read not trusted) forgets
 * the file, as before.
 */
function afterReplacement(seen: Seen | undefined, facts: CallContext['facts']): Seen | undefined {
  if (!seen || facts.replacesTarget || facts.writtenText === undefined) return undefined;
  const searched = facts.searchTexts;
  if (searched?.length !== 1) return undefined;
  const old = searched[0] as string;
  seen.trusted ??= trustworthy(seen.raw);
  if (!seen.trusted || old.length === 0) return undefined;
  const at = seen.raw.indexOf(old);
  if (at < 0 || seen.raw.indexOf(old, at + 1) >= 0) return undefined;
  const raw = seen.raw.slice(0, at) + facts.writtenText + seen.raw.slice(at + old.length);
  if (raw.length > MAX_FILE_CHARS) return undefined;
  return {
    raw,
    trusted: true,
    at: seen.at,
    earlier: [seen.raw, ...(seen.earlier ?? [])].slice(0, MAX_EARLIER),
  };
}

function describe(
  call: CallContext,
  target: string,
  line: string,
  ago: number,
  failedBefore: boolean,
): Violation {
  const when = ago <= 1 ? 'just now' : `${ago} calls ago`;
  return {
    rule: NAME,
    severity: failedBefore ? 'block' : 'warn',
    reason:
      `${call.description} would fail: "${excerpt(line)}" is not in ${target} as it was read ${when}, ` +
      `and nothing has changed ${target} since${failedBefore ? ', where an edit has already failed' : ''}.`,
    suggestion: `Read ${target} again and copy the exact text you want to replace from it.`,
    evidence: { count: 1, calls: [call.description], missingLine: excerpt(line), target },
  };
}
