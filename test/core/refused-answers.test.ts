import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const refused = (text: string) => ({ text, isError: true });

describe('answers a checker refuses', () => {
  it('blocks the fifth different flag guessed in a row once each was refused', () => {
    const agent = new Agent();
    for (const guess of ['farmer', 'barnyard', 'sheepdog', 'tractor'])
      agent.call('check_flag', { flag: `flag{${guess}}` }, refused('Incorrect flag'));
    const fifth = agent.check('check_flag', { flag: 'flag{harvest}' });
    expect(fifth).toMatchObject({ verdict: 'block', rule: 'error-streak' });
  });

  it('lets a guess through again once something was written in between', () => {
    const agent = new Agent();
    for (const guess of ['farmer', 'barnyard', 'sheepdog', 'tractor'])
      agent.call('check_flag', { flag: `flag{${guess}}` }, refused('Wrong answer! Try again.'));
    agent.call('bash', { command: 'python3 solve.py > out.txt' }, '');
    expect(agent.check('check_flag', { flag: 'flag{harvest}' }).allowed).toBe(true);
  });
});
