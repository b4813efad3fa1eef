/**
 * Whether a read of a web page fails depends on the page, not on what the call asks to take from
 * it. A fetch tool's instructions (a `prompt` beside the `url`, or a prompt that names the pages
 * itself) are applied to the page once it is fetched, and an agent rewords them on every retry:
 * a redirect, a missing page or a refused request is the same failure however they are worded.
 * Such reads fail, and are banned, by their pages and their other arguments; any other failure
 * (the tool refusing the arguments themselves) stays the whole call's.
 */
import { canonicalJson, hashMaskedArgument } from '../../core/identity/index.js';

/** A web address, where a call names a page. */
const WEB_ADDRESS = /^https?:\/\/[^\s/$.?#][^\s]*$/i;
/** Web addresses written inside a text. */
const ADDRESSES_IN_TEXT = /\bhttps?:\/\/[^\s"'<>`()[\]{}]+/gi;
/** Punctuation that ends a sentence after an address, not the address. */
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;
/** A word of prose: letters, with an apostrophe or hyphen inside, and punctuation after it. */
const WORD = /^[\p{L}][\p{L}'’-]*[,.;:!?]*$/u;

/** Instructions are read within their first characters; more says nothing new of their kind. */
const READ_CHARS = 2_000;
/** Arguments looked at, and addresses kept: a read names a few. */
const MAX_ARGUMENTS = 64;
const MAX_ADDRESSES = 16;
/** Prose holds at least this many words, and they are at least this share of what is not an address. */
const MIN_WORDS = 4;
const MIN_WORD_SHARE = 0.75;

/** The signatures of a failure to fetch a page: the page's answer (a status, not found), not the call's words. */
const PAGE_FAILURES: ReadonlySet<string> = new Set(['api_error', 'file_not_found']);

function isWebAddress(text: string): boolean {
  return WEB_ADDRESS.test(text);
}

/**
 * Whether `text` reads as instructions in words (`Extract the API of server functions, with
 * examples`), as opposed to a value (a CSS selector, an id, a path, a format): at least `minWords`
 * plain words.
 */
export function isInstruction(text: string, minWords = MIN_WORDS): boolean {
  const tokens = text.slice(0, READ_CHARS).trim().split(/\s+/);
  let words = 0;
  let others = 0;
  for (const token of tokens) {
    if (/^https?:\/\//i.test(token)) continue;
    if (WORD.test(token)) words++;
    else others++;
  }
  return words >= minWords && words >= MIN_WORD_SHARE * (words + others);
}

/** The web addresses written in `texts`, in order of appearance, without repeats. */
function addressesIn(texts: readonly string[]): string[] {
  const found: string[] = [];
  for (const text of texts) {
    for (const match of text.slice(0, READ_CHARS).matchAll(ADDRESSES_IN_TEXT)) {
      const address = match[0].replace(TRAILING_PUNCTUATION, '');
      if (!found.includes(address)) found.push(address);
      if (found.length >= MAX_ADDRESSES) return found;
    }
  }
  return found;
}

/**
 * The key a read of web pages fails under: its tool, its pages and its arguments other than its
 * instructions. Undefined when the call is not a read of web pages or carries no instructions
 * (its call key already says all it fails by).
 */
export function pageFailureKey(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  targets: readonly string[],
): string | undefined {
  if (!targets.every(isWebAddress)) return undefined;
  const instructions: string[] = [];
  const others: Record<string, unknown> = {};
  for (const key of Object.keys(args).slice(0, MAX_ARGUMENTS)) {
    const value = args[key];
    if (typeof value === 'string' && !isWebAddress(value) && isInstruction(value)) instructions.push(value);
    else others[key] = value;
  }
  if (instructions.length === 0) return undefined;
  // A tool that takes only instructions names its pages inside them.
  const pages = targets.length > 0 ? [...targets] : addressesIn(instructions);
  if (pages.length === 0) return undefined;
  pages.sort();
  return `${tool}\u0000page\u0000#${hashMaskedArgument(`${pages.join('\u0000')}\u0000${canonicalJson(others)}`)}`;
}

/** Whether a failure of a read keyed by `pageFailureKey` is about its page, not about its words. */
export function failedForItsPage(signature: string): boolean {
  return PAGE_FAILURES.has(signature);
}
