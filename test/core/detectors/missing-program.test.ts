import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../../src/adapters/tool-call/index.js';
import { Agent } from '../support.js';

/** bash's answer to a program it could not find, as a shell tool returns it (exit status 127). */
const notFound = (name: string) => ({ text: `bash: line 1: ${name}: command not found`, isError: true });

/** The names an agent tries for a patch tool it cannot reach, each answered that it is not there. */
const GUESSES = [
  'apply_patch',
  'codex-apply-patch',
  './bin/apply_patch',
  'codex_apply_patch',
  'apply_patch.py',
  'apply-patch',
];

/** bash's answer: a name it looked up on the path is not found, one given as a path is no file. */
function answer(name: string) {
  return name.includes('/')
    ? { text: `bash: ${name}: No such file or directory`, isError: true }
    : notFound(name);
}

function guessing(agent: Agent, names: readonly string[]): { verdict: string; rule?: string }[] {
  return names.map((name) => {
    const { check } = agent.call('Bash', { command: `${name} < fix.diff` }, answer(name));
    return { verdict: check.verdict, ...(check.rule !== undefined && { rule: check.rule }) };
  });
}

/** Whether the guesses' checks were blocked by the streak of guesses. */
const blocked = (checks: readonly { verdict: string; rule?: string }[]) =>
  checks.map((check) => check.verdict === 'block' && check.rule === 'error-streak');

describe('error-streak, guesses at the name of a program', () => {
  it('blocks the fifth name tried for one program, the names sharing a word', () => {
    expect(blocked(guessing(new Agent(), GUESSES).slice(0, 5))).toEqual([false, false, false, false, true]);
  });

  it('tells the agent to look up what is installed', () => {
    const agent = new Agent();
    guessing(agent, GUESSES.slice(0, 4));
    const check = agent.check('Bash', { command: 'apply_patch.py < fix.diff' });
    expect(check).toMatchObject({ verdict: 'block', rule: 'error-streak' });
    expect(check.reason).toContain('each time running a program the shell did not find, under another name');
    expect(check.suggestion).toContain("Stop guessing the program's name: list what is installed");
  });

  it('allows a look at what is installed, and a program of another name', () => {
    const agent = new Agent();
    guessing(agent, GUESSES.slice(0, 4));
    for (const command of ['ls ~/.codex/bin', 'compgen -c | grep -i patch', 'git apply fix.diff']) {
      expect(agent.check('Bash', { command }).verdict).not.toBe('block');
    }
  });

  it('counts programs whose names share no word apart, as lines of a script pasted into a shell', () => {
    const agent = new Agent();
    const verdicts = ['import', 'from', 'def', 'print(x)', 'return'].map(
      (word, index) => agent.call('Bash', { command: `${word} line${index}` }, notFound(word)).check.verdict,
    );
    expect(verdicts).not.toContain('block');
    expect(agent.check('Bash', { command: 'python3 solve.py' }).verdict).not.toBe('block');
  });

  it('ends the streak once a name tried runs', () => {
    const agent = new Agent();
    guessing(agent, GUESSES.slice(0, 3));
    agent.call('Bash', { command: '~/.codex/bin/codex-apply-patch < fix.diff' }, 'patched 1 file');
    expect(blocked(guessing(agent, GUESSES.slice(3)))).toEqual([false, false, false]);
  });

  it('starts over after a change of the world', () => {
    const agent = new Agent();
    guessing(agent, GUESSES.slice(0, 4));
    agent.call('Bash', { command: 'npm install -g @openai/codex' }, 'added 1 package in 3s');
    expect(agent.check('Bash', { command: 'apply_patch.py < fix.diff' }).verdict).not.toBe('block');
  });

  it('keeps the run of names in a guard restored from the snapshot, each guess in a process of its own', () => {
    let state: unknown;
    const checks = GUESSES.slice(0, 5).map((name) => {
      const agent = new Agent();
      if (state !== undefined) agent.loop.restore(JSON.parse(JSON.stringify(state)));
      const [check] = guessing(agent, [name]);
      state = agent.loop.snapshot();
      return check as { verdict: string; rule?: string };
    });
    expect(blocked(checks)).toEqual([false, false, false, false, true]);
  });

  it('saves the words of the names by their hashes only', () => {
    const agent = new Agent();
    guessing(agent, GUESSES.slice(0, 2));
    const saved = JSON.stringify(agent.loop.sessionSnapshot().detectors['error-streak']);
    expect(saved).toContain('"missing":');
    expect(JSON.stringify((JSON.parse(saved) as { missing: unknown }).missing)).not.toMatch(/patch|apply/);
  });

  it('ignores a hostile or corrupt run of names in a snapshot, and never throws reading one', () => {
    const agent = new Agent();
    guessing(agent, GUESSES.slice(0, 4));
    const valid = agent.loop.sessionSnapshot().detectors['error-streak'] as Record<string, unknown>;
    const proposal = toolCallToProposal('Bash', { command: 'apply-patch < fix.diff' });
    const hostile = fc.record({
      missing: fc.oneof(fc.anything(), fc.array(fc.tuple(fc.string(), fc.jsonValue()))),
      runs: fc.anything(),
    });
    fc.assert(
      fc.property(hostile, (broken) => {
        const guard = agent.restoredWith('error-streak', { ...valid, ...broken });
        expect(['allow', 'block', 'warn']).toContain(guard.loop.checkProposal(proposal).verdict);
      }),
      { numRuns: 300 },
    );
  });
});
