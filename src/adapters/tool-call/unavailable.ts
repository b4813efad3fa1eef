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

/**
 * Words an error uses for an argument the tool does not take: about the argument itself (its key, its
 * name), never about its value ("unknown mode", "unexpected value" say the value is wrong).
 */
const ARGUMENT_WORDS =
  '(?:keys?(?:\\(s\\))?|(?:keyword )?arguments?|parameters?|fields?|propert(?:y|ies)|inputs?)';
const SAYS_NOT_ACCEPTED = new RegExp(
  `\\b(?:(?:unrecogni[sz]ed|unknown|unexpected|unsupported) ${ARGUMENT_WORDS}|(?:extra|additional) ${ARGUMENT_WORDS}(?: (?:are|is))? not (?:allowed|permitted|expected|accepted)|was unexpected)`,
  'i',
);
/** How many lines of an error are searched for argument names. */
const MAX_LINES = 40;
const LONGEST_LINE = 400;

/**
 * The names of the call's top-level arguments that the error says the tool does not accept: a name
 * quoted on a line that says so ("Unrecognized key(s) in object: 'task_progress'", "unexpected
 * keyword argument 'verbose'"), or a line that is only the name followed by such a line (pydantic's
 * "task_progress\n  Extra inputs are not permitted"). Only the call's own argument names are looked
 * for, so a word of the message is never taken for one.
 */
export function rejectedArgumentNames(
  text: string,
  args: Readonly<Record<string, unknown>>,
): string[] | undefined {
  const names = Object.keys(args).filter((name) => name.length >= 2 && name.length <= 64);
  if (names.length === 0 || !SAYS_NOT_ACCEPTED.test(text.slice(0, MAX_LINES * LONGEST_LINE)))
    return undefined;
  const lines = text.split('\n', MAX_LINES).map((line) => line.slice(0, LONGEST_LINE));
  const rejected = new Set<string>();
  lines.forEach((line, index) => {
    const says = SAYS_NOT_ACCEPTED.test(line);
    const next = lines[index + 1] ?? '';
    for (const name of names) {
      if (says && quotes(line, name)) rejected.add(name);
      else if (line.trim() === name && SAYS_NOT_ACCEPTED.test(next)) rejected.add(name);
    }
  });
  return rejected.size > 0 ? [...rejected] : undefined;
}

/** Whether the line holds the name in quotes of any kind: 'name', "name", `name`. */
function quotes(line: string, name: string): boolean {
  for (let at = line.indexOf(name); at >= 0; at = line.indexOf(name, at + 1)) {
    const before = line[at - 1];
    const after = line[at + name.length];
    if (before !== undefined && before === after && (before === "'" || before === '"' || before === '`'))
      return true;
  }
  return false;
}
