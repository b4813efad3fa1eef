/**
 * A token budget through `createAgent` and LangChain's fake model: each response's `usage_metadata`
 * counts against the guard's budget, and within the reserve (which grows with the requests) the
 * model is given one last turn without tools, so the run ends with an answer rather than out of budget.
 */
import { AIMessage, type BaseMessage, createAgent, createMiddleware, fakeModel, tool } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForLangChain } from '../../../src/integrations/langchain/index.js';
import { ANSWER, BUDGET_SIZES, QUESTION, searchDocs, totalOf, turnTokens } from '../support/docs-search.js';
import { guardOptionsFor } from '../support/guard-options.js';
import { journalVerdicts, workspaceFactory } from '../support/workspace.js';

const workspace = workspaceFactory();

/** A model that searches the docs until it is told to answer (see docs-search.ts). */
function searchingModel(requestTokens: number, { obeys = true } = {}) {
  const model = fakeModel();
  const spent: number[] = [];
  for (let turn = 0; turn < 60; turn += 1) {
    model.respond((messages: BaseMessage[]) => {
      const { input, output } = turnTokens(requestTokens, turn);
      const usage_metadata = { input_tokens: input, output_tokens: output, total_tokens: input + output };
      spent.push(input + output);
      const told = messages.at(-1)?.type === 'human' && messages.at(-1)?.text.startsWith('[narrowing]');
      if (told && obeys) return new AIMessage({ content: ANSWER, usage_metadata });
      return new AIMessage({
        content: '',
        tool_calls: [{ name: 'search_docs', args: { query: `setting ${turn}` }, id: `call_${turn}` }],
        usage_metadata,
      });
    });
  }
  return { model, spent };
}

const searchDocsTool = tool(searchDocs, {
  name: 'search_docs',
  description: 'Search the docs',
  schema: z.object({ query: z.string() }),
});

async function run(requestTokens: number, budget: number, modelOptions?: { obeys: boolean }) {
  const ws = workspace();
  const guard = narrowingForLangChain(guardOptionsFor(ws, { budget: { tokenBudget: budget } }));
  const { model, spent } = searchingModel(requestTokens, modelOptions);
  const offered: string[][] = [];
  const recorder = createMiddleware({
    name: 'offered-tools',
    wrapModelCall: (request, handler) => {
      offered.push(request.tools.map((offeredTool) => String(offeredTool.name)));
      return handler(request);
    },
  });
  const agent = createAgent({ model, tools: [searchDocsTool], middleware: [guard.middleware, recorder] });
  const result = await agent
    .invoke({ messages: [{ role: 'user', content: QUESTION }] }, { recursionLimit: 200 })
    .finally(() => guard.close());
  return { result, offered, spent, ws };
}

describe('token budgets in LangChain', () => {
  for (const { request, budget } of BUDGET_SIZES) {
    it(`ends a run of ${request}-token requests within a budget of ${budget} with an answer`, async () => {
      const { result, offered, spent, ws } = await run(request, budget);

      expect(result.messages.at(-1)?.text).toBe(ANSWER);
      expect(offered.length).toBeGreaterThan(3);
      expect(offered.at(-1)).toEqual([]);
      expect(offered.slice(0, -1).every((tools) => tools.length === 1)).toBe(true);
      expect(totalOf(spent)).toBeLessThanOrEqual(budget);
      expect(journalVerdicts(ws)).not.toContain('halt');
    });
  }

  it('ends the run with its last turn even when the model asks for tools in it', async () => {
    const { result, offered, spent } = await run(3_000, 40_000, { obeys: false });

    expect(offered.at(-1)).toEqual([]);
    expect(result.messages.at(-1)?.text).toMatch(/^\[narrowing ended this run\] Only \d+ of/);
    expect(totalOf(spent)).toBeLessThanOrEqual(40_000);
  });
});
