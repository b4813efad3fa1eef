/**
 * Whether a tool's answer names the tool itself: a tool that confirms before it acts answers the
 * first call with what it will do and the way to go on, which is calling it again (SWE-agent's
 * `submit` reviews the changes and asks for `submit` once more). Such an answer is not an effect that
 * went through, and the same call after it is the one the tool asked for.
 */
import type { Outcome } from '../../core/types.js';
import { nameReadings } from './tool-names.js';
import { hasWholeWord } from './white-space.js';

/** How much of an answer is looked through: the way to go on comes before what it lists. */
const MAX_CHARS_SCANNED = 8192;
/** Longer names are no word an answer would spell out. */
const MAX_NAME_CHARS = 64;

/** The spellings of a tool's name an answer may use: the name, and the name without its server. */
function spellingsOf(tool: string): string[] {
  const names = new Set<string>();
  if (tool.length <= MAX_NAME_CHARS) names.add(tool.toLowerCase());
  const bare = nameReadings(tool)[0]?.join('_');
  if (bare !== undefined && bare !== '' && bare.length <= MAX_NAME_CHARS) names.add(bare);
  return [...names];
}

export function answerNamesTool(outcome: Outcome): boolean {
  const text = (outcome.content ?? '').slice(0, MAX_CHARS_SCANNED).toLowerCase();
  if (text === '') return false;
  return spellingsOf(outcome.proposal.tool).some((name) => hasWholeWord(text, name));
}
