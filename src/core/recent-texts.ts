/**
 * What was found in the last few texts read, looked up by the text itself. An agent that repeats a
 * failing call is mostly answered with the same text again (that is what a loop is), and one answer
 * is read again where it is checked, recorded, replayed and predicted: comparing a text with one
 * kept here costs nothing when it is the same string, and stops at its length or its first different
 * character when it is another, where reading it anew scans all of it. Few texts, each bounded in
 * length, so that what is kept alive stays small; a longer text is read anew each time.
 */
export class RecentTexts<V> {
  private readonly texts: (string | undefined)[];
  private readonly values: (V | undefined)[];
  private next = 0;

  /**
   * @param read what a text holds; it must answer one text the same way each time.
   * @param size how many texts are kept.
   * @param maxLength the longest text kept.
   */
  constructor(
    private readonly read: (text: string) => V,
    size = 4,
    private readonly maxLength = 64 * 1024,
  ) {
    this.texts = new Array<string | undefined>(size).fill(undefined);
    this.values = new Array<V | undefined>(size).fill(undefined);
  }

  /** What `text` holds: kept from its last reading when it is among the last texts read. */
  of(text: string): V {
    if (text.length > this.maxLength) return this.read(text);
    const texts = this.texts;
    for (let slot = 0; slot < texts.length; slot++) {
      if (texts[slot] === text) return this.values[slot] as V;
    }
    const value = this.read(text);
    texts[this.next] = text;
    this.values[this.next] = value;
    this.next = (this.next + 1) % texts.length;
    return value;
  }
}
