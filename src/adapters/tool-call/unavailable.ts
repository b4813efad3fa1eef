/**
 * Errors that say something the call named does not exist or is not available: "flight HAT217 not
 * available on date 2024-05-18", "payment method certificate_3318402 not found", "order 1182 does
 * not exist". The named values are the call's own arguments, quoted whole; asking for them again
 * cannot make them exist.
 */
import { argumentTexts } from './argument-texts.js';

/** The verdict, after the named value: the thing is missing or unavailable, not merely short. */
const SAYS_MISSING =
  /\b(?:not (?:found|available|exists?)|does(?: not|n't) exist|no longer (?:exists|available)|unavailable)\b/i;
/** An identifier, a date, a number: a value an error can only name because this call passed it. */
const NAMEABLE = /^[\w.:/@-]{4,200}$/;
const MAX_VALUES = 64;
const MAX_NAMED = 4;

/** The call's argument values an error could only name because the call passed them: ids, dates, numbers. */
function nameableValues(args: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const text of argumentTexts(args, { depth: 4, itemsPerContainer: MAX_VALUES, numbers: true })) {
    if (out.length >= MAX_VALUES) break;
    if (NAMEABLE.test(text) && /\d/.test(text)) out.push(text);
  }
  return out;
}

function namesWhole(text: string, value: string): boolean {
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + value.length] ?? ' ';
    if (!/\w/.test(before) && !/\w/.test(after)) return true;
  }
  return false;
}

/**
 * The argument values an error names as missing or unavailable, or undefined when it names none or
 * says something else about them ("not enough seats on flight HAT290" is about a quantity).
 * Only values with a digit count: ids, dates, numbers, which no error text holds by chance.
 */
export function unavailableValues(
  text: string,
  args: Readonly<Record<string, unknown>>,
): string[] | undefined {
  const firstLine = text.trim().split('\n', 1)[0] ?? '';
  if (firstLine.length > 300 || !SAYS_MISSING.test(firstLine)) return undefined;
  const values = nameableValues(args);
  const named = [...new Set(values.filter((value) => namesWhole(firstLine, value)))];
  return named.length > 0 && named.length <= MAX_NAMED ? named : undefined;
}
