import { describe, expect, it } from 'vitest';
import { Agent } from '../support.js';

const SOURCE = [
  'import express from "express";',
  '',
  'export function save(user) {',
  '  return db.insert(user);',
  '}',
  '',
].join('\n');
const DB_SOURCE = ['import { createPool } from "pg";', '', 'export const pool = createPool();', ''].join(
  '\n',
);
const edit = (old_string: string) => ({ path: 'src/app.js', old_string, new_string: 'replacement' });

function afterReading(content: string, readArgs: Record<string, unknown> = { path: 'src/app.js' }): Agent {
  const agent = new Agent();
  agent.call('read_file', readArgs, content);
  return agent;
}

describe('absent-text', () => {
  it('steers the first edit whose text is not in the file as it was just read', () => {
    const check = afterReading(SOURCE).check('edit_file', edit('function store(user) {'));
    expect(check).toMatchObject({ verdict: 'warn', rule: 'absent-text' });
    expect(check.reason).toContain('"function store(user) {" is not in src/app.js');
    expect(check.suggestion).toContain('Read src/app.js again');
  });

  it('blocks an edit whose text is absent once an edit of the unchanged file has failed', () => {
    const agent = afterReading(SOURCE);
    agent.call('edit_file', edit('function store(user) {'), {
      text: 'Error: old_string not found in src/app.js',
      isError: true,
    });
    const check = agent.check('edit_file', edit('function keep(user) {'));
    expect(check).toMatchObject({ verdict: 'block', rule: 'absent-text' });
    expect(check.reason).toContain('where an edit has already failed');
  });

  it('keeps blocking when the file was read only some calls after the failure', () => {
    const agent = afterReading(SOURCE);
    agent.call('edit_file', edit('function store(user) {'), {
      text: 'Error: old_string not found in src/app.js',
      isError: true,
    });
    agent.call(
      'search_files',
      { pattern: 'store', path: 'src' },
      'src/app.js:3: export function save(user) {',
    );
    agent.call('read_file', { path: 'src/app.js' }, SOURCE);
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('block');
  });

  it('steers rather than blocks the next such edit once the file was read in full right after the failure', () => {
    const agent = afterReading(SOURCE);
    agent.call('edit_file', edit('function store(user) {'), {
      text: 'Error: old_string not found in src/app.js',
      isError: true,
    });
    agent.call('read_file', { path: 'src/app.js' }, SOURCE);
    expect(agent.check('edit_file', edit('function store(user) {'))).toMatchObject({
      verdict: 'warn',
      rule: 'absent-text',
    });
  });

  it('blocks it again once it failed after that read, whatever is read after', () => {
    const agent = afterReading(SOURCE);
    const refused = { text: 'Error: old_string not found in src/app.js', isError: true };
    agent.call('edit_file', edit('function store(user) {'), refused);
    agent.call('read_file', { path: 'src/app.js' }, SOURCE);
    agent.call('edit_file', edit('function keep(user) {'), refused);
    agent.call('read_file', { path: 'src/app.js' }, SOURCE);
    expect(agent.check('edit_file', edit('function save(user) {\n  return users;'))).toMatchObject({
      verdict: 'block',
      rule: 'absent-text',
    });
  });

  it('steers again once an edit changed the file the failed edit was about', () => {
    const agent = afterReading(SOURCE);
    agent.call('edit_file', edit('function store(user) {'), {
      text: 'Error: old_string not found in src/app.js',
      isError: true,
    });
    agent.call('edit_file', edit('import express from "express";'), 'Edited src/app.js');
    agent.call(
      'read_file',
      { path: 'src/app.js' },
      SOURCE.replace('import express from "express";', 'replacement'),
    );
    expect(agent.check('edit_file', edit('function keep(user) {')).verdict).toBe('warn');
  });

  it('allows an edit whose text is in the file', () => {
    expect(
      afterReading(SOURCE).check('edit_file', edit('export function save(user) {\n  return db.insert(user);'))
        .verdict,
    ).toBe('allow');
  });

  it('allows an edit whose quotes and dashes are plain where the file has typographic ones', () => {
    const prose = '## Usage\n\nRun it once \u2014 it \u201cjust works\u201d, and that\u2019s all.\n';
    const agent = afterReading(prose, { path: 'README.md' });
    const plain = {
      path: 'README.md',
      old_string: 'Run it once - it "just works", and that\'s all.',
      new_string: 'x',
    };
    expect(agent.check('edit_file', plain).verdict).toBe('allow');
    const other = { path: 'README.md', old_string: 'Run it twice - it "just works".', new_string: 'x' };
    expect(agent.check('edit_file', other).verdict).toBe('warn');
  });

  it('does not look for a line of an edit that stands for lines left out', () => {
    const agent = afterReading(SOURCE);
    const elided = edit('export function save(user) {\n  // ...\n}');
    expect(agent.check('edit_file', elided).verdict).toBe('allow');
  });

  it('finds the text through line numbers and re-indentation in the read result', () => {
    const numbered = SOURCE.split('\n')
      .map((line, index) => `${String(index + 1).padStart(6)}\t${line}`)
      .join('\n');
    const agent = afterReading(numbered);
    expect(
      agent.check('edit_file', edit('export function save(user) {\n    return db.insert(user);')).verdict,
    ).toBe('allow');
  });

  it('does not trust a read of part of the file', () => {
    const agent = afterReading(SOURCE, { path: 'src/app.js', offset: 1, limit: 2 });
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });

  it('does not trust a read result that says it was truncated', () => {
    const agent = afterReading(`${SOURCE}\n[... 1200 more lines truncated]`);
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });

  it('does not trust a result that wraps the file in JSON', () => {
    const agent = afterReading(JSON.stringify({ path: 'src/app.js', content: SOURCE }));
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });

  it('forgets a file once an edit changed it in a way it cannot follow (text found more than once)', () => {
    const agent = afterReading(SOURCE);
    agent.call('edit_file', edit('user'), 'Edited src/app.js');
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });

  it('forgets every file after a command that may have changed them, but not after a read-only one', () => {
    const agent = afterReading(SOURCE);
    agent.call('bash', { command: 'git status' }, 'nothing to commit, working tree clean');
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('warn');
    agent.call('bash', { command: 'npx prettier --write src' }, 'src/app.js 12ms');
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });

  it('keeps what it read across a test run or a build, which write only outputs', () => {
    const agent = afterReading(SOURCE);
    agent.call(
      'edit_file',
      { path: 'src/other.js', old_string: 'a', new_string: 'b' },
      'Edited src/other.js',
    );
    agent.call('bash', { command: 'npm test' }, 'Tests: 12 passed, 12 total');
    agent.call('bash', { command: 'npx tsc --noEmit' }, '');
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('warn');
  });

  it('forgets what it read after a test run that updates snapshots', () => {
    const agent = afterReading(SOURCE);
    agent.call(
      'edit_file',
      { path: 'src/other.js', old_string: 'a', new_string: 'b' },
      'Edited src/other.js',
    );
    agent.call('bash', { command: 'npx jest -u' }, 'Snapshots: 2 updated, 2 total');
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });

  it('does not trust a read whose middle an output limit cut out', () => {
    const lines = Array.from({ length: 80 }, (_, line) => `const value${line} = ${line};`);
    const cut = [
      ...lines.slice(0, 40),
      '[... 48213 characters truncated ...]',
      ...lines.slice(40),
      SOURCE,
    ].join('\n');
    expect(afterReading(cut).check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });

  it('knows what a whole-file write left in the file', () => {
    const agent = new Agent();
    agent.call('write_file', { path: 'src/app.js', content: SOURCE }, 'Successfully wrote to src/app.js');
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('warn');
  });

  it('leaves search/replace blocks alone, since some tools match them loosely', () => {
    const agent = afterReading(SOURCE);
    const diff = '<<<<<<< SEARCH\nfunction store(user) {\n=======\nfunction keep(user) {\n>>>>>>> REPLACE';
    expect(agent.check('apply_diff', { path: 'src/app.js', diff }).verdict).toBe('allow');
  });

  it('forgets what it read when the user speaks, since files may have been edited by hand', () => {
    const agent = afterReading(SOURCE);
    agent.loop.newRun('user');
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });

  it('can be turned off by policy', () => {
    const agent = new Agent({ policy: { detectors: { absentText: { enabled: false } } } });
    agent.call('read_file', { path: 'src/app.js' }, SOURCE);
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });
});

describe('absent-text trusts only whole-file reads', () => {
  it('does not trust a read with a range argument of any name', () => {
    const agent = afterReading(SOURCE, {
      target_file: 'src/app.js',
      start_line_one_indexed: 1,
      end_line_one_indexed_inclusive: 3,
    });
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });

  it('does not trust a read of more lines than read tools return by default', () => {
    const long = `${Array.from({ length: 1200 }, (_, line) => `const value${line} = ${line};`).join('\n')}\n${SOURCE}`;
    expect(afterReading(long).check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });

  it('does not trust a result that says it was clipped', () => {
    const agent = afterReading(
      `${SOURCE}\n<response clipped><NOTE>To save on context only part of this file has been shown to you.</NOTE>`,
    );
    expect(agent.check('edit_file', edit('function store(user) {')).verdict).toBe('allow');
  });
});

describe('absent-text after exact replacements', () => {
  function afterRename(): Agent {
    const agent = afterReading(SOURCE);
    agent.call(
      'edit_file',
      {
        path: 'src/app.js',
        old_string: 'export function save(user) {',
        new_string: 'export function store(user) {',
      },
      'The file src/app.js has been updated.',
    );
    return agent;
  }

  it('keeps knowing a file through an edit that replaced text found once, and steers text in neither version', () => {
    const check = afterRename().check('edit_file', edit('  return db.upsert(user);'));
    expect(check).toMatchObject({ verdict: 'warn', rule: 'absent-text' });
  });

  it('allows an edit of the text the replacement wrote', () => {
    expect(afterRename().check('edit_file', edit('export function store(user) {')).allowed).toBe(true);
  });

  it('allows an edit of the text as it was before the replacement, in case the tool did not make it', () => {
    expect(afterRename().check('edit_file', edit('export function save(user) {')).allowed).toBe(true);
  });
});

describe('absent-text after the editor said the file changed since it was read', () => {
  const numbered = (content: string, from = 1) =>
    content
      .split('\n')
      .map((line, index) => `${String(index + from).padStart(6)}\t${line}`)
      .join('\n');
  const claudeEdit = (old_string: string) => ({
    file_path: '/home/dev/shop/src/app.js',
    old_string,
    new_string: 'replacement',
    replace_all: false,
  });
  const STALE_CLAUDE = {
    text:
      '<tool_use_error>File has been modified since read, either by the user or by a linter. ' +
      'Read it again before attempting to write it.</tool_use_error>',
    isError: true,
  };

  it('neither blocks nor steers an edit whose text is not in the file as read before the refusals', () => {
    const agent = new Agent();
    agent.call('Read', { file_path: '/home/dev/shop/src/app.js' }, numbered(SOURCE));
    agent.call('Edit', claudeEdit('export function save(user) {'), STALE_CLAUDE);
    agent.call('Edit', claudeEdit('  return db.insert(user);'), STALE_CLAUDE);
    agent.call(
      'Read',
      { file_path: '/home/dev/shop/src/app.js', offset: 3, limit: 2 },
      numbered('export function save(user, options) {\n  return db.insert(user, options);', 3),
    );
    expect(agent.check('Edit', claudeEdit('export function save(user, options) {')).verdict).toBe('allow');
  });

  it('forgets the file for another host whose edit tool says it was modified since it was last read', () => {
    const agent = new Agent();
    agent.call('read', { filePath: '/home/dev/shop/src/app.js' }, numbered(SOURCE));
    agent.call(
      'edit',
      { filePath: '/home/dev/shop/src/app.js', oldString: 'export function save(user) {', newString: 'x' },
      {
        text:
          'Error: File /home/dev/shop/src/app.js has been modified since it was last read.\n' +
          'Last modification: 2026-03-02T10:00:12.000Z\nLast read: 2026-03-02T10:00:02.000Z\n\n' +
          'Please read the file again before modifying it.',
        isError: true,
      },
    );
    expect(
      agent.check('edit', {
        filePath: '/home/dev/shop/src/app.js',
        oldString: 'export function save(user, options) {',
        newString: 'x',
      }).verdict,
    ).toBe('allow');
  });

  it('forgets every file read before, not only the one the editor refused, since another writer is at work', () => {
    const agent = new Agent();
    agent.call('Read', { file_path: '/home/dev/shop/src/app.js' }, numbered(SOURCE));
    agent.call('Read', { file_path: '/home/dev/shop/src/db.js' }, numbered(DB_SOURCE));
    agent.call('Edit', claudeEdit('export function save(user) {'), STALE_CLAUDE);
    const dbEdit = {
      ...claudeEdit('export const pool = createPool(env);'),
      file_path: '/home/dev/shop/src/db.js',
    };
    expect(agent.check('Edit', dbEdit).verdict).toBe('allow');
  });

  it('checks edits again once the file is read whole after the refusal', () => {
    const agent = new Agent();
    agent.call('Read', { file_path: '/home/dev/shop/src/app.js' }, numbered(SOURCE));
    agent.call('Edit', claudeEdit('export function save(user) {'), STALE_CLAUDE);
    agent.call('Read', { file_path: '/home/dev/shop/src/app.js' }, numbered(SOURCE));
    expect(agent.check('Edit', claudeEdit('function store(user) {'))).toMatchObject({
      verdict: 'warn',
      rule: 'absent-text',
    });
  });
});

describe('absent-text when two whole reads of a file disagree', () => {
  /** A host's answer to a read of a file it already gave in full: a note, not the file. */
  const UNCHANGED_NOTE =
    'File unchanged since it was last read: the earlier read result in this conversation is still current.';

  it('keeps the earlier read beside later answers that are no copy of the file', () => {
    const agent = afterReading(SOURCE);
    agent.call('read_file', { path: 'src/app.js' }, UNCHANGED_NOTE);
    agent.call('read_file', { path: 'src/app.js' }, UNCHANGED_NOTE);
    expect(agent.check('edit_file', edit('export function save(user) {')).verdict).toBe('allow');
  });

  it("keeps the earlier read beside a later one that shows the file changed outside the agent's view", () => {
    const agent = afterReading(SOURCE);
    agent.call('read_file', { path: 'src/app.js' }, SOURCE.replace('save(user)', 'save(user, options)'));
    expect(agent.check('edit_file', edit('export function save(user, options) {')).verdict).toBe('allow');
    expect(agent.check('edit_file', edit('export function save(user) {')).verdict).toBe('allow');
  });

  it('still steers an edit whose text is in neither read', () => {
    const agent = afterReading(SOURCE);
    agent.call('read_file', { path: 'src/app.js' }, UNCHANGED_NOTE);
    expect(agent.check('edit_file', edit('function store(user) {'))).toMatchObject({
      verdict: 'warn',
      rule: 'absent-text',
    });
  });
});
