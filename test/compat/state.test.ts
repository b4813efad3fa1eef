import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CompatError,
  type CompatErrorCode,
  computeParameterDeltas,
  convertPaperStateFile,
  createMLTrainingAdapter,
  createToolCallAdapter,
  importPaperState,
  NarrowingLoop,
  readPaperStateFile,
  toolCallToProposal,
} from '../../src/compat/index.js';
import { STATE_VERSION } from '../../src/stores/index.js';

const NOW = Date.parse('2026-03-12T10:00:00Z');
const HOUR = 3_600_000;

/** What `JSON.stringify(loop.snapshot())` wrote in @sovereign-labs/narrowing after an ML session. */
function savedState() {
  return {
    constraints: [
      {
        id: 'c_strategy_1773309600000_k3j9x2',
        type: 'banned_strategy',
        signature: 'edit_failed',
        actionClass: 'file_edit',
        reason: 'Strategy "file_edit" failed 2 times with signature "edit_failed"',
        corroborated: true,
        occurrences: 2,
        introducedAt: NOW - HOUR / 2,
        expiresAt: NOW + HOUR / 2,
        scope: 'session',
        appliesTo: ['src/server.ts'],
      },
      {
        id: 'c_param_1773309600000_p0q1r2',
        type: 'parameter_ban',
        signature: 'oom_gpu',
        reason: 'Parameter "n_layer=16" failed 2 times',
        corroborated: true,
        occurrences: 2,
        introducedAt: NOW - HOUR / 4,
        expiresAt: NOW + HOUR,
        scope: 'session',
        bannedParameter: 'n_layer',
        bannedValues: [16],
      },
      {
        id: 'c_radius_1773309600000_z9y8x7',
        type: 'radius_limit',
        signature: 'edit_failed',
        reason: 'Radius shrunk ∞ → 5 after edit_failed',
        corroborated: true,
        occurrences: 1,
        introducedAt: NOW - HOUR / 2,
        expiresAt: NOW + HOUR / 2,
        scope: 'session',
        maxChanges: 5,
      },
      {
        id: 'c_strategy_1773300000000_old001',
        type: 'banned_strategy',
        signature: 'command_failed',
        actionClass: 'shell_exec',
        reason: 'Strategy "shell_exec" failed 2 times',
        corroborated: true,
        occurrences: 2,
        introducedAt: NOW - 3 * HOUR,
        expiresAt: NOW - 2 * HOUR,
        scope: 'session',
      },
    ],
    convergence: {
      status: 'progressing',
      totalAttempts: 25,
      bestScore: 1.866,
      bestAttempt: 14,
      noImprovementStreak: 3,
      searchSpaceRemaining: 0.75,
      activeConstraintCount: 3,
      bannedStrategyCount: 1,
    },
    attempt: 25,
    sessionId: 'session_1773309600000_a1b2c3',
  };
}

const dirs: string[] = [];
const loops: NarrowingLoop[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-compat-state-'));
  dirs.push(dir);
  return dir;
}

function codeOf(run: () => unknown): CompatErrorCode | 'no error' {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CompatError);
    return (error as CompatError).code;
  }
  return 'no error';
}

afterEach(async () => {
  await Promise.all(loops.splice(0).map((loop) => loop.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('importPaperState', () => {
  it('imports a strategy ban as the engine would have learned it', () => {
    const { state } = importPaperState(savedState(), { now: NOW });
    expect(state.constraints).toContainEqual(
      expect.objectContaining({
        type: 'banned_strategy',
        scope: 'strategy',
        actionClass: 'file_edit',
        signature: 'edit_failed',
        persistent: true,
        expiresAt: NOW + HOUR / 2,
        evidence: expect.objectContaining({ failures: 2, calls: ['src/server.ts'] }),
      }),
    );
  });

  it('imports a parameter ban as a region over the canonical parameter name', () => {
    const { state } = importPaperState(savedState(), { now: NOW });
    const ban = state.constraints.find((constraint) => constraint.type === 'parameter_ban');
    expect(ban).toMatchObject({ scope: 'parameter', tool: 'train', region: { equals: { depth: 16 } } });
  });

  it('skips a radius limit and an expired constraint, saying why', () => {
    const { skipped } = importPaperState(savedState(), { now: NOW });
    expect(skipped).toEqual([
      { id: 'c_radius_1773309600000_z9y8x7', reason: expect.stringContaining('one session') },
      { id: 'c_strategy_1773300000000_old001', reason: 'it had expired' },
    ]);
  });

  it('carries the attempt count, the session id and the best score over', () => {
    expect(importPaperState(JSON.stringify(savedState()), { now: NOW })).toMatchObject({
      attempt: 25,
      sessionId: 'session_1773309600000_a1b2c3',
      bestScore: 1.866,
      bestAttempt: 14,
    });
  });

  it('reads a permanent constraint, whose expiry JSON wrote as null, as never expiring', () => {
    const saved = savedState();
    const permanent = { ...saved.constraints[0], expiresAt: null };
    const { state } = importPaperState({ ...saved, constraints: [permanent] }, { now: NOW });
    expect(state.constraints[0]?.expiresAt).toBe(Number.POSITIVE_INFINITY);
  });

  it('refuses text that is not JSON with STATE_NOT_JSON', () => {
    expect(codeOf(() => importPaperState('{"constraints": [', { now: NOW }))).toBe('STATE_NOT_JSON');
    expect(codeOf(() => importPaperState('', { now: NOW }))).toBe('STATE_NOT_JSON');
  });

  it('refuses a state larger than maxBytes with STATE_TOO_LARGE before parsing it', () => {
    const text = JSON.stringify({ ...savedState(), padding: 'x'.repeat(4096) });
    expect(codeOf(() => importPaperState(text, { maxBytes: 1024 }))).toBe('STATE_TOO_LARGE');
  });

  it('refuses more constraints than maxConstraints with STATE_TOO_LARGE', () => {
    const saved = savedState();
    const many = { ...saved, constraints: Array.from({ length: 50 }, () => saved.constraints[0]) };
    expect(codeOf(() => importPaperState(many, { maxConstraints: 10 }))).toBe('STATE_TOO_LARGE');
  });

  it('refuses a constraint of the wrong shape with STATE_INVALID, naming where it is', () => {
    const saved = savedState();
    const broken = {
      ...saved,
      constraints: [saved.constraints[0], { ...saved.constraints[1], type: 'forbidden' }],
    };
    try {
      importPaperState(broken, { now: NOW });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'STATE_INVALID',
        problems: [expect.stringContaining('constraints[1].type')],
      });
    }
  });

  it('refuses an array, a number and null with STATE_INVALID', () => {
    for (const value of [[], 42, null, 'null'])
      expect(codeOf(() => importPaperState(value))).toBe('STATE_INVALID');
  });

  it('reads past deep nesting in fields it does not use, without a crash', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const imported = importPaperState(`{"constraints": [], "convergence": {"history": ${deep}}}`);
    expect(imported.state.constraints).toEqual([]);
  });

  it('skips a parameter ban whose banned values are nested structures, not scalars', () => {
    const ban = { ...savedState().constraints[1], bannedValues: [[[[16]]], { depth: 16 }] };
    const { skipped } = importPaperState({ constraints: [ban] }, { now: NOW });
    expect(skipped[0]?.reason).toMatch(/no banned value of n_layer/);
  });

  it('refuses an id longer than it stores with STATE_INVALID', () => {
    const long = { ...savedState().constraints[0], id: 'a'.repeat(10_000) };
    expect(codeOf(() => importPaperState({ constraints: [long] }, { now: NOW }))).toBe('STATE_INVALID');
  });

  it('never pollutes prototypes through __proto__ or constructor keys', () => {
    const text = `{"constraints": [], "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}`;
    expect(importPaperState(text).state.constraints).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('limits the problems it reports to ten, and says how many more there were', () => {
    const bad = { constraints: Array.from({ length: 40 }, (_, index) => ({ id: `c${index}` })) };
    try {
      importPaperState(bad);
      expect.unreachable();
    } catch (error) {
      expect((error as CompatError).problems).toHaveLength(10);
      expect((error as CompatError).message).toMatch(/and \d+ more/);
    }
  });
});

describe('reading and converting state files', () => {
  it('reports a file that cannot be read with STATE_UNREADABLE', () => {
    expect(codeOf(() => readPaperStateFile(join(tempDir(), 'missing.json')))).toBe('STATE_UNREADABLE');
  });

  it('names the file in the error about its content', () => {
    const path = join(tempDir(), 'narrowing-state.json');
    writeFileSync(path, 'not json at all');
    expect(() => readPaperStateFile(path)).toThrow(path);
  });

  it('converts a file into a state file that a new loop loads through statePath', () => {
    const dir = tempDir();
    const from = join(dir, 'narrowing-state.json');
    const to = join(dir, '.narrowing', 'state.json');
    const saved = savedState();
    const unexpiring = saved.constraints.map((constraint) => ({
      ...constraint,
      expiresAt: Date.now() + HOUR,
    }));
    writeFileSync(from, JSON.stringify({ ...saved, constraints: unexpiring }));
    const { skipped } = convertPaperStateFile(from, to);
    expect(skipped.map((constraint) => constraint.id)).toEqual(['c_radius_1773309600000_z9y8x7']);
    expect(JSON.parse(readFileSync(to, 'utf8'))).toMatchObject({ version: STATE_VERSION });
    const loop = new NarrowingLoop({ adapter: createMLTrainingAdapter(), journalPath: false, statePath: to });
    loops.push(loop);
    const base = { n_layer: 8, n_embd: 512 };
    const check = loop.checkProposal({
      parameters: computeParameterDeltas(base, { ...base, n_layer: 16 }),
      targets: [],
    });
    expect(check.allowed).toBe(false);
    expect(check.violations[0]?.banType).toBe('parameter');
  });
});

describe('NarrowingLoop.restore with a state of the original package', () => {
  it('applies the imported bans at once', () => {
    const saved = savedState();
    const live = saved.constraints.map((constraint) => ({ ...constraint, expiresAt: Date.now() + HOUR }));
    const loop = new NarrowingLoop({
      adapter: createToolCallAdapter(),
      journalPath: false,
      policy: { learning: { strategyEffect: 'block' } },
    });
    loops.push(loop);
    loop.restore({ ...saved, constraints: live } as Parameters<NarrowingLoop['restore']>[0]);
    expect(loop.getAttempt()).toBe(25);
    expect(loop.getSessionId()).toBe('session_1773309600000_a1b2c3');
    const check = loop.checkProposal(
      toolCallToProposal('edit_file', { path: 'src/routes.ts', old_string: 'a', new_string: 'b' }),
    );
    expect(check.violations[0]).toMatchObject({
      banType: 'strategy',
      constraint: { actionClass: 'file_edit' },
    });
  });

  it('throws a CompatError for a malformed state and keeps what it had', () => {
    const loop = new NarrowingLoop({ adapter: createToolCallAdapter(), journalPath: false });
    loops.push(loop);
    expect(() => loop.restore({ constraints: 'all of them' } as never)).toThrow(CompatError);
    expect(loop.getActiveConstraints()).toEqual([]);
  });
});
