/** What the agent tests share: a model on the scripted server (AI SDK 6 or 5), and a run that records its events. */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV2 } from '@ai-sdk/provider';
import { createOpenAICompatible as createOpenAICompatibleV1 } from 'openai-compatible-v1';
import { afterEach } from 'vitest';
import type { AgentEvent } from '../../../src/agent/index.js';
import { type Reply, type ScriptedServer, startScriptedServer } from './openai-server.js';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A scripted server, closed after the test. */
export async function scriptedServer(script: readonly Reply[]): Promise<ScriptedServer> {
  const server = await startScriptedServer(script);
  servers.push(server);
  return server;
}

export function modelOn(server: ScriptedServer) {
  return createOpenAICompatible({ name: 'scripted', baseURL: server.baseURL, includeUsage: true }).chatModel(
    'scripted',
  );
}

/** The same server through a provider package of the AI SDK 5 line: a `LanguageModelV2`. */
export function v2ModelOn(server: ScriptedServer): LanguageModelV2 {
  return createOpenAICompatibleV1({
    name: 'scripted',
    baseURL: server.baseURL,
    includeUsage: true,
  }).chatModel('scripted');
}

/** Collects events; `states()` is the path the run took. */
export function eventLog() {
  const events: AgentEvent[] = [];
  return {
    events,
    onEvent: (event: AgentEvent) => events.push(event),
    states: () => events.flatMap((event) => (event.type === 'state' ? [`${event.from}>${event.to}`] : [])),
    ofType: <T extends AgentEvent['type']>(type: T) =>
      events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type),
  };
}

/** Back-off without waiting: the delays asked for are kept to be checked. */
export function instantSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}
