import { afterEach, describe, expect, it } from 'vitest';
import { cursorHooks } from '../../src/hooks/cursor.js';
import { cursor } from './conformance/hosts.js';
import { HostRun, tempProject } from './conformance/scenario.js';

/**
 * Cursor's `postToolUseFailure` (docs-only: cursor.com/docs/agent/hooks): `error_message`,
 * `failure_type` error | timeout | permission_denied, and `is_interrupt`, set when the user stopped
 * the call (the field as hook payloads recorded in public repositories carry it beside the others).
 */
const failure = (cwd: string, id: string, fields: Record<string, unknown>) => ({
  conversation_id: '7f3c9b2e-41d5-4a8e-9c61-2d0e5f8a1b34',
  generation_id: `gen-${id}`,
  hook_event_name: 'postToolUseFailure',
  workspace_roots: [cwd],
  tool_name: 'Shell',
  tool_input: { command: './scripts/wait-for-db.sh', cwd },
  tool_use_id: id,
  duration: 30_000,
  ...fields,
});

const projects: { remove: () => void }[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

describe("Cursor's postToolUseFailure", () => {
  it('learns nothing from a call the user interrupted', () => {
    const stopped = failure('/home/dev/shop', 'call_1', {
      error_message: 'waiting for localhost:5432...',
      failure_type: 'error',
      is_interrupt: true,
    });
    expect(cursorHooks.parse(stopped).action).toEqual({ type: 'ignored' });
  });

  it('reads a call Cursor stopped at its timeout as a timeout, whatever its message says', () => {
    const late = failure('/home/dev/shop', 'call_2', {
      error_message: 'waiting for localhost:5432...',
      failure_type: 'timeout',
      is_interrupt: false,
    });
    expect(cursorHooks.parse(late).action).toMatchObject({
      type: 'after-call',
      result: { ok: false, timedOut: true },
    });
  });

  it('never denies a command that keeps running past its timeout', async () => {
    const project = tempProject();
    projects.push(project);
    const run = new HostRun(cursor, { id: '7f3c9b2e-41d5-4a8e-9c61-2d0e5f8a1b34', cwd: project.dir });
    await run.prompt('Start the database and run the migrations');
    const verdicts: string[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const id = `call_wait_${attempt}`;
      const before = await run.send({
        ...failure(project.dir, id, {}),
        hook_event_name: 'preToolUse',
      });
      verdicts.push(before.verdict);
      if (before.verdict === 'deny') continue;
      await run.send(
        failure(project.dir, id, {
          error_message: 'waiting for localhost:5432...',
          failure_type: 'timeout',
          is_interrupt: false,
        }),
      );
    }
    expect(verdicts).not.toContain('deny');
  });
});
