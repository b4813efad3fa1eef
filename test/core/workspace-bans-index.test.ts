import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConstraintIndex, type Entry } from '../../src/core/constraints.js';
import { banEntry, learnedBan } from './support.js';

/** A call ban as the engine learns one for `npm test` failing, workspace-wide or not. */
function ban(id: number, workspace: boolean): Entry {
  return banEntry(
    learnedBan({
      id: `c${id}`,
      signature: 'test_failed',
      actionClass: 'shell',
      tool: 'bash',
      callKey: `bash:npm test -- test/${id}.test.ts`,
      target: `npm test -- test/${id}.test.ts`,
      dependsOnWorkspace: workspace,
      evidence: { lastError: 'FAIL test/orders.test.ts', lastAt: id },
    }),
    workspace ? [] : [`src/orders/module-${id}.ts`],
  );
}

const workspaceWide = (index: ConstraintIndex): Entry[] =>
  [...index.entries()].filter((entry) => entry.constraint.dependsOnWorkspace === true);

describe('the index of workspace-wide bans', () => {
  it('gives the workspace-wide bans in the order of all bans after any puts, touches, removals and evictions', () => {
    const step = fc.record({
      op: fc.constantFrom('put', 'put', 'touch', 'remove'),
      id: fc.integer({ min: 0, max: 30 }),
      workspace: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(step, { maxLength: 200 }), (capacity, steps) => {
        const index = new ConstraintIndex(capacity);
        for (const { op, id, workspace } of steps) {
          const held = index.get(`c${id}`);
          if (op === 'put') index.put(ban(id, workspace));
          else if (op === 'touch' && held) index.touch(held, true);
          else if (op === 'remove' && held) index.remove(held);
          expect(index.workspaceEntries()).toEqual(workspaceWide(index));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('holds no more bans than the index does', () => {
    const index = new ConstraintIndex(50);
    for (let id = 0; id < 500; id++) index.put(ban(id, true));
    expect([index.size, index.workspaceEntries().length]).toEqual([50, 50]);
  });
});
