import { chmodSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';

/**
 * Replaces a file's contents in one step (write aside, then rename), keeping its permissions and,
 * when the path is a symbolic link, replacing the file it points to rather than the link.
 */
export function replaceFileContents(path: string, text: string): void {
  const target = realpathSync(path);
  const mode = statSync(target).mode & 0o7777;
  const temporary = `${target}.narrowing-${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode });
    chmodSync(temporary, mode);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
