/**
 * A wait that ends after a time, for the processes that start on every tool call (the hook), whose
 * deadlines almost never pass: the answer comes first, and the process exits.
 *
 * Node's first `setTimeout` in a process sets up its timer lists (about 0.4 ms of a hook process's
 * few), and clearing that timer later costs about as much again. `Atomics.waitAsync` on a word no one
 * ever notifies ends after its timeout from V8's own delayed task, with neither cost, and needs no
 * clearing: once what it bounds is settled, its end changes nothing. Where it is missing, an unref'd
 * `setTimeout` stands in.
 *
 * Neither keeps the process alive: what is waited for does (a socket, a file being written, a lock's
 * retry). A caller that must answer even when nothing is left to wait for ends its wait at
 * `beforeExit` as well.
 */

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeoutMs: number,
) => { readonly async: boolean; readonly value: Promise<unknown> | string };

/** Resolves once `ms` milliseconds have passed. */
export function elapsed(ms: number): Promise<void> {
  const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;
  if (typeof waitAsync === 'function') {
    const wait = waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
    // Not async: the timeout was 0, so the wait is already over.
    return wait.async ? (wait.value as Promise<unknown>).then(() => undefined) : Promise.resolve();
  }
  return new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });
}
