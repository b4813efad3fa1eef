/** What `wrap` and `unwrap` print about their planned or applied changes. */
import { isAbsolute, relative } from 'node:path';
import { changeDiff, type PlannedChange } from './wrap.js';

export interface DiffPaint {
  readonly added: (text: string) => string;
  readonly removed: (text: string) => string;
  readonly header: (text: string) => string;
}

const PLAIN: DiffPaint = { added: String, removed: String, header: String };

export interface SummaryOptions {
  readonly action: 'wrap' | 'unwrap';
  readonly dryRun: boolean;
  readonly server: string;
  readonly projectDir: string;
  readonly paint?: DiffPaint;
}

export interface Summary {
  readonly stdout: string;
  readonly stderr: string;
  /** 1 when any file was refused. */
  readonly exitCode: 0 | 1;
}

export function summarise(changes: readonly PlannedChange[], options: SummaryOptions): Summary {
  const out: string[] = [];
  const err: string[] = [];
  const paint = options.paint ?? PLAIN;
  if (options.dryRun) {
    for (const change of changes) out.push(...paintDiff(changeDiff(change), paint));
    if (out.length > 0) out.push('');
    out.push('Dry run: no file was changed. Without --dry-run:');
  }
  const lead = options.dryRun ? '  ' : '';
  for (const change of changes) {
    if (change.status === 'refused') {
      err.push(`${lead}${change.message}`);
      continue;
    }
    out.push(`${lead}${change.message}`);
    if (change.status !== 'change' || options.dryRun) continue;
    if (options.action === 'wrap') {
      const saved = shortPath(options.projectDir, change.recordPath);
      out.push(
        `  The original is saved in ${saved}; \`narrowing-guard unwrap ${options.server}\` puts it back.`,
      );
    }
    out.push(`  Next: ${change.client.reloadHint}.`);
  }
  return {
    stdout: out.length > 0 ? `${out.join('\n')}\n` : '',
    stderr: err.length > 0 ? `${err.join('\n')}\n` : '',
    exitCode: changes.some((change) => change.status === 'refused') ? 1 : 0,
  };
}

function paintDiff(diff: string, paint: DiffPaint): string[] {
  if (diff.length === 0) return [];
  return diff
    .trimEnd()
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('@@'))
        return paint.header(line);
      if (line.startsWith('+')) return paint.added(line);
      if (line.startsWith('-')) return paint.removed(line);
      return line;
    });
}

function shortPath(from: string, path: string): string {
  const inside = relative(from, path);
  return inside.length > 0 && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}
