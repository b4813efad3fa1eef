/**
 * The name a shell word runs or a path names: what follows its last `/` (`/usr/bin/git` → `git`,
 * `./node_modules/.bin/jest` → `jest`, `git` → `git`). Windows paths, whose separator may also be
 * `\`, are read by the Windows shell's own module.
 */
export function programName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}
