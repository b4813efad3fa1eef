import { describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { STREAK_EXEMPT_RULES } from '../../src/core/refusal-streak.js';
import { Agent } from './support.js';

const ENOENT = { error: "ENOENT: no such file or directory, open 'config/prod.yaml'" };
const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;

describe('the halt on repeated refusals', () => {
  it('halts at the third refusal in a row of the same call, and every call after it', () => {
    const agent = new Agent();
    const verdicts = agent.repeat(4, ...readMissing, ENOENT);
    expect(verdicts).toEqual(['allow', 'block', 'block', 'halt']);
    expect(agent.check(...readMissing)).toMatchObject({ verdict: 'halt', rule: 'halted' });
    expect(agent.check('read_file', { path: 'README.md' }).verdict).toBe('halt');
  });

  it('halts at the third refusal in a row when each refusal is checked in a process of its own', () => {
    let agent = new Agent();
    agent.call(...readMissing, ENOENT);
    const verdicts: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      verdicts.push(agent.check(...readMissing).verdict);
      const next = new Agent();
      next.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
      agent = next;
    }
    expect(verdicts).toEqual(['block', 'block', 'halt']);
  });

  it('starts no streak from a saved one it cannot read', () => {
    const agent = new Agent();
    agent.call(...readMissing, ENOENT);
    agent.check(...readMissing);
    const saved = agent.loop.snapshot();
    for (const refusals of [{ callKey: 7, count: 2 }, { callKey: 'read_file#0', count: 99 }, 'streak', [1]]) {
      const next = new Agent();
      next.loop.restore({ ...saved, session: { ...(saved.session as object), refusals } });
      expect(next.check(...readMissing).verdict).toBe('block');
    }
  });

  it('never halts a model that does not see the refusals (a recorded run replayed)', () => {
    const agent = new Agent({ modelSeesRefusals: false });
    expect(agent.repeat(6, ...readMissing, ENOENT)).toEqual([
      'allow',
      'block',
      'block',
      'block',
      'block',
      'block',
    ]);
    expect(agent.check('read_file', { path: 'README.md' }).verdict).toBe('allow');
  });

  it('lets a replayed run that repeated one refused call twenty times go on with another call', () => {
    const agent = new Agent({ modelSeesRefusals: false });
    const verdicts = agent.repeat(20, ...readMissing, ENOENT);
    expect(verdicts.filter((verdict) => verdict === 'block')).toHaveLength(19);
    expect(agent.check('read_file', { path: 'README.md' }).verdict).toBe('allow');
  });

  it('halts a replayed run once fifteen blocked proposals in a row went round three calls', () => {
    const agent = new Agent({ modelSeesRefusals: false });
    const missing = ['config/prod.yaml', 'config/staging.yaml', 'config/dev.yaml'];
    for (const path of missing) {
      agent.call('read_file', { path }, { error: `ENOENT: no such file or directory, open '${path}'` });
    }
    const verdicts = Array.from(
      { length: 15 },
      (_, index) =>
        agent.call(
          'read_file',
          { path: missing[index % 3] },
          { error: `ENOENT: no such file or directory, open '${missing[index % 3]}'` },
        ).check.verdict,
    );
    expect(verdicts.every((verdict) => verdict === 'block')).toBe(true);
    expect(agent.check('read_file', { path: 'README.md' })).toMatchObject({
      verdict: 'halt',
      rule: 'convergence',
    });
  });

  it('names the rule and the call in the halt the model reads', () => {
    const agent = new Agent();
    agent.repeat(3, ...readMissing, ENOENT);
    const halt = agent.check(...readMissing);
    expect(halt).toMatchObject({ verdict: 'halt', rule: 'repeated-refusal', allowed: false });
    expect(halt.reason).toMatch(/^read_file .*config\/prod\.yaml.* was refused 3 times in a row/);
  });

  it('starts over when another call comes between two refusals', () => {
    const agent = new Agent();
    agent.repeat(3, ...readMissing, ENOENT);
    agent.call('read_file', { path: 'README.md' }, '# project');
    expect(agent.repeat(2, ...readMissing, ENOENT)).toEqual(['block', 'block']);
    expect(agent.check(...readMissing).verdict).toBe('halt');
  });

  it('counts the copies of a call made together in one step once', () => {
    const agent = new Agent();
    agent.call(...readMissing, ENOENT);
    const inStep = (step: string) =>
      agent.loop.checkProposal({ ...toolCallToProposal(...readMissing), step });
    expect([inStep('s1'), inStep('s1'), inStep('s2'), inStep('s2')].map((check) => check.verdict)).toEqual([
      'block',
      'block',
      'block',
      'block',
    ]);
    expect(inStep('s3').verdict).toBe('halt');
  });

  it('starts over with a new user message', () => {
    const agent = new Agent();
    agent.repeat(3, ...readMissing, ENOENT);
    agent.loop.newRun('user');
    expect(agent.check(...readMissing).verdict).toBe('block');
  });

  it('only warns under advisory enforcement', () => {
    const agent = new Agent({ policy: { enforcement: 'advisory' } });
    expect(agent.repeat(4, ...readMissing, ENOENT).at(-1)).toBe('warn');
  });

  it('never halts a run whose blocked proposals are all guesses, however many there are', () => {
    const agent = new Agent({ modelSeesRefusals: false });
    const fetchFile = (path: string) =>
      agent.call(
        'github_fetch_file',
        { repository_full_name: 'acme/android-app', path, encoding: 'utf-8' },
        { text: '{"error":"GitHub API error 404: Not Found"}', isError: true },
      ).check.verdict;
    const paths = Array.from({ length: 24 }, (_, index) => `app/src/main/Module${index}.kt`);
    const verdicts = paths.map(fetchFile);
    expect(verdicts).not.toContain('halt');
    expect(verdicts.filter((verdict) => verdict === 'block').length).toBeGreaterThanOrEqual(16);
    expect(
      agent.check('github_fetch_file', { repository_full_name: 'acme/android-app', path: 'README.md' }),
    ).toMatchObject({ rule: 'error-streak' });
    expect(agent.check('github_list_files', { repository_full_name: 'acme/android-app' }).allowed).toBe(true);
  });

  it('never counts the blocks of polls or of guessing', () => {
    expect([...STREAK_EXEMPT_RULES].sort()).toEqual(['blind-edit', 'edit-streak', 'error-streak', 'poll']);
    const agent = new Agent();
    const status = ['build_status', { build_id: 'b-1842' }] as const;
    const verdicts = agent.repeat(24, ...status, '{"state": "running", "progress": 40}');
    expect(verdicts).toContain('block');
    expect(verdicts).not.toContain('halt');
  });
});
