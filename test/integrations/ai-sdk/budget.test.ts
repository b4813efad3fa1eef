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
import { journalVerdicts, quiet, workspaceFactory } from '../support/workspace.js';

const workspace = workspaceFactory();

const ANSWER = 'Here is what the docs say about the settings I looked up.';

/**
 * A model that searches the docs for as long as it is offered tools, then answers. Its requests
 * grow as a real conversation's do: each re-sends the whole context, a tenth of the first larger.
 */
function searchingModel(requestTokens: number) {
  const offered: string[][] = [];
  const spent: number[] = [];
  const lastPrompt: { value: unknown[] } = { value: [] };
  const doGenerate = async (options: { prompt: unknown[]; tools?: readonly { name: string }[] }) => {
    const tools = (options.tools ?? []).map((offeredTool) => offeredTool.name);
    offered.push(tools);
    lastPrompt.value = options.prompt;
    const input = Math.round(requestTokens * (1 + (offered.length - 1) / 10));
    const output = 60;
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

const searchDocs = async ({ query }: { query: string }) => `The docs say ${query} defaults to off.`;

const SIZES = [
  { request: 300, budget: 4_000 },
  { request: 3_000, budget: 40_000 },
  { request: 30_000, budget: 400_000 },
];

describe('token budgets in the AI SDK', () => {
  for (const { request, budget } of SIZES) {
    it(`ends a run of ${request}-token requests within a budget of ${budget} with an answer`, async () => {
      const ws = workspace();
      const guard = narrowingForAiSdk({
        workspaceRoot: ws.dir,
        stateDir: ws.stateDir,
        onProblem: quiet,
        policy: { budget: { tokenBudget: budget } },
      });
      const { doGenerate, offered, spent, lastPrompt } = searchingModel(request);
      const result = await generateText({
        model: new MockLanguageModelV4({ doGenerate }),
        tools: {
          search_docs: tool({ inputSchema: z.object({ query: z.string() }), execute: searchDocs }),
        },
        prompt: 'Which of our settings are off by default?',
        toolApproval: guard.toolApproval,
        onToolExecutionEnd: guard.onToolExecutionEnd,
        prepareStep: guard.prepareStep,
        stopWhen: [isStepCount(100), guard.stopWhen],
      }).finally(() => guard.close());

      expect(result.text).toBe(ANSWER);
      expect(offered.length).toBeGreaterThan(3);
      expect(offered.at(-1)).toEqual([]);
      expect(offered.slice(0, -1).every((tools) => tools.length === 1)).toBe(true);
      expect(spent.reduce((sum, tokens) => sum + tokens, 0)).toBeLessThanOrEqual(budget);
      expect(JSON.stringify(lastPrompt.value.at(-1))).toContain('[narrowing] Only');
      expect(journalVerdicts(ws)).not.toContain('halt');
    });
  }

  it('ends a run through wrapped tools on the AI SDK 6 with an answer', async () => {
    const ws = workspace();
    const guard = narrowingForAiSdk({
      workspaceRoot: ws.dir,
      stateDir: ws.stateDir,
      onProblem: quiet,
      policy: { budget: { tokenBudget: 40_000 } },
    });
    const { doGenerate, offered, spent } = searchingModel(3_000);
    const result = await generateTextV6({
      model: new MockLanguageModelV3({ doGenerate }),
      tools: guard.wrapTools({
        search_docs: toolV6({ inputSchema: z.object({ query: z.string() }), execute: searchDocs }),
      }),
      prompt: 'Which of our settings are off by default?',
      prepareStep: guard.prepareStep,
      stopWhen: [stepCountIsV6(100), guard.stopWhen],
    }).finally(() => guard.close());

    expect(result.text).toBe(ANSWER);
    expect(offered.at(-1)).toEqual([]);
    expect(spent.reduce((sum, tokens) => sum + tokens, 0)).toBeLessThanOrEqual(40_000);
  });

  it('ends the loop once the budget is within its reserve when prepareStep is not used', async () => {
    const ws = workspace();
    const guard = narrowingForAiSdk({
      workspaceRoot: ws.dir,
      stateDir: ws.stateDir,
      onProblem: quiet,
      policy: { budget: { tokenBudget: 40_000 } },
    });
    const { doGenerate, spent } = searchingModel(3_000);
    await generateText({
      model: new MockLanguageModelV4({ doGenerate }),
      tools: {
        search_docs: tool({ inputSchema: z.object({ query: z.string() }), execute: searchDocs }),
      },
      prompt: 'Which of our settings are off by default?',
      toolApproval: guard.toolApproval,
      onToolExecutionEnd: guard.onToolExecutionEnd,
      stopWhen: [isStepCount(100), guard.stopWhen],
    }).finally(() => guard.close());

    expect(spent.length).toBeGreaterThan(3);
    expect(spent.reduce((sum, tokens) => sum + tokens, 0)).toBeLessThanOrEqual(40_000);
  });
});
