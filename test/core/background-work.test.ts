import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const LISTING = [
  'total 8',
  'drwxr-xr-x@  3 dev  staff    96 Mar 11 15:43 .',
  'drwxr-xr-x@ 48 dev  staff  1536 Mar 11 15:43 ..',
  '-rw-r--r--@  1 dev  staff  3530 Mar 11 15:43 README.md',
].join('\n');
const LIST = { command: 'ls -la workflow/', description: 'Check workflow folder progress' };
const SUBAGENT = {
  description: 'Write the workflow documents',
  prompt: 'Create 03-field-guide.md and 04-review.md in workflow/.',
  subagent_type: 'general-purpose',
  run_in_background: true,
};
const LAUNCHED =
  'Async agent launched successfully.\nagentId: a3638b86085803536\nThe agent is working in the background. You will be notified when it completes.';

/** Lists the folder `times` times, a few seconds apart, each answered with `LISTING`; the verdicts and rules. */
function listRepeatedly(agent: Agent, times: number): { verdict: string; rule?: string }[] {
  const seen: { verdict: string; rule?: string }[] = [];
  for (let index = 0; index < times; index++) {
    const { check } = agent.call('Bash', LIST, LISTING);
    seen.push({ verdict: check.verdict, ...(check.rule !== undefined && { rule: check.rule }) });
  }
  return seen;
}

describe('work started in the background', () => {
  it('makes a folder listed again and again while it runs a poll, blocked in quick succession and let through now and then', () => {
    const agent = new Agent();
    agent.call('Agent', SUBAGENT, LAUNCHED);
    const seen = listRepeatedly(agent, 24);
    expect(seen.some(({ rule }) => rule === 'identical-result')).toBe(false);
    const firstBlock = seen.findIndex(({ verdict }) => verdict === 'block');
    expect(seen[firstBlock]?.rule).toBe('poll');
    expect(seen.slice(firstBlock).some(({ verdict }) => verdict !== 'block')).toBe(true);
  });

  it('leaves a listing repeated with nothing running in the background to the rule for repeated answers, which never lets it through', () => {
    const seen = listRepeatedly(new Agent(), 24);
    const firstBlock = seen.findIndex(({ verdict }) => verdict === 'block');
    expect(seen[firstBlock]?.rule).toBe('identical-result');
    expect(seen.slice(firstBlock).every(({ verdict }) => verdict === 'block' || verdict === 'halt')).toBe(
      true,
    );
  });

  it('ends when the user speaks, where hosts report such work done', () => {
    const agent = new Agent();
    agent.call('Agent', SUBAGENT, LAUNCHED);
    agent.loop.newRun('user');
    const seen = listRepeatedly(agent, 12);
    expect(seen.find(({ verdict }) => verdict === 'block')?.rule).toBe('identical-result');
  });

  it('is still running for a new process that reads the state back, as a hook is', () => {
    const first = new Agent();
    first.call('Agent', SUBAGENT, LAUNCHED);
    const next = new Agent();
    next.loop.restore(JSON.parse(JSON.stringify(first.loop.snapshot())));
    const seen = listRepeatedly(next, 12);
    expect(seen.find(({ verdict }) => verdict === 'block')?.rule).toBe('poll');
  });

  it('is not started by a call that failed to start it', () => {
    const agent = new Agent();
    agent.call('Agent', SUBAGENT, { text: 'Agent type "general-purpose" not found.', isError: true });
    const seen = listRepeatedly(agent, 12);
    expect(seen.find(({ verdict }) => verdict === 'block')?.rule).toBe('identical-result');
  });
});
