/**
 * A call cancelled through its abort signal teaches nothing in LangChain, even when what runs inside
 * the guard answers it after the signal fired (a retry middleware turning the abort into an error
 * message): that answer is about the cancellation, not about the call.
 */
import { createAgent, tool, toolRetryMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForLangChain } from '../../../src/integrations/langchain/index.js';
import { guardOptionsFor } from '../support/guard-options.js';
import { spiedSession } from '../support/spied-session.js';
import { workspaceFactory } from '../support/workspace.js';
import { scriptedModel } from './scripted-model.js';

const workspace = workspaceFactory();

describe('a cancelled call in LangChain', () => {
  it('is not recorded when a middleware inside the guard answers it after its signal fired', async () => {
    const ws = workspace();
    const { session, recorded } = spiedSession(guardOptionsFor(ws));
    const guard = narrowingForLangChain(session);
    let answered!: () => void;
    const toolAnswered = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const controller = new AbortController();
    // A test run the user cancels while it runs, which does not listen to its signal: it answers,
    // with nothing, after the run was cancelled.
    const runTests = tool(
      async () => {
        setTimeout(() => controller.abort(), 20);
        await new Promise((resolve) => setTimeout(resolve, 200));
        setTimeout(answered, 0);
        return '';
      },
      { name: 'run_tests', description: 'Run the test suite', schema: z.object({}) },
    );
    const agent = createAgent({
      model: scriptedModel([{ calls: [['run_tests', {}]] }, { text: 'Done.' }]),
      tools: [runTests],
      // Inside the guard, a retry middleware answers the cancelled call with an error message of its own.
      middleware: [guard.middleware, toolRetryMiddleware({ maxRetries: 0, onFailure: 'continue' })],
    });

    await agent
      .invoke({ messages: [{ role: 'user', content: 'Run the tests.' }] }, { signal: controller.signal })
      .catch(() => undefined);
    await toolAnswered;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await session.close();

    expect(recorded).toEqual([]);
  });
});
