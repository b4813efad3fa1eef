/**
 * Edit text copied with the line numbers of a numbered view. Viewers show a file as `cat -n` does
 * (`   313\t  {`, or `   313→  {`), and an agent that copies those lines into a search-and-replace
 * edit looks for the numbers too, which are not in the file. Once such an edit of a file was not
 * found, another one of the same file, with nothing having changed it since, is blocked: the
 * numbers are still not there. The first such edit is never judged, nor any edit after a change.
 */
import { hashString } from '../identity/index.js';
import type { Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { isHash, readSnapshot } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt } from './wording.js';

const NAME = 'numbered-copy';
/** 1 saved nothing; 2 saves the files (by their paths' hashes) whose numbered edit was not found. */
const VERSION = 2;
const MAX_FILES = 256;
/** A line that starts with a viewer's line number: spaces, up to six digits, a tab or an arrow. */
const NUMBERED_LINE = /(?:^|\n)[ ]*\d{1,6}(?:\t|→)/;
/** Search texts longer than this are not scanned (never judged). */
const MAX_SCANNED = 64 * 1024;

/** The first line of the search text that carries a viewer's line number, if any. */
export function numberedLine(text: string): string | undefined {
  if (text.length > MAX_SCANNED) return undefined;
  // Every numbered line holds a tab or an arrow, found by a search for the character alone: the
  // expression, tried at every character of a search text of kilobytes that has neither, costs more.
  if (!text.includes('\t') && !text.includes('→')) return undefined;
  const match = NUMBERED_LINE.exec(text);
  if (!match) return undefined;
  const start = match.index + (match[0].startsWith('\n') ? 1 : 0);
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? undefined : end);
}

function numberedSearch(call: CallContext): string | undefined {
  for (const text of call.facts.searchTexts ?? []) {
    const line = numberedLine(text);
    if (line !== undefined) return line;
  }
  return undefined;
}

export function createNumberedCopyDetector(): Detector {
  /**
   * The files, by their paths' hashes, where such an edit was not found, while each is unchanged:
   * the block quotes the live edit's line, so nothing of the failed one is kept.
   */
  const failed = new LruMap<true>(MAX_FILES);

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const { facts } = call;
      if (!isWatched(call, call.toolPolicy.detectors.numberedCopy) || kindOf(call) !== 'mutate')
        return undefined;
      if (facts.targets.length !== 1 || failed.size === 0) return undefined;
      const target = facts.targets[0] as string;
      if (failed.peek(hashString(target)) === undefined) return undefined;
      const line = numberedSearch(call);
      return line === undefined ? undefined : describe(call, target, line);
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      const { facts } = call;
      if (!outcome.success) {
        if (kindOf(call) !== 'mutate' || facts.targets.length !== 1) return;
        if (outcome.failure?.meaning !== 'content-missing') return;
        if (numberedSearch(call) !== undefined) failed.set(hashString(facts.targets[0] as string), true);
        return;
      }
      if (!outcome.changedWorld || facts.leavesSourcesAlone || failed.size === 0) return;
      // A command, or a change that names nothing, may have rewritten any file.
      if (kindOf(call) === 'exec' || facts.targets.length === 0) failed.clear();
      else for (const target of facts.targets) failed.delete(hashString(target));
    },

    reset(): void {
      // Between user messages, the file may be edited by hand.
      failed.clear();
    },

    snapshot(): unknown {
      return { version: VERSION, files: failed.entries().map(([file]) => file) };
    },

    restore(state: unknown): void {
      failed.clear();
      const files = readSnapshot(state, VERSION)?.files;
      if (!Array.isArray(files)) return;
      for (const file of files.slice(-MAX_FILES)) {
        if (isHash(file)) failed.set(file, true);
      }
    },
  };
}

function describe(call: CallContext, target: string, line: string): Violation {
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} would fail: the text it replaces carries the line numbers of a numbered view ` +
      `("${excerpt(line)}"), which are not in ${target}; the last such edit of ${target} was not found, ` +
      'and nothing has changed it since.',
    suggestion: `Copy the text without the line numbers and the tab after them, exactly as it is in ${target}.`,
    evidence: { count: 1, calls: [call.description], target },
  };
}
