/**
 * One guard serving two users of a server, each with a workspace of their own, through the AI SDK's
 * own loop and mock model: each request hands the adapter the user's scope of the guard.
 */
import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForAiSdk } from '../../../src/integrations/ai-sdk/index.js';
import { type ServerGuard, serverWithTwoUsers } from '../support/two-users.js';
import { type Workspace, workspaceFactory } from '../support/workspace.js';
import { scriptedModel } from './scripted-model.js';

const workspace = workspaceFactory();

const readReport = { calls: [['read_file', { path: 'report.txt' }]] } as const;

/** One request of `user`: the model reads report.txt `reads` times, then answers. */
async function request(guard: ServerGuard, user: string, ws: Workspace, reads: number) {
  const { model } = scriptedModel([...Array.from({ length: reads }, () => readReport), { text: 'done' }]);
  const scoped = narrowingForAiSdk(guard.scope(user));
  return generateText({
    model,
    tools: {
      read_file: scoped.wrapTools({
        read_file: tool({
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => ws.readFile(path),
        }),
      }).read_file,
    },
    prompt: 'Summarise report.txt',
    stopWhen: isStepCount(10),
  });
}

describe('one AI SDK guard serving two users of a server', () => {
  it("runs user B's first read although user A's identical read failed, and still refuses A's repeat", async () => {
    const { guard, alice, bob } = await serverWithTwoUsers(workspace);
    try {
      await request(guard, 'alice', alice, 1);
      expect(alice.runs.read_file).toBe(1);

      const bobRun = await request(guard, 'bob', bob, 1);
      expect(bob.runs.read_file).toBe(1);
      expect(JSON.stringify(bobRun.steps[0]?.content)).toContain('Q3 revenue');

      const aliceAgain = await request(guard, 'alice', alice, 1);
      expect(alice.runs.read_file).toBe(1);
      const refused = aliceAgain.steps[0]?.content.find((part) => part.type === 'tool-error');
      // Refused without running: the model reads the error A's first read got.
      expect(String((refused as { error?: Error } | undefined)?.error?.message)).toContain('ENOENT');
    } finally {
      await guard.close();
    }
  });
});
