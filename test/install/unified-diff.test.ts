import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/install/index.js';

const labels = { oldLabel: 'a/.mcp.json', newLabel: 'b/.mcp.json' };

/** Applies a unified diff the way `patch` does, trusting its line numbers. */
function applyDiff(before: string, diff: string): string {
  if (diff === '') return before;
  // Old lines with their terminators, so that untouched lines are copied exactly.
  const old = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const ops: { kind: string; text: string; terminated: boolean }[] = [];
  const hunks: { from: number; ops: typeof ops }[] = [];
  for (const line of diff.trimEnd().split('\n').slice(2)) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(line);
    if (header) {
      const start = Number(header[1]);
      const count = header[2] === undefined ? 1 : Number(header[2]);
      hunks.push({ from: count === 0 ? start : start - 1, ops: [] });
    } else if (line === '\\ No newline at end of file') {
      hunks.at(-1)!.ops.at(-1)!.terminated = false;
    } else {
      hunks.at(-1)!.ops.push({ kind: line[0]!, text: line.slice(1), terminated: true });
    }
  }
  let out = '';
  let cursor = 0;
  for (const hunk of hunks) {
    while (cursor < hunk.from) out += old[cursor++];
    for (const op of hunk.ops) {
      if (op.kind !== '+') cursor++;
      if (op.kind !== '-') out += op.text + (op.terminated ? '\n' : '');
    }
  }
  while (cursor < old.length) out += old[cursor++];
  return out;
}

describe('unifiedDiff', () => {
  it('is empty when nothing changed', () => {
    expect(unifiedDiff('{}\n', '{}\n', labels)).toBe('');
  });

  it('turns the old text into the new one when applied', () => {
    const lines = fc.array(fc.constantFrom('{', '}', '  "a": 1,', '  "b": [', '    "x"', '  ]', ''), {
      maxLength: 30,
    });
    const text = fc
      .tuple(lines, fc.boolean())
      .map(([parts, newline]) => (parts.length === 0 ? '' : parts.join('\n') + (newline ? '\n' : '')));
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(applyDiff(before, unifiedDiff(before, after, labels))).toBe(after);
      }),
    );
  });

  it('shows a change with three lines of context and hunk line numbers', () => {
    const before = [
      '{',
      '  "mcpServers": {',
      '    "fs": {',
      '      "command": "node",',
      '      "args": []',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
    const after = before.replace('"command": "node"', '"command": "npx"');
    expect(unifiedDiff(before, after, labels)).toBe(
      [
        '--- a/.mcp.json',
        '+++ b/.mcp.json',
        '@@ -1,7 +1,7 @@',
        ' {',
        '   "mcpServers": {',
        '     "fs": {',
        '-      "command": "node",',
        '+      "command": "npx",',
        '       "args": []',
        '     }',
        '   }',
        '',
      ].join('\n'),
    );
  });

  it('marks a last line without a newline', () => {
    expect(unifiedDiff('{}', '{}\n', labels)).toContain('-{}\n\\ No newline at end of file\n+{}\n');
  });
});
