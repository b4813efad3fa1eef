/**
 * What the LangChain tests share: the coding workspace's tools as LangChain tools, and an agent run
 * through `createAgent` with the guard's middleware and LangChain's fake model.
 */
import { type AgentMiddleware, createAgent, tool } from 'langchain';
import { z } from 'zod';
import { narrowingForLangChain } from '../../../src/integrations/langchain/index.js';
import { guardOptionsFor } from '../support/guard-options.js';
import type { Workspace } from '../support/workspace.js';
import { type ScriptStep, scriptedModel } from './scripted-model.js';

export function toolsOf(ws: Workspace) {
  return [
    tool(({ path }) => ws.readFile(path), {
      name: 'read_file',
      description: 'Read a file of the project',
      schema: z.object({ path: z.string() }),
    }),
    tool(({ path, content }) => ws.editFile(path, content), {
      name: 'edit_file',
      description: 'Replace the content of a file',
      schema: z.object({ path: z.string(), content: z.string() }),
    }),
    tool(() => ws.runTests(), {
      name: 'run_tests',
      description: 'Run the test suite',
      schema: z.object({}),
    }),
    tool(({ url }): string => ws.fetchUrl(url), {
      name: 'fetch_url',
      description: 'Fetch a URL',
      schema: z.object({ url: z.string() }),
    }),
  ];
}

export async function runAgent(
  ws: Workspace,
  script: readonly ScriptStep[],
  { policy, beside = [] }: { policy?: object; beside?: AgentMiddleware[] } = {},
) {
  const guard = narrowingForLangChain(guardOptionsFor(ws, policy));
  const model = scriptedModel(script);
  const agent = createAgent({ model, tools: toolsOf(ws), middleware: [guard.middleware, ...beside] });
  try {
    const result = await agent.invoke(
      { messages: [{ role: 'user', content: 'Fix the failing test.' }] },
      { recursionLimit: 40 },
    );
    return { result, model };
  } finally {
    await guard.close();
  }
}
