/**
 * The AI SDK entry points facing what the guard cannot read, and the words of a refusal: a guard
 * fault never changes what the tool does, and the model reads a refusal the same way on every path.
 */
import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { NarrowingError } from '../../../src/core/errors.js';
import { workspaceFactory } from '../support/workspace.js';
import { scriptedModel, toolResultsIn } from './scripted-model.js';
import { guardFor } from './support.js';

const workspace = workspaceFactory();

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({ path: 'config/prod.yaml' }, {});
  revoke();
  return proxy;
}

/** A row whose lazy field throws once its connection is gone. */
const staleRow = {
  id: 'row-7',
  get content(): string {
    throw new Error('lazy field read after the connection closed');
  },
};

describe('AI SDK entry points and guard faults', () => {
  it('gives the model a refusal through wrapped tools on ai 7 in the words of every other path', async () => {
    const ws = workspace();
    const guard = guardFor(ws);
    const { model, prompts } = scriptedModel([
      { calls: [['read_file', { path: 'config/prod.yaml' }]] },
      { calls: [['read_file', { path: 'config/prod.yaml' }]] },
      { text: 'Gone.' },
    ]);
    await generateText({
      model,
      tools: guard.wrapTools({
        read_file: tool({
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => ws.readFile(path),
        }),
      }),
      prompt: 'Read the production config.',
      stopWhen: [isStepCount(10), guard.stopWhen],
    }).finally(() => guard.close());

    expect(toolResultsIn(prompts[2])[1]?.output).toEqual({
      type: 'error-text',
      value: expect.stringMatching(/^\[narrowing blocked this call \(identical-failure\)\] read_file/),
    });
  });

  it('approves a call whose input is a revoked proxy and reports the fault, instead of throwing', () => {
    const ws = workspace();
    const faults: NarrowingError[] = [];
    const guard = guardFor(ws, { reportFault: (fault) => faults.push(fault) });
    const approval = guard.toolApproval({
      toolCall: { toolCallId: 'call_1', toolName: 'read_file', input: revoked() },
      messages: [],
    });

    expect(approval).toBe('not-applicable');
    expect(faults.map((fault) => fault.code)).toEqual(['GUARD_FAULT']);
    return guard.close();
  });

  it('takes the end of a call whose output has a throwing getter without throwing, and reports the fault', () => {
    const ws = workspace();
    const faults: NarrowingError[] = [];
    const guard = guardFor(ws, { reportFault: (fault) => faults.push(fault) });
    const toolCall = { toolCallId: 'call_1', toolName: 'read_row', input: { id: 'row-7' } };
    guard.toolApproval({ toolCall, messages: [] });

    expect(() =>
      guard.onToolExecutionEnd({
        toolCall,
        toolOutput: { type: 'tool-result', output: staleRow },
        toolExecutionMs: 3,
        messages: [],
      }),
    ).not.toThrow();
    expect(faults[0]?.message).toContain('lazy field read after the connection closed');
    return guard.close();
  });

  it('returns what a wrapped tool returned even when the guard cannot read it', async () => {
    const ws = workspace();
    const faults: NarrowingError[] = [];
    const guard = guardFor(ws, { reportFault: (fault) => faults.push(fault) });
    const { read_row } = guard.wrapTools({
      read_row: { execute: async (_input: unknown, _options: unknown) => staleRow },
    });
    const value = await read_row.execute?.({ id: 'row-7' }, { toolCallId: 'call_1', messages: [] });

    expect(value).toBe(staleRow);
    expect(faults).toHaveLength(1);
    await guard.close();
  });
});
