/**
 * Every move the state machine allows, reached by a real run: the scripted HTTP server as the model,
 * plain-function tools, the guard in memory or on disk. The last test compares the moves seen with
 * the table, so a move the table allows and no run reaches fails here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentState, createAgent, defineTool, TRANSITIONS } from '../../src/agent/index.js';
import { eventLog, modelOn, scriptedServer } from './support/agent.js';
import type { Reply } from './support/openai-server.js';

/** Every `from>to` a run in this file went through. */
const reached = new Set<string>();

/** An event log whose state changes also count as reached. */
function walk() {
  const log = eventLog();
  return {
    ...log,
    onEvent: (event: Parameters<typeof log.onEvent>[0]) => {
      if (event.type === 'state') reached.add(`${event.from}>${event.to}`);
      log.onEvent(event);
    },
  };
}

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up in the dictionary.',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  execute: ({ word }) => `definition of ${String(word)}`,
});

/** A tool that waits until the run aborts it. */
const hang = defineTool({
  name: 'hang',
  inputSchema: { type: 'object' },
  execute: (_input, { signal }) =>
    new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
});

function lookups(count: number): Reply[] {
  return Array.from({ length: count }, (_, index) => ({
    toolCalls: [{ name: 'lookup', args: { word: `w${index}` } }],
  }));
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-transitions-'));
  dirs.push(dir);
  return dir;
}

/** The address of a chat backend that is down: a loopback port nothing listens on any more. */
async function backendThatIsDown(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/next-message`;
}

describe('a run that goes on', () => {
  it('runs a tool, completes, and starts again from completed with a follow-up message', async () => {
    const server = await scriptedServer([
      { toolCalls: [{ name: 'lookup', args: { word: 'guard' } }] },
      { text: 'A guard protects.' },
      { text: 'That is all of it.' },
    ]);
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [lookup],
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    expect((await agent.run('What is a guard?')).state).toBe('completed');
    const followUp = await agent.run('Is that all?');
    expect(followUp).toMatchObject({ state: 'completed', text: 'That is all of it.' });
    expect(log.states()).toEqual([
      'idle>running',
      'running>waiting_for_tool',
      'waiting_for_tool>running',
      'running>completed',
      'completed>running',
      'running>completed',
    ]);
  });

  it('waits for input, goes on with the next message, and completes when there is none', async () => {
    const server = await scriptedServer([{ text: 'Which file?' }, { text: 'Done with a.txt.' }]);
    const log = walk();
    const replies = ['a.txt'];
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      input: () => replies.shift(),
      onEvent: log.onEvent,
    });
    expect((await agent.run('Fix the file.')).state).toBe('completed');
    expect(log.states()).toEqual([
      'idle>running',
      'running>waiting_for_input',
      'waiting_for_input>running',
      'running>waiting_for_input',
      'waiting_for_input>completed',
    ]);
  });
});

describe('cancelled', () => {
  it('is cancelled before the first request, and resumes from cancelled', async () => {
    const server = await scriptedServer([{ text: 'Hello back.' }]);
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    expect((await agent.run('Hello.', { signal: AbortSignal.abort('closed the tab') })).state).toBe(
      'cancelled',
    );
    expect(server.requests).toHaveLength(0);
    expect(await agent.resume()).toMatchObject({ state: 'completed', text: 'Hello back.' });
    expect(log.states()).toEqual([
      'idle>running',
      'running>cancelled',
      'cancelled>running',
      'running>completed',
    ]);
  });

  it('is cancelled while a tool runs', async () => {
    const server = await scriptedServer([{ toolCalls: [{ name: 'hang', args: {} }] }]);
    const log = walk();
    const controller = new AbortController();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [hang],
      guard: { store: 'memory' },
      onEvent: (event) => {
        log.onEvent(event);
        if (event.type === 'state' && event.to === 'waiting_for_tool')
          controller.abort('the user pressed stop');
      },
    });
    const result = await agent.run('Wait.', { signal: controller.signal });
    expect(result).toMatchObject({ state: 'cancelled', reason: 'cancelled: the user pressed stop' });
    expect(log.states().at(-1)).toBe('waiting_for_tool>cancelled');
  });

  it('is cancelled while it waits for input', async () => {
    const server = await scriptedServer([{ text: 'Anything else?' }]);
    const log = walk();
    const controller = new AbortController();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      input: ({ signal }) => {
        const next = new Promise<string>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        );
        controller.abort('the user left');
        return next;
      },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Hello.', { signal: controller.signal });
    expect(result).toMatchObject({ state: 'cancelled', reason: 'cancelled: the user left' });
    expect(log.states().at(-1)).toBe('waiting_for_input>cancelled');
  });
});

describe('timed out', () => {
  it('times out before the next request, and starts again from timed_out with a new message', async () => {
    const server = await scriptedServer([
      { toolCalls: [{ name: 'slow_lookup', args: { word: 'guard' } }] },
      { text: 'A guard protects.' },
    ]);
    let now = 0;
    const slowLookup = defineTool({
      ...lookup,
      name: 'slow_lookup',
      execute: (input, context) => {
        now += 11_000;
        return lookup.execute(input, context);
      },
    });
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [slowLookup],
      guard: { store: 'memory' },
      budget: { timeoutMs: 10_000 },
      clock: () => now,
      onEvent: log.onEvent,
    });
    expect((await agent.run('What is a guard?')).state).toBe('timed_out');
    expect(await agent.run('Answer with what you found.')).toMatchObject({
      state: 'completed',
      text: 'A guard protects.',
    });
    expect(log.states()).toEqual([
      'idle>running',
      'running>waiting_for_tool',
      'waiting_for_tool>running',
      'running>timed_out',
      'timed_out>running',
      'running>completed',
    ]);
  });

  it('times out while a tool runs past the time limit', async () => {
    const server = await scriptedServer([{ toolCalls: [{ name: 'hang', args: {} }] }]);
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [hang],
      guard: { store: 'memory' },
      budget: { timeoutMs: 300 },
      onEvent: log.onEvent,
    });
    expect((await agent.run('Wait.')).state).toBe('timed_out');
    expect(log.states().at(-1)).toBe('waiting_for_tool>timed_out');
  });

  it('times out while it waits for input', async () => {
    const server = await scriptedServer([{ text: 'Anything else?' }]);
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      budget: { timeoutMs: 300 },
      input: ({ signal }) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      onEvent: log.onEvent,
    });
    expect((await agent.run('Hello.')).state).toBe('timed_out');
    expect(log.states().at(-1)).toBe('waiting_for_input>timed_out');
  });
});

describe('out of steps', () => {
  it('stops at the step limit, and starts again from max_steps with a new message', async () => {
    const server = await scriptedServer([...lookups(2), { text: 'w0 and w1 are defined.' }]);
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [lookup],
      guard: { store: 'memory' },
      budget: { maxSteps: 2 },
      onEvent: log.onEvent,
    });
    expect((await agent.run('Look up two words.')).state).toBe('max_steps');
    expect(await agent.run('Sum up.')).toMatchObject({ state: 'completed', text: 'w0 and w1 are defined.' });
    expect(log.states()).toEqual([
      'idle>running',
      'running>waiting_for_tool',
      'waiting_for_tool>running',
      'running>waiting_for_tool',
      'waiting_for_tool>running',
      'running>max_steps',
      'max_steps>running',
      'running>completed',
    ]);
  });

  it('stops at the step limit of the guard policy while tools run', async () => {
    const server = await scriptedServer(lookups(3));
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [lookup],
      guard: { store: 'memory', policy: { budget: { maxSteps: 1 } } },
      budget: { maxSteps: 10 },
      onEvent: log.onEvent,
    });
    expect((await agent.run('Look up words.')).state).toBe('max_steps');
    expect(log.states().at(-1)).toBe('waiting_for_tool>max_steps');
  });
});

describe('over budget', () => {
  it('stops when the tokens are spent, and resumes from budget_exceeded once the limit is raised', async () => {
    const dir = stateDir();
    const server = await scriptedServer([...lookups(3), { text: 'Three words looked up.' }]);
    const options = {
      model: modelOn(server),
      tools: [lookup],
      guard: { stateDir: dir, sessionId: 'raised', probe: false as const },
    };
    const log = walk();
    const first = await createAgent({ ...options, budget: { tokenBudget: 40 }, onEvent: log.onEvent });
    expect((await first.run('Look up words.')).state).toBe('budget_exceeded');
    await first.close();

    const second = await createAgent({ ...options, budget: { tokenBudget: 100 }, onEvent: log.onEvent });
    const result = await second.resume();
    await second.close();
    expect(result).toMatchObject({ state: 'completed', text: 'Three words looked up.' });
    expect(result.totals.tokens).toBe(60);
    expect(log.states()).toContain('running>budget_exceeded');
    expect(log.states().slice(-1)).toEqual(['running>completed']);
    expect(log.states()).toContain('budget_exceeded>running');
  });

  it('stops while tools run once the model has spent the cost limit of the guard policy', async () => {
    const server = await scriptedServer(lookups(4));
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [lookup],
      // The agent's own budget counts steps only: the session's cost limit is the policy's.
      guard: { store: 'memory', policy: { budget: { costLimit: 0.01 } } },
      budget: { maxSteps: 10 },
      cost: ({ inputTokens, outputTokens }) => (inputTokens + outputTokens) * 0.0005,
      onEvent: log.onEvent,
    });
    const result = await agent.run('Look up words.');
    expect(result).toMatchObject({
      state: 'budget_exceeded',
      reason: 'This session has cost $0.0150, reaching its limit of $0.0100.',
    });
    expect(log.states().at(-1)).toBe('waiting_for_tool>budget_exceeded');
    expect(log.ofType('tool-call').map((event) => event.verdict)).toEqual(['allow', 'halt']);
  });
});

describe('errors', () => {
  it('ends in error when the provider refuses the key, and resumes from error once it accepts it', async () => {
    const server = await scriptedServer([
      { status: 401, message: 'Incorrect API key provided' },
      { text: 'Hello back.' },
    ]);
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    expect((await agent.run('Hello.')).state).toBe('error');
    expect(await agent.resume()).toMatchObject({ state: 'completed', text: 'Hello back.' });
    expect(log.states()).toEqual(['idle>running', 'running>error', 'error>running', 'running>completed']);
  });

  it('ends in error when the guard halts the run while tools run', async () => {
    const server = await scriptedServer([
      {
        toolCalls: [
          { name: 'stop_all', args: {} },
          { name: 'lookup', args: { word: 'never' } },
        ],
      },
    ]);
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      tools: [
        lookup,
        defineTool({
          name: 'stop_all',
          inputSchema: { type: 'object' },
          execute: () => {
            agent.session.engine.stop('the operator stopped the agent');
            return 'stopping';
          },
        }),
      ],
      onEvent: log.onEvent,
    });
    expect((await agent.run('Go.')).state).toBe('error');
    expect(log.states().at(-1)).toBe('waiting_for_tool>error');
  });

  it('ends in error when the next message cannot be read, keeping the error', async () => {
    const server = await scriptedServer([{ text: 'What next?' }]);
    const backend = await backendThatIsDown();
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      guard: { store: 'memory' },
      input: async ({ signal }) => (await fetch(backend, { signal })).text(),
      onEvent: log.onEvent,
    });
    const result = await agent.run('Hello.');
    expect(result).toMatchObject({
      state: 'error',
      reason: 'the next message could not be read: fetch failed',
    });
    expect((result.error as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    expect(log.states().at(-1)).toBe('waiting_for_input>error');
  });
});

describe('halted', () => {
  it('is halted by the same refused call and answers, and starts again from halted with a new message', async () => {
    const missing = defineTool({
      name: 'read_file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      execute: () => {
        throw new Error("ENOENT: no such file or directory, open 'notes.md'");
      },
    });
    const read: Reply = { toolCalls: [{ name: 'read_file', args: { path: 'notes.md' } }] };
    const server = await scriptedServer([
      read,
      read,
      read,
      read,
      { text: 'There are no notes.' },
      { text: 'Hi.' },
    ]);
    const log = walk();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [missing],
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    expect(await agent.run('Read my notes.')).toMatchObject({ state: 'halted', text: 'There are no notes.' });
    expect(await agent.run('Hello.')).toMatchObject({ state: 'completed', text: 'Hi.' });
    expect(log.states().slice(-3)).toEqual(['running>halted', 'halted>running', 'running>completed']);
  });
});

it('reaches every transition of the table in the runs above, and no other', () => {
  const table = (Object.keys(TRANSITIONS) as AgentState[]).flatMap((from) =>
    TRANSITIONS[from].map((to) => `${from}>${to}`),
  );
  expect(table.filter((move) => !reached.has(move))).toEqual([]);
  expect([...reached].filter((move) => !table.includes(move))).toEqual([]);
});
