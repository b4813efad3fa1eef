import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const OPENED = [
  '[x] Opening connection to crypto.example.io on port 5000',
  '[x] Opening connection to crypto.example.io on port 5000: Trying 172.18.0.2',
  '[+] Opening connection to crypto.example.io on port 5000: Done',
].join('\n');
const REFUSED = { text: 'Error: message does not match given signature', isError: true };

/** One round: the session started, a line sent to it refused, the session stopped. */
function round(agent: Agent) {
  agent.call('connect_start', { args: 'crypto.example.io 5000' }, OPENED);
  const sent = agent.call('connect_sendline', { args: '1' }, REFUSED);
  agent.call('bash', { command: 'connect_stop' }, 'Interactive session connect stopped successfully');
  return sent.check.verdict;
}

describe('a session started again', () => {
  it('gives a line refused in the sessions before it its retry in the new one', () => {
    const agent = new Agent();
    round(agent);
    round(agent);
    agent.call('connect_start', { args: 'crypto.example.io 5000' }, OPENED);
    expect(agent.check('connect_sendline', { args: '1' }).verdict).not.toBe('block');
  });

  it('still blocks a line refused twice in one session with nothing started in between', () => {
    const agent = new Agent();
    agent.call('connect_start', { args: 'crypto.example.io 5000' }, OPENED);
    agent.call('connect_sendline', { args: '1' }, REFUSED);
    agent.call('connect_sendline', { args: '1' }, REFUSED);
    expect(agent.check('connect_sendline', { args: '1' }).verdict).toBe('block');
  });

  it('takes a start made again under a reworded description, answering as before, for no new start', () => {
    const agent = new Agent();
    const start = (description: string) =>
      agent.call('connect_start', { args: 'crypto.example.io 5000', description }, OPENED);
    start('Open a session with the challenge server');
    agent.call('connect_sendline', { args: '1' }, REFUSED);
    agent.call('connect_sendline', { args: '1' }, REFUSED);
    start('Connect to the server to send the forged signature');
    expect(agent.check('connect_sendline', { args: '1' }).verdict).toBe('block');
  });
});
