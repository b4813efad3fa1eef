/**
 * A call cancelled through its abort signal teaches nothing, with `toolApproval` as with `wrapTools`:
 * the same call runs again in the next run.
 */
import { generateText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForAiSdk } from '../../../src/integrations/ai-sdk/index.js';
import { guardOptionsFor } from '../support/guard-options.js';
import { spiedSession } from '../support/spied-session.js';
import { workspaceFactory } from '../support/workspace.js';
import { scriptedModel } from './scripted-model.js';

const workspace = workspaceFactory();

/** A test run that takes a while, and stops when its call is cancelled. */
function slowTests(runs: { count: number }) {
  return tool({
    description: 'Run the test suite',
    inputSchema: z.object({}),
    execute: async (_input, { abortSignal }) => {
      runs.count += 1;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        abortSignal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      abortSignal?.throwIfAborted();
      return 'PASS test/sum.test.js';
    },
  });
}

/** A guarded run on a workspace of its own whose model runs the tests once, cancelled 50 ms in. */
function cancelledRun() {
  const { session, recorded } = spiedSession(guardOptionsFor(workspace()));
  const { model } = scriptedModel([{ calls: [['run_tests', {}]] }, { text: 'Done.' }]);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  return {
    guard: narrowingForAiSdk(session),
    session,
    recorded,
    runs: { count: 0 },
    model,
    signal: controller.signal,
  };
}

describe('a cancelled call in the AI SDK', () => {
  it('is not recorded on the toolApproval path', async () => {
    const { guard, session, recorded, runs, model, signal } = cancelledRun();

    // Whether the run then ends or goes on depends on the model; the call itself was cancelled.
    await generateText({
      model,
      tools: { run_tests: slowTests(runs) },
      prompt: 'Run the tests.',
      abortSignal: signal,
      toolApproval: guard.toolApproval,
      onToolExecutionEnd: guard.onToolExecutionEnd,
    }).catch(() => undefined);
    await session.close();

    expect(runs.count).toBe(1);
    expect(recorded).toEqual([]);
  });

  it('is not recorded through wrapTools either', async () => {
    const { guard, session, recorded, runs, model, signal } = cancelledRun();

    await generateText({
      model,
      tools: guard.wrapTools({ run_tests: slowTests(runs) }),
      prompt: 'Run the tests.',
      abortSignal: signal,
    }).catch(() => undefined);
    await session.close();

    expect(runs.count).toBe(1);
    expect(recorded).toEqual([]);
  });
});
