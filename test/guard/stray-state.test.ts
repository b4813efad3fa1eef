import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openGuardSync } from '../../src/guard/open.js';
import { cleanupsAfterEach, tempDir } from '../mcp/support/harness.js';

const cleanups = cleanupsAfterEach();
const quiet = () => undefined;
const missingRead = { tool: 'read_text_file', args: { path: 'src/missing.ts' } };
const missingOutcome = {
  proposal: missingRead,
  success: false,
  content: "ENOENT: no such file or directory, open 'src/missing.ts'",
};

/** A shared parent folder (like `/tmp`) whose world-writable `.narrowing` has learned a ban. */
async function parentWithStrayBan(): Promise<string> {
  const dir = tempDir();
  cleanups.push(dir.remove);
  const stray = join(dir.path, '.narrowing');
  const planted = openGuardSync({ stateDir: stray, onProblem: quiet, probe: false });
  planted.check(missingRead);
  planted.record(missingOutcome);
  planted.check(missingRead);
  planted.record(missingOutcome);
  await planted.close();
  chmodSync(stray, 0o777);
  return dir.path;
}

describe('a stray state directory in a parent folder', () => {
  it('does not change what a checkout below it allows', async () => {
    const parent = await parentWithStrayBan();
    const repo = join(parent, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    const guard = openGuardSync({ workspaceRoot: join(repo), onProblem: quiet, probe: false });
    try {
      expect(guard.stateDir).toBe(join(repo, '.narrowing'));
      expect(guard.check(missingRead).verdict).toBe('allow');
    } finally {
      await guard.close();
    }
  });

  it('does not change what a folder outside any checkout allows', async () => {
    const parent = await parentWithStrayBan();
    const work = join(parent, 'scratch');
    mkdirSync(work);
    const guard = openGuardSync({ workspaceRoot: work, onProblem: quiet, probe: false });
    try {
      expect(guard.check(missingRead).verdict).toBe('allow');
      expect(guard.stateDir).toBe(join(work, '.narrowing'));
    } finally {
      await guard.close();
    }
  });
});
