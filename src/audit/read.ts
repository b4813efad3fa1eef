/**
 * Reading a journal back, for inspection, explanation and replay. A last line cut off by a crash
 * is skipped: it never became an entry.
 */
import { type JournalEntry, parseEntry } from './entry.js';
import { type JournalLine, readLines, readLinesSync } from './lines.js';

export interface ReadJournalOptions {
  /**
   * Called for a line that is not an entry (other than a cut-off last line). Without it, such a
   * line is an error.
   */
  readonly onBadLine?: (line: JournalLine) => void;
}

export async function* readJournal(
  path: string,
  options: ReadJournalOptions = {},
): AsyncGenerator<JournalEntry> {
  let lines: AsyncGenerator<JournalLine>;
  try {
    lines = readLines(path);
    const first = await lines.next();
    if (first.done) return;
    const entry = accept(path, first.value, options);
    if (entry !== undefined) yield entry;
  } catch (error) {
    throw missing(path, error);
  }
  for await (const line of lines) {
    const entry = accept(path, line, options);
    if (entry !== undefined) yield entry;
  }
}

export function readJournalSync(path: string, options: ReadJournalOptions = {}): JournalEntry[] {
  const entries: JournalEntry[] = [];
  try {
    for (const line of readLinesSync(path)) {
      const entry = accept(path, line, options);
      if (entry !== undefined) entries.push(entry);
    }
  } catch (error) {
    throw missing(path, error);
  }
  return entries;
}

function accept(path: string, line: JournalLine, options: ReadJournalOptions): JournalEntry | undefined {
  if (line.text.trim().length === 0) return undefined;
  const entry = parseEntry(line.text);
  if (entry !== undefined || !line.terminated) return entry;
  if (options.onBadLine !== undefined) {
    options.onBadLine(line);
    return undefined;
  }
  throw new Error(
    `Line ${line.number} of the journal ${path} is not a journal entry. ` +
      'Run verify on the journal to see whether it was damaged.',
  );
}

function missing(path: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error;
  return new Error(`There is no journal at ${path}. Check the path, or the state directory it should be in.`);
}
