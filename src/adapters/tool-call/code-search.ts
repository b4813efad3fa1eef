/**
 * Code searches: grep-like tools that look through the workspace's files for a pattern (`Grep`,
 * `search_dir`, `search_file`, `find_file`, `grep_search`, `codebase_search`). Answering "no matches"
 * for different patterns is how an agent learns where something is not: exploration, not a loop.
 * Repeating one pattern is judged by the rules on identical calls.
 */
import type { CallFacts, Proposal } from '../../core/types.js';
import { isRecord, squashArgumentName } from './action-classes.js';
import { nameReadings } from './tool-names.js';

/** Words in a tool's name that say it searches code or files. */
const CODE_WORDS = new Set([
  'grep',
  'rg',
  'ripgrep',
  'ag',
  'ack',
  'glob',
  'file',
  'files',
  'dir',
  'directory',
  'code',
  'codebase',
  'symbol',
  'symbols',
  'definition',
  'definitions',
  'references',
  'usages',
]);
/** Arguments only a search of files carries: a pattern language, or where in the tree to look. */
const CODE_ARGUMENTS = new Set([
  'glob',
  'include',
  'includepattern',
  'exclude',
  'excludepattern',
  'filepattern',
  'filetype',
  'regex',
  'dir',
  'directory',
  'path',
  'file',
  'caseinsensitive',
  '-i',
  'outputmode',
]);
const MAX_KEYS = 64;

/** A search of the workspace's code or files, not of a service, a knowledge base or the web. */
export function isCodeSearch(proposal: Proposal | undefined, call: CallFacts): boolean {
  if (call.kind !== 'search' || (call.service ?? '') !== '' || proposal === undefined) return false;
  const tool = typeof proposal.tool === 'string' ? proposal.tool : '';
  // The most specific reading: the name past a server prefix, whichever way a host spells it.
  const words = nameReadings(tool)[0] ?? [];
  if (words.some((word) => CODE_WORDS.has(word))) return true;
  if (!isRecord(proposal.args)) return false;
  let seen = 0;
  for (const key in proposal.args) {
    if (++seen > MAX_KEYS) break;
    if (CODE_ARGUMENTS.has(squashArgumentName(key))) return true;
  }
  return false;
}
