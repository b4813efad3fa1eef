/**
 * How much longer work takes on an input `factor` times larger than on the small one: about
 * `factor` for linear work, `factor²` for quadratic. Each size is timed `rounds` times, the two
 * interleaved, and the least time of each kept: a loaded machine slows both sizes alike, so the
 * ratio holds where a bound in milliseconds would not.
 */
export async function growth(run: (scale: number) => unknown, factor: number, rounds = 3): Promise<number> {
  let small = Number.POSITIVE_INFINITY;
  let large = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) {
    let started = performance.now();
    await run(1);
    small = Math.min(small, performance.now() - started);
    started = performance.now();
    await run(factor);
    large = Math.min(large, performance.now() - started);
  }
  // Below a twentieth of a millisecond the clock's own grain decides the ratio.
  return large / Math.max(small, 0.05);
}
