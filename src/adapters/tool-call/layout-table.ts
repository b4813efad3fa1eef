/**
 * The built-in rules' matcher laid out when the package is built (see `MatcherLayout`), read by the
 * matcher in place of laying itself out again. Laying out reads every pattern a character at a time
 * to split it into its alternatives, looks for every hint of a rule in each of them, and maps a
 * thousand hints to the rules and parts they admit; a fresh process does it on its first failure,
 * before V8 has optimised any of it.
 *
 * The layout is used only for the rules it was made from, in the same order, with the same patterns,
 * tiers and hints. A caller's own rules come before the built-in ones: the matcher then lays itself
 * out, taking each built-in rule's split from the table when it was made from that very rule.
 */
import { BUILT_LAYOUT } from './built-layout.js';
import type { SignatureRule } from './signatures.js';

/** One alternative of a rule's pattern, and the hints of which every match of it holds one. */
export interface AlternativeSplit {
  readonly source: string;
  readonly hints: readonly string[];
}

/**
 * What a matcher works out from its rules (in its order: see `inMatchingOrder`) before it reads a
 * text. Each rule's parts are its pattern's top-level alternatives, numbered across all rules.
 */
export interface MatcherLayout {
  /** The hints the scanner looks for, in its numbering. */
  readonly hints: readonly string[];
  /** The same joined by NUL, as the scanner is looked up by: when read from the build's table. */
  readonly hintsKey?: string;
  /** For each hint, the rules it admits whatever their parts. */
  readonly admitsRules: readonly (readonly number[])[];
  /** For each hint, the parts it admits. */
  readonly admitsParts: readonly (readonly number[])[];
  /** The rules without hints, tried on every text. */
  readonly unhinted: readonly number[];
  /** Each rule's parts are numbered from `firstPart[rule]`; the last entry is the number of parts. */
  readonly firstPart: readonly number[];
  /** Where each part ends in its rule's source; the next part of the rule starts after its `|`. */
  readonly partEnds: readonly number[];
  /** 1 where a part is run only when one of its own hints occurs; 0 where any hint of its rule admits it. */
  readonly partHinted: Uint8Array;
  /** 1 where a rule's admitted parts may be run as one expression on a long text. */
  readonly joinable: Uint8Array;
}

/** The layout as the build writes it (its hints apart). */
type Table = readonly [
  admitsRules: readonly (readonly number[])[],
  admitsParts: readonly (readonly number[])[],
  unhinted: readonly number[],
  firstPart: readonly number[],
  partEnds: readonly number[],
  partHinted: readonly number[],
  joinable: readonly number[],
];

/**
 * What the build ships: the rules' patterns, their tiers and hints (`keys`), the scanner's hints
 * joined by NUL, the table, and each part's hints by their index in its rule's hints (JSON, read only
 * when a single rule's split is looked up).
 */
export interface ShippedLayout {
  readonly sources: readonly string[];
  readonly keys: string;
  readonly hints: string;
  readonly table: string;
  readonly partHints: string;
}

const HINT_SEPARATOR = '\u0000';
const FIELD_SEPARATOR = '\u0001';
const RULE_SEPARATOR = '\u0002';

/** A caller's own patterns (no tier) first, then the built-in tiers in their order; stable. */
export function inMatchingOrder(rules: readonly SignatureRule[]): SignatureRule[] {
  const rank = (rule: SignatureRule): number =>
    rule.tier === undefined ? 0 : ['verdict', 'harness', 'agent', 'weak'].indexOf(rule.tier) + 1;
  return rules
    .map((rule, index) => ({ rule, index }))
    .sort((a, b) => rank(a.rule) - rank(b.rule) || a.index - b.index)
    .map(({ rule }) => rule);
}

/** A rule's tier and hints, what its entry is checked against besides its pattern. */
function ruleKey(rule: SignatureRule): string {
  return `${rule.tier ?? ''}${FIELD_SEPARATOR}${(rule.hints ?? []).join(HINT_SEPARATOR)}`;
}

/** What the build ships for these rules (in the matcher's order), laid out by `layOut`. */
export function encodeLayout(
  ordered: readonly SignatureRule[],
  layout: MatcherLayout,
  splitRule: (rule: SignatureRule) => readonly AlternativeSplit[],
): ShippedLayout {
  const partHints = ordered.flatMap((rule) =>
    splitRule(rule).map((alternative) => alternative.hints.map((hint) => (rule.hints ?? []).indexOf(hint))),
  );
  const table: Table = [
    layout.admitsRules,
    layout.admitsParts,
    layout.unhinted,
    layout.firstPart,
    layout.partEnds,
    [...layout.partHinted],
    [...layout.joinable],
  ];
  return {
    sources: ordered.map((rule) => rule.pattern.source),
    keys: ordered.map(ruleKey).join(RULE_SEPARATOR),
    hints: layout.hints.join(HINT_SEPARATOR),
    table: JSON.stringify(table),
    partHints: JSON.stringify(partHints),
  };
}

/** A shipped layout read, on first use. */
interface ReadLayout {
  readonly layout: MatcherLayout;
  partHints?: readonly (readonly number[])[];
  /** Each rule's number by its pattern's source, and its key: made when a single rule is looked up. */
  bySource?: ReadonlyMap<string, number>;
  keys?: readonly string[];
}

const readLayouts = new Map<ShippedLayout, ReadLayout>();

function read(shipped: ShippedLayout): ReadLayout {
  let found = readLayouts.get(shipped);
  if (found === undefined) {
    const [admitsRules, admitsParts, unhinted, firstPart, partEnds, partHinted, joinable] = JSON.parse(
      shipped.table,
    ) as Table;
    found = {
      layout: {
        hints: shipped.hints === '' ? [] : shipped.hints.split(HINT_SEPARATOR),
        hintsKey: shipped.hints,
        admitsRules,
        admitsParts,
        unhinted,
        firstPart,
        partEnds,
        partHinted: new Uint8Array(partHinted),
        joinable: new Uint8Array(joinable),
      },
    };
    readLayouts.set(shipped, found);
  }
  return found;
}

/**
 * The layout shipped for exactly these rules, in the matcher's order; undefined when it was made from
 * others. Checking costs a comparison of each pattern with the one it was made from, no parsing.
 */
export function readLayout(
  shipped: ShippedLayout | undefined,
  ordered: readonly SignatureRule[],
): MatcherLayout | undefined {
  if (shipped === undefined || ordered.length !== shipped.sources.length) return undefined;
  for (let index = 0; index < ordered.length; index++) {
    const rule = ordered[index] as SignatureRule;
    if (rule.tier === undefined || rule.pattern.source !== shipped.sources[index]) return undefined;
  }
  if (ordered.map(ruleKey).join(RULE_SEPARATOR) !== shipped.keys) return undefined;
  return read(shipped).layout;
}

/** The rule's split as the shipped layout holds it; undefined when it holds none for this very rule. */
export function readSplit(
  shipped: ShippedLayout | undefined,
  rule: SignatureRule,
): AlternativeSplit[] | undefined {
  if (shipped === undefined) return undefined;
  const found = read(shipped);
  found.bySource ??= new Map(shipped.sources.map((source, index) => [source, index]));
  found.keys ??= shipped.keys.split(RULE_SEPARATOR);
  found.partHints ??= JSON.parse(shipped.partHints) as readonly (readonly number[])[];
  const partHints = found.partHints;
  const source = rule.pattern.source;
  const index = found.bySource.get(source);
  if (index === undefined || found.keys[index] !== ruleKey(rule)) return undefined;
  const { firstPart, partEnds } = found.layout;
  const hints = rule.hints ?? [];
  const split: AlternativeSplit[] = [];
  let start = 0;
  for (let part = firstPart[index] as number; part < (firstPart[index + 1] as number); part++) {
    const end = partEnds[part] as number;
    split.push({
      source: source.slice(start, end),
      hints: (partHints[part] as readonly number[]).map((hint) => hints[hint] as string),
    });
    start = end + 1;
  }
  return split;
}

/** The layout the build made for these rules (in the matcher's order), if it made one. */
export function builtLayoutOf(ordered: readonly SignatureRule[]): MatcherLayout | undefined {
  return readLayout(BUILT_LAYOUT, ordered);
}

/** The split the build worked out for a built-in rule. */
export function builtSplitOf(rule: SignatureRule): AlternativeSplit[] | undefined {
  return readSplit(BUILT_LAYOUT, rule);
}
