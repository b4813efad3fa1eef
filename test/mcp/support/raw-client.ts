import type { StdioProxyOptions } from '../../../src/mcp/stdio.js';
import { startOnPipes } from './harness.js';
import { RawClient } from './line-client.js';

export { RawClient, type RawMessage } from './line-client.js';

export interface RawProxy {
  readonly client: RawClient;
  readonly logs: string[];
  readonly done: Promise<number>;
}

/** The stdio proxy in this process, driven by a raw client that has completed the handshake. */
export async function startRawProxy(options: Omit<StdioProxyOptions, 'input' | 'output'>): Promise<RawProxy> {
  const { toProxy, fromProxy, logs, done } = startOnPipes(options);
  const client = new RawClient(toProxy, fromProxy);
  await client.initialize();
  // The fast path opens once the proxy has seen `initialized`; a round trip makes sure it has.
  await client.request('ready', 'ping');
  return { client, logs, done };
}
