/** A deadline kept by `Deadlines`: moved by `reset`, ended by `clear`. */
export interface Deadline {
  /** The deadline is now `ms` from now; a deadline that had passed or was cleared is kept again. */
  reset(ms: number): void;
  /** No longer kept: its function will not be called. */
  clear(): void;
}

/**
 * Many deadlines on one timer. A timer for each tool call costs an object, a place in Node's timer
 * lists and their upkeep on every call, although a call is almost always answered long before its
 * timer would fire. Here a deadline is an entry in a list, and the one timer is set only when a
 * deadline falls before it: all of a proxy's calls share one timeout, so a new deadline falls after
 * the timer, which is left alone.
 *
 * When the timer fires, each deadline that has passed has its function called, and the timer is set
 * for the earliest one left. The timer keeps the process alive while a deadline is kept, as a timer of
 * its own would, and not once none is: it then stays set, unreferenced, for the next deadlines.
 */
export class Deadlines {
  private first: Entry | undefined;
  private last: Entry | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires, on `performance.now()`'s clock; Infinity when it is not set. */
  private timerAt = Number.POSITIVE_INFINITY;
  /** Whether the timer keeps the process alive: while a deadline is kept. */
  private timerHeld = false;
  private count = 0;

  /** Calls `expire` once `ms` have passed, unless the deadline is reset or cleared first. */
  add(ms: number, expire: () => void): Deadline {
    const entry = new Entry(this, expire);
    this.keep(entry, ms);
    return entry;
  }

  /** How many deadlines are kept. */
  get size(): number {
    return this.count;
  }

  /** Whether the timer keeps the process alive. */
  get holdsProcess(): boolean {
    return this.timer !== undefined && this.timerHeld;
  }

  /** @internal */
  keep(entry: Entry, ms: number): void {
    entry.at = performance.now() + ms;
    if (entry.state !== 'kept') this.link(entry);
    if (entry.at < this.timerAt) this.setTimer(entry.at);
    else if (!this.timerHeld) this.hold(true);
  }

  /** @internal */
  drop(entry: Entry): void {
    if (entry.state !== 'kept') {
      entry.state = 'idle';
      return;
    }
    this.unlink(entry);
    entry.state = 'idle';
    if (this.first === undefined) this.hold(false);
  }

  private hold(held: boolean): void {
    this.timerHeld = held;
    if (held) this.timer?.ref();
    else this.timer?.unref();
  }

  private link(entry: Entry): void {
    this.count += 1;
    entry.state = 'kept';
    entry.previous = this.last;
    entry.next = undefined;
    if (this.last) this.last.next = entry;
    else this.first = entry;
    this.last = entry;
  }

  private unlink(entry: Entry): void {
    this.count -= 1;
    if (entry.previous) entry.previous.next = entry.next;
    else this.first = entry.next;
    if (entry.next) entry.next.previous = entry.previous;
    else this.last = entry.previous;
    entry.previous = undefined;
    entry.next = undefined;
  }

  private setTimer(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    // Node's timers run on the event loop's clock, which can lag `performance.now()`: a timer that
    // fires a little early finds nothing due and is set again for what is left.
    this.timer = setTimeout(this.sweep, Math.max(1, Math.ceil(at - performance.now())));
    this.timerHeld = true;
  }

  private readonly sweep = () => {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.timerHeld = false;
    const now = performance.now();
    const due: Entry[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (let entry = this.first; entry; entry = entry.next) {
      if (entry.at <= now) due.push(entry);
      else if (entry.at < next) next = entry.at;
    }
    for (const entry of due) {
      this.unlink(entry);
      entry.state = 'due';
    }
    if (next < Number.POSITIVE_INFINITY) this.setTimer(next);
    // A timer that fired late finds several passed: they are called in the order they fell due.
    if (due.length > 1) due.sort((a, b) => a.at - b.at);
    // Last: a function called here may add, reset or clear deadlines, and the timer is already right.
    for (const entry of due) {
      // An earlier one may have reset or cleared it.
      if (entry.state !== 'due') continue;
      entry.state = 'idle';
      entry.expire();
    }
  };
}

class Entry implements Deadline {
  at = 0;
  /** In the list; taken out of it by a sweep and not expired yet; or neither. */
  state: 'kept' | 'due' | 'idle' = 'idle';
  previous: Entry | undefined;
  next: Entry | undefined;

  constructor(
    private readonly owner: Deadlines,
    readonly expire: () => void,
  ) {}

  reset(ms: number): void {
    this.owner.keep(this, ms);
  }

  clear(): void {
    this.owner.drop(this);
  }
}
