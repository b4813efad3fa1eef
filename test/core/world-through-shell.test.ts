import { describe, expect, it } from 'vitest';
import { Agent, ENOENT } from './support.js';

const bash = (command: string) => ({ command });

describe('world changes made through the shell', () => {
  it('lets a read of a missing file run again after a branch switch, which may have created it', () => {
    const agent = new Agent();
    agent.call('read_file', { path: 'config/app.yaml' }, ENOENT('config/app.yaml'));
    expect(agent.check('read_file', { path: 'config/app.yaml' }).verdict).toBe('block');
    agent.call('Bash', bash('git checkout feature/config'), "Switched to branch 'feature/config'");
    expect(agent.check('read_file', { path: 'config/app.yaml' }).verdict).toBe('allow');
  });

  const onMain = {
    text: "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean",
    isError: true,
  };

  it('takes a branch switch made again after the user wrote as a change: the user may have switched back', () => {
    const agent = new Agent();
    agent.call('run_shell_command', bash('git checkout docs-update'), "Switched to branch 'docs-update'");
    agent.loop.newRun('user');
    agent.call('run_shell_command', bash('git revert e8bd1cb --no-edit'), onMain);
    agent.call('run_shell_command', bash('git checkout docs-update'), "Switched to branch 'docs-update'");
    expect(agent.check('run_shell_command', bash('git revert e8bd1cb --no-edit')).verdict).toBe('allow');
  });

  it('takes the same branch switch made again with nothing in between as no change', () => {
    const agent = new Agent();
    agent.call('run_shell_command', bash('git checkout docs-update'), "Switched to branch 'docs-update'");
    agent.call('run_shell_command', bash('git revert e8bd1cb --no-edit'), onMain);
    agent.call('run_shell_command', bash('git checkout docs-update'), "Switched to branch 'docs-update'");
    expect(agent.check('run_shell_command', bash('git revert e8bd1cb --no-edit')).verdict).toBe('block');
  });
});

describe('what the shell parser reads a command to change', () => {
  const failing = {
    text: 'FAIL src/cart.test.ts\n  expected 30 received 29\nTests: 1 failed, 12 passed',
    isError: true,
  };

  it('keeps a failing test run banned across a search whose errors go to /dev/null', () => {
    const agent = new Agent();
    agent.call('Bash', bash('npm test'), failing);
    agent.call('Bash', bash('npm test'), failing);
    expect(agent.check('Bash', bash('npm test')).verdict).toBe('block');
    agent.call('Bash', bash('grep -rn "total" src 2>/dev/null'), 'src/cart.ts:12: return total;');
    expect(agent.check('Bash', bash('npm test')).verdict).toBe('block');
  });

  it('keeps a failing notebook edit banned across reads of other files, whatever the tool names its path argument', () => {
    const agent = new Agent();
    const edit = {
      target_notebook: 'analysis.ipynb',
      cell_idx: 3,
      old_string: 'df.head()',
      new_string: 'df.tail()',
    };
    const failed = { text: 'Error: could not find the text to replace in cell 3', isError: true };
    agent.call('edit_notebook', edit, failed);
    agent.call('edit_notebook', edit, failed);
    agent.call('read_file', { path: 'README.md' }, '# Analysis');
    expect(agent.check('edit_notebook', edit).verdict).toBe('block');
  });

  it('lets a failing edit run again after the file was restored from version control', () => {
    const agent = new Agent();
    const edit = { path: 'src/cart.ts', old_str: 'return total - 1;', new_str: 'return total;' };
    const notFound = {
      text: 'No replacement was performed, old_str `return total - 1;` did not appear verbatim in src/cart.ts.',
      isError: true,
    };
    agent.call('str_replace_based_edit_tool', { command: 'str_replace', ...edit }, notFound);
    agent.call('str_replace_based_edit_tool', { command: 'str_replace', ...edit }, notFound);
    expect(agent.check('str_replace_based_edit_tool', { command: 'str_replace', ...edit }).verdict).toBe(
      'block',
    );
    agent.call(
      'Bash',
      bash('git stash pop'),
      'On branch main\nChanges not staged for commit:\n\tmodified:   src/cart.ts',
    );
    expect(agent.check('str_replace_based_edit_tool', { command: 'str_replace', ...edit }).verdict).toBe(
      'allow',
    );
  });

  it('lifts a ban on a notebook edit after a write of that notebook, whatever the tool names its path argument', () => {
    const agent = new Agent();
    const edit = {
      target_notebook: 'analysis.ipynb',
      cell_idx: 3,
      old_string: 'df.head()',
      new_string: 'df.tail()',
    };
    const failed = { text: 'Error: could not find the text to replace in cell 3', isError: true };
    agent.call('edit_notebook', edit, failed);
    agent.call('edit_notebook', edit, failed);
    expect(agent.check('edit_notebook', edit).verdict).toBe('block');
    agent.call(
      'edit_notebook',
      { target_notebook: 'analysis.ipynb', cell_idx: 3, old_string: '', new_string: 'df.head()' },
      'Cell 3 updated',
    );
    expect(agent.check('edit_notebook', edit).verdict).toBe('allow');
  });
});

describe('reading the target since a failure', () => {
  it('gives a failed edit one retry once the agent has read the file in full', () => {
    const agent = new Agent();
    const edit = { file_path: 'src/a.ts', old_string: 'x + 1', new_string: 'x + 2' };
    const notRead = {
      text: 'File has not been read yet. Read it first before writing to it.',
      isError: true,
    };
    agent.call('Edit', edit, notRead);
    agent.call('Edit', edit, notRead);
    expect(agent.check('Edit', edit).verdict).toBe('block');
    agent.call('Read', { file_path: 'src/a.ts' }, 'export const a = x + 1;\n');
    expect(agent.check('Edit', edit).verdict).toBe('allow');
  });

  it('still blocks an edit re-read and retried round after round with the same answers', () => {
    const agent = new Agent();
    const edit = { file_path: 'src/a.ts', old_string: 'x + 1', new_string: 'x + 2' };
    const modified = {
      text: 'File has been modified since read. Read it again before attempting to write it.',
      isError: true,
    };
    const seen: string[] = [];
    for (let round = 0; round < 3; round++) {
      seen.push(agent.call('Read', { file_path: 'src/a.ts' }, 'export const a = x + 1;\n').check.verdict);
      seen.push(agent.call('Edit', edit, modified).check.verdict);
    }
    expect(seen.slice(0, 4)).not.toContain('block');
    expect(seen.slice(4)).toContain('block');
  });
});
