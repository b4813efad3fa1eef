import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionStatePath } from '../../src/guard/session-state.js';
import { GUESSED_TEXTS, guessedEdit, NEXT_GUESS, notFoundText } from '../fixtures/guesses/unread-file.js';
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
const edit = (old_string: string) => guessedEdit(FILE, old_string);

describe('narrowing-guard hook without the helper: what the rules learned, one process per event', () => {
  it(
    'blocks a third guess at a file never read after two guesses were not found',
    async () => {
      const session = soloSession();
      for (const guess of GUESSED_TEXTS) {
        expect(denied(await session.pre('Edit', edit(guess)))).toBeUndefined();
        await session.failure('Edit', edit(guess), notFoundText(guess));
      }
      const reason = denied(await session.pre('Edit', edit(NEXT_GUESS)));
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
