/** Plain-text and Markdown tables for benchmark reports: the same rows, two renderings. */

export type Align = 'left' | 'right';

export interface Column {
  readonly title: string;
  readonly align?: Align;
}

export type Cell = string | number;

function text(cell: Cell): string {
  return typeof cell === 'number' ? String(cell) : cell;
}

/** Columns padded to their widest cell, separated by two spaces. */
export function textTable(columns: readonly Column[], rows: readonly (readonly Cell[])[]): string[] {
  const widths = columns.map((column, index) =>
    Math.max(column.title.length, ...rows.map((row) => text(row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => {
        const width = widths[index] ?? 0;
        return columns[index]?.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.title)), ...rows.map((row) => line(row.map(text)))];
}

export function markdownTable(columns: readonly Column[], rows: readonly (readonly Cell[])[]): string[] {
  const escapeCell = (cell: Cell) => text(cell).replace(/\|/g, '\\|');
  return [
    `| ${columns.map((column) => escapeCell(column.title)).join(' | ')} |`,
    `|${columns.map((column) => (column.align === 'right' ? '---:' : ':---')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
  ];
}

/** `part` as a whole-number percentage of `whole`; a dash when there is no whole to compare with. */
export function percentOf(part: number, whole: number): string {
  return whole === 0 ? '—' : `${Math.round((100 * part) / whole)}%`;
}

export function usd(value: number): string {
  return `$${value.toFixed(3)}`;
}

/** Nanoseconds as the most readable unit. */
export function duration(ns: number): string {
  if (ns < 1_000) return `${Math.round(ns)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toFixed(2)} µs`;
  return `${(ns / 1_000_000).toFixed(2)} ms`;
}

export function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** A titled table with notes under it: what every benchmark report is made of. */
export interface Section {
  readonly title?: string;
  readonly columns: readonly Column[];
  readonly rows: readonly (readonly Cell[])[];
  readonly notes?: readonly string[];
}

export function renderText(sections: readonly Section[]): string {
  const out: string[] = [];
  for (const section of sections) {
    if (out.length > 0) out.push('');
    if (section.title) out.push(section.title);
    out.push(...textTable(section.columns, section.rows));
    for (const note of section.notes ?? []) out.push(`  ${note}`);
  }
  return out.join('\n');
}

export function renderMarkdown(sections: readonly Section[], heading = '###'): string {
  const out: string[] = [];
  for (const section of sections) {
    if (out.length > 0) out.push('');
    if (section.title) out.push(`${heading} ${section.title}`, '');
    out.push(...markdownTable(section.columns, section.rows));
    if (section.notes && section.notes.length > 0) out.push('', ...section.notes.map((note) => `- ${note}`));
  }
  return out.join('\n');
}
