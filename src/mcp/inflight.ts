import { RecencyMap } from '../core/recency-map.js';

/**
 * The tool calls still running. On the way out the proxy waits for them to be answered (with
 * an error result, when the upstream died) before it closes the channel to the client.
 */
export class InflightCalls {
  /** As a set; a RecencyMap because calls come and go all the time (see `FastToolCalls.open`). */
  private readonly pending = new RecencyMap<Promise<unknown>, true>();

  track<T>(call: Promise<T>): Promise<T> {
    this.pending.set(call, true);
    const forget = () => this.pending.delete(call);
    call.then(forget, forget);
    return call;
  }

  get size(): number {
    return this.pending.size;
  }

  /** Resolves when every call has settled, or after `timeoutMs`, whichever comes first. */
  async settled(timeoutMs: number): Promise<void> {
    if (this.pending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.pending.keys()]), deadline]);
    clearTimeout(timer);
  }
}
