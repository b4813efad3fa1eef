/**
 * What the OpenAI Agents tests share: the coding workspace's tools, each spread with the guard's
 * tool options, run by the SDK's own runner with a scripted model.
 */
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import { narrowingForAgents } from '../../../src/integrations/openai-agents/index.js';
import { quiet, type Workspace } from '../support/workspace.js';
import { ScriptedModel, type ScriptStep } from './scripted-model.js';

export async function runAgent(
  ws: Workspace,
  script: readonly ScriptStep[],
  policy?: object,
  stream = false,
) {
  const guard = narrowingForAgents({
    workspaceRoot: ws.dir,
    stateDir: ws.stateDir,
    onProblem: quiet,
    policy,
  });
  const model = new ScriptedModel(script);
  const tools = [
    tool({
      name: 'read_file',
      description: 'Read a file of the project',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => ws.readFile(path),
      ...guard.toolOptions,
    }),
    tool({
      name: 'edit_file',
      description: 'Replace the content of a file',
      parameters: z.object({ path: z.string(), content: z.string() }),
      execute: async ({ path, content }) => ws.editFile(path, content),
      ...guard.toolOptions,
    }),
    tool({
      name: 'run_tests',
      description: 'Run the test suite',
      parameters: z.object({}),
      execute: async () => ws.runTests(),
      ...guard.toolOptions,
    }),
    tool({
      name: 'fetch_url',
      description: 'Fetch a URL',
      parameters: z.object({ url: z.string() }),
      execute: async ({ url }): Promise<string> => ws.fetchUrl(url),
      ...guard.toolOptions,
    }),
  ];
  const agent = new Agent({ name: 'coder', instructions: 'Fix the failing test.', model, tools });
  const runner = new Runner({ tracingDisabled: true });
  runner.on('agent_tool_end', guard.onToolEnd);
  try {
    if (stream) {
      const streamed = await runner.run(agent, 'Fix the failing test.', { maxTurns: 12, stream: true });
      for await (const _event of streamed) {
        // Read to the end, as an application streaming to its user does.
      }
      await streamed.completed;
      return { result: streamed, model };
    }
    const result = await runner.run(agent, 'Fix the failing test.', { maxTurns: 12 });
    return { result, model };
  } finally {
    await guard.close();
  }
}
