/**
 * Hook processes without the helper, many at once or with no place to keep state: every outcome an
 * agent was told is learned is kept, and a state that cannot be kept costs the event no wait.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookFiles, runHookProcess } from './support.js';

const { hookPath, project } = hookFiles();

const SESSION = 'cc-burst';
const failedRead = (dir: string, path: string, index: number) => ({
  session_id: SESSION,
  cwd: dir,
  hook_event_name: 'PostToolUseFailure',
  tool_name: 'Read',
  tool_input: { file_path: path },
  tool_use_id: `toolu_burst${index}`,
  error: `File does not exist: ${path}`,
});

describe('hook processes without the helper', () => {
  it('keep the outcome of each of 20 failed calls reported at once', { timeout: 180_000 }, async () => {
    const dir = project();
    const paths = Array.from({ length: 20 }, (_, index) => join(dir, `src/missing-${index}.ts`));
    // More processes than the journal has usual slots, all in one session's turn, on a busy machine.
    const runs = await Promise.all(
      paths.map((path, index) =>
        runHookProcess(
          hookPath(),
          ['claude-code', '--no-daemon', '--deadline-ms', '5000'],
          failedRead(dir, path, index),
          {
            killAfterMs: 150_000,
          },
        ),
      ),
    );
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stderr).not.toMatch(/proceeds unchecked|failed/);
    }
    const state = readFileSync(join(dir, '.narrowing', 'state.json'), 'utf8');
    for (const path of paths) expect(state).toContain(path);
    const again = await runHookProcess(hookPath(), ['claude-code', '--no-daemon'], {
      ...failedRead(dir, paths[7] as string, 99),
      hook_event_name: 'PreToolUse',
    });
    expect(again.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it('go on in memory and say so when the state folder cannot be made, checking and learning', async () => {
    const dir = project();
    // A file where the state folder should be: nothing can be kept there.
    const blocked = join(dir, 'not-a-folder');
    writeFileSync(blocked, '');
    const run = await runHookProcess(
      hookPath(),
      ['claude-code', '--no-daemon', '--state-dir', join(blocked, '.narrowing')],
      failedRead(dir, join(dir, 'src/app.ts'), 1),
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/state in memory only/);
    expect(run.stderr).not.toMatch(/needs a stateDir|proceeds unchecked|took longer/);
    const check = await runHookProcess(
      hookPath(),
      ['claude-code', '--no-daemon', '--state-dir', join(blocked, '.narrowing')],
      { ...failedRead(dir, join(dir, 'src/app.ts'), 2), hook_event_name: 'PreToolUse' },
    );
    expect(check.code).toBe(0);
    expect(check.stderr).not.toMatch(/needs a stateDir|proceeds unchecked|took longer/);
  });
});
