/**
 * narrowing beside LangChain's `toolRetryMiddleware`, in either order, through `createAgent` and the
 * fake model: environment faults (a 503) are retried, an agent's mistake (a missing file) is not,
 * and the guard judges what finally came of the call.
 */
import { type AgentMiddleware, createAgent, tool, toolRetryMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForLangChain } from '../../../src/integrations/langchain/index.js';
import { quiet, type Workspace, workspaceFactory } from '../support/workspace.js';
import { type ScriptStep, scriptedModel, toolMessagesIn } from './scripted-model.js';
import { toolsOf } from './support.js';

const workspace = workspaceFactory();

/** A status endpoint whose upstream answers 503 `failures` times, then answers. */
function statusTool(ws: Workspace, failures: number) {
  let calls = 0;
  return tool(
    ({ service }) => {
      ws.runs.service_status = (ws.runs.service_status ?? 0) + 1;
      calls += 1;
      if (calls <= failures) {
        throw Object.assign(new Error(`GET https://status.example.com/${service}: 503 Service Unavailable`), {
          status: 503,
        });
      }
      return `${service}: operational`;
    },
    {
      name: 'service_status',
      description: 'The status of a service',
      schema: z.object({ service: z.string() }),
    },
  );
}

const quickRetries = () => toolRetryMiddleware({ maxRetries: 2, initialDelayMs: 0, jitter: false });

async function run(
  ws: Workspace,
  script: readonly ScriptStep[],
  order: 'guard first' | 'guard last',
  failures = 0,
) {
  const guard = narrowingForLangChain({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
  const model = scriptedModel(script);
  const retry = quickRetries();
  const middleware: AgentMiddleware[] =
    order === 'guard first' ? [guard.middleware, retry] : [retry, guard.middleware];
  const tools = [...toolsOf(ws), statusTool(ws, failures)];
  const agent = createAgent({ model, tools, middleware });
  try {
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'Check the deployment.' }] });
    return { result, model };
  } finally {
    await guard.close();
  }
}

const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;
const status = ['service_status', { service: 'api' }] as const;

describe.each(['guard first', 'guard last'] as const)('narrowing with toolRetryMiddleware, %s', (order) => {
  it('runs a read of a missing file once, and refuses it when the model asks again', async () => {
    const ws = workspace();
    const { model } = await run(
      ws,
      [{ calls: [readMissing] }, { calls: [readMissing] }, { text: 'Gone.' }],
      order,
    );

    expect(ws.runs.read_file).toBe(1);
    expect(toolMessagesIn(model, 2)[1]?.text).toMatch(
      /^\[narrowing blocked this call \(identical-failure\)\] read_file .*ENOENT/s,
    );
  });

  it('retries a 503 until the service answers, and the model reads the answer', async () => {
    const ws = workspace();
    const { model } = await run(ws, [{ calls: [status] }, { text: 'The API is up.' }], order, 2);

    expect(ws.runs.service_status).toBe(3);
    expect(toolMessagesIn(model, 1)).toEqual([
      { name: 'service_status', text: 'api: operational', status: 'success' },
    ]);
  });

  it('never narrows a call whose retries all met a 503: asked again, it runs again', async () => {
    const ws = workspace();
    const { model } = await run(
      ws,
      [{ calls: [status] }, { calls: [status] }, { text: 'The status page is down.' }],
      order,
      Number.POSITIVE_INFINITY,
    );

    expect(ws.runs.service_status).toBe(6);
    expect(toolMessagesIn(model, 2).map(({ text }) => text)).not.toContainEqual(
      expect.stringContaining('[narrowing'),
    );
  });
});
