import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionStatePath } from '../../src/guard/session-state.js';
import { type HookRun, hookFiles, SOLO_HOOK_LIMIT_MS, soloClaudeSession } from './support.js';

const { hookPath, project } = hookFiles();

const SESSION = '9b1f4c2d-7e3a-4d5b-a6c8-2f0e1d3b5a79';
/** Claude Code's events of one session, each handled by a hook process of its own, without the helper. */
const soloSession = () => soloClaudeSession(hookPath(), project(), SESSION, 'toolu_02');

function denied(run: HookRun): string | undefined {
  const output = run.json?.hookSpecificOutput as Record<string, unknown> | undefined;
  return output?.permissionDecision === 'deny' ? String(output.permissionDecisionReason) : undefined;
}

const FILE = 'src/routes/users.ts';
const edit = (old_string: string) => ({
  file_path: FILE,
  old_string,
  new_string: `${old_string} // checked`,
});
const notFound = (old_string: string) =>
  `<tool_use_error>String to replace not found in file.\nString: ${old_string}</tool_use_error>`;
const GUESSES = ['router.get("/users", listUsers);', 'export async function listUsers(req, res) {'];

describe('narrowing-guard hook without the helper: what the rules learned, one process per event', () => {
  it(
    'blocks a third guess at a file never read after two guesses were not found',
    async () => {
      const session = soloSession();
      for (const guess of GUESSES) {
        expect(denied(await session.pre('Edit', edit(guess)))).toBeUndefined();
        await session.failure('Edit', edit(guess), notFound(guess));
      }
      const reason = denied(await session.pre('Edit', edit('const users = await db.users.findMany();')));
      expect(reason).toContain('guesses at the text of');
      const file = JSON.parse(
        readFileSync(sessionStatePath(join(session.dir, '.narrowing'), SESSION), 'utf8'),
      );
      const memory = JSON.stringify(file.session.detectors['blind-edit']);
      for (const value of ['users.ts', 'routes', 'listUsers']) expect(memory).not.toContain(value);
    },
    6 * SOLO_HOOK_LIMIT_MS,
  );

  it(
    'blocks the third run of a script that answered alike, other calls in between',
    async () => {
      const session = soloSession();
      const solve = { command: 'python3 solve.py', description: 'Run the solver' };
      const printed = {
        stdout: 'Trying n = 1\nTrying n = 2\nNo key found\n',
        stderr: '',
        interrupted: false,
      };
      const look = (command: string) => ({ command, description: 'Look at the task files' });
      const shown = (stdout: string) => ({ stdout, stderr: '', interrupted: false });
      for (const between of ['cat solve.py', 'cat output.txt']) {
        expect(denied(await session.pre('Bash', solve))).toBeUndefined();
        await session.post('Bash', solve, printed);
        await session.post('Bash', look(between), shown(`${between} printed\n`));
      }
      expect(denied(await session.pre('Bash', solve))).toContain('has returned the same result');
    },
    8 * SOLO_HOOK_LIMIT_MS,
  );
});
