/**
 * Errors that say something the call named does not exist or is not available: "flight HAT217 not
 * available on date 2024-05-18", "payment method certificate_3318402 not found", "order 1182 does
 * not exist". The named values are the call's own arguments, quoted whole; asking for them again
 * cannot make them exist.
 */
import { argumentTexts } from './argument-texts.js';
import { hasWholeWord } from './white-space.js';

/** The verdict, after the named value: the thing is missing or unavailable, not merely short. */
const SAYS_MISSING =
  /\b(?:not (?:found|available|exists?)|does(?: not|n't) exist|no longer (?:exists|available)|unavailable)\b/i;
/**
 * A line of a command's output that says something it was given does not exist: the verdicts above,
 * and a search of what exists that found nothing to match ("No matching version found for
 * pkg@6.4.2", "No matching distribution found for tool==9.1").
 */
const SAYS_NOTHING_MATCHES = /\bno matching [a-z]+(?: [a-z]+)? (?:was )?found\b/i;
/** How much of a command's output is searched, line by line, for what it says is missing. */
const MAX_OUTPUT_LINES = 60;
const MAX_OUTPUT_LINE = 400;
/** A command's words looked at, and the longest command read for them. */
const MAX_COMMAND_WORDS = 64;
const MAX_COMMAND = 4_096;
/** An identifier, a date, a number: a value an error can only name because this call passed it. */
const NAMEABLE = /^[\w.:/@-]{4,200}$/;
const MAX_VALUES = 64;
const MAX_NAMED = 4;
/** A command's word that can name a thing: a version pin (`tool==9.1`, `pkg@^6.4.2`) included. */
const COMMAND_WORD = /^[\w.:/@=+~^-]{4,200}$/;

/** The call's argument values an error could only name because the call passed them: ids, dates, numbers. */
function nameableValues(args: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const text of argumentTexts(args, { depth: 4, itemsPerContainer: MAX_VALUES, numbers: true })) {
    if (out.length >= MAX_VALUES) break;
    if (NAMEABLE.test(text) && /\d/.test(text)) out.push(text);
  }
  return out;
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
  const named = [...new Set(values.filter((value) => hasWholeWord(firstLine, value)))];
  return named.length > 0 && named.length <= MAX_NAMED ? named : undefined;
}

/**
 * The plain words of a command line (not options, quotes taken off) that its output says do not
 * exist: `npm install pkg@6.4.2` answered "No matching version found for pkg@6.4.2", `kubectl
 * delete pod web-7f9c` answered `pods "web-7f9c" not found`. Only words with a digit count (a
 * version, an id, a date), and only on a line that says so; a word that is also an option's value
 * (`--tag v2`) is still a word the line gives. Undefined when the output names none, or more than a
 * few (then it is about something else).
 */
export function missingOperands(text: string, command: string): string[] | undefined {
  if (command.length > MAX_COMMAND) return undefined;
  const words = new Set<string>();
  for (const raw of command.split(/\s+/, MAX_COMMAND_WORDS * 2)) {
    if (words.size >= MAX_COMMAND_WORDS) break;
    const word = raw.replace(/^(['"])(.*)\1$/, '$2');
    if (!word.startsWith('-') && COMMAND_WORD.test(word) && /\d/.test(word)) words.add(word);
  }
  if (words.size === 0) return undefined;
  const named = new Set<string>();
  for (const whole of text.split('\n', MAX_OUTPUT_LINES)) {
    const line = whole.slice(0, MAX_OUTPUT_LINE);
    if (!SAYS_MISSING.test(line) && !SAYS_NOTHING_MATCHES.test(line)) continue;
    for (const word of words) if (hasWholeWord(line, word)) named.add(word);
  }
  return named.size > 0 && named.size <= MAX_NAMED ? [...named] : undefined;
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
