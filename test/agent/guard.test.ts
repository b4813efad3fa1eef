import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, defineTool, loadRunState } from '../../src/agent/index.js';
import { openGuard } from '../../src/guard/index.js';
import { eventLog, modelOn, scriptedServer } from './support/agent.js';
import type { Reply } from './support/openai-server.js';

const NON_ADVANCING = { 'dev.narrowing/non-advancing': true };

/** A search that never finds anything, flagged so the guard sees it makes no progress. */
const search = defineTool({
  name: 'search',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
  execute: () => ({ content: [{ type: 'text', text: 'no matches' }], _meta: NON_ADVANCING }),
});
const grep = defineTool({
  name: 'grep',
  inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } },
  execute: ({ pattern }) => `src/a.ts:1: ${String(pattern)}`,
});

function searches(count: number): Reply[] {
  return Array.from({ length: count }, (_, index) => ({
    toolCalls: [{ name: 'search', args: { query: `q${index}` } }],
  }));
}

describe('the guard in the loop', () => {
  it('offers the policy alternatives once when a tool is switched off, and the model can use them', async () => {
    const server = await scriptedServer([
      ...searches(5),
      { toolCalls: [{ name: 'grep', args: { pattern: 'needle' } }] },
      { text: 'Found it in src/a.ts.' },
    ]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [search, grep],
      guard: { store: 'memory', policy: { alternatives: { search: ['grep', 'not_here'] } } },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Find the needle.');
    expect(result).toMatchObject({ state: 'completed', text: 'Found it in src/a.ts.' });
    const verdicts = log.ofType('tool-call').map((event) => event.verdict);
    // The third empty search is warned about (the same error from varied queries), the fourth and fifth
    // are refused: the tool is off. grep runs, with a warning that searching keeps failing.
    expect(verdicts).toEqual(['allow', 'allow', 'warn', 'block', 'block', 'warn']);
    expect(log.ofType('alternatives')).toEqual([
      expect.objectContaining({ tool: 'search', alternatives: ['grep'] }),
    ]);
    const refusal = log.ofType('tool-result')[3];
    expect(refusal).toMatchObject({ status: 'refused' });
    expect(refusal?.output).toMatch(/^\[narrowing blocked this call \(non-advancing\)\]/);
    expect(JSON.stringify(server.requests[4]?.messages)).toContain(
      'Tools that can do the job another way: grep',
    );
    expect(JSON.stringify(result.messages)).not.toContain('Tools that can do the job another way');
  });

  it('tells the guard about a compaction, and keeps the task and the newest messages', async () => {
    const server = await scriptedServer([
      ...Array.from({ length: 4 }, (_, index) => ({
        toolCalls: [{ name: 'grep', args: { pattern: `p${index}`.repeat(40) } }],
      })),
      { text: 'done' },
    ]);
    const session = await openGuard({ store: 'memory' });
    const runs: string[] = [];
    const newRun = session.newRun;
    session.newRun = (reason) => {
      runs.push(reason);
      newRun(reason);
    };
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: [grep],
      guard: session,
      context: { strategy: 'compact', maxTokens: 150, keepLast: 2 },
      onEvent: log.onEvent,
    });
    const result = await agent.run('Search the code.');
    expect(result.state).toBe('completed');
    expect(log.ofType('compaction').length).toBeGreaterThan(0);
    expect(runs.filter((reason) => reason === 'compact')).toHaveLength(log.ofType('compaction').length);
    const last = server.requests.at(-1)?.messages ?? [];
    expect(JSON.stringify(last[0])).toContain('Search the code.');
    expect(JSON.stringify(last[1])).toMatch(/earlier messages were removed/);
    await session.close();
  });
});

describe('a run that persists with its session', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('resumes where it stopped: the conversation, the step count and the guard state carry over', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'narrowing-agent-'));
    dirs.push(stateDir);
    const server = await scriptedServer([
      ...searches(3),
      { toolCalls: [{ name: 'search', args: { query: 'q9' } }] },
      { text: 'Nothing there.' },
    ]);
    const options = {
      model: modelOn(server),
      tools: [search],
      guard: { stateDir, sessionId: 'resumable', probe: false as const },
    };
    const first = await createAgent({ ...options, budget: { maxSteps: 3 } });
    expect((await first.run('Search.')).state).toBe('max_steps');
    await first.close();
    expect(loadRunState(first.persistPath ?? '')?.state).toBe('max_steps');

    const log = eventLog();
    const second = await createAgent({ ...options, budget: { maxSteps: 6 }, onEvent: log.onEvent });
    expect(second.state).toBe('max_steps');
    const result = await second.resume();
    await second.close();
    expect(result).toMatchObject({ state: 'completed', text: 'Nothing there.' });
    expect(result.totals.steps).toBe(5);
    // Three fruitless searches before the restart: the fourth is refused, not counted from zero.
    expect(log.ofType('tool-call').map((event) => event.verdict)).toEqual(['block']);
    expect(server.requests[3]?.messages.filter((message) => message.role === 'tool')).toHaveLength(3);
  });
});
