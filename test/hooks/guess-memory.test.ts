import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionStatePath } from '../../src/guard/session-state.js';
import { change, FIRST, flight, issue, RETRY, ZOD_REJECTION_TEXT } from '../fixtures/guesses/airline.js';
import { type HookRun, hookFiles, SOLO_HOOK_LIMIT_MS, soloClaudeSession } from './support.js';

const { hookPath, project } = hookFiles();

const SESSION = '5d0c7a9e-3b21-4f6a-8e4d-91c2b7f0a3e6';
/** Claude Code's events of one session, each handled by a hook process of its own, without the helper. */
const soloSession = () => soloClaudeSession(hookPath(), project(), SESSION, 'toolu_01');

function denied(run: HookRun): string | undefined {
  const output = run.json?.hookSpecificOutput as Record<string, unknown> | undefined;
  return output?.permissionDecision === 'deny' ? String(output.permissionDecisionReason) : undefined;
}

const CHANGE = 'mcp__airline__update_reservation_flights';

const CREATE = 'mcp__github__create_issue';

/** What the session's file in the project's state folder holds of the rule's memory, as written. */
function savedMemory(dir: string): string {
  const file = JSON.parse(readFileSync(sessionStatePath(join(dir, '.narrowing'), SESSION), 'utf8'));
  return JSON.stringify(file.session.detectors['unavailable-value']);
}

describe('narrowing-guard hook without the helper, one process per event', () => {
  it(
    'blocks a retry still asking for a flight the tool said is not available',
    async () => {
      const session = soloSession();
      expect(denied(await session.pre(CHANGE, FIRST))).toBeUndefined();
      await session.failure(CHANGE, FIRST, 'Error: flight HAT217 not available on date 2024-05-18');
      expect(denied(await session.pre(CHANGE, change(flight('HAT088', '2024-05-26'))))).toBeUndefined();
      const reason = denied(await session.pre(CHANGE, RETRY));
      expect(reason).toContain('still asks for HAT217 and 2024-05-18');
    },
    5 * SOLO_HOOK_LIMIT_MS,
  );

  it(
    'blocks a retry still passing an argument the tool refused, whatever its value',
    async () => {
      const session = soloSession();
      expect(
        denied(await session.pre(CREATE, issue({ task_progress: '- [ ] File the issue' }))),
      ).toBeUndefined();
      await session.failure(CREATE, issue({ task_progress: '- [ ] File the issue' }), ZOD_REJECTION_TEXT);
      expect(denied(await session.pre(CREATE, issue({})))).toBeUndefined();
      const reason = denied(
        await session.pre(CREATE, issue({ task_progress: '- [x] Drafted\n- [ ] File it' })),
      );
      expect(reason).toContain('still passes task_progress');
    },
    5 * SOLO_HOOK_LIMIT_MS,
  );

  it(
    'leaves the session’s rule memory on disk with the refused values hashed',
    async () => {
      const session = soloSession();
      await session.pre(CHANGE, FIRST);
      await session.failure(CHANGE, FIRST, 'Error: flight HAT217 not available on date 2024-05-18');
      const memory = savedMemory(session.dir);
      expect(memory).toContain('not available on');
      for (const value of ['HAT217', '2024-05-18', 'XEWRD9', 'gift_card_4643416'])
        expect(memory).not.toContain(value);
    },
    3 * SOLO_HOOK_LIMIT_MS,
  );
});
