/**
 * A line diff in the unified format `diff -u` and `git diff` print, for showing what a command
 * would change before it changes anything. Config files are small and edits are local, so a
 * longest-common-subsequence table over the lines between the common head and tail is plenty.
 */

export interface DiffOptions {
  readonly oldLabel: string;
  readonly newLabel: string;
  /** Unchanged lines shown around each change. Default 3. */
  readonly context?: number;
}

type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string };

const NO_NEWLINE = '\\ No newline at end of file';
/** Beyond this many table cells, the middle is shown as removed and added whole. */
const MAX_TABLE_CELLS = 4_000_000;

/** The unified diff from `before` to `after`; empty when they are equal. */
export function unifiedDiff(before: string, after: string, options: DiffOptions): string {
  if (before === after) return '';
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const ops = diffLines(oldLines, newLines);
  const hunks = groupHunks(ops, options.context ?? 3);
  const out = [`--- ${options.oldLabel}`, `+++ ${options.newLabel}`];
  for (const hunk of hunks) {
    out.push(`@@ -${range(hunk.oldStart, hunk.oldCount)} +${range(hunk.newStart, hunk.newCount)} @@`);
    for (const op of hunk.ops) {
      const unterminated = op.line.endsWith(UNTERMINATED);
      const text = unterminated ? op.line.slice(0, -UNTERMINATED.length) : op.line;
      out.push(op.kind + text.replace(/\r$/, ''));
      if (unterminated) out.push(NO_NEWLINE);
    }
  }
  return `${out.join('\n')}\n`;
}

/** Marks a last line without a newline, so that adding one counts as a change. */
const UNTERMINATED = '\u0000';

function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  else lines[lines.length - 1] += UNTERMINATED;
  return lines;
}

function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const ops: Op[] = a.slice(0, head).map((line) => ({ kind: ' ', line }));
  ops.push(...middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)));
  ops.push(...a.slice(a.length - tail).map((line): Op => ({ kind: ' ', line })));
  return ops;
}

function middle(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_TABLE_CELLS) {
    return [...a.map((line): Op => ({ kind: '-', line })), ...b.map((line): Op => ({ kind: '+', line }))];
  }
  // lcs[i * (m + 1) + j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i++]! });
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      ops.push({ kind: '-', line: a[i++]! });
    } else {
      ops.push({ kind: '+', line: b[j++]! });
    }
  }
  while (i < n) ops.push({ kind: '-', line: a[i++]! });
  while (j < m) ops.push({ kind: '+', line: b[j++]! });
  return ops;
}

interface Hunk {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
  readonly ops: readonly Op[];
}

function groupHunks(ops: readonly Op[], context: number): Hunk[] {
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  const hunks: Hunk[] = [];
  let index = 0;
  while (index < changed.length) {
    const from = Math.max(0, changed[index]! - context);
    let last = changed[index]!;
    // Changes closer than twice the context share a hunk.
    while (index + 1 < changed.length && changed[index + 1]! - last <= 2 * context) last = changed[++index]!;
    index++;
    const to = Math.min(ops.length, last + context + 1);
    const before = ops.slice(0, from);
    const slice = ops.slice(from, to);
    const oldBefore = before.filter((op) => op.kind !== '+').length;
    const newBefore = before.filter((op) => op.kind !== '-').length;
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    hunks.push({
      oldStart: oldCount === 0 ? oldBefore : oldBefore + 1,
      oldCount,
      newStart: newCount === 0 ? newBefore : newBefore + 1,
      newCount,
      ops: slice,
    });
  }
  return hunks;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}
