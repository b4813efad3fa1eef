import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gitOnlyReads } from '../../../src/adapters/tool-call/git-reads.js';
import { shellEffectsOf } from '../../../src/adapters/tool-call/shell-effects.js';
import { isReadOnlyCommand } from '../../../src/adapters/tool-call/workspace.js';

const words = (command: string) => command.split(' ').slice(1);

describe('git commands that only read', () => {
  it('takes the listing forms of branch, tag, remote, stash, config and worktree as reads', () => {
    for (const command of [
      'git branch',
      'git branch --show-current',
      'git branch -a',
      'git branch -vv',
      'git branch -r --contains abc123',
      'git branch --list feature/*',
      'git tag',
      'git tag -l v1.*',
      'git tag --sort -creatordate',
      'git remote',
      'git remote -v',
      'git remote get-url origin',
      'git stash list',
      'git stash show -p stash@{0}',
      'git config --get user.email',
      'git config --list',
      'git config get user.name',
      'git worktree list',
      'git reflog',
      'git -C repo rev-parse --abbrev-ref HEAD',
      'git ls-tree -r HEAD',
      'git cat-file -p HEAD',
      'git merge-base main HEAD',
    ])
      expect(gitOnlyReads(words(command)), command).toBe(true);
  });

  it('takes the forms of the same subcommands that create, delete, move or set as writes', () => {
    for (const command of [
      'git branch fix/login',
      'git branch -d old',
      'git branch -D old',
      'git branch -m old new',
      'git branch --set-upstream-to=origin/main',
      'git branch -u origin/main',
      'git tag v1.2.0',
      'git tag -a v1.2.0 -m release',
      'git tag -d v1.2.0',
      'git remote add origin https://example.com/repo.git',
      'git remote set-url origin https://example.com/repo.git',
      'git stash',
      'git stash pop',
      'git config user.name Ada',
      'git config --global core.editor vim',
      'git worktree add ../wt main',
      'git reflog expire --all',
      'git commit -m fix',
      'git',
      'git -C repo',
    ])
      expect(gitOnlyReads(words(command)), command).toBe(false);
  });

  it('takes a listing as looking only, with no change of the tree', () => {
    for (const command of ['git branch --show-current', 'git stash list', 'git remote -v']) {
      const effects = shellEffectsOf(command);
      expect(effects.readsFilesOnly, command).toBe(true);
      expect(effects.onlyLooks, command).toBe(true);
      expect(effects.changesTree, command).toBe(false);
      expect(isReadOnlyCommand(command), command).toBe(true);
    }
    expect(shellEffectsOf('git branch fix/login').onlyLooks).toBe(false);
    expect(isReadOnlyCommand('git branch -d old')).toBe(false);
  });

  it('never reads a command that names a flag which writes refs as a read', () => {
    const flag = fc.constantFrom('-d', '-D', '--delete', '-m', '-M', '--move', '-f', '--force');
    const other = fc.constantFrom('-a', '-v', '-vv', '--list', 'main', 'v1', '--contains', 'HEAD');
    fc.assert(
      fc.property(
        fc.array(other, { maxLength: 4 }),
        flag,
        fc.array(other, { maxLength: 4 }),
        (before, writing, after) => !gitOnlyReads(['branch', ...before, writing, ...after]),
      ),
    );
  });
});
