/**
 * A token budget through the SDK's own runner and a model of its `Model` interface: the run's usage
 * counts against the guard's budget, and within the reserve (which grows with the requests) the
 * guarded tools are switched off, so the model's next answer, written without tools, is the final
 * output rather than the run ending out of budget.
 */
import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  type StreamEvent,
  tool,
  Usage,
} from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForAgents } from '../../../src/integrations/openai-agents/index.js';
import { ANSWER, BUDGET_SIZES, QUESTION, searchDocs, totalOf, turnTokens } from '../support/docs-search.js';
import { guardOptionsFor } from '../support/guard-options.js';
import { journalVerdicts, workspaceFactory } from '../support/workspace.js';

const workspace = workspaceFactory();

type CompletedResponse = Extract<StreamEvent, { type: 'response_done' }>['response'];

/** A model that searches the docs for as long as it is offered the tool, then answers (see docs-search.ts). */
class SearchingModel implements Model {
  readonly offered: string[][] = [];
  readonly spent: number[] = [];

  constructor(private readonly requestTokens: number) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const tools = request.tools.map((offeredTool) => offeredTool.name);
    this.offered.push(tools);
    const turn = this.offered.length - 1;
    const { input: inputTokens, output: outputTokens } = turnTokens(this.requestTokens, turn);
    this.spent.push(inputTokens + outputTokens);
    const usage = new Usage({
      requests: 1,
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
    });
    if (tools.length === 0) {
      return {
        usage,
        output: [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: ANSWER }],
          },
        ],
      };
    }
    return {
      usage,
      output: [
        {
          type: 'function_call',
          callId: `call_${turn}`,
          name: 'search_docs',
          arguments: JSON.stringify({ query: `setting ${turn}` }),
          status: 'completed',
        },
      ],
    };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const response = await this.getResponse(request);
    const { requests, inputTokens, outputTokens, totalTokens } = response.usage;
    yield {
      type: 'response_done',
      response: {
        id: `response_${this.offered.length}`,
        usage: { requests, inputTokens, outputTokens, totalTokens },
        output: response.output as CompletedResponse['output'],
      },
    };
  }
}

async function run(requestTokens: number, budget: number, stream = false) {
  const ws = workspace();
  const guard = narrowingForAgents(guardOptionsFor(ws, { budget: { tokenBudget: budget } }));
  const model = new SearchingModel(requestTokens);
  const searchDocsTool = tool(
    guard.tool({
      name: 'search_docs',
      description: 'Search the docs',
      parameters: z.object({ query: z.string() }),
      execute: searchDocs,
    }),
  );
  const agent = new Agent({
    name: 'docs',
    instructions: 'Answer from the docs.',
    model,
    tools: [searchDocsTool],
  });
  const runner = new Runner({ tracingDisabled: true });
  runner.on('agent_tool_end', guard.onToolEnd);
  try {
    if (stream) {
      const streamed = await runner.run(agent, QUESTION, { maxTurns: 100, stream: true });
      for await (const _event of streamed) {
        // Read to the end, as an application streaming to its user does.
      }
      await streamed.completed;
      return { output: streamed.finalOutput, model, ws };
    }
    const result = await runner.run(agent, QUESTION, { maxTurns: 100 });
    return { output: result.finalOutput, model, ws };
  } finally {
    await guard.close();
  }
}

describe('token budgets in the OpenAI Agents SDK', () => {
  for (const { request, budget } of BUDGET_SIZES) {
    it(`ends a run of ${request}-token requests within a budget of ${budget} with an answer`, async () => {
      const { output, model, ws } = await run(request, budget);

      expect(output).toBe(ANSWER);
      expect(model.offered.length).toBeGreaterThan(3);
      expect(model.offered.at(-1)).toEqual([]);
      expect(model.offered.slice(0, -1).every((tools) => tools.length === 1)).toBe(true);
      expect(totalOf(model.spent)).toBeLessThanOrEqual(budget);
      expect(journalVerdicts(ws)).not.toContain('halt');
    });
  }

  it('ends a streamed run with an answer', async () => {
    const { output, model } = await run(3_000, 40_000, true);

    expect(output).toBe(ANSWER);
    expect(model.offered.at(-1)).toEqual([]);
    expect(totalOf(model.spent)).toBeLessThanOrEqual(40_000);
  });
});
