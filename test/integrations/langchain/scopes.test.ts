/**
 * One guard serving two users of a server, each with a workspace of their own, through
 * `createAgent` and LangChain's fake model: each request hands the middleware the user's scope.
 */
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { narrowingForLangChain } from '../../../src/integrations/langchain/index.js';
import { REPORT, type ServerGuard, serverWithTwoUsers } from '../support/two-users.js';
import { type Workspace, workspaceFactory } from '../support/workspace.js';
import { scriptedModel, toolMessagesIn } from './scripted-model.js';
import { toolsOf } from './support.js';

const workspace = workspaceFactory();

/** One request of `user`: the model reads report.txt once, then answers. */
async function request(guard: ServerGuard, user: string, ws: Workspace) {
  const model = scriptedModel([{ calls: [['read_file', { path: 'report.txt' }]] }, { text: 'done' }]);
  const scoped = narrowingForLangChain(guard.scope(user));
  const agent = createAgent({ model, tools: toolsOf(ws), middleware: [scoped.middleware] });
  await agent.invoke({ messages: [{ role: 'user', content: 'Summarise report.txt' }] });
  return toolMessagesIn(model, 1)[0]?.text ?? '';
}

describe('one LangChain guard serving two users of a server', () => {
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
