import { describe, expect, it } from 'vitest';
import { createAgent, defineTool } from '../../src/agent/index.js';
import { eventLog, modelOn, scriptedServer } from './support/agent.js';

const readFile = defineTool({
  name: 'read_file',
  description: 'Reads a file of the project.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: ({ path }) => {
    throw new Error(`ENOENT: no such file or directory, open '${String(path)}'`);
  },
});

const readMissing = { toolCalls: [{ name: 'read_file', args: { path: 'config/prod.yaml' } }] };

describe('the halt on repeated refusals', () => {
  it('ends at the third refusal of the same call and gives the model one turn without tools to answer', async () => {
    const server = await scriptedServer([
      readMissing,
      readMissing,
      readMissing,
      readMissing,
      { text: 'config/prod.yaml does not exist; I could not read the production settings.' },
    ]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [readFile],
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    const result = await agent.run('What are the production settings?');
    await agent.close();

    expect(result).toMatchObject({
      state: 'halted',
      text: 'config/prod.yaml does not exist; I could not read the production settings.',
    });
    expect(result.reason).toMatch(/was refused 3 times in a row/);
    expect(server.requests).toHaveLength(5);
    expect(server.requests[3]?.tools).toHaveLength(1);
    expect(server.requests[4]?.tools).toBeUndefined();
    expect(JSON.stringify(server.requests[4]?.messages.at(-1))).toContain('Answer the user now');
    expect(log.ofType('tool-call').map((event) => event.verdict)).toEqual([
      'allow',
      'block',
      'block',
      'halt',
    ]);
    expect(log.states().slice(-2)).toEqual(['waiting_for_tool>running', 'running>halted']);
    expect(result.messages.some((message) => JSON.stringify(message).includes('Answer the user now'))).toBe(
      false,
    );
  });

  it('ends after the last turn even when the model calls tools in it, leaving them unrun', async () => {
    const server = await scriptedServer(Array.from({ length: 10 }, () => readMissing));
    const agent = await createAgent({
      model: modelOn(server),
      tools: [readFile],
      guard: { store: 'memory' },
    });
    const result = await agent.run('What are the production settings?');
    await agent.close();

    expect(result.state).toBe('halted');
    expect(server.requests).toHaveLength(5);
    expect(result.messages.at(-1)?.role).toBe('tool');
  });
});
