/**
 * The names (last path segments) of the files a detector holds something for, as a cheap test before
 * a look at each file: two spellings of one file (`src/a.ts`, `/repo/src/a.ts`) end with the same
 * name. A name may stay after its file is forgotten (the holder drops its oldest files without saying
 * which), never the other way round; the names are read again from the files held once the stale
 * ones outnumber them.
 */
import { HeldWords } from './held-words.js';

export class FileNames {
  private names = new Set<string>();
  /**
   * The same names, found in a text in one walk over it; built at the first text looked at, and
   * kept up from then on. Failing edits add a name each, and a run of them (a file guessed at after
   * another) asks no text: each name cost a branch of the tree that nothing read.
   */
  private words: HeldWords | undefined;

  /** `files`: the files held, read when the names are rebuilt; `capacity`: how many files are held at most. */
  constructor(
    private readonly files: () => Iterable<string>,
    private readonly capacity: number,
  ) {}

  /** Call before holding something for `file`. */
  add(file: string): void {
    const name = fileName(file);
    if (this.names.has(name)) return;
    if (this.names.size >= 2 * this.capacity) {
      const names = new Set<string>();
      for (const held of this.files()) names.add(fileName(held));
      this.names = names;
      this.words = undefined;
    }
    this.names.add(name);
    this.words?.add(name);
  }

  clear(): void {
    if (this.names.size > 0) this.names = new Set();
    this.words = undefined;
  }

  /**
   * False when `text` holds the name of no file held: each such name is among these, so a text
   * that holds none of them names no file held, without a name cut out of each file's path.
   */
  mayNameIn(text: string): boolean {
    if (this.names.size === 0) return false;
    if (this.words === undefined) {
      const words = new HeldWords();
      for (const name of this.names) words.add(name);
      this.words = words;
    }
    return this.words.foundIn(text);
  }

  /** False when no file held can be `path` under another spelling (see `samePath`). */
  holdsNameOf(path: string): boolean {
    return this.names.size > 0 && this.names.has(fileName(path));
  }
}

export function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
