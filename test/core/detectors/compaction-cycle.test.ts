import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCycleDetector } from '../../../src/core/detectors/cycle.js';
import { Agent } from '../support.js';
import { callOf } from './support.js';

const ROUTES = { file_path: 'src/server/routes.ts' };
const ROUTES_TEXT =
  "import { Router } from 'express';\nimport { listOrders } from './orders';\n\nexport const router = Router();\nrouter.get('/orders', listOrders);\n";
const ORDERS = { file_path: 'src/server/orders.ts' };
const ORDERS_TEXT =
  "import type { Request, Response } from 'express';\n\nexport async function listOrders(req: Request, res: Response) {\n  res.json(await db.orders.findMany());\n}\n";
const SEARCH = { pattern: 'findMany', path: 'src' };
const SEARCH_TEXT = 'src/server/orders.ts:4:  res.json(await db.orders.findMany());';

/** The work before the first compaction: both files read, a search, and an edit elsewhere. */
function firstCycle(agent: Agent): void {
  agent.call('Read', ROUTES, ROUTES_TEXT);
  agent.call('Read', ORDERS, ORDERS_TEXT);
  agent.call('Grep', SEARCH, SEARCH_TEXT);
  agent.call(
    'Edit',
    { file_path: 'src/server/db.ts', old_string: 'export const db', new_string: 'export const db: Db' },
    'The file src/server/db.ts has been updated.',
  );
}

function rereadBoth(agent: Agent): string[] {
  return [
    agent.call('Read', ROUTES, ROUTES_TEXT).check.verdict,
    agent.call('Read', ORDERS, ORDERS_TEXT).check.verdict,
  ];
}

describe('compaction-cycle', () => {
  it('allows re-reading the files once after a compaction', () => {
    const agent = new Agent();
    firstCycle(agent);
    agent.loop.newRun('compact');
    expect(rereadBoth(agent)).toEqual(['allow', 'allow']);
  });

  it('warns on the first re-read of a second cycle that goes over the same unchanged files, and blocks the next', () => {
    const agent = new Agent();
    firstCycle(agent);
    agent.loop.newRun('compact');
    rereadBoth(agent);
    agent.loop.newRun('compact');
    const first = agent.call('Read', ROUTES, ROUTES_TEXT).check;
    const second = agent.call('Read', ORDERS, ORDERS_TEXT).check;
    expect([first.verdict, first.rule]).toEqual(['warn', 'compaction-cycle']);
    expect([second.verdict, second.rule]).toEqual(['block', 'compaction-cycle']);
    expect(second.reason).toContain('compacted again');
    expect(second.suggestion).toContain('Write down what these files told you');
  });

  it('blocks every re-read of a third such cycle from the first', () => {
    const agent = new Agent();
    firstCycle(agent);
    for (let cycle = 0; cycle < 2; cycle++) {
      agent.loop.newRun('compact');
      rereadBoth(agent);
    }
    agent.loop.newRun('compact');
    expect(agent.call('Read', ORDERS, ORDERS_TEXT).check.verdict).toBe('block');
  });

  it('counts a cycle whose re-reads were all blocked as going round again', () => {
    const agent = new Agent();
    firstCycle(agent);
    for (let cycle = 0; cycle < 3; cycle++) {
      agent.loop.newRun('compact');
      rereadBoth(agent);
    }
    agent.loop.newRun('compact');
    expect(rereadBoth(agent)).toEqual(['block', 'block']);
  });

  it('treats a cycle that wrote something as progress, so the next re-reads are allowed', () => {
    const agent = new Agent();
    firstCycle(agent);
    agent.loop.newRun('compact');
    rereadBoth(agent);
    agent.call(
      'Write',
      { file_path: 'NOTES.md', content: '# Orders\n- routes.ts mounts listOrders\n- next: add paging\n' },
      'File created successfully at: NOTES.md',
    );
    agent.loop.newRun('compact');
    expect(rereadBoth(agent)).toEqual(['allow', 'allow']);
  });

  it('treats a file that reads differently as something new learned', () => {
    const agent = new Agent();
    firstCycle(agent);
    agent.loop.newRun('compact');
    agent.call('Read', ROUTES, ROUTES_TEXT);
    agent.call('Read', ORDERS, ORDERS_TEXT.replace('findMany()', 'findMany({ take: 50 })'));
    agent.loop.newRun('compact');
    expect(rereadBoth(agent)).toEqual(['allow', 'allow']);
  });

  it('lets the cycle go on once it reads something it had not read', () => {
    const agent = new Agent();
    firstCycle(agent);
    agent.loop.newRun('compact');
    rereadBoth(agent);
    agent.loop.newRun('compact');
    agent.call('Read', { file_path: 'src/server/paging.ts' }, 'export const PAGE_SIZE = 50;\n');
    expect(rereadBoth(agent)).toEqual(['allow', 'allow']);
  });

  it('counts a search re-run across compactions like a re-read', () => {
    const agent = new Agent();
    firstCycle(agent);
    for (let cycle = 0; cycle < 2; cycle++) {
      agent.loop.newRun('compact');
      agent.call('Grep', SEARCH, SEARCH_TEXT);
    }
    agent.loop.newRun('compact');
    expect(agent.call('Grep', SEARCH, SEARCH_TEXT).check.rule).toBe('compaction-cycle');
  });

  it('counts a read-only command re-run across compactions like a re-read', () => {
    const agent = new Agent();
    const cat = { command: 'cat src/server/routes.ts' };
    agent.call('Bash', cat, ROUTES_TEXT);
    for (let cycle = 0; cycle < 2; cycle++) {
      agent.loop.newRun('compact');
      agent.call('Bash', cat, ROUTES_TEXT);
    }
    agent.loop.newRun('compact');
    expect(agent.call('Bash', cat, ROUTES_TEXT).check.verdict).toBe('block');
  });

  it('counts one compaction announced several times (before, after, at the restart) once', () => {
    const agent = new Agent();
    firstCycle(agent);
    for (let notice = 0; notice < 3; notice++) agent.loop.newRun('compact');
    rereadBoth(agent);
    for (let notice = 0; notice < 3; notice++) agent.loop.newRun('compact');
    expect(rereadBoth(agent)).toEqual(['warn', 'block']);
  });

  it('starts over on a new user message', () => {
    const agent = new Agent();
    firstCycle(agent);
    agent.loop.newRun('compact');
    rereadBoth(agent);
    agent.loop.newRun('user');
    agent.loop.newRun('compact');
    expect(rereadBoth(agent)).toEqual(['allow', 'allow']);
  });

  it('does not count a re-read cut short by a timeout, so retrying it is warned again rather than blocked', () => {
    const agent = new Agent();
    firstCycle(agent);
    agent.loop.newRun('compact');
    rereadBoth(agent);
    agent.loop.newRun('compact');
    expect(agent.call('Read', ROUTES, { error: 'Request timed out after 60000ms' }).check.verdict).toBe(
      'warn',
    );
    expect(agent.call('Read', ROUTES, ROUTES_TEXT).check.verdict).toBe('warn');
  });

  it('carries its cycles over to a guard restored from a snapshot, as hook processes do', () => {
    const first = new Agent();
    firstCycle(first);
    first.loop.newRun('compact');
    rereadBoth(first);
    const second = new Agent();
    second.loop.restore(JSON.parse(JSON.stringify(first.loop.snapshot())));
    second.loop.newRun('compact');
    expect(rereadBoth(second)).toEqual(['warn', 'block']);
  });

  it('saves call keys and result digests, never the files it read', () => {
    const agent = new Agent();
    firstCycle(agent);
    agent.loop.newRun('compact');
    rereadBoth(agent);
    const saved = JSON.stringify(agent.loop.sessionSnapshot().detectors.cycle);
    expect(saved).toContain('Read#');
    expect(saved).not.toContain('listOrders');
  });

  it('can be turned off in the policy', () => {
    const agent = new Agent({ policy: { detectors: { compactionCycle: { enabled: false } } } });
    firstCycle(agent);
    for (let cycle = 0; cycle < 3; cycle++) {
      agent.loop.newRun('compact');
      rereadBoth(agent);
    }
    agent.loop.newRun('compact');
    expect(rereadBoth(agent)).not.toContain('block');
  });

  it('reads back any saved state, however damaged, without throwing, and a damaged one as nothing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (saved) => {
        const detector = createCycleDetector();
        detector.restore(saved);
        detector.restore({
          version: 2,
          'compaction-cycle': { known: saved, stalled: saved, repeated: saved, stretch: saved },
        });
        expect(detector.check(callOf('Read', ROUTES))).toBeUndefined();
      }),
    );
  });
});
