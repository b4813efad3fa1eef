/**
 * Reads files out of a fetched git repository (a bare directory or a checkout's `.git`) at one
 * commit, without a work tree: the corpus is rebuilt from pinned commits, never from whatever a
 * checkout holds today.
 */
import { execFileSync } from 'node:child_process';

/** Output of one git command; big enough for the largest trajectory files we read. */
const MAX_GIT_OUTPUT = 256 * 1024 * 1024;

function git(gitDir: string, args: readonly string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], {
    encoding: 'utf8',
    maxBuffer: MAX_GIT_OUTPUT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The full id of `rev` (a commit id, its prefix or a ref) in the repository. */
export function resolveCommit(gitDir: string, rev: string): string {
  return git(gitDir, ['rev-parse', '--verify', `${rev}^{commit}`]).trim();
}

/** The paths of the files under `prefix` at `commit` whose blobs are present (not left out of the snapshot). */
export function listFiles(gitDir: string, commit: string, prefix = ''): string[] {
  const out = git(gitDir, ['ls-tree', '-r', '-z', commit, ...(prefix ? ['--', prefix] : [])]);
  const entries: { object: string; path: string }[] = [];
  for (const record of out.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [, type, object] = record.slice(0, tab).split(/\s+/);
    if (type === 'blob' && object) entries.push({ object, path: record.slice(tab + 1) });
  }
  // One `cat-file --batch-check` for all: a snapshot may lack its largest blobs.
  const checked = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    input: entries.map((entry) => entry.object).join('\n'),
    encoding: 'utf8',
    maxBuffer: MAX_GIT_OUTPUT,
  }).split('\n');
  return entries.filter((_, index) => checked[index]?.endsWith(' blob')).map((entry) => entry.path);
}

/** The text of `path` at `commit`. */
export function readFile(gitDir: string, commit: string, path: string): string {
  return git(gitDir, ['show', `${commit}:${path}`]);
}

/** The size in bytes of each of `paths` at `commit` (0 for a path the snapshot lacks). */
export function blobSizes(gitDir: string, commit: string, paths: readonly string[]): Map<string, number> {
  const checked = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-check=%(objecttype) %(objectsize)'], {
    input: paths.map((path) => `${commit}:${path}`).join('\n'),
    encoding: 'utf8',
    maxBuffer: MAX_GIT_OUTPUT,
  }).split('\n');
  return new Map(
    paths.map((path, index) => {
      const [type, size] = (checked[index] ?? '').split(' ');
      return [path, type === 'blob' ? Number(size) : 0];
    }),
  );
}
