import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GuardSession } from '../../src/guard/session.js';
import { cleanupsAfterEach } from '../mcp/support/harness.js';
import { guardedWorkspace } from './support.js';

const cleanups = cleanupsAfterEach();

const SOURCE = 'export const limit = 2;\nexport const retries = 3;\n';
const NOT_FOUND = (text: string) =>
  `<tool_use_error>String to replace not found in file.\nString: ${text}</tool_use_error>`;

/** A project with one source file, and a guard over its state directory per session. */
function project() {
  const { root, open } = guardedWorkspace(cleanups, 'narrowing-file-bans-');
  const file = join(root, 'src-orders.ts');
  writeFileSync(file, SOURCE);
  return { root, file, open };
}

const edit = (file: string, oldString: string) => ({
  tool: 'Edit',
  args: { file_path: file, old_string: oldString, new_string: 'export const limit = 5;' },
});

/** Proposes the edit; when it runs, it does what the file allows. Returns the verdict. */
function tryEdit(guard: GuardSession, file: string, oldString: string): string {
  const proposal = edit(file, oldString);
  const check = guard.check(proposal);
  if (!check.allowed) return check.verdict;
  const text = readFileSync(file, 'utf8');
  if (text.includes(oldString)) {
    writeFileSync(file, text.replace(oldString, proposal.args.new_string));
    guard.record({ proposal, success: true, content: `The file ${file} has been updated.` });
  } else guard.record({ proposal, success: false, content: NOT_FOUND(oldString) });
  return check.verdict;
}

describe('a ban on a call that failed on what one file holds', () => {
  it('blocks the same edit again while the file holds what it held', () => {
    const { file, open } = project();
    const guard = open();
    expect(tryEdit(guard, file, 'const limit = 10;')).toBe('allow');
    expect(tryEdit(guard, file, 'const limit = 10;')).toBe('block');
  });

  it('lets the edit through once the file was changed where the agent could not see it', () => {
    const { file, open } = project();
    const guard = open();
    tryEdit(guard, file, 'const limit = 10;');
    // The user changes the file by hand, in an editor: no call of the agent's touched it.
    writeFileSync(file, SOURCE.replace('limit = 2', 'limit = 10'));
    expect(tryEdit(guard, file, 'const limit = 10;')).toBe('allow');
    expect(readFileSync(file, 'utf8')).toContain('export const limit = 5;');
  });

  it('blocks the retry after a hand change when it failed again on the new content', () => {
    const { file, open } = project();
    const guard = open();
    tryEdit(guard, file, 'const limit = 10;');
    writeFileSync(file, SOURCE.replace('retries = 3', 'retries = 4'));
    expect(tryEdit(guard, file, 'const limit = 10;')).toBe('allow');
    expect(tryEdit(guard, file, 'const limit = 10;')).toBe('block');
  });

  it('judges the retry on the changed file, not on what was read of it before', () => {
    const { file, open } = project();
    const guard = open();
    const read = { tool: 'Read', args: { file_path: file } };
    guard.check(read);
    const numbered = SOURCE.split('\n').map((line, index) => `${String(index + 1).padStart(6)}\u2192${line}`);
    guard.record({ proposal: read, success: true, content: numbered.join('\n') });
    expect(tryEdit(guard, file, 'const limit = 10;')).toBe('warn');
    writeFileSync(file, SOURCE.replace('limit = 2', 'limit = 10'));
    expect(tryEdit(guard, file, 'const limit = 10;')).toBe('allow');
  });

  it('keeps the ban in a new session while the file is unchanged, and lifts it once the file changed', async () => {
    const { file, open } = project();
    const first = open();
    tryEdit(first, file, 'const limit = 10;');
    await first.close();

    const second = open();
    expect(second.check(edit(file, 'const limit = 10;')).verdict).toBe('block');
    await second.close();

    writeFileSync(file, SOURCE.replace('limit = 2', 'limit = 10'));
    const third = open();
    expect(tryEdit(third, file, 'const limit = 10;')).toBe('allow');
  });
});

describe('a ban on a command whose failure named a source file', () => {
  const SYNTAX =
    '  File "/work/app.py", line 2\n    print("total"\n         ^\nSyntaxError: \'(\' was never closed\n';

  /** Runs the script; it fails while its file does not parse. Returns the verdict. */
  function runScript(guard: GuardSession, root: string): string {
    const proposal = { tool: 'Bash', args: { command: 'python3 app.py' } };
    const check = guard.check(proposal);
    if (!check.allowed) return check.verdict;
    const fixed = readFileSync(join(root, 'app.py'), 'utf8').includes('print("total")');
    if (fixed) guard.record({ proposal, success: true, content: 'total', exitCode: 0 });
    else
      guard.record({
        proposal,
        success: false,
        content: SYNTAX.replace('/work/app.py', join(root, 'app.py')),
        exitCode: 1,
      });
    return check.verdict;
  }

  it('blocks the command again while the file is unchanged, and lets it run once the file was fixed by hand', () => {
    const { root, open } = project();
    writeFileSync(join(root, 'app.py'), 'import sys\nprint("total"\n');
    const guard = open();
    expect(runScript(guard, root)).toBe('allow');
    expect(runScript(guard, root)).toBe('block');
    writeFileSync(join(root, 'app.py'), 'import sys\nprint("total")\n');
    expect(runScript(guard, root)).toBe('allow');
  });

  it('is not carried into a new session, where what runs the script may have changed', async () => {
    const { root, open } = project();
    writeFileSync(join(root, 'app.py'), 'import sys\nprint("total"\n');
    const first = open();
    runScript(first, root);
    expect(runScript(first, root)).toBe('block');
    await first.close();
    expect(runScript(open(), root)).toBe('allow');
  });
});

describe("reads of a file changed outside the agent's view", () => {
  const NOTES = '# Notes\n- first\n';
  const numbered = (text: string) =>
    text
      .split('\n')
      .map((line, index) => `${String(index + 1).padStart(6)}\u2192${line}`)
      .join('\n');

  /** Reads the file as Claude Code's `Read` answers. Returns the verdict. */
  function read(guard: GuardSession, file: string): string {
    const proposal = { tool: 'Read', args: { file_path: file } };
    const check = guard.check(proposal);
    if (check.allowed)
      guard.record({ proposal, success: true, content: numbered(readFileSync(file, 'utf8')) });
    return check.verdict;
  }

  it('blocks reading an unchanged file once more after its answer came back the same four times', () => {
    const { root, open } = project();
    const file = join(root, 'notes.md');
    writeFileSync(file, NOTES);
    const guard = open();
    for (let time = 0; time < 4; time++) read(guard, file);
    expect(read(guard, file)).toBe('block');
  });

  it('lets the agent read again a file someone else changed since its last read', () => {
    const { root, open } = project();
    const file = join(root, 'notes.md');
    writeFileSync(file, NOTES);
    const guard = open();
    for (let time = 0; time < 4; time++) read(guard, file);
    // The user adds a line in an editor while the agent works.
    writeFileSync(file, `${NOTES}- second, from the user\n`);
    expect(read(guard, file)).toBe('allow');
  });

  it('lets a command that prints the file run again once someone else changed it', () => {
    const { root, open } = project();
    const file = join(root, 'notes.md');
    writeFileSync(file, NOTES);
    const guard = open();
    // Codex reads files through its shell.
    const print = { tool: 'shell_command', args: { command: "sed -n '1,40p' notes.md" } };
    const run = () => {
      const check = guard.check(print);
      if (check.allowed)
        guard.record({ proposal: print, success: true, content: readFileSync(file, 'utf8') });
      return check.verdict;
    };
    for (let time = 0; time < 4; time++) run();
    expect(guard.check(print).verdict).toBe('block');
    writeFileSync(file, `${NOTES}- second, from the user\n`);
    expect(run()).toBe('allow');
  });
});
