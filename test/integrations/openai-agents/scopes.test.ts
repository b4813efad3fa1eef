/**
 * One guard serving two users of a server, each with a workspace of their own, through the SDK's
 * own runner and a scripted model: each request guards the agent with the user's scope.
 */
import { Agent, Runner, tool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForAgents } from '../../../src/integrations/openai-agents/index.js';
import { REPORT, type ServerGuard, serverWithTwoUsers } from '../support/two-users.js';
import { type Workspace, workspaceFactory } from '../support/workspace.js';
import { ScriptedModel, toolOutputsIn } from './scripted-model.js';

const workspace = workspaceFactory();

/** One request of `user`: the model reads report.txt once, then answers. */
async function request(guard: ServerGuard, user: string, ws: Workspace) {
  const model = new ScriptedModel([{ calls: [['read_file', { path: 'report.txt' }]] }, { text: 'done' }]);
  const scoped = narrowingForAgents(guard.scope(user));
  const readFile = tool(
    scoped.tool({
      name: 'read_file',
      description: 'Read a file of the project',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }: { path: string }) => ws.readFile(path),
    }),
  );
  const agent = scoped.agent(new Agent({ name: 'reader', model, tools: [readFile] }));
  await new Runner({ tracingDisabled: true }).run(agent, 'Summarise report.txt');
  return toolOutputsIn(model.inputs[1])[0]?.text ?? '';
}

describe('one OpenAI Agents guard serving two users of a server', () => {
  it("runs user B's first read although user A's identical read failed, and still refuses A's repeat", async () => {
    const { guard, alice, bob } = await serverWithTwoUsers(workspace);
    try {
      expect(await request(guard, 'alice', alice)).toMatch(/^Error: ENOENT/);
      expect(await request(guard, 'bob', bob)).toBe(REPORT);
      expect(await request(guard, 'alice', alice)).toMatch(/^\[narrowing blocked this call/);
      expect([alice.runs.read_file, bob.runs.read_file]).toEqual([1, 1]);
    } finally {
      await guard.close();
    }
  });
});
