import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUDGET_RULES } from '../../src/core/budget.js';
import { ruleMeaning } from '../../src/report/index.js';

const CORE = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'core');

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/** Every rule name the engine's verdicts can carry: written out, or through a named constant. */
function rulesOfTheEngine(): string[] {
  const rules = new Set<string>(Object.values(BUDGET_RULES));
  for (const text of sources(CORE)) {
    const constants = new Map<string, string>();
    for (const [, name, value] of text.matchAll(/const ([A-Z_]+) = '([a-z_-]+)';/g))
      constants.set(name as string, value as string);
    for (const [, literal, constant] of text.matchAll(/\brule: (?:'([a-z_-]+)'|([A-Z_]+)\b)/g)) {
      const rule = literal ?? constants.get(constant as string);
      if (rule !== undefined) rules.add(rule);
    }
  }
  return [...rules].sort();
}

describe('ruleMeaning', () => {
  it('says what a rule of the engine means', () => {
    expect(ruleMeaning('identical-failure')).toMatch(/already failed/);
  });

  it('says what the rules about unseen creations, blind edits and unavailable values mean', () => {
    expect(ruleMeaning('unseen-creation')).toMatch(/did not appear/);
    expect(ruleMeaning('blind-edit')).toMatch(/never read/);
    expect(ruleMeaning('unavailable-value')).toMatch(/not available/);
    expect(ruleMeaning('numbered-copy')).toMatch(/line numbers/);
  });

  it('says what the rules about absent text, undone changes and second side effects mean', () => {
    expect(ruleMeaning('absent-text')).toMatch(/not in the file/);
    expect(ruleMeaning('state-cycle')).toMatch(/undo/);
    expect(ruleMeaning('duplicate-effect')).toMatch(/twice/);
  });

  it('has a meaning for every rule the engine can give as the reason for a verdict', () => {
    const rules = rulesOfTheEngine();
    expect(rules).toContain('revisit');
    expect(rules).toContain('duplicate-effect');
    expect(rules.filter((rule) => ruleMeaning(rule) === undefined)).toEqual([]);
  });

  it('knows no meaning for a rule named after a property of every object', () => {
    expect([ruleMeaning('constructor'), ruleMeaning('toString')]).toEqual([undefined, undefined]);
  });
});
