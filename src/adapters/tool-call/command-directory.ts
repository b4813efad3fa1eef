/**
 * Whether a command runs where the agent's workspace is, with the tool reading the manifest there:
 * then the `package.json` or `Makefile` its failure names is the one at the workspace root. A
 * command that changes directory (`cd`, `pushd`), or points its tool elsewhere (`make -C dir`,
 * `npm --prefix dir`, a workspace filter, another makefile), may be about another one.
 */

/** `cd dir`, `pushd dir` (`Set-Location`, `Push-Location` in PowerShell), at the start of the line or after `;`, `&&`, `||`, `|` or `(`. */
const CHANGES_DIRECTORY = /(?:^|[;&|(]\s*)(?:cd|pushd|Set-Location|Push-Location)(?:\s|$)/;
/** Options of npm, pnpm, yarn, bun and make that pick another directory, package or makefile. */
const POINTS_ELSEWHERE =
  /(?:^|\s)(?:-C|--directory|--dir|--prefix|--cwd|-w|--workspaces?|--filter|-F|-r|--recursive|-f|--file|--makefile)(?:[=\s]|$)/;

export function runsInWorkspaceRoot(command: string): boolean {
  return !CHANGES_DIRECTORY.test(command.trim()) && !POINTS_ELSEWHERE.test(command);
}
