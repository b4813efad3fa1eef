/**
 * An edit whose text is not in the file as the agent last read it, while nothing has changed the
 * file since: the edit tool will answer "not found". This is certain rather than predicted, so it
 * blocks — but only on evidence that cannot mislead. The check is line by line on collapsed
 * whitespace and plain quotes and dashes, so line-number prefixes, re-indentation, CRLF and the
 * typographic marks editors match loosely never make it fire on text that is really there, nor does
 * a line that only stands for lines left out (`// ...`); partial, truncated or wrapped reads are not
 * trusted at all; and a command with unknown effects (a formatter, `sed -i`) makes it forget every
 * file. A test run or a build, which writes only outputs, forgets nothing. An editor refusing an
 * edit because the file changed since it was read (another writer) makes it forget every file until
 * each is read whole again, and two whole reads of a file that disagree with nothing seen changing it
 * are both kept as what the file may hold.
 */
import { hashString } from '../identity/index.js';
import type { Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { isHash, readSnapshot, readStrings } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt } from './wording.js';

const NAME = 'absent-text';
/**
 * 1 saved nothing; 2 saves, for the files last read whole, the hashes of their lines (short,
 * collapsed as the check collapses them) and whether an edit failed there: what a new process needs
 * to judge the next edit's whole lines.
 */
const VERSION = 2;
/** Files whose lines are saved: the last read. */
const MAX_SAVED_FILES = 4;
/** The most line hashes saved of one file (its versions' with it): a file with more is not saved. */
const MAX_SAVED_LINES = 1_000;
const LINE_HASH = /^[0-9a-f]{8}$/;
/** A viewer's line number before a line (`    12\t`, `12→`), read as not part of the line. */
const LINE_NUMBER = /^\s*\d{1,7}(?:\t|→)/;
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
  /** The content as the check compares it (see `comparable`), once computed. */
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
  /** The hashes of its lines and its earlier versions' (see `lineHashes`), once saved. */
  lines?: readonly string[];
}

/** A file as a snapshot gives it back: its lines' hashes, and whether an edit of it failed. */
interface SavedFile {
  readonly lines: ReadonlySet<string>;
  failed: boolean;
}

/** The hash a line is saved under: collapsed, as the check compares it. */
function lineHash(line: string): string {
  return hashString(line).slice(0, 8);
}

/**
 * A line's hashes, collapsed and, when it holds typographic marks, made plain as well: a process that
 * compares collapsed lines only (an earlier version) finds the line as it did.
 */
function addLine(out: Set<string>, line: string): void {
  const whole = collapse(line);
  if (whole.length < MIN_LINE) return;
  out.add(lineHash(whole));
  const plain = plainMarks(whole);
  if (plain !== whole) out.add(lineHash(plain));
}

/**
 * The hashes of the lines of `texts`, each collapsed, and again without a viewer's line number
 * before it: a line of the file is found under either.
 */
function lineHashes(texts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    for (const line of text.split('\n')) {
      addLine(out, line);
      const numbered = LINE_NUMBER.exec(line);
      if (numbered !== null) addLine(out, line.slice(numbered[0].length));
    }
  }
  return [...out];
}

/** Versions of one file kept besides the newest. */
const MAX_EARLIER = 3;

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Typographic quotes, dashes and the ellipsis, as their plain characters. Editors match them alike
 * (one matches an edit's straight quotes against the file's curly ones, another normalises dashes),
 * so text that differs from the file only in them may well be found: it is never called absent.
 */
const TYPOGRAPHIC =
  /[\u2018\u2019\u201a\u201b\u2032\u201c\u201d\u201e\u201f\u2033\u2010-\u2015\u2212\u2026]/g;
const PLAIN: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u2026': '...',
};

/** Text already collapsed, with its typographic marks made plain. */
function plainMarks(collapsed: string): string {
  return collapsed.replace(TYPOGRAPHIC, (mark) => PLAIN[mark] ?? '-');
}

/** A text as the check compares it: whitespace collapsed, typographic marks made plain. */
function comparable(text: string): string {
  return plainMarks(collapse(text));
}

/**
 * A line of an edit's text that stands for lines left out (`...`, `// ...`, `# …`), which some editors
 * expand to whatever the file holds there: it is no text to look for.
 */
const ELISION = /^(?:\/\/|#|\/\*|<!--|--|;)?\s*\.\.\.\s*(?:\*\/|-->)?$/;

/**
 * The line of an edit's text to look for in the file, given collapsed, or undefined when it says
 * too little.
 */
function wantedLine(collapsed: string): string | undefined {
  const wanted = plainMarks(collapsed);
  return wanted.length >= MIN_LINE && !ELISION.test(wanted) ? wanted : undefined;
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
  /**
   * Files an edit failed on, with nothing changing them since: the next absent text there blocks
   * (`failed`). A whole read of the file right after that failure is new evidence (the agent went to
   * look), and the edit after it is steered once (`retry`); failing again after that read (`spent`),
   * it blocks whatever is read after.
   */
  const failedEdits = new LruMap<'failed' | 'retry' | 'spent'>(MAX_FILES);
  /** The file the last call that ran was a failed edit of. */
  let justFailedOn: string | undefined;
  /** Whether an edit of `target` failed since it last changed, a read's retry aside. */
  const blocksOn = (target: string): boolean => {
    const state = failedEdits.peek(target);
    return state === 'failed' || state === 'spent';
  };
  let proposals = 0;
  /**
   * What an earlier process saved of the files it last read whole: each file's line hashes, by the
   * hash of its path, and whether an edit of it failed. An edit there whose inner lines (whole lines
   * between its first and last) are not among them is steered, or blocked after a failed edit, as
   * it would have been in that process.
   */
  const saved = new LruMap<SavedFile>(MAX_SAVED_FILES);

  function forgetSaved(target: string): void {
    if (saved.size > 0) saved.delete(hashString(target));
  }

  /** The check against a file's saved lines: only whole lines can be compared with them. */
  function checkSaved(
    call: CallContext,
    target: string,
    searchTexts: readonly string[],
  ): Violation | undefined {
    const file = saved.peek(hashString(target));
    if (file === undefined) return undefined;
    const { lines } = file;
    const failed = file.failed || blocksOn(target);
    for (const text of searchTexts) {
      const inner = text.split('\n').slice(1, -1);
      for (const line of inner) {
        const whole = collapse(line);
        const wanted = wantedLine(whole);
        if (wanted !== undefined && !lines.has(lineHash(wanted)) && !lines.has(lineHash(whole)))
          return describe(call, target, wanted, Number.NaN, failed);
      }
    }
    return undefined;
  }

  /**
   * A whole read of a file. When the guard already holds the file and nothing it saw has changed it
   * since, the two should agree; when they do not, either the file changed outside the agent's view
   * or the answer was no copy of it (a host that answers a repeated read with a note to look at the
   * earlier one): either may be the file now, so the older is kept beside the newer. A read that
   * agrees keeps what was kept.
   */
  function remember(target: string, content: string): void {
    if (content.length === 0 || content.length > MAX_FILE_CHARS) {
      files.delete(target);
      return;
    }
    const known = files.peek(target);
    const earlier =
      known === undefined
        ? undefined
        : known.raw === content
          ? known.earlier
          : [known.raw, ...(known.earlier ?? [])].slice(0, MAX_EARLIER);
    files.set(target, { raw: content, at: proposals, ...(earlier && { earlier }) });
  }

  function forgetAll(): void {
    files.clear();
    failedEdits.clear();
    saved.clear();
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
      if (!seen) return saved.size > 0 ? checkSaved(call, target, facts.searchTexts) : undefined;
      seen.trusted ??= trustworthy(seen.raw);
      if (!seen.trusted) return undefined;
      seen.collapsed ??= comparable(seen.raw);
      const content = seen.collapsed;
      const earlier = seen.earlier?.map(comparable) ?? [];
      for (const text of facts.searchTexts) {
        for (const line of text.split('\n')) {
          const wanted = wantedLine(collapse(line));
          if (
            wanted !== undefined &&
            !content.includes(wanted) &&
            !earlier.some((version) => version.includes(wanted))
          )
            return describe(call, target, wanted, proposals - seen.at, blocksOn(target));
        }
      }
      return undefined;
    },

    afterCheck(): void {
      proposals++;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      const after = justFailedOn;
      justFailedOn = undefined;
      if (isHarnessFault(outcome)) return;
      const { facts } = call;
      if (!outcome.success) {
        if (outcome.failure?.targetChangedSinceRead) {
          // Another writer (the user, an editor's formatter, another agent) is changing files in the
          // workspace: what was read of any file before says nothing until it is read whole again.
          forgetAll();
          return;
        }
        if (facts.kind === 'mutate' && facts.searchTexts && facts.targets.length === 1) {
          const target = facts.targets[0] as string;
          const state = failedEdits.peek(target);
          failedEdits.set(target, state === 'retry' || state === 'spent' ? 'spent' : 'failed');
          justFailedOn = target;
          const file = saved.size === 0 ? undefined : saved.peek(hashString(target));
          if (file !== undefined) file.failed = true;
        }
        return;
      }
      if (facts.kind === 'read' && facts.readsWholeTarget && facts.targets.length === 1) {
        const target = facts.targets[0] as string;
        if (after === target && failedEdits.peek(target) === 'failed') failedEdits.set(target, 'retry');
        remember(target, outcome.content);
        forgetSaved(facts.targets[0] as string);
        return;
      }
      if (!outcome.changedWorld || facts.leavesSourcesAlone) return;
      if (facts.kind === 'exec' || facts.targets.length === 0) {
        forgetAll();
        return;
      }
      for (const target of facts.targets) {
        failedEdits.delete(target);
        forgetSaved(target);
      }
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

    changedOutside(target: string): void {
      failedEdits.delete(target);
      forgetSaved(target);
      files.delete(target);
    },

    reset(): void {
      // Between user messages, files may be edited by hand outside the agent's view.
      forgetAll();
    },

    snapshot(): unknown {
      const out: [string, readonly string[], boolean][] = [];
      const failedHashes = new Set<string>();
      for (const [target] of failedEdits.entries())
        if (blocksOn(target)) failedHashes.add(hashString(target));
      for (const [hash, file] of saved.entries())
        out.push([hash, [...file.lines], file.failed || failedHashes.has(hash)]);
      for (const [target, seen] of files.entries().slice(-MAX_SAVED_FILES)) {
        seen.trusted ??= trustworthy(seen.raw);
        if (!seen.trusted) continue;
        seen.lines ??= lineHashes([seen.raw, ...(seen.earlier ?? [])]);
        if (seen.lines.length > MAX_SAVED_LINES) continue;
        const hash = hashString(target);
        out.push([hash, seen.lines, failedHashes.has(hash)]);
      }
      return { version: VERSION, files: out.slice(-MAX_SAVED_FILES) };
    },

    restore(state: unknown): void {
      files.clear();
      failedEdits.clear();
      saved.clear();
      const list = readSnapshot(state, VERSION)?.files;
      if (!Array.isArray(list)) return;
      for (const item of list.slice(-MAX_SAVED_FILES)) {
        if (!Array.isArray(item) || !isHash(item[0])) continue;
        const lines = readStrings(item[1], MAX_SAVED_LINES).filter((hash) => LINE_HASH.test(hash));
        // A file with no line saved would call every edit's text absent.
        if (lines.length > 0) saved.set(item[0], { lines: new Set(lines), failed: item[2] === true });
      }
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
  const when = !Number.isFinite(ago) ? 'earlier' : ago <= 1 ? 'just now' : `${ago} calls ago`;
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
