/**
 * A failing end-to-end test run again and again in Cursor, whose shell hook gives the output and no
 * exit status: the runner's summary says the run failed, so the repeats are judged as failures.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { handleHookEvent } from '../../src/hooks/handle.js';
import { HOOK_PROTOCOLS } from '../../src/hooks/protocols.js';
import { tempProject } from './conformance/scenario.js';

const folders: Array<() => void> = [];
afterEach(() => {
  for (const remove of folders.splice(0)) remove();
});

const COMMAND = 'cd web && npm run test:e2e -- tests/chat.spec.ts:50 --reporter=line';

/**
 * What Playwright prints for one failing run: its timings and the conversation it creates differ
 * every time, and are masked. (A run whose own id is new each time answers otherwise each time, and
 * one such failure does not corroborate another.)
 */
function failingRun(run: number): string {
  const id = 'test-1758124913454-11bz3rtdy';
  return [
    '> shop-web@1.0.0 test:e2e',
    '> playwright test tests/chat.spec.ts:50 --reporter=line',
    '',
    'Running 1 test using 1 worker',
    `\u001b[1A\u001b[2KSetting up test environment for run: ${id} (${run * 3}.${run}s)`,
    `\u001b[1A\u001b[2KCreated conversation ID: ${run}f097afa-41ac-4d28-bd3c-b93f0543e36d`,
    '\u001b[1A\u001b[2K  1) [chromium] › tests/chat.spec.ts:50:7 › chat › sends a message in a conversation ',
    '',
    '    Error: expect(received).toBeTruthy()',
    '',
    '    Received: false',
    '',
    '      > 87 |     expect(bubbleIncreased).toBeTruthy();',
    '',
    `\u001b[1A\u001b[2KCleaning up test environment for run: ${id}`,
    '\u001b[1A\u001b[2K  1 failed',
    '    [chromium] › tests/chat.spec.ts:50:7 › chat › sends a message in a conversation ',
  ].join('\n');
}

describe("Cursor's shell hook and a failing test run", () => {
  it('blocks the run once it has failed the same way with nothing changed since', async () => {
    const project = tempProject();
    folders.push(project.remove);
    const protocol = HOOK_PROTOCOLS.cursor;
    const base = {
      conversation_id: 'c-e2e',
      generation_id: 'g1',
      workspace_roots: [project.dir],
      cwd: project.dir,
    };
    const send = async (payload: Record<string, unknown>) => {
      const event = protocol.parse({ ...base, ...payload });
      return protocol.reply(event, await handleHookEvent(event, { onProblem: () => undefined })).stdout;
    };
    const decisions: string[] = [];
    for (let run = 1; run <= 3; run++) {
      const reply = await send({ hook_event_name: 'beforeShellExecution', command: COMMAND });
      decisions.push(reply.trim() === '' ? 'allow' : (JSON.parse(reply).permission ?? 'allow'));
      await send({ hook_event_name: 'afterShellExecution', command: COMMAND, output: failingRun(run) });
    }
    expect(decisions).toEqual(['allow', 'allow', 'deny']);
  });
});
