import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { canRelay } from '../../src/mcp/upstream-client.js';

describe('canRelay', () => {
  it('finds every seam the relay needs in the installed SDK client', () => {
    expect(canRelay()).toBe(true);
  });

  it('says no for a client that has lost one of them, so that calls go through the SDK', () => {
    const withoutResponses = Object.create(Client.prototype, { _onresponse: { value: undefined } });
    expect([canRelay(withoutResponses), canRelay({})]).toEqual([false, false]);
  });
});
