import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commandText,
  needleOf,
  replacesLinesInPlace,
} from '../../../src/adapters/tool-call/call-arguments.js';
import { createToolCallAdapter } from '../../../src/adapters/tool-call/index.js';

describe('commandText', () => {
  it('reads the script of a shell given with its arguments, as Codex passes a command', () => {
    expect(commandText({ command: ['bash', '-lc', 'cargo check --all'] })).toBe('cargo check --all');
    expect(commandText({ command: ['/bin/zsh', '-c', 'npm test'] })).toBe('npm test');
    expect(commandText({ command: ['pwsh', '-NoProfile', '-Command', 'Get-ChildItem src'] })).toBe(
      'Get-ChildItem src',
    );
  });

  it('joins the words of any other command given as a list', () => {
    expect(commandText({ command: ['cargo', 'check'] })).toBe('cargo check');
    expect(commandText({ command: ['bash', 'scripts/release.sh'] })).toBe('bash scripts/release.sh');
  });

  it('names the program of the script, not the shell that runs it', () => {
    const adapter = createToolCallAdapter();
    const facts = adapter.describeCall({
      tool: 'shell',
      args: { command: ['bash', '-lc', 'apply_patch -h'], workdir: '/home/dev/app' },
    });
    expect(facts.program).toBe('apply_patch');
  });
});

describe('replacesLinesInPlace', () => {
  it('holds for an edit of a range of lines given as many lines, as SWE-agent writes `edit 10:12`', () => {
    expect(replacesLinesInPlace({ lines: '10:12', replacement: 'a = 1\nb = 2\nc = 3' })).toBe(true);
    expect(replacesLinesInPlace({ lines: '619:619', replacement: '    return a + b\n' })).toBe(true);
    expect(replacesLinesInPlace({ start: 10, end: 10, replacement: '    return a + b' })).toBe(true);
    expect(replacesLinesInPlace({ start_line: '4', end_line: '5', new_str: 'x = 1\ny = 2\n' })).toBe(true);
  });

  it('does not hold when the text has more or fewer lines than the range, which moves the lines after it', () => {
    expect(replacesLinesInPlace({ lines: '27:28', replacement: 'p.interactive()' })).toBe(false);
    expect(replacesLinesInPlace({ lines: '10:10', replacement: 'a = 1\nb = 2' })).toBe(false);
    expect(replacesLinesInPlace({ lines: '10:10', replacement: '' })).toBe(false);
  });

  it('does not hold without a whole range, or with more than one text to write', () => {
    expect(replacesLinesInPlace({ replacement: 'a = 1' })).toBe(false);
    expect(replacesLinesInPlace({ start: 10, replacement: 'a = 1' })).toBe(false);
    expect(replacesLinesInPlace({ lines: '12:10', replacement: 'a = 1' })).toBe(false);
    expect(replacesLinesInPlace({ lines: 'all', replacement: 'a = 1' })).toBe(false);
    expect(replacesLinesInPlace({ lines: '1:1', new_string: 'a = 1', content: 'b = 2' })).toBe(false);
  });

  it('holds exactly when the text has as many lines as the range, a final newline ending the last', () => {
    const line = fc.string({ unit: fc.constantFrom('a', ' ', '(') });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.array(line, { minLength: 1 }),
        fc.boolean(),
        (first, lines, ended) => {
          const text = ended ? lines.map((each) => `${each}\n`).join('') : `${lines.join('\n')}x`;
          const last = first + lines.length - 1;
          expect(replacesLinesInPlace({ lines: `${first}:${last}`, replacement: text })).toBe(true);
          expect(replacesLinesInPlace({ lines: `${first}:${last + 1}`, replacement: text })).toBe(false);
          if (last > first)
            expect(replacesLinesInPlace({ lines: `${first}:${last - 1}`, replacement: text })).toBe(false);
        },
      ),
    );
  });

  it('is what the adapter reads of an edit of the open file', () => {
    const adapter = createToolCallAdapter();
    const inPlace = adapter.describeCall({
      tool: 'edit',
      args: { lines: '10:10', replacement: 'return a + b' },
    });
    const moving = adapter.describeCall({ tool: 'edit', args: { lines: '10:10', replacement: 'a\nb' } });
    expect([inPlace.replacesLinesInPlace, moving.replacesLinesInPlace]).toEqual([true, undefined]);
  });
});

describe('the text a patch of one file expected to find', () => {
  const hunkLines = fc.array(
    fc.string({ maxLength: 40 }).filter((line) => !line.includes('\n') && line.trim() !== ''),
    { minLength: 1, maxLength: 6 },
  );

  it('is the hunk the tool quotes as not found, whichever of the patch’s hunks it is', () => {
    fc.assert(
      fc.property(fc.array(hunkLines, { minLength: 1, maxLength: 5 }), fc.nat(), (hunks, pick) => {
        const body = hunks
          .map((lines) => `@@\n${lines.map((line) => `-${line}`).join('\n')}\n+added`)
          .join('\n');
        const patch = `*** Begin Patch\n*** Update File: src/app.py\n${body}\n*** End Patch`;
        const quoted = (hunks[pick % hunks.length] as string[]).join('\n');
        const message = `apply_patch verification failed: Failed to find expected lines in /w/src/app.py:\n${quoted}`;
        const found = needleOf({ input: patch }, message);
        expect(found).toBeDefined();
        expect(message.includes((found as string).trim())).toBe(true);
      }),
    );
  });

  it('is at most 2,000 characters, whatever a patch holds', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5000 }), fc.string({ maxLength: 200 }), (body, message) => {
        const found = needleOf({ input: `*** Begin Patch\n*** Update File: a.txt\n${body}` }, message);
        expect(found === undefined || found.length <= 2000).toBe(true);
      }),
    );
  });
});

describe('edit and write arguments in any naming convention', () => {
  const settings = '/Users/dev/app/src/config/settings.ts';

  it('reads a whole-file write whatever it calls its file and its text, as Windsurf writes TargetFile and CodeContent', () => {
    const adapter = createToolCallAdapter();
    for (const args of [
      { path: settings, content: 'export const port = 3000;\n' },
      { TargetFile: settings, CodeContent: 'export const port = 3000;\n', EmptyFile: false },
      { FilePath: settings, FileContents: 'export const port = 3000;\n' },
    ]) {
      expect({
        args,
        replaces: adapter.describeCall({ tool: 'write_to_file', args }).replacesTarget,
      }).toEqual({
        args,
        replaces: true,
      });
    }
  });

  it('reads the texts an edit looks for in a list of edits under any name, as Windsurf gives ReplacementChunks', () => {
    const adapter = createToolCallAdapter();
    const facts = adapter.describeCall({
      tool: 'replace_file_content',
      args: {
        TargetFile: settings,
        Instruction: 'Export the settings as the default export',
        ReplacementChunks: [
          {
            TargetContent: 'export const port = 3000;',
            ReplacementContent: 'export const port = 3000;\nexport default { port };',
            AllowMultiple: false,
          },
        ],
      },
    });
    expect(facts.searchTexts).toEqual(['export const port = 3000;']);
    expect(facts.writtenText).toContain('export default { port };');
  });

  it('takes the text an edit looks for from old_string, oldString and OldString alike', () => {
    for (const key of ['old_string', 'oldString', 'OldString', 'old-string']) {
      expect(needleOf({ [key]: 'const port = 3000;', new_string: 'const port = 8080;' }, '')).toBe(
        'const port = 3000;',
      );
    }
  });
});
