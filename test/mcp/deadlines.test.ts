import { describe, expect, it } from 'vitest';
import { Deadlines } from '../../src/mcp/deadlines.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records when each deadline's function was called, in ms since the test began. */
function recorder() {
  const began = performance.now();
  const calls: Array<{ name: string; at: number }> = [];
  return {
    calls,
    names: () => calls.map((call) => call.name),
    elapsed: () => performance.now() - began,
    expire: (name: string) => () => calls.push({ name, at: performance.now() - began }),
  };
}

describe('deadlines on one timer', () => {
  it('call a deadline’s function once it has passed, and not before', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    deadlines.add(40, seen.expire('call'));

    await sleep(15);
    expect(seen.names()).toEqual([]);
    await sleep(60);
    expect(seen.names()).toEqual(['call']);
    expect(seen.calls[0]!.at).toBeGreaterThanOrEqual(40);
  });

  it('call each function once, in the order the deadlines pass, whatever order they were added in', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    deadlines.add(90, seen.expire('slow'));
    deadlines.add(30, seen.expire('fast'));
    deadlines.add(60, seen.expire('middle'));

    await sleep(150);
    expect(seen.names()).toEqual(['fast', 'middle', 'slow']);
    expect(deadlines.size).toBe(0);
  });

  it('never call the function of a cleared deadline', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    const answered = deadlines.add(20, seen.expire('answered'));
    deadlines.add(40, seen.expire('timed out'));
    answered.clear();

    await sleep(80);
    expect(seen.names()).toEqual(['timed out']);
  });

  it('move a reset deadline to its new time, later or earlier than the timer', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    const progressed = deadlines.add(30, seen.expire('progressed'));
    const abandoned = deadlines.add(60_000, seen.expire('abandoned'));

    await sleep(15);
    // Measured, not assumed: a timer may wake a hair before `performance.now()` says 15 ms passed.
    const resetAt = seen.elapsed();
    progressed.reset(60);
    abandoned.reset(10);
    await sleep(40);
    expect(seen.names()).toEqual(['abandoned']);
    await sleep(60);
    expect(seen.names()).toEqual(['abandoned', 'progressed']);
    expect(seen.calls[1]!.at).toBeGreaterThanOrEqual(resetAt + 60);
  });

  it('keep a deadline again when it is reset after its function was called', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    const deadline = deadlines.add(10, seen.expire('again'));

    await sleep(40);
    deadline.reset(10);
    await sleep(40);
    expect(seen.names()).toEqual(['again', 'again']);
  });

  it('call deadlines that a late timer finds passed together in the order they fell due', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    const later = deadlines.add(20, seen.expire('moved'));
    const cleared = deadlines.add(20, seen.expire('cleared'));
    deadlines.add(10, () => {
      seen.expire('first')();
      later.reset(40);
      cleared.clear();
    });
    // A busy event loop: the timer fires only once all three have passed.
    const busyUntil = performance.now() + 30;
    while (performance.now() < busyUntil) {}
    await sleep(5);
    expect(seen.names()).toEqual(['first']);
  });

  it('let a deadline’s function reset or clear the others that pass with it', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    const later = deadlines.add(20, seen.expire('moved'));
    const cleared = deadlines.add(20, seen.expire('cleared'));
    deadlines.add(10, () => {
      seen.expire('first')();
      later.reset(40);
      cleared.clear();
    });

    await sleep(30);
    expect(seen.names()).toEqual(['first']);
    await sleep(60);
    expect(seen.names()).toEqual(['first', 'moved']);
  });

  it('hold the process open while a deadline is kept, and not once none is', () => {
    const deadlines = new Deadlines();
    const first = deadlines.add(60_000, () => undefined);
    const second = deadlines.add(60_000, () => undefined);
    expect(deadlines.holdsProcess).toBe(true);

    first.clear();
    expect(deadlines.holdsProcess).toBe(true);
    second.clear();
    expect(deadlines.holdsProcess).toBe(false);
    expect(deadlines.size).toBe(0);

    const third = deadlines.add(60_000, () => undefined);
    expect(deadlines.holdsProcess).toBe(true);
    third.clear();
  });
});
