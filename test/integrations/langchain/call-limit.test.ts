/**
 * narrowing beside LangChain's `toolCallLimitMiddleware` with the limit first: the limit answers the
 * calls over it before any tool runs, whatever the order, and narrowing judges the others.
 */
import { createAgent, toolCallLimitMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { narrowingForLangChain } from '../../../src/integrations/langchain/index.js';
import { quiet, workspaceFactory } from '../support/workspace.js';
import { scriptedModel, toolMessagesIn } from './scripted-model.js';
import { toolsOf } from './support.js';

const workspace = workspaceFactory();
const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;

describe('narrowing after toolCallLimitMiddleware', () => {
  it('leaves the calls over the limit to the limit and refuses a repeated failure itself', async () => {
    const ws = workspace();
    const guard = narrowingForLangChain({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
    const model = scriptedModel([
      { calls: [['run_tests', {}]] },
      { calls: [['run_tests', {}], readMissing] },
      { calls: [readMissing] },
      { text: 'Stuck.' },
    ]);
    const agent = createAgent({
      model,
      tools: toolsOf(ws),
      middleware: [toolCallLimitMiddleware({ toolName: 'run_tests', runLimit: 1 }), guard.middleware],
    });
    await agent.invoke({ messages: [{ role: 'user', content: 'Fix the failing test.' }] });
    await guard.close();

    expect(ws.runs).toEqual({ run_tests: 1, read_file: 1 });
    expect(toolMessagesIn(model, 3).map(({ text }) => text.split('\n')[0])).toEqual([
      expect.stringMatching(/^Error: FAIL test\/sum\.test\.js/),
      "Tool call limit exceeded. Do not call 'run_tests' again.",
      expect.stringMatching(/^Error: ENOENT/),
      expect.stringMatching(/^\[narrowing blocked this call \(identical-failure\)\] read_file/),
    ]);
  });
});
