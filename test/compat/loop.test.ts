import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createToolCallAdapter,
  NarrowingLoop,
  type NarrowingLoopConfig,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../src/compat/index.js';

const MISSING = "ENOENT: no such file or directory, open 'config/prod.yaml'";
const loops: NarrowingLoop[] = [];
const dirs: string[] = [];

/** A loop that keeps no journal in the working directory unless a test asks for one. */
function newLoop(config: Partial<NarrowingLoopConfig> = {}): NarrowingLoop {
  const loop = new NarrowingLoop({ adapter: createToolCallAdapter(), journalPath: false, ...config });
  loops.push(loop);
  return loop;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-compat-loop-'));
  dirs.push(dir);
  return dir;
}

function readMissing(loop: NarrowingLoop, path = 'config/prod.yaml') {
  return loop.recordOutcome(
    toolCallToOutcome('read_file', { path }, { success: false, error: MISSING, durationMs: 3 }),
  );
}

function editFails(loop: NarrowingLoop, path: string) {
  return loop.recordOutcome(
    toolCallToOutcome(
      'edit_file',
      { path, old_string: 'const port = 80;', new_string: 'const port = 8080;' },
      { success: false, error: 'edit failed: search string not found in file', durationMs: 2 },
    ),
  );
}

afterEach(async () => {
  await Promise.all(loops.splice(0).map((loop) => loop.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('NarrowingLoop of narrowing-guard/compat', () => {
  it('blocks a repeated read of a missing file with a call ban that names the signature', () => {
    const loop = newLoop();
    readMissing(loop);
    const check = loop.checkProposal(toolCallToProposal('read_file', { path: 'config/prod.yaml' }));
    expect(check.allowed).toBe(false);
    expect(check.verdict).toBe('block');
    expect(check.violations[0]).toMatchObject({
      banType: 'call',
      constraint: { signature: 'file_not_found' },
    });
    expect(check.violations[0]?.reason).toContain('config/prod.yaml');
  });

  it('lets a read of another file through after a file was missing', () => {
    const loop = newLoop();
    readMissing(loop);
    const check = loop.checkProposal(toolCallToProposal('read_file', { path: 'config/default.yaml' }));
    expect(check).toMatchObject({ allowed: true, violations: [] });
  });

  it('records an outcome in the original shape, with signature, blame and action class', () => {
    const result = readMissing(newLoop());
    expect(result.outcome).toMatchObject({
      id: expect.stringMatching(/^attempt_1_\d+$/),
      status: 'failure',
      direction: 'minimize',
      failureSignature: 'file_not_found',
      failureKind: 'agent_failure',
      actionClass: 'file_read',
      targets: ['config/prod.yaml'],
      error: MISSING,
    });
    expect(result.newConstraints.length).toBeGreaterThan(0);
    expect(result.activeConstraints.map((constraint) => constraint.id)).toEqual(
      expect.arrayContaining(result.newConstraints.map((constraint) => constraint.id)),
    );
  });

  it('never narrows on harness faults: ten rate-limited calls are all allowed', () => {
    const loop = newLoop();
    const call = { url: 'https://api.github.com/repos/acme/app/issues' };
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(loop.checkProposal(toolCallToProposal('fetch_url', call)).violations).toEqual([]);
      const result = loop.recordOutcome(
        toolCallToOutcome('fetch_url', call, {
          success: false,
          error: 'HTTP 429 Too Many Requests',
          durationMs: 40,
        }),
      );
      expect(result.outcome.failureKind).toBe('harness_fault');
    }
    expect(loop.getActiveConstraints()).toEqual([]);
  });

  it('reports searchSpaceReduction as a whole percentage of the distinct proposals seen', () => {
    const loop = newLoop();
    readMissing(loop);
    loop.checkProposal(toolCallToProposal('read_file', { path: 'config/default.yaml' }));
    const check = loop.checkProposal(toolCallToProposal('read_file', { path: 'config/prod.yaml' }));
    expect(check.searchSpaceReduction).toBe(50);
    expect(loop.getConvergence().searchSpaceRemaining).toBe(0.5);
  });

  it('only warns about a strategy that failed on three files under the default preset', () => {
    const loop = newLoop();
    for (const file of ['src/a.ts', 'src/b.ts', 'src/c.ts']) editFails(loop, file);
    const check = loop.checkProposal(
      toolCallToProposal('edit_file', { path: 'src/d.ts', old_string: 'a', new_string: 'b' }),
    );
    expect(check).toMatchObject({ allowed: true, verdict: 'warn', violations: [] });
    expect(check.warnings.map((warning) => warning.banType)).toContain('strategy');
  });

  it('bans the whole action class as the original does with strategyEffect block', () => {
    const loop = newLoop({ policy: { learning: { strategyEffect: 'block', strategyMinTargets: 2 } } });
    editFails(loop, 'src/a.ts');
    editFails(loop, 'src/b.ts');
    const check = loop.checkProposal(
      toolCallToProposal('edit_file', { path: 'src/c.ts', old_string: 'a', new_string: 'b' }),
    );
    expect(check.allowed).toBe(false);
    expect(check.violations[0]).toMatchObject({
      banType: 'strategy',
      constraint: { type: 'banned_strategy', actionClass: 'file_edit', signature: 'edit_failed' },
    });
  });

  it('needs corroborationThreshold identical failures of a call whose failure may pass on retry', () => {
    const loop = newLoop({ corroborationThreshold: 3 });
    const call = { command: 'npm run deploy' };
    const fail = () =>
      loop.recordOutcome(
        toolCallToOutcome('run_command', call, {
          success: false,
          error: 'command failed: exit code 1',
          durationMs: 900,
        }),
      );
    fail();
    fail();
    expect(loop.checkProposal(toolCallToProposal('run_command', call)).allowed).toBe(true);
    fail();
    expect(loop.checkProposal(toolCallToProposal('run_command', call)).allowed).toBe(false);
  });

  it('keeps an action class given on the proposal instead of classifying it', () => {
    const loop = newLoop();
    const result = loop.recordOutcome({
      ...toolCallToOutcome('query', { sql: 'select 1' }, { success: true, durationMs: 1 }),
      actionClass: 'database_read',
    });
    expect(result.outcome.actionClass).toBe('database_read');
  });

  it('counts recorded outcomes with getAttempt', () => {
    const loop = newLoop();
    readMissing(loop);
    readMissing(loop, 'config/staging.yaml');
    expect(loop.getAttempt()).toBe(2);
  });

  it('tracks the best score in the configured direction', () => {
    const loop = newLoop({ direction: 'maximize' });
    for (const score of [0.61, 0.74, 0.7]) {
      loop.recordOutcome({
        score,
        status: 'success',
        parameters: { tool: 'evaluate' },
        targets: [],
        durationMs: 5,
      });
    }
    expect(loop.getConvergence()).toMatchObject({
      status: 'progressing',
      totalAttempts: 3,
      bestScore: 0.74,
      bestAttempt: 2,
      noImprovementStreak: 1,
    });
  });

  it('reports no radius limit until calls touching several targets keep failing', () => {
    const loop = newLoop({ preset: 'strict' });
    expect(loop.getRadiusLimit()).toBe(Number.POSITIVE_INFINITY);
    loop.recordOutcome({
      score: null,
      status: 'failure',
      error: 'SyntaxError: Unexpected token } in src/a.ts',
      parameters: {
        tool: 'apply_patch',
        paths: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts', 'src/e.ts', 'src/f.ts'],
      },
      targets: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts', 'src/e.ts', 'src/f.ts'],
      durationMs: 30,
    });
    expect(loop.getRadiusLimit()).toBe(5);
  });

  it('takes the radius curve from radiusCurve, skipping its Infinity', () => {
    const loop = newLoop({ preset: 'strict', radiusCurve: [Number.POSITIVE_INFINITY, 3, 1] });
    loop.recordOutcome({
      score: null,
      status: 'failure',
      error: 'SyntaxError: Unexpected token } in src/a.ts',
      parameters: { tool: 'apply_patch', paths: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'] },
      targets: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'],
      durationMs: 30,
    });
    expect(loop.getRadiusLimit()).toBe(3);
  });

  it('lets a ban expire after constraintTtlMs, and then allows one retry', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-12T10:00:00Z'), toFake: ['Date'] });
    try {
      const loop = newLoop({ constraintTtlMs: 60_000 });
      readMissing(loop);
      const proposal = () => toolCallToProposal('read_file', { path: 'config/prod.yaml' });
      expect(loop.checkProposal(proposal()).allowed).toBe(false);
      vi.advanceTimersByTime(61_000);
      expect(loop.checkProposal(proposal()).allowed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops when asked: isDone turns true and every proposal is halted', () => {
    const loop = newLoop();
    expect(loop.isDone()).toBe(false);
    loop.stop();
    expect(loop.isDone()).toBe(true);
    expect(loop.checkProposal(toolCallToProposal('list_directory', { path: '.' }))).toMatchObject({
      allowed: false,
      verdict: 'halt',
    });
  });

  it('gives a new session id on resetSession and keeps what was learned', () => {
    const loop = newLoop();
    readMissing(loop);
    const before = loop.getSessionId();
    loop.resetSession();
    expect(loop.getSessionId()).not.toBe(before);
    expect(loop.checkProposal(toolCallToProposal('read_file', { path: 'config/prod.yaml' })).allowed).toBe(
      false,
    );
  });

  it('carries what it learned to a new loop through snapshot and restore', () => {
    const first = newLoop();
    readMissing(first);
    const saved = JSON.parse(JSON.stringify(first.snapshot()));
    const second = newLoop();
    second.restore(saved);
    expect(second.getAttempt()).toBe(1);
    expect(second.checkProposal(toolCallToProposal('read_file', { path: 'config/prod.yaml' })).allowed).toBe(
      false,
    );
  });

  it('returns null from verifyReceipts when it keeps no journal', () => {
    expect(newLoop().verifyReceipts()).toBeNull();
  });

  it('verifies the receipts of its journal once flushed', async () => {
    const loop = newLoop({ journalPath: join(tempDir(), 'journal.jsonl') });
    readMissing(loop);
    loop.checkProposal(toolCallToProposal('read_file', { path: 'config/prod.yaml' }));
    await loop.flush();
    const verification = loop.verifyReceipts();
    expect(verification).toMatchObject({ valid: true });
    expect(verification?.receiptCount).toBeGreaterThanOrEqual(3);
  });

  it('names the journal after receiptPath when journalPath is not given', async () => {
    const path = join(tempDir(), 'receipts.jsonl');
    const loop = new NarrowingLoop({ adapter: createToolCallAdapter(), receiptPath: path });
    loops.push(loop);
    readMissing(loop);
    await loop.flush();
    expect(loop.verifyReceipts()?.receiptCount).toBeGreaterThan(0);
  });

  it('can be closed twice, as code written for a synchronous journal may do', async () => {
    const loop = newLoop({ statePath: join(tempDir(), 'state.json') });
    readMissing(loop);
    await loop.close();
    await expect(loop.close()).resolves.toBeUndefined();
  });

  it('persists learned constraints to statePath, where a new process finds them', async () => {
    const statePath = join(tempDir(), 'state.json');
    const first = newLoop({ statePath });
    readMissing(first);
    await first.close();
    const second = newLoop({ statePath });
    expect(second.checkProposal(toolCallToProposal('read_file', { path: 'config/prod.yaml' })).allowed).toBe(
      false,
    );
  });
});
