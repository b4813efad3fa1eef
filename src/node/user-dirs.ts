/**
 * The system's temporary folder and the user's home folder, as `os.tmpdir()` and `os.homedir()`
 * give them, for the processes that start on every tool call (the hook): on Unix both are read
 * from the environment as Node itself reads them, so such a process does not load `node:os` for
 * two variables. Where Node's reading differs (Windows; a process with other effective ids, for
 * which Node ignores these variables), `node:os` answers.
 */

/** `os.tmpdir()`: `TMPDIR`, `TMP` or `TEMP` (the first that is not empty), else `/tmp`, without a trailing slash. */
export function temporaryDir(env: NodeJS.ProcessEnv = process.env): string {
  if (!plainUnixProcess()) return process.getBuiltinModule('node:os').tmpdir();
  const path = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** `os.homedir()`: `HOME` whenever it is set (even empty), else the user's entry in the system. */
export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = plainUnixProcess() ? env.HOME : undefined;
  return home ?? process.getBuiltinModule('node:os').homedir();
}

/** This user's folder under the temporary one, where the hook keeps what must not sit in a project. */
export function userTemporaryDir(uid: number): string {
  const { join } = process.getBuiltinModule('node:path');
  return join(temporaryDir(), `narrowing-guard-${uid}`);
}

/** What a folder must be before this user keeps anything in it: a folder, not a link, theirs, closed to everyone else. */
export function isPrivateFolder(
  stat: { isDirectory(): boolean; isSymbolicLink(): boolean; uid: number; mode: number },
  uid: number,
): boolean {
  return stat.isDirectory() && !stat.isSymbolicLink() && stat.uid === uid && (stat.mode & 0o077) === 0;
}

/** Unix, and the same real and effective ids: Node reads the variables as they are. */
function plainUnixProcess(): boolean {
  if (process.platform === 'win32') return false;
  if (typeof process.getuid !== 'function' || typeof process.geteuid !== 'function') return false;
  if (typeof process.getgid !== 'function' || typeof process.getegid !== 'function') return false;
  return process.getuid() === process.geteuid() && process.getgid() === process.getegid();
}
