/**
 * A token budget through the SDK's own loop and mock models: each step's usage counts against the
 * guard's budget, and within the reserve (which grows with the requests) the model is given one last
 * step without tools, so the run ends with an answer rather than out of budget.
 */
import { generateText, isStepCount, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { generateText as generateTextV6, stepCountIs as stepCountIsV6, tool as toolV6 } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForAiSdk } from '../../../src/integrations/ai-sdk/index.js';
import { ANSWER, BUDGET_SIZES, QUESTION, searchDocs, totalOf, turnTokens } from '../support/docs-search.js';
import { guardOptionsFor } from '../support/guard-options.js';
import { journalVerdicts, workspaceFactory } from '../support/workspace.js';

const workspace = workspaceFactory();

/** A model that searches the docs for as long as it is offered tools, then answers (see docs-search.ts). */
function searchingModel(requestTokens: number) {
  const offered: string[][] = [];
  const spent: number[] = [];
  const lastPrompt: { value: unknown[] } = { value: [] };
  const doGenerate = async (options: { prompt: unknown[]; tools?: readonly { name: string }[] }) => {
    const tools = (options.tools ?? []).map((offeredTool) => offeredTool.name);
    offered.push(tools);
    lastPrompt.value = options.prompt;
    const { input, output } = turnTokens(requestTokens, offered.length - 1);
    spent.push(input + output);
    const usage = {
      inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: output, text: output, reasoning: undefined },
    };
    if (tools.length === 0) {
      return {
        content: [{ type: 'text' as const, text: ANSWER }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage,
        warnings: [],
      };
    }
    return {
      content: [
        {
          type: 'tool-call' as const,
          toolCallId: `call_${offered.length}`,
          toolName: 'search_docs',
          input: JSON.stringify({ query: `setting ${offered.length}` }),
        },
      ],
      finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
      usage,
      warnings: [],
    };
  };
  return { doGenerate, offered, spent, lastPrompt };
}

describe('token budgets in the AI SDK', () => {
  for (const { request, budget } of BUDGET_SIZES) {
    it(`ends a run of ${request}-token requests within a budget of ${budget} with an answer`, async () => {
      const ws = workspace();
      const guard = narrowingForAiSdk(guardOptionsFor(ws, { budget: { tokenBudget: budget } }));
      const { doGenerate, offered, spent, lastPrompt } = searchingModel(request);
      const result = await generateText({
        model: new MockLanguageModelV4({ doGenerate }),
        tools: {
          search_docs: tool({ inputSchema: z.object({ query: z.string() }), execute: searchDocs }),
        },
        prompt: QUESTION,
        toolApproval: guard.toolApproval,
        onToolExecutionEnd: guard.onToolExecutionEnd,
        prepareStep: guard.prepareStep,
        stopWhen: [isStepCount(100), guard.stopWhen],
      }).finally(() => guard.close());

      expect(result.text).toBe(ANSWER);
      expect(offered.length).toBeGreaterThan(3);
      expect(offered.at(-1)).toEqual([]);
      expect(offered.slice(0, -1).every((tools) => tools.length === 1)).toBe(true);
      expect(totalOf(spent)).toBeLessThanOrEqual(budget);
      expect(JSON.stringify(lastPrompt.value.at(-1))).toContain('[narrowing] Only');
      expect(journalVerdicts(ws)).not.toContain('halt');
    });
  }

  it('ends a run through wrapped tools on the AI SDK 6 with an answer', async () => {
    const ws = workspace();
    const guard = narrowingForAiSdk(guardOptionsFor(ws, { budget: { tokenBudget: 40_000 } }));
    const { doGenerate, offered, spent } = searchingModel(3_000);
    const result = await generateTextV6({
      model: new MockLanguageModelV3({ doGenerate }),
      tools: guard.wrapTools({
        search_docs: toolV6({ inputSchema: z.object({ query: z.string() }), execute: searchDocs }),
      }),
      prompt: QUESTION,
      prepareStep: guard.prepareStep,
      stopWhen: [stepCountIsV6(100), guard.stopWhen],
    }).finally(() => guard.close());

    expect(result.text).toBe(ANSWER);
    expect(offered.at(-1)).toEqual([]);
    expect(totalOf(spent)).toBeLessThanOrEqual(40_000);
  });

  it('ends the loop once the budget is within its reserve when prepareStep is not used', async () => {
    const ws = workspace();
    const guard = narrowingForAiSdk(guardOptionsFor(ws, { budget: { tokenBudget: 40_000 } }));
    const { doGenerate, spent } = searchingModel(3_000);
    await generateText({
      model: new MockLanguageModelV4({ doGenerate }),
      tools: {
        search_docs: tool({ inputSchema: z.object({ query: z.string() }), execute: searchDocs }),
      },
      prompt: QUESTION,
      toolApproval: guard.toolApproval,
      onToolExecutionEnd: guard.onToolExecutionEnd,
      stopWhen: [isStepCount(100), guard.stopWhen],
    }).finally(() => guard.close());

    expect(spent.length).toBeGreaterThan(3);
    expect(totalOf(spent)).toBeLessThanOrEqual(40_000);
  });
});
