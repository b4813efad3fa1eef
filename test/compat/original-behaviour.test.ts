/**
 * What a program written against `@sovereign-labs/narrowing` relies on and gets from
 * `narrowing-guard/compat`: the behaviours its own test suite checks, one at a time.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  computeParameterDeltas,
  createMLTrainingAdapter,
  createToolCallAdapter,
  NarrowingLoop,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../src/compat/index.js';

const loops: NarrowingLoop[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-compat-original-'));
  dirs.push(dir);
  return dir;
}

function track(loop: NarrowingLoop): NarrowingLoop {
  loops.push(loop);
  return loop;
}

afterEach(async () => {
  await Promise.all(loops.splice(0).map((loop) => loop.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const DIVERGED = 'training diverged — loss NaN at step 100';

describe('two loops on one journal path', () => {
  it('share the journal instead of throwing, and both loops verify one chain', () => {
    const journalPath = join(tempDir(), 'journal.jsonl');
    const problems: string[] = [];
    const options = {
      adapter: createMLTrainingAdapter(),
      journalPath,
      onProblem: (m: string) => problems.push(m),
    };
    const first = track(new NarrowingLoop(options));
    first.recordOutcome({
      score: 1.5,
      status: 'success',
      parameters: { lr: 0.001 },
      targets: [],
      durationMs: 1,
    });
    const second = track(new NarrowingLoop(options));
    second.recordOutcome({
      score: 1.4,
      status: 'success',
      parameters: { lr: 0.002 },
      targets: [],
      durationMs: 1,
    });
    first.recordOutcome({
      score: 1.3,
      status: 'success',
      parameters: { lr: 0.003 },
      targets: [],
      durationMs: 1,
    });
    expect(second.verifyReceipts()).toMatchObject({ valid: true });
    expect(first.verifyReceipts()).toEqual(second.verifyReceipts());
    expect(problems).toEqual([]);
  });

  it('stamp each entry with the session of the loop that wrote it', async () => {
    const journalPath = join(tempDir(), 'journal.jsonl');
    const first = track(new NarrowingLoop({ adapter: createMLTrainingAdapter(), journalPath }));
    const second = track(new NarrowingLoop({ adapter: createMLTrainingAdapter(), journalPath }));
    first.recordOutcome({ score: 1, status: 'success', parameters: { lr: 0.1 }, targets: [], durationMs: 1 });
    second.recordOutcome({
      score: 1,
      status: 'success',
      parameters: { lr: 0.2 },
      targets: [],
      durationMs: 1,
    });
    await first.flush();
    const outcomes = readFileSync(journalPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; sessionId?: string })
      .filter((entry) => entry.type === 'outcome')
      .map((entry) => entry.sessionId);
    expect(outcomes).toEqual([first.getSessionId(), second.getSessionId()]);
  });

  it('share the default .narrowing/journal.jsonl without a line about state in memory only', () => {
    const cwd = process.cwd();
    const problems: string[] = [];
    process.chdir(tempDir());
    try {
      const make = () =>
        track(new NarrowingLoop({ adapter: createToolCallAdapter(), onProblem: (m) => problems.push(m) }));
      make();
      const second = make();
      expect(second.verifyReceipts()).toMatchObject({ valid: true });
      expect(existsSync(join('.narrowing', 'journal.jsonl'))).toBe(true);
    } finally {
      process.chdir(cwd);
    }
    expect(problems).toEqual([]);
  });

  it('start the file afresh when its folder was removed while the first loop held it', () => {
    const dir = join(tempDir(), 'run');
    const journalPath = join(dir, 'journal.jsonl');
    const first = track(new NarrowingLoop({ adapter: createMLTrainingAdapter(), journalPath }));
    first.recordOutcome({ score: 1, status: 'success', parameters: { lr: 0.1 }, targets: [], durationMs: 1 });
    expect(first.verifyReceipts()).toMatchObject({ valid: true });
    rmSync(dir, { recursive: true, force: true });
    const second = track(new NarrowingLoop({ adapter: createMLTrainingAdapter(), journalPath }));
    second.recordOutcome({
      score: 1,
      status: 'success',
      parameters: { lr: 0.2 },
      targets: [],
      durationMs: 1,
    });
    expect(second.verifyReceipts()).toMatchObject({ valid: true });
    mkdirSync(dir, { recursive: true });
  });
});

describe('verifyReceipts', () => {
  it('counts the receipts of what was just recorded, without waiting for a flush', () => {
    const loop = track(
      new NarrowingLoop({
        adapter: createMLTrainingAdapter(),
        journalPath: join(tempDir(), 'journal.jsonl'),
      }),
    );
    loop.recordOutcome({
      score: 1.5,
      status: 'success',
      parameters: { lr: 0.001 },
      targets: [],
      durationMs: 1,
    });
    const verification = loop.verifyReceipts();
    expect(verification?.valid).toBe(true);
    expect(verification?.receiptCount).toBeGreaterThan(0);
  });
});

describe("the caller's targets", () => {
  it('shrink the radius limit for ML trials, which name no target of their own', () => {
    const loop = track(
      new NarrowingLoop({
        adapter: createMLTrainingAdapter(),
        journalPath: false,
        radiusCurve: [Number.POSITIVE_INFINITY, 3, 2, 1],
      }),
    );
    for (let i = 0; i < 2; i++) {
      loop.recordOutcome({
        score: null,
        status: 'failure',
        error: DIVERGED,
        parameters: { lr: 0.01 },
        targets: ['train.py', 'config.py', 'model.py', 'data.py'],
        durationMs: 1000,
      });
    }
    const check = loop.checkProposal({
      parameters: { lr: 0.005 },
      targets: ['train.py', 'config.py', 'model.py', 'data.py', 'utils.py'],
    });
    expect(check.allowed).toBe(false);
    expect(check.violations.map((violation) => violation.banType)).toContain('radius');
  });

  it('count for a tool call whose arguments name none of them, under the strict preset', () => {
    const loop = track(
      new NarrowingLoop({ adapter: createToolCallAdapter(), journalPath: false, preset: 'strict' }),
    );
    loop.recordOutcome({
      score: null,
      status: 'failure',
      error: "SyntaxError: Unexpected token '}' in src/a.ts",
      parameters: { tool: 'run_codemod', codemod: 'rename-user' },
      targets: ['src/a.ts', 'src/b.ts', 'src/c.ts'],
      durationMs: 40,
    });
    expect(loop.getRadiusLimit()).toBeLessThan(Number.POSITIVE_INFINITY);
  });
});

describe('constraint types', () => {
  it('report a ban on one exact call as banned_call, not as a strategy ban', () => {
    const loop = track(new NarrowingLoop({ adapter: createToolCallAdapter(), journalPath: false }));
    const result = loop.recordOutcome(
      toolCallToOutcome(
        'edit_file',
        { file: 'server.js', old_string: 'foo', new_string: 'bar' },
        { success: false, error: 'search string not found in file', durationMs: 3 },
      ),
    );
    expect(result.newConstraints.length).toBeGreaterThan(0);
    expect(result.newConstraints.map((constraint) => constraint.type)).not.toContain('banned_strategy');
    expect(loop.getConvergence().bannedStrategyCount).toBe(0);
  });

  it('report a ban on a target as banned_target', () => {
    const loop = track(
      new NarrowingLoop({ adapter: createToolCallAdapter(), journalPath: false, probe: false }),
    );
    loop.recordOutcome(
      toolCallToOutcome(
        'read_file',
        { path: 'missing.json' },
        { success: false, error: "ENOENT: no such file or directory, open 'missing.json'", durationMs: 2 },
      ),
    );
    const types = loop.getActiveConstraints().map((constraint) => constraint.type);
    expect(types).toContain('banned_target');
    expect(types).not.toContain('banned_strategy');
  });
});

describe('ML signatures', () => {
  const adapter = createMLTrainingAdapter();

  it("name a Python syntax error code_syntax_error and blame the agent's code", () => {
    expect(adapter.extractSignature('SyntaxError: unexpected EOF while parsing')).toBe('code_syntax_error');
    expect(adapter.extractSignature('IndentationError: unexpected indent')).toBe('code_syntax_error');
    expect(adapter.classifyBlame('SyntaxError: invalid syntax')).toBe('agent_failure');
  });

  it('name a bare NCCL timeout nccl_failure and blame the interconnect', () => {
    expect(adapter.extractSignature('NCCL timeout on rank 0')).toBe('nccl_failure');
    expect(adapter.classifyBlame('NCCL timeout on rank 0')).toBe('harness_fault');
  });

  it("use the original's names for a timeout and a missing import", () => {
    expect(adapter.extractSignature('subprocess.TimeoutExpired: trial timed out after 300 s')).toBe(
      'timeout',
    );
    expect(adapter.extractSignature("ModuleNotFoundError: No module named 'flash_attn'")).toBe(
      'missing_import',
    );
  });

  it('learn from two syntax errors under those names', () => {
    const loop = track(new NarrowingLoop({ adapter: createMLTrainingAdapter(), journalPath: false }));
    for (const [architecture, error] of [
      ['custom_attention', 'SyntaxError: unexpected EOF while parsing'],
      ['custom_mlp', 'SyntaxError: invalid syntax at line 42'],
    ] as const) {
      loop.recordOutcome({
        score: null,
        status: 'error',
        error,
        parameters: computeParameterDeltas({ architecture: 'standard' }, { architecture }),
        targets: ['train.py'],
        durationMs: 100,
      });
    }
    const constraints = loop.getActiveConstraints();
    expect(constraints.length).toBeGreaterThan(0);
    expect(constraints.every((constraint) => constraint.signature === 'code_syntax_error')).toBe(true);
  });
});

describe('noImprovementStreak', () => {
  it('counts failures that have no score', () => {
    const loop = track(new NarrowingLoop({ adapter: createMLTrainingAdapter(), journalPath: false }));
    loop.recordOutcome({
      score: 1.5,
      status: 'success',
      parameters: { lr: 0.001 },
      targets: [],
      durationMs: 1,
    });
    for (let i = 0; i < 3; i++) {
      loop.recordOutcome({
        score: null,
        status: 'failure',
        error: DIVERGED,
        parameters: { lr: 0.1 + i / 100 },
        targets: [],
        durationMs: 1,
      });
    }
    expect(loop.getConvergence().noImprovementStreak).toBe(3);
  });
});

describe('tool-call readings', () => {
  const adapter = createToolCallAdapter();

  it('read a tool that does not exist as tool_not_found, not as a missing file', () => {
    expect(adapter.extractSignature('Tool "xyz" does not exist')).toBe('tool_not_found');
    expect(adapter.extractSignature('Path tools/build.sh does not exist')).toBe('file_not_found');
  });

  it('recognise a failed edit application and a null response', () => {
    expect(adapter.extractSignature('Edit application failed: no match')).toBe('edit_failed');
    expect(adapter.extractSignature('Response was null')).toBe('empty_result');
  });

  it('report targets as the caller spelled them, endpoints included', () => {
    expect(toolCallToProposal('fetch', { url: 'https://a.com' }).targets).toEqual(['https://a.com']);
    expect(toolCallToProposal('check', { endpoint: '/health' }).targets).toEqual(['/health']);
    expect(adapter.extractParameters({ url: 'https://example.com' }).target).toBe('https://example.com');
    expect(adapter.extractParameters({ endpoint: '/health' }).target).toBe('/health');
  });

  it('read content for a file under a tool whose name says nothing as file_create', () => {
    expect(adapter.classifyAction({ tool: 'do_thing', content: 'hello', file: 'test.txt' }, [])).toBe(
      'file_create',
    );
    expect(adapter.classifyAction({ tool: 'write_file', content: 'hello', file: 'test.txt' }, [])).toBe(
      'file_edit',
    );
  });

  it('answer undefined for a call it cannot classify', () => {
    expect(adapter.classifyAction({ tool: 'mysterious_thing' }, [])).toBeUndefined();
    expect(adapter.classifyAction({}, [])).toBeUndefined();
  });

  it("give the original's fingerprint of a call", () => {
    expect(
      adapter.extractParameters({ tool: 'edit_file', file: 'server.js', old_string: 'const x = 1;' })
        ._fingerprint,
    ).toBe('t:edit_file|@server.js|p:const x = 1;');
  });
});

describe('the existence probe', () => {
  const exists = '409 conflict: file already exists';

  function repeatsCreate(probe: false | undefined): boolean {
    const workspaceRoot = tempDir();
    const loop = track(
      new NarrowingLoop({
        adapter: createToolCallAdapter(),
        journalPath: false,
        workspaceRoot,
        ...(probe === false && { probe }),
      }),
    );
    const args = { file: 'config.json', content: 'new file content' };
    loop.recordOutcome(
      toolCallToOutcome('create_file', args, { success: false, error: exists, durationMs: 5 }),
    );
    return loop.checkProposal(toolCallToProposal('create_file', args)).allowed;
  }

  it('can be turned off for tools whose files exist only on a remote workspace', () => {
    expect(repeatsCreate(undefined)).toBe(true);
    expect(repeatsCreate(false)).toBe(false);
  });
});

describe("the documented way back to the original's strategy bans", () => {
  const policy = {
    learning: { strategyEffect: 'block', strategyMinTargets: 1 },
    detectors: { identicalFailure: { deterministicThreshold: 2 } },
  } as const;

  it('is the policy docs/compat.md gives', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'compat.md'), 'utf8');
    expect(doc).toContain(
      "`policy: { learning: { strategyEffect: 'block', strategyMinTargets: 1 }, detectors: { identicalFailure: { deterministicThreshold: 2 } } }`",
    );
  });

  it('bans the class of a failed edit and reports the strategy ban first, before the call ban', () => {
    const loop = track(
      new NarrowingLoop({
        adapter: createToolCallAdapter(),
        journalPath: false,
        corroborationThreshold: 2,
        policy,
      }),
    );
    const failed = {
      score: null,
      status: 'failure' as const,
      error: 'search string not found in file',
      parameters: { tool: 'edit_file', file: 'server.js', old_string: 'foo' },
      targets: ['server.js'],
      durationMs: 30,
    };
    const learned = [loop.recordOutcome(failed), loop.recordOutcome(failed)].flatMap((result) =>
      result.newConstraints.map((constraint) => constraint.type),
    );
    expect(learned).toEqual(['banned_strategy', 'banned_call']);
    const check = loop.checkProposal(
      toolCallToProposal('edit_file', { file: 'server.js', old_string: 'foo' }),
    );
    expect(check.allowed).toBe(false);
    expect(check.violations.map((violation) => violation.banType).slice(0, 2)).toEqual(['strategy', 'call']);
  });

  it('bans an ML strategy after two failures of it on one file', () => {
    const loop = track(
      new NarrowingLoop({
        adapter: createMLTrainingAdapter(),
        journalPath: false,
        corroborationThreshold: 2,
        policy,
      }),
    );
    for (const lr of [0.1, 0.05]) {
      loop.recordOutcome({
        score: null,
        status: 'failure',
        error: DIVERGED,
        parameters: computeParameterDeltas({ lr: 0.001 }, { lr }),
        targets: ['train.py'],
        durationMs: 1000,
      });
    }
    const check = loop.checkProposal({
      parameters: computeParameterDeltas({ lr: 0.001 }, { lr: 0.02 }),
      targets: ['train.py'],
      actionClass: 'lr_increase',
    });
    expect(check.allowed).toBe(false);
    expect(check.violations[0]).toMatchObject({
      banType: 'strategy',
      constraint: { actionClass: 'lr_increase' },
    });
  });
});
