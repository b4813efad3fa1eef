import { RingTable } from './ring-table.js';

/**
 * The last `capacity` distinct calls seen, by fingerprint, and how many of them were last ruled out.
 * It feeds a ratio reported with every verdict, so it runs on every call and allocates nothing once
 * full (it grows with the calls up to `capacity`).
 */
export class DistinctWindow {
  /** Fingerprints in order of first sight; the oldest is replaced first. */
  private readonly calls: RingTable;
  private ruledOut: Uint8Array;
  private blockedCount = 0;

  constructor(readonly capacity: number) {
    this.calls = new RingTable(capacity);
    this.ruledOut = new Uint8Array(this.calls.allocated);
  }

  get size(): number {
    return this.calls.size;
  }

  get blocked(): number {
    return this.blockedCount;
  }

  has(fingerprint: number): boolean {
    return this.calls.find(0, fingerprint) >= 0;
  }

  /** Records that the call with this fingerprint was proposed, and whether it was ruled out. */
  note(fingerprint: number, blocked: boolean): void {
    const flag = blocked ? 1 : 0;
    let position = this.calls.find(0, fingerprint);
    if (position < 0) {
      const replaced = this.calls.nextPosition;
      if (this.calls.isLive(replaced)) this.blockedCount -= this.ruledOut[replaced] as number;
      position = this.calls.add(0, fingerprint);
      if (position >= this.ruledOut.length) {
        const grown = new Uint8Array(this.calls.allocated);
        grown.set(this.ruledOut);
        this.ruledOut = grown;
      }
    } else {
      this.blockedCount -= this.ruledOut[position] as number;
    }
    this.ruledOut[position] = flag;
    this.blockedCount += flag;
  }

  clear(): void {
    this.calls.clear();
    this.blockedCount = 0;
  }
}
