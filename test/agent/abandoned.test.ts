import { describe, expect, it } from 'vitest';
import { createAgent, defineTool } from '../../src/agent/index.js';
import { eventLog, modelOn, scriptedServer } from './support/agent.js';

/** A tool that never returns and never looks at its signal. */
const deaf = defineTool({
  name: 'deploy',
  inputSchema: { type: 'object' },
  execute: () => new Promise(() => {}),
});

describe('a tool that ignores its signal', () => {
  it('does not keep the run past its time limit, and is reported as abandoned', async () => {
    const server = await scriptedServer([{ toolCalls: [{ name: 'deploy', args: {} }] }]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [deaf],
      guard: { store: 'memory' },
      budget: { timeoutMs: 2_000 },
      onEvent: log.onEvent,
    });
    const started = Date.now();
    const result = await agent.run('Deploy.');
    // The tool never settles: a run that waited for it would never end (the test's own limit is 30 s).
    expect(Date.now() - started).toBeLessThan(20_000);
    await agent.close();

    expect(result.state).toBe('timed_out');
    expect(log.ofType('tool-result')).toEqual([
      expect.objectContaining({ toolName: 'deploy', status: 'abandoned' }),
    ]);
    expect(JSON.stringify(result.messages.at(-1))).toContain('abandoned');
  });

  it('does not keep the run once it is cancelled', async () => {
    const server = await scriptedServer([{ toolCalls: [{ name: 'deploy', args: {} }] }]);
    const log = eventLog();
    const controller = new AbortController();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [
        defineTool({
          name: 'deploy',
          inputSchema: { type: 'object' },
          execute: () => {
            setTimeout(() => controller.abort(new Error('interrupted')), 20);
            return new Promise(() => {});
          },
        }),
      ],
      guard: { store: 'memory' },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Deploy.', { signal: controller.signal });
    await agent.close();

    expect(result).toMatchObject({ state: 'cancelled', reason: 'cancelled: interrupted' });
    expect(log.ofType('tool-result').map((event) => event.status)).toEqual(['abandoned']);
  });

  it('lets a tool that stops when told end the run as not run, not abandoned', async () => {
    const server = await scriptedServer([{ toolCalls: [{ name: 'wait', args: {} }] }]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [
        defineTool({
          name: 'wait',
          inputSchema: { type: 'object' },
          execute: (_input, { signal }) =>
            new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
        }),
      ],
      guard: { store: 'memory' },
      // Long enough for the model's turn to reach the tool on a busy machine: the time limit counts
      // the model's answer too, and a run that timed out before the call reports no tool at all.
      budget: { timeoutMs: 2_000 },
      onEvent: log.onEvent,
    });
    expect((await agent.run('Wait.')).state).toBe('timed_out');
    await agent.close();
    expect(log.ofType('tool-result').map((event) => event.status)).toEqual(['not-run']);
  });
});
