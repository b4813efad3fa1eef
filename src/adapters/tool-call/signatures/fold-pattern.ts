/**
 * Lower-cases the letters of a regular expression's source, leaving escapes (`\S`, `\W`, `\B`) as
 * they are, each character on its own (a whole word lower-cased may differ, as a final sigma does).
 * Every process folds the built-in rules, some 40,000 characters, as it loads them, before V8 has
 * optimised anything: an ASCII source is lower-cased whole and only its escaped capitals are put
 * back, rather than visiting every escape and every run of capitals.
 */
export function foldPattern(source: string): string {
  if (NON_ASCII.test(source)) return foldEachPart(source);
  const lower = source.toLowerCase();
  if (lower === source) return source;
  let folded = '';
  let from = 0;
  // A run of backslashes pairs up from its start: an odd run escapes the capital after it.
  for (const run of source.matchAll(BACKSLASHES_BEFORE_CAPITAL)) {
    const backslashes = run[0].length - 1;
    if (backslashes % 2 === 0) continue;
    const capital = (run.index as number) + backslashes;
    folded += `${lower.slice(from, capital)}${source[capital]}`;
    from = capital + 1;
  }
  return from === 0 ? lower : folded + lower.slice(from);
}

const NON_ASCII = /[^\x00-\x7f]/;
const BACKSLASHES_BEFORE_CAPITAL = /\\+[A-Z]/g;

/** Escapes kept, capitals and other non-ASCII characters lower-cased one part at a time. */
function foldEachPart(source: string): string {
  return source.replace(/\\[\s\S]?|[A-Z]+|[^\x00-\x7f]/g, (part) =>
    part.charCodeAt(0) === 92 ? part : part.toLowerCase(),
  );
}
