/**
 * Finds the rule that reads a failure text, by tier (a caller's own patterns, verdicts about the
 * agent's work, the environment's failures, the agent's failures, bare failures) and in priority
 * order within a tier. Running every rule's regex over a long text is slow, so one scan first finds
 * which hint fragments occur, and only the rules with a hint present are run — and of a rule, only
 * the alternatives whose own literal text holds a hint that occurred (see `layOut`).
 *
 * An environmental word counts only where the tool says it, not where it quotes the agent: a harness
 * match on a line whose agent verdict comes first ("No such file or directory: 'rate_limit.py'"),
 * inside quotes that an agent verdict on the line is about ("pathspec 'fix/ETIMEDOUT' did not
 * match"), or inside a path ("logs/ETIMEDOUT.txt") is passed over.
 */
import { RecentTexts } from '../../core/recent-texts.js';
import { type HintScanner, hintScannerFor } from './hint-scan.js';
import {
  type AlternativeSplit,
  builtLayoutOf,
  builtSplitOf,
  inMatchingOrder,
  type MatcherLayout,
} from './layout-table.js';
import type { SignatureRule } from './signatures.js';

/** Quote characters that delimit a quoted argument in error messages. */
const QUOTES = new Set(["'", '"', '`', '‘', '’', '“', '”', '«', '»', '„']);
/** The marker line under a source line: `      ^^^^`, `   ~~~^`. */
const CARET_LINE = /^\s*[\^~]+[\^~\s-]*$/;
/** A property of an error object that holds the caller's input. */
const INPUT_PROPERTY =
  /^\s*(?:input|path|dest|url|href|value|argument|arg|filename|file|target|pattern|query)\s*[:=]\s*["'`]$/;
/** Where a JSON field or a list item ends. */
const CLAUSE_ENDS = new Set([',', ';', '{', '}', '[', ']']);
/** A file name right after the match: `ETIMEDOUT.log`, `rate_limit.py`. */
const EXTENSION_AFTER = /^\.[a-z][a-z0-9]{0,4}\b/;
/** How many matches of one harness rule are looked at before giving up on it. */
const MAX_MATCHES = 8;
/**
 * Texts from this length on have a rule's admitted parts run as one expression (see `unionOf`):
 * what it saves is passes over the text, which only a long text makes worth a lookup.
 */
const LONG_SUBJECT = 1024;
/** How many joined expressions are kept: one for each set of parts that long texts admit together. */
const MAX_UNIONS = 256;
/** A backreference or a named group, whose meaning would change with the groups of other parts. */
const GROUP_REFERENCE = /\\[1-9]|\\k<|\(\?<[A-Za-z]/;

/** Character codes the parser of regex sources reads. */
const BACKSLASH = 0x5c;
const OPEN_CLASS = 0x5b;
const CLOSE_CLASS = 0x5d;
const OPEN_GROUP = 0x28;
const CLOSE_GROUP = 0x29;
const BAR = 0x7c;

/** Flags by ASCII code: what a parser of regex sources asks of one character, without making a string of it. */
function asciiSet(chars: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let index = 0; index < chars.length; index++) set[chars.charCodeAt(index)] = 1;
  return set;
}

/** Characters that stand for themselves neither bare nor after a quantifier: syntax outside a class. */
const SYNTAX = asciiSet('.^$|)]}?*+{');
const QUANTIFIERS = asciiSet('?*+{');
/** After a backslash, these are classes or assertions (`\d`, `\b`), not the character itself. */
const ALPHANUMERIC = asciiSet('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');

function isQuantifier(code: number): boolean {
  return code < 128 && QUANTIFIERS[code] === 1;
}

/** The top-level alternatives of a regex source: `a|b(c|d)` is `a` and `b(c|d)`. */
function alternativesOf(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code === BACKSLASH) {
      i++;
    } else if (inClass) {
      if (code === CLOSE_CLASS) inClass = false;
    } else if (code === OPEN_CLASS) {
      inClass = true;
    } else if (code === OPEN_GROUP) {
      depth++;
    } else if (code === CLOSE_GROUP) {
      depth--;
    } else if (code === BAR && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
  }
  out.push(source.slice(start));
  return out;
}

/**
 * What every match of one alternative certainly contains: its literal runs (characters outside
 * groups and classes, not under a quantifier, lower-cased as the hint scan sees the text), and its
 * plain groups, of which it contains one branch.
 */
type Atom = { readonly run: string } | { readonly oneOf: readonly (readonly string[])[] };

/** The index of the `]` or `)` that closes the class or group opened at `start`, or the text's end. */
function closingOf(source: string, start: number): number {
  const group = source.charCodeAt(start) === OPEN_GROUP;
  let depth = 0;
  let inClass = false;
  let i = start;
  for (; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (inClass) inClass = code !== CLOSE_CLASS;
    else if (code === OPEN_CLASS) inClass = true;
    else if (code === OPEN_GROUP) depth++;
    else if (code === CLOSE_GROUP && --depth === 0) break;
    if (!group && !inClass && depth === 0) break;
  }
  return i;
}

/**
 * Reads an alternative into `atoms`: its literal runs and its plain groups, in their order. A branch
 * of a group is read with `atoms` undefined: its literal runs alone go into `runs`, and its own
 * groups are passed over.
 */
function readAtoms(alternative: string, atoms: Atom[] | undefined, runs: string[] | undefined): void {
  // The run so far, and where its pending stretch of plain characters starts (-1: none), taken as
  // one slice rather than a string made a character at a time.
  let run = '';
  let from = -1;
  const end = (at: number): void => {
    if (from >= 0) run += alternative.slice(from, at);
    from = -1;
  };
  const flush = (): void => {
    if (run === '') return;
    const lower = run.toLowerCase();
    if (atoms !== undefined) atoms.push({ run: lower });
    else runs?.push(lower);
    run = '';
  };
  for (let i = 0; i < alternative.length; i++) {
    const code = alternative.charCodeAt(i);
    if (code === OPEN_CLASS || code === OPEN_GROUP) {
      end(i);
      flush();
      const start = i;
      i = closingOf(alternative, start);
      if (code === OPEN_GROUP && atoms !== undefined && !isQuantifier(alternative.charCodeAt(i + 1))) {
        const body = alternative.slice(start + 1, i);
        if (!/^\?(?:[=!]|<[=!])/.test(body)) {
          const inner = body.replace(/^\?(?::|<[^>]*>)/, '');
          const branches = alternativesOf(inner).map((branch) => {
            const branchRuns: string[] = [];
            readAtoms(branch, undefined, branchRuns);
            return branchRuns;
          });
          atoms.push({ oneOf: branches });
        }
      }
      continue;
    }
    if (code === BACKSLASH) {
      end(i);
      i++;
      // A backslash at the end, or before a letter or a digit (`\d`, `\b`, `\1`), stands for no one
      // character; a quantified character is not certain: both end the run without joining it.
      const next = alternative.charCodeAt(i);
      const literal = i < alternative.length && (next >= 128 || ALPHANUMERIC[next] === 0);
      if (!literal || isQuantifier(alternative.charCodeAt(i + 1))) flush();
      else from = i;
      continue;
    }
    if ((code < 128 && SYNTAX[code] === 1) || isQuantifier(alternative.charCodeAt(i + 1))) {
      end(i);
      flush();
    } else if (from < 0) {
      from = i;
    }
  }
  end(alternative.length);
  flush();
}

function atomsOf(alternative: string): Atom[] {
  const atoms: Atom[] = [];
  readAtoms(alternative, atoms, undefined);
  return atoms;
}

/** The first of `longestFirst` that one of `runs` holds. */
function longestIn(runs: readonly string[], longestFirst: readonly string[]): string | undefined {
  for (let index = 0; index < longestFirst.length; index++) {
    const hint = longestFirst[index] as string;
    for (let at = 0; at < runs.length; at++) if ((runs[at] as string).includes(hint)) return hint;
  }
  return undefined;
}

function shortestLength(hints: readonly string[]): number {
  let shortest = Number.POSITIVE_INFINITY;
  for (const hint of hints) if (hint.length < shortest) shortest = hint.length;
  return shortest;
}

/**
 * The most selective set of hints of which every match of the alternative holds one: the longest
 * hint in one of its literal runs, or one hint per branch of a plain group. Empty when there is none.
 * `longestFirst` holds the rule's hints, longest first and in their own order among equals.
 */
function hintsOf(alternative: string, longestFirst: readonly string[]): string[] {
  let best: string[] = [];
  let bestShortest = 0;
  for (const atom of atomsOf(alternative)) {
    let set: string[];
    if ('run' in atom) {
      const hint = longestIn([atom.run], longestFirst);
      if (hint === undefined) continue;
      set = [hint];
    } else {
      set = [];
      for (const branch of atom.oneOf) {
        const hint = longestIn(branch, longestFirst);
        if (hint === undefined) break;
        set.push(hint);
      }
      if (set.length === 0 || set.length < atom.oneOf.length) continue;
    }
    // Fewer hints, or as many with a longer shortest one.
    const shortest = shortestLength(set);
    if (
      best.length === 0 ||
      set.length < best.length ||
      (set.length === best.length && shortest > bestShortest)
    ) {
      best = [...new Set(set)];
      bestShortest = shortest;
    }
  }
  return best;
}

/** The rules, and the parts of them, whose hints occur in a text. */
interface Admitted {
  readonly rules: boolean[];
  readonly parts: Uint8Array;
}

/**
 * One alternative of a rule's pattern, run only when one of its hints occurs. Made when a text first
 * admits it, and its expressions when first run: most of a thousand parts never are in a process,
 * and making them all cost a fresh process milliseconds on its first failure.
 */
class Part {
  private compiled: RegExp | undefined;
  private compiledEvery: RegExp | undefined;

  constructor(
    /** The alternative's own text, and the flags of its rule without `g` and `y`. */
    readonly source: string,
    readonly flags: string,
    /** Whether `every` is wanted: harness rules look past matches that are quotes. */
    private readonly global: boolean,
    pattern?: RegExp,
  ) {
    this.compiled = pattern;
  }

  get pattern(): RegExp {
    this.compiled ??= new RegExp(this.source, this.flags);
    return this.compiled;
  }

  /** Global copy, for harness rules: to look past matches that are quotes. */
  get every(): RegExp | undefined {
    if (!this.global) return undefined;
    this.compiledEvery ??= new RegExp(this.source, `${this.flags}g`);
    return this.compiledEvery;
  }
}

/** A rule's alternatives, each with the hints that admit it. */
export function splitRule(rule: SignatureRule): AlternativeSplit[] {
  // Sorted once for all the rule's alternatives (a stable sort keeps equals in the rule's order).
  const longestFirst = [...(rule.hints ?? [])].sort((a, b) => b.length - a.length);
  return alternativesOf(rule.pattern.source).map((alternative) => ({
    source: alternative,
    hints: hintsOf(alternative, longestFirst),
  }));
}

/** Adds `number` to the list kept for `hint`, in place: copying the list each time made the build quadratic. */
function appendTo(lists: Map<string, number[]>, hint: string, number: number): void {
  const list = lists.get(hint);
  if (list === undefined) lists.set(hint, [number]);
  else list.push(number);
}

/**
 * What a matcher of these rules (in its order) works out before it reads a text: each rule split into
 * its alternatives (a built-in rule as the build split it), and which hints admit which of them.
 */
export function layOut(ordered: readonly SignatureRule[]): MatcherLayout {
  const firstPart: number[] = [];
  const partEnds: number[] = [];
  const partHinted: number[] = [];
  const ownRules = new Map<string, number[]>();
  const ownParts = new Map<string, number[]>();
  const unhinted: number[] = [];
  ordered.forEach((rule, index) => {
    firstPart.push(partEnds.length);
    // A caller's own pattern runs whole: it may use flags or syntax the split does not know.
    const split: readonly AlternativeSplit[] =
      rule.tier === undefined
        ? [{ source: rule.pattern.source, hints: [] }]
        : (builtSplitOf(rule) ?? splitRule(rule));
    let end = -1;
    for (const alternative of split) {
      for (const hint of alternative.hints) appendTo(ownParts, hint, partEnds.length);
      end += 1 + alternative.source.length;
      partEnds.push(end);
      partHinted.push(alternative.hints.length > 0 ? 1 : 0);
    }
    if (rule.hints === undefined || rule.hints.length === 0) unhinted.push(index);
    // A rule whose every part has its own hints is admitted through them; the rule's other hints
    // need not be looked for.
    if (split.some((alternative) => alternative.hints.length === 0)) {
      for (const hint of rule.hints ?? []) appendTo(ownRules, hint, index);
    }
  });
  firstPart.push(partEnds.length);
  // The scanner reports every hint that occurs, so a hint admits its own rules and parts only.
  const hints = [...new Set([...ownRules.keys(), ...ownParts.keys()])];
  return {
    hints,
    admitsRules: hints.map((hint) => ownRules.get(hint) ?? []),
    admitsParts: hints.map((hint) => ownParts.get(hint) ?? []),
    unhinted,
    firstPart,
    partEnds,
    partHinted: new Uint8Array(partHinted),
    joinable: new Uint8Array(
      ordered.map((rule, index) =>
        rule.tier !== undefined &&
        rule.tier !== 'harness' &&
        (firstPart[index + 1] as number) - (firstPart[index] as number) > 1 &&
        !GROUP_REFERENCE.test(rule.pattern.source)
          ? 1
          : 0,
      ),
    ),
  };
}

/** Whether an expression answers one text the same way each time it is tested. */
function testsAlike(pattern: RegExp | undefined): boolean {
  return pattern === undefined || (!pattern.global && !pattern.sticky);
}

export class SignatureMatcher {
  private readonly scanner: HintScanner | undefined;
  /** For each hint, by its number in the scanner, the rules it admits. */
  private readonly admitsRules: readonly (readonly number[])[];
  /** For each hint, the parts (by their number across all rules) it admits. */
  private readonly admitsParts: readonly (readonly number[])[];
  private readonly unhinted: readonly number[];
  private readonly rules: readonly SignatureRule[];
  /** Each rule's parts, numbered from `firstPart[rule]`, each made when first run. */
  private readonly parts: (Part | undefined)[];
  private readonly firstPart: readonly number[];
  private readonly partEnds: readonly number[];
  /** Whether a part is run only when one of its own hints occurs. */
  private readonly partHinted: Uint8Array;
  /** The rule each part belongs to. */
  private readonly ruleOfPart: Uint32Array;
  /** Rules whose admitted parts can be run as one expression (see `unionOf`). */
  private readonly joinable: Uint8Array;
  /** One expression for the parts of a rule admitted together, by rule and parts. */
  private unions = new Map<string, RegExp>();
  /**
   * What the text being matched admits, kept from one text to the next: matching is synchronous, and
   * each text starts by taking back what the last one admitted.
   */
  private readonly admitted: Admitted;
  /** The parts the last text admitted, by number: the first `partsAdmitted` of them. */
  private readonly admittedParts: Uint32Array;
  private partsAdmitted = 0;
  /**
   * The rule each of the last few texts matched (undefined: none); absent when an expression may
   * answer one text otherwise the next time (a global or sticky one moves on from where it stopped).
   */
  private readonly recent: RecentTexts<SignatureRule | undefined> | undefined;

  /** The built-in rules are laid out as the build laid them out (see `./layout-table.ts`). */
  constructor(rules: readonly SignatureRule[]) {
    this.rules = inMatchingOrder(rules);
    const layout = builtLayoutOf(this.rules) ?? layOut(this.rules);
    const { hints, firstPart } = layout;
    const partCount = firstPart[firstPart.length - 1] as number;
    this.admitsRules = layout.admitsRules;
    this.admitsParts = layout.admitsParts;
    this.unhinted = layout.unhinted;
    this.firstPart = firstPart;
    this.partEnds = layout.partEnds;
    this.partHinted = layout.partHinted;
    this.joinable = layout.joinable;
    this.parts = new Array<Part | undefined>(partCount);
    this.ruleOfPart = new Uint32Array(partCount);
    for (let index = 0; index < this.rules.length; index++)
      this.ruleOfPart.fill(index, firstPart[index] as number, firstPart[index + 1] as number);
    this.scanner = hints.length > 0 ? hintScannerFor(hints, layout.hintsKey) : undefined;
    this.admitted = {
      rules: new Array<boolean>(this.rules.length).fill(false),
      parts: new Uint8Array(partCount),
    };
    this.admittedParts = new Uint32Array(partCount);
    const alike = this.rules.every((rule) => testsAlike(rule.pattern) && testsAlike(rule.context));
    this.recent = alike ? new RecentTexts((text) => this.matchAnew(text)) : undefined;
  }

  /** A part, made the first time it is run. */
  private partAt(number: number): Part {
    let part = this.parts[number];
    if (part === undefined) {
      const index = this.ruleOfPart[number] as number;
      const rule = this.rules[index] as SignatureRule;
      if (rule.tier === undefined) {
        part = new Part(rule.pattern.source, rule.pattern.flags, false, rule.pattern);
      } else {
        const first = this.firstPart[index] as number;
        const start = number === first ? 0 : (this.partEnds[number - 1] as number) + 1;
        const source = rule.pattern.source.slice(start, this.partEnds[number] as number);
        part = new Part(source, rule.pattern.flags.replace(/[gy]/g, ''), rule.tier === 'harness');
      }
      this.parts[number] = part;
    }
    return part;
  }

  /** The hints this matcher scans texts for (the build writes the built-in rules' scanner down). */
  get hints(): readonly string[] {
    return this.scanner?.hints ?? [];
  }

  match(text: string): SignatureRule | undefined {
    if (text === '') return undefined;
    return this.recent === undefined ? this.matchAnew(text) : this.recent.of(text);
  }

  /**
   * `match`, for a text read once and never again (a success's first line, looked at for a refusal):
   * not kept among the recent texts, where it would push out the failures that are read again.
   */
  matchOnce(text: string): SignatureRule | undefined {
    return text === '' ? undefined : this.matchAnew(text);
  }

  private matchAnew(text: string): SignatureRule | undefined {
    const admitted = this.admitted;
    const candidate = admitted.rules;
    const partFound = admitted.parts;
    // What the last text admitted is taken back first: building these afresh for each text cost a
    // short failure a third of its match.
    candidate.fill(false);
    for (let at = 0; at < this.partsAdmitted; at++) partFound[this.admittedParts[at] as number] = 0;
    this.partsAdmitted = 0;
    for (const index of this.unhinted) candidate[index] = true;
    const lower = text.toLowerCase();
    if (this.scanner) {
      const found = this.scanner.scan(lower);
      for (let at = 0; at < found.count; at++) {
        const hint = found.hints[at] as number;
        for (const index of this.admitsRules[hint] as readonly number[]) candidate[index] = true;
        for (const index of this.admitsParts[hint] as readonly number[]) {
          if (partFound[index] === 0) this.admittedParts[this.partsAdmitted++] = index;
          partFound[index] = 1;
          candidate[this.ruleOfPart[index] as number] = true;
        }
      }
    }
    for (let index = 0; index < this.rules.length; index++) {
      if (!candidate[index]) continue;
      const rule = this.rules[index] as SignatureRule;
      const subject = rule.folded ? lower : text;
      if (
        this.ruleMatches(index, subject, admitted) &&
        (rule.context === undefined || rule.context.test(subject))
      )
        return rule;
    }
    return undefined;
  }

  /** Whether an admitted part of the rule matches (for harness rules: not only as a quote). */
  private ruleMatches(index: number, subject: string, admitted: Admitted): boolean {
    if (subject.length >= LONG_SUBJECT && this.joinable[index]) {
      const union = this.unionOf(index, admitted);
      if (union !== undefined) return union.test(subject);
    }
    const end = this.firstPart[index + 1] as number;
    for (let number = this.firstPart[index] as number; number < end; number++) {
      if (this.partHinted[number] === 1 && admitted.parts[number] !== 1) continue;
      const part = this.partAt(number);
      const matched = part.every
        ? this.saysItself(part.every, subject, admitted)
        : part.pattern.test(subject);
      if (matched) return true;
    }
    return false;
  }

  /**
   * The rule's admitted parts as one expression, when more than one is admitted: one pass over a
   * long text finds the earliest match of any of them, where trying them one by one passes over it
   * once for each part that does not match, and up to its match for the one that does. The parts are
   * the rule's top-level alternatives, so joined again they match where one of them does.
   */
  private unionOf(index: number, admitted: Admitted): RegExp | undefined {
    const end = this.firstPart[index + 1] as number;
    let key = `${index}`;
    let count = 0;
    for (let number = this.firstPart[index] as number; number < end; number++) {
      if (this.partHinted[number] === 1 && admitted.parts[number] !== 1) continue;
      key += `,${number}`;
      count++;
    }
    if (count < 2) return undefined;
    let union = this.unions.get(key);
    if (union === undefined) {
      const sources: string[] = [];
      for (let number = this.firstPart[index] as number; number < end; number++) {
        if (this.partHinted[number] === 1 && admitted.parts[number] !== 1) continue;
        sources.push(this.partAt(number).source);
      }
      const { flags } = this.partAt(this.firstPart[index] as number);
      union = new RegExp(sources.join('|'), flags);
      // Replaced rather than cleared when full: a cleared map keeps its grown table.
      if (this.unions.size >= MAX_UNIONS) this.unions = new Map();
      this.unions.set(key, union);
    }
    return union;
  }

  /** Some match of a harness rule that is the tool's own words, not a quote of the agent's input. */
  private saysItself(pattern: RegExp, subject: string, admitted: Admitted): boolean {
    pattern.lastIndex = 0;
    for (let seen = 0; seen < MAX_MATCHES; seen++) {
      const found = pattern.exec(subject);
      if (found === null) return false;
      const start = found.index;
      const end = start + found[0].length;
      if (!this.isQuote(subject, start, end, admitted)) return true;
      // Look again just after this start: a later, overlapping match may be the tool's own words.
      pattern.lastIndex = start + 1;
    }
    return false;
  }

  private isQuote(subject: string, start: number, end: number, admitted: Admitted): boolean {
    const word = !/\s/.test(subject.slice(start, end));
    if (word && (subject[start - 1] === '/' || EXTENSION_AFTER.test(subject.slice(end, end + 6))))
      return true;
    const lineStart = subject.lastIndexOf('\n', start - 1) + 1;
    let lineEnd = subject.indexOf('\n', end);
    if (lineEnd < 0) lineEnd = subject.length;
    const line = subject.slice(lineStart, lineEnd);
    // A source line that a compiler or interpreter shows above its caret marker.
    const nextEnd = subject.indexOf('\n', lineEnd + 1);
    if (
      lineEnd < subject.length &&
      CARET_LINE.test(subject.slice(lineEnd + 1, nextEnd < 0 ? subject.length : nextEnd))
    )
      return true;
    const from = start - lineStart;
    const to = end - lineStart;
    // The clause before the match: "not found, but can be installed" does not quote the agent.
    let clauseStart = from;
    while (clauseStart > 0 && !CLAUSE_ENDS.has(line[clauseStart - 1] as string)) clauseStart--;
    if (this.agentVerdictIn(line.slice(clauseStart, from), admitted, false)) return true;
    let open = from - 1;
    while (open >= 0 && !QUOTES.has(line[open] as string)) open--;
    let close = to;
    while (close < line.length && !QUOTES.has(line[close] as string)) close++;
    if (open < 0 || close >= line.length) return false;
    // The input a runtime echoes in its error object: `input: 'fetch failed'`.
    if (INPUT_PROPERTY.test(line.slice(0, open + 1))) return true;
    // The clause around the quote: a JSON field or a list item ends at the next separator.
    let quoteClauseStart = open;
    while (quoteClauseStart > 0 && !CLAUSE_ENDS.has(line[quoteClauseStart - 1] as string)) quoteClauseStart--;
    let clauseEnd = close;
    while (clauseEnd < line.length && !CLAUSE_ENDS.has(line[clauseEnd] as string)) clauseEnd++;
    const clause = `${line.slice(quoteClauseStart, open + 1)}${' '.repeat(close - open - 1)}${line.slice(close, clauseEnd)}`;
    return this.agentVerdictIn(clause, admitted, true);
  }

  /** An agent rule whose message quotes the agent's input matches this piece of a line. */
  private agentVerdictIn(piece: string, admitted: Admitted, aroundQuote: boolean): boolean {
    if (piece.trim() === '') return false;
    for (let index = 0; index < this.rules.length; index++) {
      const rule = this.rules[index] as SignatureRule;
      if (!admitted.rules[index] || !rule.folded) continue;
      if (rule.quotes !== true && !(aroundQuote && rule.spanQuotes === true)) continue;
      // Only the parts admitted on the whole text can match a piece of it.
      const end = this.firstPart[index + 1] as number;
      for (let number = this.firstPart[index] as number; number < end; number++) {
        if (this.partHinted[number] === 1 && admitted.parts[number] !== 1) continue;
        if (this.partAt(number).pattern.test(piece)) return true;
      }
    }
    return false;
  }
}
