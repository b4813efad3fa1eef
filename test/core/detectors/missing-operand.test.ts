import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../../src/adapters/tool-call/index.js';
import { Agent } from '../support.js';

/** npm's answer to an install of a version that was never published, as a shell tool returns it. */
const ETARGET = {
  text: [
    'npm error code ETARGET',
    'npm error notarget No matching version found for @tanstack/react-query@6.4.2.',
    'npm error notarget In most cases you or one of your dependencies are requesting',
    "npm error notarget a package version that doesn't exist.",
    'npm error A complete log of this run can be found in: /home/dev/.npm/_logs/2026-03-02T10_14_07_372Z-debug-0.log',
  ].join('\n'),
  isError: true,
};

const install = (...options: string[]) => ({
  command: ['npm install', ...options, '@tanstack/react-query@6.4.2'].join(' '),
});

/** Two spellings of the install, each answered that the version does not exist. */
function afterTwoSpellings(): Agent {
  const agent = new Agent();
  agent.call('Bash', install(), ETARGET);
  agent.call('Bash', install('--legacy-peer-deps'), ETARGET);
  return agent;
}

describe('unavailable-value, a command spelled again with other options', () => {
  it('blocks a third spelling with other options once two said the version does not exist', () => {
    const check = afterTwoSpellings().check('Bash', install('--force'));
    expect(check).toMatchObject({ verdict: 'block', rule: 'unavailable-value' });
  });

  it('says which word does not exist and what to do instead', () => {
    const check = afterTwoSpellings().check('Bash', install('--save', '--no-audit'));
    expect(check.reason).toContain('each time saying @tanstack/react-query@6.4.2 does not exist');
    expect(check.reason).toContain('No matching version found for @tanstack/react-query@6.4.2');
    expect(check.suggestion).toContain('Look up what exists instead of @tanstack/react-query@6.4.2');
  });

  it('allows a spelling that gives an option a value, which may name another place to look', () => {
    const check = afterTwoSpellings().check('Bash', install('--registry=https://npm.internal.example'));
    expect(check.verdict).not.toBe('block');
    expect(check.rule).not.toBe('unavailable-value');
  });

  it('allows looking up what exists', () => {
    const agent = afterTwoSpellings();
    expect(agent.check('Bash', { command: 'npm view @tanstack/react-query versions --json' }).verdict).toBe(
      'allow',
    );
  });

  it('allows another version of the package', () => {
    const check = afterTwoSpellings().check('Bash', {
      command: 'npm install @tanstack/react-query@5.66.0 --force',
    });
    expect(check.verdict).not.toBe('block');
    expect(check.rule).not.toBe('unavailable-value');
  });

  it('leaves one spelling failing twice to the rules on identical calls', () => {
    const agent = new Agent();
    agent.call('Bash', install(), ETARGET);
    agent.call('Bash', install(), ETARGET);
    expect(agent.check('Bash', install('--force')).rule).not.toBe('unavailable-value');
  });

  it('counts one attempt written two ways as one spelling, left to the rules on identical calls', () => {
    const agent = new Agent();
    // A host that runs every call and only reports it (the guard's own rules would refuse the
    // second): both are recorded as run. Output trimmed or not, it is one attempt.
    for (const command of [install().command, `${install().command} 2>&1 | tail -20`]) {
      agent.loop.recordOutcome({
        ...toolCallToOutcome(
          'Bash',
          { command },
          { content: [{ type: 'text', text: ETARGET.text }], isError: true },
        ),
        proposal: toolCallToProposal('Bash', { command }),
      });
    }
    expect(agent.check('Bash', install('--force')).rule).not.toBe('unavailable-value');
  });

  it('does not count a spelling that failed another way', () => {
    const agent = new Agent();
    agent.call('Bash', install(), ETARGET);
    agent.call('Bash', install('--legacy-peer-deps'), {
      text: 'npm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree',
      isError: true,
    });
    agent.call('Bash', install('--save'), ETARGET);
    expect(agent.check('Bash', install('--force')).verdict).toBe('allow');
  });

  it('allows the next spelling once a change has gone through', () => {
    const agent = afterTwoSpellings();
    agent.call('Bash', { command: 'npm config set registry https://npm.internal.example' }, '');
    expect(agent.check('Bash', install('--force')).verdict).toBe('allow');
  });

  it('allows the next spelling after a new user message', () => {
    const agent = afterTwoSpellings();
    agent.loop.newRun('user');
    expect(agent.check('Bash', install('--force')).rule).not.toBe('unavailable-value');
  });

  it('does not judge a failure that names no word of the command as missing', () => {
    const agent = new Agent();
    const failed = {
      text: 'npm error code E403\nnpm error 403 Forbidden - GET https://registry.npmjs.org/x',
      isError: true,
    };
    agent.call('Bash', install(), failed);
    agent.call('Bash', install('--legacy-peer-deps'), failed);
    expect(agent.check('Bash', install('--force')).rule).not.toBe('unavailable-value');
  });

  it('keeps blocking in a guard restored from the snapshot, each call in a process of its own', () => {
    let state: unknown;
    const inNewProcess = (act: (agent: Agent) => void): Agent => {
      const agent = new Agent();
      if (state !== undefined) agent.loop.restore(JSON.parse(JSON.stringify(state)));
      act(agent);
      state = agent.loop.snapshot();
      return agent;
    };
    inNewProcess((agent) => agent.call('Bash', install(), ETARGET));
    inNewProcess((agent) => agent.call('Bash', install('--legacy-peer-deps'), ETARGET));
    const restored = inNewProcess(() => undefined);
    const check = restored.check('Bash', install('--force'));
    expect(check).toMatchObject({ verdict: 'block', rule: 'unavailable-value' });
    expect(check.reason).toContain('@tanstack/react-query@6.4.2 does not exist');
  });

  it('saves the words named missing by their hashes only', () => {
    const snapshot = afterTwoSpellings().loop.snapshot() as {
      session: { detectors: Record<string, unknown> };
    };
    const saved = JSON.stringify(snapshot.session.detectors['unavailable-value']);
    expect(saved).toContain('"failures":2');
    expect(saved).not.toContain('react-query');
  });

  it('ignores a hostile or corrupt snapshot of its command runs, and never throws reading one', () => {
    const agent = afterTwoSpellings();
    const valid = agent.loop.sessionSnapshot().detectors['unavailable-value'] as { commands: unknown[] };
    const [key, saved] = valid.commands[0] as [string, Record<string, unknown>];
    const proposal = toolCallToProposal('Bash', install('--force'));
    const hostile = fc.oneof(
      fc.record({ version: fc.constant(2), commands: fc.anything() }),
      fc.record({ version: fc.constant(2), commands: fc.array(fc.tuple(fc.string(), fc.jsonValue())) }),
      fc.record({
        version: fc.constant(2),
        commands: fc.constant([[key, saved]]).chain((entries) =>
          fc
            .record({
              field: fc.constantFrom('values', 'shape', 'spellings', 'failures', 'error'),
              value: fc.jsonValue(),
            })
            .map(({ field, value }) => [[entries[0]?.[0], { ...saved, [field]: value }]]),
        ),
      }),
    );
    fc.assert(
      fc.property(hostile, (state) => {
        const guard = agent.restoredWith('unavailable-value', state);
        expect(['allow', 'block', 'warn']).toContain(guard.loop.checkProposal(proposal).verdict);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps what it reads of a snapshot bounded, however many runs it lists', () => {
    const agent = afterTwoSpellings();
    const valid = agent.loop.sessionSnapshot().detectors['unavailable-value'] as { commands: unknown[] };
    const [key, saved] = valid.commands[0] as [string, Record<string, unknown>];
    const huge = {
      version: 2,
      refusals: [],
      rejections: [],
      commands: Array.from({ length: 5_000 }, (_, i) => [
        i === 4_999 ? key : `${i}`.padStart(16, '0'),
        saved,
      ]),
    };
    const guard = agent.restoredWith('unavailable-value', huge);
    const kept = guard.loop.sessionSnapshot().detectors['unavailable-value'] as { commands: unknown[] };
    expect(kept.commands.length).toBeLessThanOrEqual(64);
    expect(guard.check('Bash', install('--force')).rule).toBe('unavailable-value');
  });
});
