import { describe, expect, it } from 'vitest';
import {
  createMlTrainingAdapter,
  mlTrialToOutcome,
  mlTrialToProposal,
} from '../../src/adapters/ml-training/index.js';
import {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../src/adapters/tool-call/index.js';
import { NarrowingEngine } from '../../src/core/loop.js';
import { Agent, ENOENT } from './support.js';

const TEST_FAILURE = {
  text: 'FAIL src/sum.test.ts\n  expected 4, got 5\nnpm ERR! Test failed. exit code 1',
  isError: true,
};
const OLD_STRING_MISSING = { text: 'Error: old_string not found in src/app.ts', isError: true };

describe('identical failures', () => {
  it('blocks the second read of a file that does not exist', () => {
    const agent = new Agent();
    expect(agent.repeat(2, 'read_file', { path: 'config/prod.yaml' }, ENOENT('config/prod.yaml'))).toEqual([
      'allow',
      'block',
    ]);
  });

  it('blocks a failing command on the third identical run, not the second, since a test may be flaky', () => {
    const agent = new Agent();
    expect(agent.repeat(3, 'bash', { command: 'npm test' }, TEST_FAILURE)).toEqual([
      'allow',
      'allow',
      'block',
    ]);
  });

  it('tells the model which call failed, how often, with what error, and what to do instead', () => {
    const agent = new Agent();
    agent.repeat(2, 'read_file', { path: 'config/prod.yaml' }, ENOENT('config/prod.yaml'));
    const check = agent.check('read_file', { path: 'config/prod.yaml' });
    expect(check.rule).toBe('identical-failure');
    expect(check.reason).toContain('read_file {path: "config/prod.yaml"}');
    // In the tool's own words, not the name of the failure's signature.
    expect(check.reason).not.toContain('file_not_found');
    expect(check.reason).toContain("ENOENT: no such file or directory, open 'config/prod.yaml'");
    expect(check.suggestion).toBeTruthy();
    expect(check.violations[0]?.evidence.count).toBe(1);
  });

  it('treats calls that differ only in a timestamp as the same call, and says so', () => {
    const agent = new Agent();
    const failure = { text: 'fatal: invalid reference: release/2026-03-02T10-15-00', isError: true };
    agent.call('bash', { command: 'git checkout release/2026-03-02T10-15-00' }, failure);
    agent.call('bash', { command: 'git checkout release/2026-03-02T10-15-07' }, failure);
    const check = agent.check('bash', { command: 'git checkout release/2026-03-02T10-16-44' });
    expect(check.verdict).toBe('block');
    expect(check.reason).toContain('timestamp');
  });
});

describe('precision', () => {
  it('does not ban reading a third file after two different files were missing', () => {
    const agent = new Agent();
    agent.call('read_file', { path: 'src/a.ts' }, ENOENT('src/a.ts'));
    agent.call('read_file', { path: 'src/b.ts' }, ENOENT('src/b.ts'));
    expect(agent.check('read_file', { path: 'src/c.ts' }).allowed).toBe(true);
  });

  it('does not ban edits of another file after an edit of one file failed', () => {
    const agent = new Agent();
    agent.repeat(
      2,
      'edit_file',
      { path: 'src/app.ts', old_string: 'foo()', new_string: 'bar()' },
      OLD_STRING_MISSING,
    );
    expect(
      agent.check('edit_file', { path: 'src/lib.ts', old_string: 'foo()', new_string: 'bar()' }).verdict,
    ).toBe('allow');
  });

  it('does not ban a different edit of the same file', () => {
    const agent = new Agent();
    agent.call(
      'edit_file',
      { path: 'src/app.ts', old_string: 'foo()', new_string: 'bar()' },
      OLD_STRING_MISSING,
    );
    expect(
      agent.check('edit_file', { path: 'src/app.ts', old_string: 'baz()', new_string: 'bar()' }).verdict,
    ).toBe('allow');
  });

  it('allows the same failing npm test again after an edit of src/a.ts', () => {
    const agent = new Agent();
    agent.repeat(2, 'bash', { command: 'npm test' }, TEST_FAILURE);
    expect(agent.check('bash', { command: 'npm test' }).verdict).toBe('block');
    agent.call(
      'edit_file',
      { path: 'src/a.ts', old_string: 'a + b + 1', new_string: 'a + b' },
      'Edited src/a.ts',
    );
    expect(agent.check('bash', { command: 'npm test' }).verdict).toBe('allow');
  });

  it('re-bans a command at once when it fails again unchanged after the edit that gave it another chance', () => {
    const agent = new Agent();
    agent.repeat(2, 'bash', { command: 'npm test' }, TEST_FAILURE);
    agent.call('edit_file', { path: 'src/a.ts', old_string: 'x', new_string: 'y' }, 'Edited src/a.ts');
    expect(agent.repeat(2, 'bash', { command: 'npm test' }, TEST_FAILURE)).toEqual(['allow', 'block']);
  });

  it('does not count repeating the very same edit as a change', () => {
    const agent = new Agent();
    const edit = { path: 'src/a.ts', old_string: 'x', new_string: 'y' };
    agent.call('edit_file', edit, 'Edited src/a.ts');
    agent.repeat(2, 'bash', { command: 'npm test' }, TEST_FAILURE);
    agent.call('edit_file', edit, 'Edited src/a.ts');
    expect(agent.check('bash', { command: 'npm test' }).verdict).toBe('block');
  });

  it('keeps a failed edit banned after an edit of its file that cannot have added the missing text', () => {
    const agent = new Agent();
    const failing = { path: 'src/app.ts', old_string: 'function save() {', new_string: 'function store() {' };
    agent.call('edit_file', failing, OLD_STRING_MISSING);
    agent.call(
      'edit_file',
      { path: 'src/app.ts', old_string: 'let x = 1', new_string: 'let x = 2' },
      'Edited src/app.ts',
    );
    expect(agent.check('edit_file', failing).verdict).toBe('block');
  });

  it('lifts a failed edit once an edit of its file writes the missing text', () => {
    const agent = new Agent();
    const failing = { path: 'src/app.ts', old_string: 'function save() {', new_string: 'function store() {' };
    agent.call('edit_file', failing, OLD_STRING_MISSING);
    agent.call(
      'edit_file',
      { path: 'src/app.ts', old_string: 'function persist() {', new_string: 'function save() {' },
      'Edited src/app.ts',
    );
    expect(agent.check('edit_file', failing).verdict).toBe('allow');
  });

  it('allows reading a missing file once it has been created', () => {
    const agent = new Agent();
    agent.call('read_file', { path: 'notes.md' }, ENOENT('notes.md'));
    agent.call('write_file', { path: 'notes.md', content: '# Notes\n' }, 'Successfully wrote to notes.md');
    expect(agent.check('read_file', { path: 'notes.md' }).verdict).toBe('allow');
  });

  it('lets a whole-file write create a file that was missing', () => {
    const agent = new Agent();
    agent.call('read_file', { path: 'notes.md' }, ENOENT('notes.md'));
    expect(agent.check('write_file', { path: 'notes.md', content: '# Notes\n' }).verdict).toBe('allow');
  });

  it('still blocks an edit of a file that does not exist', () => {
    const agent = new Agent();
    agent.call('read_file', { path: 'notes.md' }, ENOENT('notes.md'));
    expect(agent.check('edit_file', { path: 'notes.md', old_string: 'a', new_string: 'b' }).verdict).toBe(
      'block',
    );
  });

  it('lets a build cure a missing build output, but not a read-only command', () => {
    const agent = new Agent();
    agent.call('read_file', { path: 'dist/index.js' }, ENOENT('dist/index.js'));
    agent.call('bash', { command: 'ls -la dist' }, 'ls: cannot access dist: No such file or directory');
    expect(agent.check('read_file', { path: 'dist/index.js' }).verdict).toBe('block');
    agent.call('bash', { command: 'npm run build' }, '> tsc -p .\n');
    expect(agent.check('read_file', { path: 'dist/index.js' }).verdict).toBe('allow');
  });

  it('lets a command that names a missing file cure it', () => {
    const agent = new Agent();
    agent.call('read_file', { path: 'config/prod.yaml' }, ENOENT('config/prod.yaml'));
    agent.call('bash', { command: 'cp config/default.yaml config/prod.yaml' }, '');
    expect(agent.check('read_file', { path: 'config/prod.yaml' }).verdict).toBe('allow');
  });
});

describe('blame', () => {
  it('seeds nothing from ten timeouts', () => {
    const agent = new Agent();
    let seeded = 0;
    for (let i = 0; i < 10; i++) {
      const { record } = agent.call(
        'http_get',
        { url: 'https://api.example.com/v1/items' },
        {
          text: 'Request timed out after 30s',
          isError: true,
        },
      );
      seeded += record?.newConstraints.length ?? 0;
    }
    expect(seeded).toBe(0);
    expect(agent.loop.getActiveConstraints()).toEqual([]);
  });

  it('never blocks a call that keeps hitting rate limits and server errors', () => {
    const agent = new Agent();
    const verdicts = [];
    for (const text of [
      'HTTP 429 Too Many Requests',
      '503 Service Unavailable',
      'ECONNRESET',
      'socket hang up',
    ]) {
      for (let i = 0; i < 3; i++) {
        verdicts.push(
          agent.call('http_get', { url: 'https://api.example.com/v1/items' }, { text, isError: true }).check
            .verdict,
        );
      }
    }
    expect(verdicts).not.toContain('block');
  });
});

describe('presets and enforcement', () => {
  it('bans further edits of a file after two different failed edits under the strict preset', () => {
    const agent = new Agent({ policy: { preset: 'strict' } });
    agent.call(
      'edit_file',
      { path: 'src/app.ts', old_string: 'foo()', new_string: 'bar()' },
      OLD_STRING_MISSING,
    );
    agent.call(
      'edit_file',
      { path: 'src/app.ts', old_string: 'foo ()', new_string: 'bar()' },
      OLD_STRING_MISSING,
    );
    expect(
      agent.check('edit_file', { path: 'src/app.ts', old_string: 'baz()', new_string: 'x' }).verdict,
    ).toBe('block');
  });

  it('turns a block into a warning in advisory mode, and says it was softened', () => {
    const agent = new Agent({ policy: { enforcement: 'advisory' } });
    agent.call('read_file', { path: 'a.ts' }, ENOENT('a.ts'));
    const check = agent.check('read_file', { path: 'a.ts' });
    expect(check).toMatchObject({
      verdict: 'warn',
      allowed: true,
      softened: true,
      rule: 'identical-failure',
    });
  });

  it('never stops a tool the policy exempts', () => {
    const agent = new Agent({ policy: { tools: { 'read_*': { exempt: true } } } });
    expect(agent.repeat(4, 'read_file', { path: 'a.ts' }, ENOENT('a.ts'))).toEqual([
      'allow',
      'allow',
      'allow',
      'allow',
    ]);
  });

  it('learns nothing under the off preset', () => {
    const agent = new Agent({ policy: { preset: 'off' } });
    expect(agent.repeat(3, 'read_file', { path: 'a.ts' }, ENOENT('a.ts'))).toEqual([
      'allow',
      'allow',
      'allow',
    ]);
  });
});

describe('time', () => {
  it('lets one retry through once a ban expires, and bans a repeat failure for twice as long', () => {
    const agent = new Agent({ policy: { learning: { ttlSeconds: { call: 60, target: 60 } } } });
    agent.call('read_file', { path: 'a.ts' }, ENOENT('a.ts'));
    agent.clock.advance(120);
    const retry = agent.call('read_file', { path: 'a.ts' }, ENOENT('a.ts'));
    expect(retry.check.verdict).toBe('allow');
    // One constraint says it: a.ts does not exist (it covers the identical call too).
    const ban = agent.loop.getActiveConstraints().find((constraint) => constraint.target === 'a.ts');
    expect(ban?.strikes).toBe(1);
    expect((ban?.expiresAt ?? 0) - agent.clock.now()).toBe(120_000);
    expect(agent.check('read_file', { path: 'a.ts' }).verdict).toBe('block');
  });
});

describe('radius', () => {
  it('limits how many files one call may touch after calls over several files keep failing, and relaxes on success', () => {
    const agent = new Agent();
    const failure = { text: "ENOENT: no such file or directory, open 'src/x1.ts'", isError: true };
    agent.call('read_multiple_files', { paths: ['src/x1.ts', 'src/x2.ts', 'src/x3.ts'] }, failure);
    agent.call('read_multiple_files', { paths: ['src/y1.ts', 'src/y2.ts', 'src/y3.ts'] }, failure);
    const wide = { paths: ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts'] };
    const check = agent.check('read_multiple_files', wide);
    expect(check).toMatchObject({ verdict: 'block', rule: 'radius-limit', radiusLimit: 5 });
    agent.call('read_file', { path: 'a.ts' }, 'export const a = 1;');
    expect(agent.check('read_multiple_files', wide).allowed).toBe(true);
  });
});

describe('parameter bans', () => {
  it('bans the region above an out-of-memory configuration, not the other parameters', () => {
    const loop = new NarrowingEngine({ adapter: createMlTrainingAdapter() });
    const oom = { depth: 8, aspect_ratio: 64, matrix_lr: 0.04, batch_size: 32 };
    const proposal = mlTrialToProposal(oom);
    loop.checkProposal(proposal);
    loop.recordOutcome({
      ...mlTrialToOutcome(oom, {
        ok: false,
        error: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB',
      }),
      proposal,
    });
    const deeper = loop.checkProposal(mlTrialToProposal({ ...oom, depth: 10, matrix_lr: 0.02 }));
    expect(deeper).toMatchObject({ verdict: 'block', rule: 'parameter-ban' });
    expect(deeper.reason).toContain('depth >= 8');
    expect(loop.checkProposal(mlTrialToProposal({ ...oom, depth: 6 })).verdict).toBe('allow');
  });
});

describe('sessions', () => {
  it('blocks on the first attempt in a new session restored from a snapshot', () => {
    const first = new Agent();
    first.call('read_file', { path: 'config/prod.yaml' }, ENOENT('config/prod.yaml'));
    const second = new Agent();
    second.loop.restore(JSON.parse(JSON.stringify(first.loop.snapshot())), { scope: 'persistent' });
    expect(second.check('read_file', { path: 'config/prod.yaml' }).verdict).toBe('block');
  });

  it('forgets run-scoped counters in a new session but keeps learned constraints', () => {
    const agent = new Agent();
    agent.call('bash', { command: 'npm test' }, TEST_FAILURE);
    agent.call('read_file', { path: 'a.ts' }, ENOENT('a.ts'));
    agent.loop.resetSession('s2');
    expect(agent.check('read_file', { path: 'a.ts' }).verdict).toBe('block');
    expect(agent.repeat(2, 'bash', { command: 'npm test' }, TEST_FAILURE)).toEqual(['allow', 'allow']);
  });

  it('does not apply constraints learned in another context', () => {
    const inRepoA = new Agent({ policy: { context: { repository: 'github.com/acme/a' } } });
    inRepoA.call('read_file', { path: 'a.ts' }, ENOENT('a.ts'));
    const inRepoB = new Agent({ policy: { context: { repository: 'github.com/acme/b' } } });
    inRepoB.loop.restore(inRepoA.loop.snapshot(), { scope: 'persistent' });
    expect(inRepoB.check('read_file', { path: 'a.ts' }).verdict).toBe('allow');
  });

  it('resumes a session with its run counters from a full snapshot', () => {
    const agent = new Agent();
    agent.call('bash', { command: 'npm test' }, TEST_FAILURE);
    const resumed = new Agent();
    resumed.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
    expect(resumed.repeat(2, 'bash', { command: 'npm test' }, TEST_FAILURE)).toEqual(['allow', 'block']);
  });
});

describe('runs and steps', () => {
  it('counts identical calls made in parallel in one step once', () => {
    const loop = new NarrowingEngine({ adapter: createToolCallAdapter() });
    for (let i = 0; i < 3; i++) {
      const proposal = { ...toolCallToProposal('bash', { command: 'npm test' }), step: 'turn-1' };
      loop.checkProposal(proposal);
      loop.recordOutcome({
        ...toolCallToOutcome(
          'bash',
          { command: 'npm test' },
          { content: [{ type: 'text', text: TEST_FAILURE.text }], isError: true },
        ),
        proposal,
      });
    }
    expect(loop.checkProposal(toolCallToProposal('bash', { command: 'npm test' })).verdict).toBe('allow');
  });

  it('is done once stopped, and halts every later call', () => {
    const agent = new Agent();
    expect(agent.loop.isDone()).toBe(false);
    agent.loop.stop('the user cancelled');
    expect(agent.loop.isDone()).toBe(true);
    expect(agent.check('read_file', { path: 'a.ts' })).toMatchObject({ verdict: 'halt', allowed: false });
  });

  it('halts the next call once spend reported outside any call reaches the budget', () => {
    const agent = new Agent({ policy: { budget: { tokenBudget: 1_000, reserveTokens: 100 } } });
    agent.loop.addUsage({ tokens: 600 });
    expect(agent.check('read_file', { path: 'a.ts' }).verdict).toBe('allow');
    agent.loop.addUsage({ tokens: 400 });
    expect(agent.check('read_file', { path: 'a.ts' })).toMatchObject({
      verdict: 'halt',
      rule: 'budget_exceeded',
      reason: 'This session has used 1000 tokens, reaching its budget of 1000.',
    });
  });

  it('reports the share of distinct calls it has ruled out', () => {
    const agent = new Agent();
    agent.call('read_file', { path: 'a.ts' }, ENOENT('a.ts'));
    agent.call('read_file', { path: 'b.ts' }, 'export const b = 2;');
    expect(agent.check('read_file', { path: 'a.ts' }).searchSpaceReduction).toBeCloseTo(0.5);
  });
});

describe('capacity and hostile input', () => {
  it('evicts the oldest constraints beyond its capacity', () => {
    // Guessing is left out: it would stop the fifth guess before the bans fill up.
    const policy = { learning: { maxConstraints: 10 }, detectors: { errorStreak: { enabled: false } } };
    const agent = new Agent({ policy });
    for (let i = 0; i < 30; i++)
      agent.call('read_file', { path: `missing-${i}.ts` }, ENOENT(`missing-${i}.ts`));
    expect(agent.loop.getActiveConstraints().length).toBeLessThanOrEqual(10);
    expect(agent.check('read_file', { path: 'missing-29.ts' }).verdict).toBe('block');
    expect(agent.check('read_file', { path: 'missing-0.ts' }).allowed).toBe(true);
  });

  it('takes cyclic, deeply nested, huge and odd arguments without throwing', () => {
    const agent = new Agent();
    const cyclic: Record<string, unknown> = { path: 'a.ts' };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 10_000; i++) {
      const next = {};
      deep.child = next;
      deep = next;
    }
    const odd = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}') as Record<string, unknown>;
    for (const args of [
      cyclic,
      root,
      { content: 'x'.repeat(10_000_000) },
      odd,
      { n: 10n, f: () => 1, d: new Date(0), x: Number.NaN, u: undefined },
    ]) {
      expect(() => agent.call('write_file', args, 'ok')).not.toThrow();
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the world probe', () => {
  const created = new Set<string>();
  const probe = { exists: (target: string) => (target.startsWith('http') ? undefined : created.has(target)) };

  it('lifts a "does not exist" ban once the file exists, created outside the agent\'s view', () => {
    const agent = new Agent({ probe });
    agent.call('read_file', { path: 'notes/todo.md' }, ENOENT('notes/todo.md'));
    expect(agent.check('read_file', { path: 'notes/todo.md' }).verdict).toBe('block');
    created.add('notes/todo.md');
    expect(agent.check('read_file', { path: 'notes/todo.md' }).verdict).toBe('allow');
    expect(agent.loop.getActiveConstraints()).toEqual([]);
  });

  it('keeps the ban while the file is still missing, and asks nothing when the probe cannot tell', () => {
    const agent = new Agent({ probe });
    agent.call('read_file', { path: 'notes/missing.md' }, ENOENT('notes/missing.md'));
    expect(agent.check('read_file', { path: 'notes/missing.md' }).verdict).toBe('block');
  });
});

describe('exhaustion', () => {
  it('is done, and halts, once every strategy the domain knows has failed and is banned', () => {
    const adapter = {
      name: 'deploy',
      signatures: ['rejected'],
      actionClasses: ['blue_green', 'canary'],
      describeCall: (proposal: { tool: string; args: Record<string, unknown> }) => ({
        actionClass: String(proposal.args.strategy),
        kind: 'api' as const,
        targets: [String(proposal.args.service)],
      }),
      describeFailure: (outcome: { success: boolean }) =>
        outcome.success
          ? undefined
          : {
              signature: 'rejected',
              blame: 'agent_failure' as const,
              deterministic: true,
              meaning: 'call' as const,
            },
    };
    const loop = new NarrowingEngine({
      adapter,
      policy: { learning: { strategyEffect: 'block', strategyMinTargets: 2 } },
    });
    const deploy = (strategy: string, service: string) => {
      const proposal = { tool: 'deploy', args: { strategy, service } };
      loop.checkProposal(proposal);
      loop.recordOutcome({ proposal, success: false, error: 'deployment rejected by policy' });
    };
    deploy('blue_green', 'api');
    deploy('blue_green', 'web');
    deploy('canary', 'api');
    expect(loop.isDone()).toBe(false);
    deploy('canary', 'web');
    expect(loop.isDone()).toBe(true);
    expect(loop.getConvergence().state).toBe('exhausted');
    expect(loop.checkProposal({ tool: 'deploy', args: { strategy: 'canary', service: 'db' } }).verdict).toBe(
      'halt',
    );
  });
});
