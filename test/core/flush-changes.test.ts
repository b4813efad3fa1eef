import { describe, expect, it } from 'vitest';
import { toolCallToOutcome } from '../../src/adapters/tool-call/index.js';
import type { PersistedState, StateStore } from '../../src/core/types.js';
import { createMemoryStore } from '../../src/stores/memory-store.js';
import { Agent, ENOENT } from './support.js';

/** A memory store that keeps what each save gave it. */
function recordingStore(): StateStore & { readonly saves: PersistedState[] } {
  const store = createMemoryStore();
  const saves: PersistedState[] = [];
  return {
    saves,
    load: () => store.load(),
    save(state) {
      const given = typeof state === 'function' ? state() : state;
      saves.push(given);
      store.save(given);
    },
    flush: () => store.flush(),
    close: () => store.close(),
  };
}

function missingFile(agent: Agent, path: string): void {
  agent.repeat(2, 'Read', { file_path: path }, ENOENT(path));
}

const ids = (state: PersistedState | undefined) => (state?.constraints ?? []).map((c) => c.id).sort();

describe('flushing learned constraints', () => {
  it('gives the store only the constraints that changed since the last flush', async () => {
    const store = recordingStore();
    const agent = new Agent({ store });
    missingFile(agent, '/repo/src/a.ts');
    missingFile(agent, '/repo/src/b.ts');
    await agent.loop.flush();
    const learned = ids(agent.loop.exportState());
    expect(learned).toHaveLength(2);
    expect(store.saves.flatMap((save) => save.constraints.map((c) => c.id)).sort()).toEqual(learned);

    store.saves.length = 0;
    await agent.loop.flush();
    expect(store.saves.flatMap((save) => save.constraints)).toEqual([]);

    store.saves.length = 0;
    missingFile(agent, '/repo/src/c.ts');
    await agent.loop.flush();
    const added = ids(agent.loop.exportState()).filter((id) => !learned.includes(id));
    expect(added).toHaveLength(1);
    expect(store.saves.flatMap((save) => save.constraints.map((c) => c.id))).toEqual(added);
  });

  it('leaves the store holding what a whole export holds', async () => {
    const store = recordingStore();
    const agent = new Agent({ store });
    for (const name of ['a', 'b', 'c']) {
      missingFile(agent, `/repo/src/${name}.ts`);
      await agent.loop.flush();
    }
    // A ban strengthened in place (another failure of the same call) is given again.
    const path = '/repo/src/a.ts';
    const before = agent.loop.exportState().constraints.find((c) => c.target === path);
    agent.clock.advance(60);
    agent.loop.recordOutcome(
      toolCallToOutcome(
        'Read',
        { file_path: path },
        { content: [{ type: 'text', text: ENOENT(path).text }], isError: true },
      ),
    );
    await agent.loop.flush();
    const whole = agent.loop.exportState();
    const after = whole.constraints.find((c) => c.target === path);
    expect(after?.evidence.lastAt).toBeGreaterThan(before?.evidence.lastAt ?? Number.POSITIVE_INFINITY);
    const stored = store.load();
    expect(stored?.constraints).toEqual([...whole.constraints].sort((x, y) => (x.id < y.id ? -1 : 1)));
  });
});

describe('flushing a ban changed by a check', () => {
  it('gives the store a ban that a check found expired and put on probation', async () => {
    const store = recordingStore();
    const agent = new Agent({ store });
    const path = '/repo/src/a.ts';
    missingFile(agent, path);
    await agent.loop.flush();
    const ban = agent.loop.exportState().constraints.find((c) => c.target === path);
    expect(ban?.probation).toBe(false);

    agent.clock.advance((ban?.expiresAt ?? 0) / 1000 - agent.clock.now() / 1000 + 1);
    agent.check('Read', { file_path: path });
    store.saves.length = 0;
    await agent.loop.flush();
    const given = store.saves.flatMap((save) => save.constraints).find((c) => c.target === path);
    expect(given?.probation).toBe(true);
    expect(store.load()?.constraints.find((c) => c.target === path)?.probation).toBe(true);
  });
});

describe('a session snapshot', () => {
  it('holds the failures not enforced or not kept across sessions, least recently changed first', () => {
    const agent = new Agent();
    const lint = { text: 'src/a.ts:3:1 error no-unused-vars\n1 problem\nexit code 1', isError: true };
    const tests = { text: 'FAIL test/a.test.ts\nTests: 1 failed\nexit code 1', isError: true };
    agent.call('Bash', { command: 'npm run lint' }, lint);
    agent.call('Bash', { command: 'npm test' }, tests);
    missingFile(agent, '/repo/src/b.ts');
    agent.call('Bash', { command: 'npm run lint' }, lint);
    const calls = agent.loop
      .sessionSnapshot()
      .entries.filter((entry) => entry.constraint.scope === 'call')
      .map((entry) => entry.constraint.target);
    expect(calls).toEqual(['npm test', 'npm run lint']);
    expect(agent.loop.exportState().constraints.map((c) => c.target)).toEqual(['/repo/src/b.ts']);
  });
});
