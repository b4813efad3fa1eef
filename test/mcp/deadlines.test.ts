import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from '../../src/mcp/deadlines.js';

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

// The timer and `performance.now()` on a clock the test moves: what is checked is when each
// deadline's function runs against that clock, which no load on the machine can change.
describe('deadlines on one timer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);

  it('call a deadline’s function once it has passed, and not before', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    deadlines.add(40, seen.expire('call'));

    await sleep(39);
    expect(seen.names()).toEqual([]);
    await sleep(1);
    expect(seen.names()).toEqual(['call']);
    expect(seen.calls[0]!.at).toBe(40);
  });

  it('call each function once, in the order the deadlines pass, whatever order they were added in', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    deadlines.add(90, seen.expire('slow'));
    deadlines.add(30, seen.expire('fast'));
    deadlines.add(60, seen.expire('middle'));

    await sleep(150);
    expect(seen.calls).toEqual([
      { name: 'fast', at: 30 },
      { name: 'middle', at: 60 },
      { name: 'slow', at: 90 },
    ]);
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
    progressed.reset(60);
    abandoned.reset(10);
    await sleep(100);
    expect(seen.calls).toEqual([
      { name: 'abandoned', at: 25 },
      { name: 'progressed', at: 75 },
    ]);
  });

  it('keep a deadline again when it is reset after its function was called', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    const deadline = deadlines.add(10, seen.expire('again'));

    await sleep(40);
    deadline.reset(10);
    await sleep(40);
    expect(seen.calls).toEqual([
      { name: 'again', at: 10 },
      { name: 'again', at: 50 },
    ]);
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

    await sleep(100);
    expect(seen.calls).toEqual([
      { name: 'first', at: 10 },
      { name: 'moved', at: 50 },
    ]);
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

describe('deadlines on one timer that fires late', () => {
  it('call deadlines that a late timer finds passed together in the order they fell due', async () => {
    const deadlines = new Deadlines();
    const seen = recorder();
    const later = deadlines.add(20, seen.expire('moved'));
    const cleared = deadlines.add(20, seen.expire('cleared'));
    /** What had been called when the timer's pass ended: the microtask runs right after it. */
    let afterPass: string[] | undefined;
    deadlines.add(10, () => {
      seen.expire('first')();
      later.reset(40);
      cleared.clear();
      queueMicrotask(() => {
        afterPass = seen.names();
      });
    });
    // A busy event loop: the timer fires only once all three have passed.
    const busyUntil = performance.now() + 30;
    while (performance.now() < busyUntil) {}
    while (afterPass === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(afterPass).toEqual(['first']);
    // However late this machine runs it, the moved one comes once, at least 40 ms after the first.
    while (seen.calls.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen.names()).toEqual(['first', 'moved']);
    expect(seen.calls[1]!.at - seen.calls[0]!.at).toBeGreaterThanOrEqual(40);
  });
});
