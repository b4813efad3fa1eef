/**
 * What the OpenAI Agents tests share: the coding workspace's tools, each spread with the guard's
 * tool options, run by the SDK's own runner with a scripted model.
 */
import { Agent, Runner, tool } from '@openai/agents';
import { z } from 'zod';
import { narrowingForAgents } from '../../../src/integrations/openai-agents/index.js';
import { guardOptionsFor } from '../support/guard-options.js';
import type { Workspace } from '../support/workspace.js';
import { ScriptedModel, type ScriptStep } from './scripted-model.js';

/**
 * How the guard is wired: `spread` puts `...guard.toolOptions` in each tool, `tool` builds each
 * with `guard.tool(options)`, `agent` builds plain tools and guards them with `guard.agent(agent)`.
 */
export type Wiring = 'spread' | 'tool' | 'agent';

export interface RunOptions {
  readonly policy?: object;
  readonly stream?: boolean;
  readonly wiring?: Wiring;
  /** Told the guard before the run; what it returns is called when the run ended, thrown or not. */
  readonly onGuard?: (guard: ReturnType<typeof narrowingForAgents>) => () => void;
}

export async function runAgent(ws: Workspace, script: readonly ScriptStep[], run: RunOptions = {}) {
  const { policy, stream = false, wiring = 'spread', onGuard } = run;
  const guard = narrowingForAgents(guardOptionsFor(ws, policy));
  const ended = onGuard?.(guard);
  const model = new ScriptedModel(script);
  const tools = wiring === 'spread' ? spreadTools(ws, guard) : plainTools(ws, guard, wiring);
  const built = new Agent({ name: 'coder', instructions: 'Fix the failing test.', model, tools });
  const agent = wiring === 'agent' ? guard.agent(built) : built;
  const runner = new Runner({ tracingDisabled: true });
  if (wiring !== 'agent') runner.on('agent_tool_end', guard.onToolEnd);
  try {
    if (stream) {
      const streamed = await runner.run(agent, 'Fix the failing test.', { maxTurns: 12, stream: true });
      for await (const _event of streamed) {
        // Read to the end, as an application streaming to its user does.
      }
      await streamed.completed;
      return { result: streamed, model, guard };
    }
    const result = await runner.run(agent, 'Fix the failing test.', { maxTurns: 12 });
    return { result, model, guard };
  } finally {
    ended?.();
    await guard.close();
  }
}

type AgentsGuard = ReturnType<typeof narrowingForAgents>;

/**
 * The workspace's tools, each built with `guard.tool(options)` and an error function of its own, or
 * built plain for `guard.agent()` with narrowing's error function, so that the guard learns from
 * their errors.
 */
function plainTools(ws: Workspace, guard: AgentsGuard, wiring: 'tool' | 'agent') {
  const options = <OPTIONS extends Parameters<AgentsGuard['tool']>[0]>(given: OPTIONS) =>
    wiring === 'tool' ? guard.tool(given) : { ...given, errorFunction: guard.toolOptions.errorFunction };
  return [
    tool(
      options({
        name: 'read_file',
        description: 'Read a file of the project',
        parameters: z.object({ path: z.string() }),
        errorFunction: (_context: unknown, error: unknown) => String(error),
        execute: async ({ path }: { path: string }) => ws.readFile(path),
      }),
    ),
    tool(
      options({
        name: 'edit_file',
        description: 'Replace the content of a file',
        parameters: z.object({ path: z.string(), content: z.string() }),
        errorFunction: (_context: unknown, error: unknown) => String(error),
        execute: async ({ path, content }: { path: string; content: string }) => ws.editFile(path, content),
      }),
    ),
    tool(
      options({
        name: 'run_tests',
        description: 'Run the test suite',
        parameters: z.object({}),
        errorFunction: (_context: unknown, error: unknown) => String(error),
        execute: async () => ws.runTests(),
      }),
    ),
    tool(
      options({
        name: 'fetch_url',
        description: 'Fetch a URL',
        parameters: z.object({ url: z.string() }),
        errorFunction: (_context: unknown, error: unknown) => String(error),
        execute: async ({ url }: { url: string }): Promise<string> => ws.fetchUrl(url),
      }),
    ),
  ];
}

/** The workspace's tools, each spread with the guard's tool options. */
function spreadTools(ws: Workspace, guard: AgentsGuard) {
  return [
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
}
