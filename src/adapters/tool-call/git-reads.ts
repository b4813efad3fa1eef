/**
 * Whether a `git` command only reads the repository: `git status`, `git log`, and the listing forms
 * of subcommands that also write (`git branch --show-current` but not `git branch fix`, `git stash
 * list` but not `git stash`, `git config --get user.name` but not `git config user.name Ada`).
 */
import { subcommandIndex } from './subcommand.js';

/** Subcommands that only read, whatever follows them. */
const READERS: ReadonlySet<string> = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'blame',
  'grep',
  'describe',
  'shortlog',
  'cat-file',
  'rev-list',
  'merge-base',
  'name-rev',
  'for-each-ref',
  'show-ref',
  'show-branch',
  'count-objects',
  'whatchanged',
  'cherry',
  'check-ignore',
  'check-attr',
  'version',
]);

/** Options before the subcommand that take the next word as their value (`git -C repo status`). */
const GLOBAL_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']);

/** Options of `branch` and `tag` listings that take the next word as their value. */
const LISTING_VALUED = new Set([
  '--contains',
  '--no-contains',
  '--merged',
  '--no-merged',
  '--points-at',
  '--format',
  '--sort',
  '--column',
]);

/** Flags that make `branch` create, delete, move, copy or configure a branch instead of listing. */
const BRANCH_WRITING_FLAGS = new Set([
  '-d',
  '-D',
  '--delete',
  '-m',
  '-M',
  '--move',
  '-c',
  '-C',
  '--copy',
  '-u',
  '--set-upstream-to',
  '--unset-upstream',
  '--edit-description',
  '-f',
  '--force',
  '-t',
  '--track',
  '--no-track',
  '--create-reflog',
]);

/** Flags that make `tag` create, sign or delete a tag instead of listing. */
const TAG_WRITING_FLAGS = new Set([
  '-d',
  '--delete',
  '-a',
  '--annotate',
  '-s',
  '--sign',
  '-u',
  '--local-user',
  '-m',
  '--message',
  '-F',
  '--file',
  '-e',
  '--edit',
  '-f',
  '--force',
  '--create-reflog',
]);

/** Subcommands whose first operand says whether they list or change (`git stash list`, `git remote show`). */
const LISTING_ACTIONS: ReadonlyMap<string, ReadonlySet<string | undefined>> = new Map([
  ['stash', new Set(['list', 'show'])],
  ['remote', new Set([undefined, 'show', 'get-url'])],
  ['worktree', new Set(['list'])],
  ['submodule', new Set(['status', 'summary'])],
  ['notes', new Set(['list', 'show'])],
  ['reflog', new Set([undefined, 'show'])],
]);

/** `git config` reading rather than setting. */
const CONFIG_READING_FLAGS = new Set([
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--list',
  '-l',
]);
const CONFIG_READING_ACTIONS = new Set(['get', 'list']);

/** Whether `git` run with `args` (the words after `git`) only reads the repository. */
export function gitOnlyReads(args: readonly string[]): boolean {
  const index = subcommandIndex(args, GLOBAL_VALUED);
  const subcommand = args[index];
  if (subcommand === undefined) return false;
  if (READERS.has(subcommand)) return true;
  const rest = args.slice(index + 1);
  if (subcommand === 'branch') return listsRefs(rest, BRANCH_WRITING_FLAGS);
  if (subcommand === 'tag') return listsRefs(rest, TAG_WRITING_FLAGS);
  if (subcommand === 'config') {
    return rest.some((arg) => CONFIG_READING_FLAGS.has(arg)) || CONFIG_READING_ACTIONS.has(rest[0] ?? '');
  }
  const actions = LISTING_ACTIONS.get(subcommand);
  return actions?.has(rest.find((arg) => !arg.startsWith('-'))) === true;
}

/** `git branch` or `git tag` listing: no flag that writes, and no name unless `--list` makes it a pattern. */
function listsRefs(args: readonly string[], writingFlags: ReadonlySet<string>): boolean {
  let listing = false;
  let named = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (writingFlags.has(arg) || arg.startsWith('--set-upstream-to=') || arg.startsWith('--message='))
      return false;
    if (arg === '-l' || arg === '--list') listing = true;
    // Their values are commits, formats or keys, never flags (`--contains` alone means HEAD).
    else if (LISTING_VALUED.has(arg) && !(args[index + 1] ?? '-').startsWith('-')) index++;
    else if (!arg.startsWith('-')) named = true;
  }
  return listing || !named;
}
