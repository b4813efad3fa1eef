import { join } from 'node:path';
import { openGuardSync } from '../../src/guard/open.js';
import type { GuardSession } from '../../src/guard/session.js';
import { tempDir } from '../mcp/support/harness.js';

/**
 * A workspace in a new temporary folder, and a guard over its own state directory, opened anew for
 * each session (`open`). Both are cleaned up by `cleanups` (see `cleanupsAfterEach`).
 */
export function guardedWorkspace(
  cleanups: (() => unknown)[],
  prefix: string,
): { readonly root: string; readonly open: () => GuardSession } {
  const dir = tempDir(prefix);
  cleanups.push(dir.remove);
  const root = dir.path;
  const open = () => {
    const guard = openGuardSync({
      workspaceRoot: root,
      stateDir: join(root, '.narrowing'),
      onProblem: () => undefined,
    });
    cleanups.push(() => guard.close());
    return guard;
  };
  return { root, open };
}
