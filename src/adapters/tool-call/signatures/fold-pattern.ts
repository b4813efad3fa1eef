/**
 * Lower-cases the letters of a regular expression's source, leaving escapes (`\S`, `\W`, `\B`) as
 * they are, each UTF-16 unit on its own (a whole word lower-cased may differ, as a final sigma
 * does). Every process folds the built-in rules, some 40,000 characters, as it loads them, before
 * V8 has optimised anything: the source is lower-cased whole and only its escaped characters are put
 * back, rather than visiting every escape and every run of capitals. Sources where lower-casing
 * whole and unit by unit differ (a capital sigma, a dotted capital I, a pair of surrogates) are
 * folded unit by unit.
 */
export function foldPattern(source: string): string {
  if (CASED_APART.test(source)) return foldEachPart(source);
  const lower = source.toLowerCase();
  if (lower === source) return source;
  if (lower.length !== source.length) return foldEachPart(source);
  let folded = '';
  let from = 0;
  // A run of backslashes pairs up from its start: an odd run escapes the character after it.
  for (const run of source.matchAll(BACKSLASHES_BEFORE_CASED)) {
    const backslashes = run[0].length - 1;
    if (backslashes % 2 === 0) continue;
    const escaped = (run.index as number) + backslashes;
    folded += `${lower.slice(from, escaped)}${source[escaped]}`;
    from = escaped + 1;
  }
  return from === 0 ? lower : folded + lower.slice(from);
}

/** Characters a whole text lower-cases otherwise than one unit at a time would. */
const CASED_APART = /[\u0130\u03a3\ud800-\udfff]/;
/** A run of backslashes before a character lower-casing may change. */
const BACKSLASHES_BEFORE_CASED = /\\+[A-Z\u0080-\uffff]/g;

/** Escapes kept, capitals and other non-ASCII units lower-cased one part at a time. */
function foldEachPart(source: string): string {
  return source.replace(/\\[\s\S]?|[A-Z]+|[^\x00-\x7f]/g, (part) =>
    part.charCodeAt(0) === 92 ? part : part.toLowerCase(),
  );
}
