/**
 * The LangChain middleware facing arguments it cannot read: the call runs, and the guard reports its
 * own fault instead of throwing in LangChain's hands.
 */
import { ToolMessage } from '@langchain/core/messages';
import type { ToolCallRequest } from 'langchain';
import { describe, expect, it } from 'vitest';
import type { NarrowingError } from '../../../src/core/errors.js';
import { narrowingForLangChain } from '../../../src/integrations/langchain/index.js';

describe('the LangChain middleware and guard faults', () => {
  it('runs a call whose arguments are a revoked proxy and reports the fault', async () => {
    const faults: NarrowingError[] = [];
    const guard = narrowingForLangChain(
      { store: 'memory', journal: false, probe: false },
      { reportFault: (fault) => faults.push(fault) },
    );
    const { proxy, revoke } = Proxy.revocable({ path: 'config/prod.yaml' }, {});
    revoke();
    let ran = 0;
    const request = {
      toolCall: { name: 'read_file', args: proxy, id: 'call_1' },
      state: { messages: [] },
      runtime: {},
    } as unknown as ToolCallRequest;
    const wrapToolCall = guard.middleware.wrapToolCall as unknown as (
      request: ToolCallRequest,
      handler: (request: ToolCallRequest) => Promise<ToolMessage>,
    ) => Promise<ToolMessage>;
    const answer = await wrapToolCall(request, async () => {
      ran += 1;
      return new ToolMessage({ content: 'port: 8080', tool_call_id: 'call_1', name: 'read_file' });
    });
    await guard.close();

    expect(ran).toBe(1);
    expect(answer.content).toBe('port: 8080');
    expect(faults[0]?.code).toBe('GUARD_FAULT');
  });
});
