import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/**
 * A home directory and a project (`code/web`) of their own under a temporary root, each holding the
 * given files; `<project>` in a file's text stands for the project's path. Removed after the test.
 */
export function tempMachine(
  home: Record<string, string>,
  project: Record<string, string> = {},
): { readonly homeDir: string; readonly projectDir: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-machine-')));
  roots.push(root);
  const homeDir = join(root, 'home');
  const projectDir = join(root, 'code', 'web');
  for (const [dir, files] of [
    [homeDir, home],
    [projectDir, project],
  ] as const) {
    mkdirSync(dir, { recursive: true });
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text.replaceAll('<project>', projectDir));
    }
  }
  return { homeDir, projectDir };
}
