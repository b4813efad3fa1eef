import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const SETTINGS = '/Users/dev/app/src/config/settings.ts';
const MISSING = { error: `Error: file does not exist: ${SETTINGS}` };

describe('a write named in another convention', () => {
  it('creates the file a read found missing, as Windsurf writes TargetFile and CodeContent', () => {
    const agent = new Agent();
    const view = { AbsolutePath: SETTINGS, StartLine: 0, EndLine: 50 };
    agent.call('view_file', view, MISSING);
    const write = { TargetFile: SETTINGS, CodeContent: 'export const port = 3000;\n', EmptyFile: false };
    expect(agent.call('write_to_file', write, `Created file ${SETTINGS}`).check.allowed).toBe(true);
    expect(agent.check('view_file', view).allowed).toBe(true);
  });
});

describe('an edit that needs nothing its file holds', () => {
  const MISSING_TS = { error: 'File not found: src/lib/rate-limit.ts' };
  const read = { target_file: 'src/lib/rate-limit.ts', should_read_entire_file: true };

  it('may create the file a read found missing, as Cursor creates one with edit_file', () => {
    const agent = new Agent();
    agent.call('read_file', read, MISSING_TS);
    const create = {
      target_file: 'src/lib/rate-limit.ts',
      instructions: 'Create a rate limiter',
      code_edit: 'export function rateLimit() {\n  return true;\n}\n',
    };
    expect(agent.call('edit_file', create, 'The apply model made the following changes').check.allowed).toBe(
      true,
    );
    expect(agent.check('read_file', read).allowed).toBe(true);
  });

  it('still rules out moving the missing file elsewhere', () => {
    const agent = new Agent();
    agent.call(
      'read_file',
      { path: 'docs/old-notes.md' },
      {
        error: "Error: ENOENT: no such file or directory, open 'docs/old-notes.md'",
      },
    );
    const move = { source: 'docs/old-notes.md', destination: 'docs/archive/old-notes.md' };
    expect(agent.check('move_file', move)).toMatchObject({ verdict: 'block', rule: 'missing-target' });
  });

  it('still rules out an edit that looks for a text in the missing file', () => {
    const agent = new Agent();
    agent.call('read_file', read, MISSING_TS);
    const edit = {
      target_file: 'src/lib/rate-limit.ts',
      old_string: 'return true;',
      new_string: 'return false;',
    };
    expect(agent.check('search_replace', edit).verdict).toBe('block');
  });
});

describe('an edit made in chunks, as Windsurf sends it', () => {
  const chunk = (allowMultiple: boolean) => ({
    TargetFile: '/home/dev/api/src/backups.service.ts',
    ReplacementChunks: [
      {
        TargetContent: '    return {\n      id: row.id,\n    };',
        ReplacementContent: '    return {\n      id: row.id,\n      size: row.size,\n    };',
        AllowMultiple: allowMultiple,
      },
    ],
  });

  it('is another attempt once a chunk allows several matches', () => {
    const agent = new Agent();
    agent.call('replace_file_content', chunk(false), {
      error: 'Found 2 matches of the string to replace, but AllowMultiple is false.',
    });
    expect(agent.check('replace_file_content', chunk(false)).verdict).toBe('block');
    expect(agent.check('replace_file_content', chunk(true)).allowed).toBe(true);
  });
});
