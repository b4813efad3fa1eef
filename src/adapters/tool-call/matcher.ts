/**
 * Finds the first rule, in priority order, whose pattern matches a failure text. Running every rule's
 * regex over a long text is slow, so one scan first finds which hint fragments occur, and only the rules
 * with a hint present are run.
 */
import type { SignatureRule } from './signatures.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One alternation grouped by first character, longest first, so a hint never hides a longer one. */
function scanFor(hints: readonly string[]): RegExp {
  const byFirst = new Map<string, string[]>();
  for (const hint of [...hints].sort((a, b) => b.length - a.length)) {
    const first = hint[0] ?? '';
    byFirst.set(first, [...(byFirst.get(first) ?? []), escapeRegExp(hint.slice(1))]);
  }
  const groups = [...byFirst].map(([first, rests]) => `${escapeRegExp(first)}(?:${rests.join('|')})`);
  // A lookahead matches at every position, so hints that overlap are all seen.
  return new RegExp(`(?=(${groups.join('|')}))`, 'g');
}

export class SignatureMatcher {
  private readonly scan: RegExp | undefined;
  /** For each hint, the rules it admits, including those of its prefixes (found at the same place). */
  private readonly admits = new Map<string, readonly number[]>();
  private readonly unhinted: readonly number[];

  constructor(private readonly rules: readonly SignatureRule[]) {
    const ownRules = new Map<string, number[]>();
    const unhinted: number[] = [];
    rules.forEach((rule, index) => {
      if (rule.hints === undefined || rule.hints.length === 0) unhinted.push(index);
      for (const hint of rule.hints ?? []) ownRules.set(hint, [...(ownRules.get(hint) ?? []), index]);
    });
    const hints = [...ownRules.keys()];
    for (const hint of hints) {
      const admitted = hints
        .filter((other) => hint.startsWith(other))
        .flatMap((other) => ownRules.get(other) ?? []);
      this.admits.set(hint, [...new Set(admitted)]);
    }
    this.unhinted = unhinted;
    this.scan = hints.length > 0 ? scanFor(hints) : undefined;
  }

  /**
   * `harnessText` is what harness-side rules read (for commands: the edge lines of the output); it must
   * be part of `text`, so that a hint absent from `text` is absent from it too.
   */
  match(text: string, harnessText: string = text): SignatureRule | undefined {
    if (text === '') return undefined;
    const candidate = new Array<boolean>(this.rules.length).fill(false);
    for (const index of this.unhinted) candidate[index] = true;
    const lower = text.toLowerCase();
    const lowerHarness = harnessText === text ? lower : harnessText.toLowerCase();
    const scan = this.scan;
    if (scan) {
      scan.lastIndex = 0;
      for (let found = scan.exec(lower); found !== null; found = scan.exec(lower)) {
        for (const index of this.admits.get(found[1] ?? '') ?? []) candidate[index] = true;
        scan.lastIndex = found.index + 1;
      }
    }
    for (let index = 0; index < this.rules.length; index++) {
      if (!candidate[index]) continue;
      const rule = this.rules[index] as SignatureRule;
      const subject = rule.folded
        ? rule.harnessSide
          ? lowerHarness
          : lower
        : rule.harnessSide
          ? harnessText
          : text;
      if (rule.pattern.test(subject) && (rule.context === undefined || rule.context.test(subject)))
        return rule;
    }
    return undefined;
  }
}
