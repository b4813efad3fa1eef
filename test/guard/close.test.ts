/**
 * `close()` is the last line of every example: state it cannot save is reported through the
 * guard's `onProblem`, never thrown.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { guardedCall, openGuardSync, toolCallOutcomes } from '../../src/guard/index.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(): { dir: string; stateDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-close-'));
  folders.push(dir);
  return { dir, stateDir: join(dir, '.narrowing') };
}

const missingRead = () => {
  throw Object.assign(new Error("ENOENT: no such file or directory, open 'config/prod.yaml'"), {
    code: 'ENOENT',
  });
};

describe('closing a guard whose state folder was replaced mid-run', () => {
  it('resolves, and says through onProblem that what was learned could not be saved', async () => {
    const { dir, stateDir } = project();
    const problems: string[] = [];
    const guard = openGuardSync({
      workspaceRoot: dir,
      stateDir,
      probe: false,
      onProblem: (m) => problems.push(m),
    });
    const read = toolCallToProposal('read_file', { path: 'config/prod.yaml' });
    await guardedCall(guard, read, missingRead, toolCallOutcomes);
    await guard.flush();
    // Another tool (or a person) moves the folder away and leaves a file of the same name.
    renameSync(stateDir, join(dir, 'narrowing-old'));
    writeFileSync(stateDir, 'not a folder\n');
    const second = await guardedCall(guard, read, missingRead, toolCallOutcomes);

    await expect(guard.close()).resolves.toBeUndefined();
    expect(second.status).toBe('refused');
    expect(problems).toContainEqual(
      expect.stringMatching(/^Closing the guard could not save what this session learned: EEXIST/),
    );
    expect(readFileSync(stateDir, 'utf8')).toBe('not a folder\n');
  });
});
