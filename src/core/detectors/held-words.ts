/**
 * Whether a text holds any of a set of strings anywhere in it, as `text.includes(word)` for each
 * would say, from one walk over the text: the strings are kept in a tree of their characters, and
 * each character of the text that starts one of them is followed down the tree until the strings
 * part from the text. A search per string cost every command a call per file name held (up to a
 * hundred and more), each setting up its own search over the text.
 */
interface Node {
  /** The nodes after this one, by character code. */
  readonly next: Map<number, Node>;
  /** Whether a string held ends here. */
  ends: boolean;
}

export class HeldWords {
  private root: Node = newNode();
  /** Whether any string held starts with the character of each code below 128. */
  private starts = new Uint8Array(128);
  private empty = false;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Holds `word` from now on; a word held already changes nothing. */
  add(word: string): void {
    if (word === '') {
      if (!this.empty) this.count++;
      this.empty = true;
      return;
    }
    const first = word.charCodeAt(0);
    if (first < 128) this.starts[first] = 1;
    let node = this.root;
    for (let index = 0; index < word.length; index++) {
      const code = word.charCodeAt(index);
      let next = node.next.get(code);
      if (next === undefined) {
        next = newNode();
        node.next.set(code, next);
      }
      node = next;
    }
    if (!node.ends) this.count++;
    node.ends = true;
  }

  clear(): void {
    if (this.count === 0) return;
    this.root = newNode();
    this.starts = new Uint8Array(128);
    this.empty = false;
    this.count = 0;
  }

  /** Whether `text` holds any word held, as a part of it (`a.ts` is in `cat src/a.ts.bak`). */
  foundIn(text: string): boolean {
    if (this.empty) return true;
    if (this.count === 0) return false;
    const { root, starts } = this;
    const length = text.length;
    for (let from = 0; from < length; from++) {
      const first = text.charCodeAt(from);
      if (first < 128 && starts[first] === 0) continue;
      let node: Node | undefined = root;
      for (let at = from; at < length; at++) {
        node = node.next.get(text.charCodeAt(at));
        if (node === undefined) break;
        if (node.ends) return true;
      }
    }
    return false;
  }
}

function newNode(): Node {
  return { next: new Map(), ends: false };
}
