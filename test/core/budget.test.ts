import { describe, expect, it } from 'vitest';
import { BUDGET_RULES, Budget } from '../../src/core/budget.js';
import type { BudgetPolicy } from '../../src/core/policy.js';
import type { Violation } from '../../src/core/types.js';

const START = 1_760_000_000_000;

function budget(limits: Partial<BudgetPolicy>): Budget {
  const guard = new Budget({ reserveTokens: 512, reserveCostFraction: 0.1, ...limits });
  guard.start(START);
  return guard;
}

/** One proposal as the loop handles it: checked, and counted as a step when it goes ahead. */
function propose(guard: Budget, now = START, step?: string | number): Violation | undefined {
  const violation = guard.check(now, step);
  if (violation?.severity !== 'halt') guard.countStep(step);
  return violation;
}

describe('Budget', () => {
  it('allows every step up to the limit and halts the next one', () => {
    const guard = budget({ maxSteps: 3 });
    expect([propose(guard), propose(guard), propose(guard)]).toEqual([undefined, undefined, undefined]);
    const violation = propose(guard);
    expect(violation).toMatchObject({ rule: BUDGET_RULES.steps, severity: 'halt' });
    expect(violation?.reason).toContain('all 3 of its steps');
    expect(guard.steps).toBe(3);
  });

  it('counts calls proposed together in one model step once', () => {
    const guard = budget({ maxSteps: 2 });
    expect([
      propose(guard, START, 'step-1'),
      propose(guard, START, 'step-1'),
      propose(guard, START, 'step-2'),
    ]).toEqual([undefined, undefined, undefined]);
    expect(propose(guard, START, 'step-2')).toBeUndefined();
    expect(propose(guard, START, 'step-3')?.rule).toBe('max_steps');
  });

  it('says the run is over once the last step is taken, without counting another', () => {
    const guard = budget({ maxSteps: 1 });
    expect(guard.exceeded(START)).toBeUndefined();
    propose(guard);
    expect(guard.exceeded(START)?.rule).toBe('max_steps');
    expect(guard.steps).toBe(1);
  });

  it('warns within the token reserve and halts when the budget is used up', () => {
    const guard = budget({ tokenBudget: 10_000 });
    guard.addUsage({ tokens: 9_487 });
    expect(propose(guard)).toBeUndefined();
    guard.addUsage({ tokens: 1 });
    expect(propose(guard)).toMatchObject({ rule: BUDGET_RULES.reserve, severity: 'warn' });
    expect(guard.check(START)?.reason).toContain('Only 512 of');
    guard.addUsage({ tokens: 511 });
    expect(propose(guard)).toMatchObject({ rule: 'budget_reserve', severity: 'warn' });
    guard.addUsage({ tokens: 1 });
    const violation = propose(guard);
    expect(violation).toMatchObject({ rule: BUDGET_RULES.spend, severity: 'halt' });
    expect(violation?.reason).toContain('10000 tokens');
  });

  it('keeps twice the largest request for the answer when that is more than the policy reserve', () => {
    const guard = budget({ tokenBudget: 20_000 });
    guard.addUsage({ tokens: 14_000 });
    expect(guard.spendLimit(500)).toBeUndefined();
    expect(guard.spendLimit(3_000)).toMatchObject({ rule: BUDGET_RULES.reserve, severity: 'warn' });
    expect(guard.spendLimit(3_000)?.reason).toContain('Only 6000 of');
    guard.addUsage({ tokens: 6_000 });
    expect(guard.spendLimit(3_000)).toMatchObject({ rule: BUDGET_RULES.spend, severity: 'halt' });
  });

  it('warns within the cost reserve and halts at the cost limit', () => {
    const guard = budget({ costLimit: 2 });
    guard.addUsage({ costUsd: 1.79 });
    expect(propose(guard)).toBeUndefined();
    guard.addUsage({ costUsd: 0.01 });
    expect(propose(guard)).toMatchObject({ rule: 'budget_reserve', severity: 'warn' });
    guard.addUsage({ costUsd: 0.2 });
    const violation = propose(guard);
    expect(violation).toMatchObject({ rule: 'budget_exceeded', severity: 'halt' });
    expect(violation?.reason).toContain('$2.00');
  });

  it('takes usage straight from outcomes and ignores amounts that are not amounts', () => {
    const guard = budget({ tokenBudget: 1_000, reserveTokens: 0 });
    guard.addUsage({ tokens: 400, costUsd: 0.01 });
    guard.addUsage({ tokens: Number.NaN, costUsd: -5 });
    guard.addUsage({});
    expect(guard.usage(START)).toMatchObject({ tokens: 400, costUsd: 0.01 });
  });

  it('halts once the run has gone on for its time limit, not a millisecond before', () => {
    const guard = budget({ timeoutMs: 60_000 });
    expect(propose(guard, START + 59_999)).toBeUndefined();
    const violation = propose(guard, START + 60_000);
    expect(violation).toMatchObject({ rule: BUDGET_RULES.time, severity: 'halt' });
    expect(violation?.reason).toContain('60 s');
  });

  it('has nothing to say when no limit is set', () => {
    const guard = budget({});
    guard.addUsage({ tokens: 10_000_000, costUsd: 10_000 });
    for (let step = 0; step < 1_000; step++) expect(propose(guard, START + step * 60_000)).toBeUndefined();
  });

  it('starts steps and time over with a new user message but keeps what the session spent', () => {
    const guard = budget({ maxSteps: 2, timeoutMs: 60_000, tokenBudget: 1_000, reserveTokens: 0 });
    propose(guard);
    propose(guard);
    guard.addUsage({ tokens: 600 });
    guard.reset(START + 120_000, 'user');
    expect(propose(guard, START + 120_000)).toBeUndefined();
    expect(guard.usage(START + 120_000)).toEqual({ steps: 1, tokens: 600, costUsd: 0, elapsedMs: 0 });
    guard.reset(START + 130_000, 'session');
    expect(guard.usage(START + 130_000).tokens).toBe(0);
  });

  it('keeps its counters through a snapshot and restore', () => {
    const first = budget({ maxSteps: 3, tokenBudget: 1_000, timeoutMs: 60_000 });
    propose(first);
    propose(first);
    first.addUsage({ tokens: 700, costUsd: 0.3 });
    const second = budget({ maxSteps: 3, tokenBudget: 1_000, timeoutMs: 60_000 });
    second.start(START + 50_000);
    second.restore(JSON.parse(JSON.stringify(first.snapshot())));
    expect(second.usage(START + 10_000)).toEqual({ steps: 2, tokens: 700, costUsd: 0.3, elapsedMs: 10_000 });
    expect(propose(second, START + 10_000)?.rule).toBe('budget_reserve');
    expect(propose(second, START + 10_000)?.rule).toBe('max_steps');
  });

  it('ignores a snapshot it cannot read and keeps its own counters', () => {
    for (const garbage of [undefined, null, 'corrupt', 7, [], { version: 2, steps: 99 }]) {
      const guard = budget({ maxSteps: 5 });
      propose(guard);
      guard.restore(garbage);
      expect(guard.usage(START)).toEqual({ steps: 1, tokens: 0, costUsd: 0, elapsedMs: 0 });
    }
  });

  it('takes only the fields of a snapshot that read correctly', () => {
    const guard = budget({});
    guard.restore({ version: 1, steps: 4, tokens: 'lots', costUsd: -1, startedAt: Number.POSITIVE_INFINITY });
    expect(guard.usage(START)).toEqual({ steps: 4, tokens: 0, costUsd: 0, elapsedMs: 0 });
  });
});
