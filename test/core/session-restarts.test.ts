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

const GDB_STARTED = [
  'Reading symbols from /root/ctf/unlimited_subway...',
  '(No debugging symbols found in /root/ctf/unlimited_subway)',
].join('\n');
const BREAKPOINT = 'Breakpoint 1 at 0x8049329: file unlimited_subway.c, line 44.';
const AT_MAIN = [
  'Continuing.',
  '',
  'Breakpoint 1, main (argc=1, argv=0xffffd6a4) at unlimited_subway.c:44',
  '44\tin unlimited_subway.c',
].join('\n');
const STEPPED = '0x080493b5\t46\tin unlimited_subway.c';

/**
 * A debugger session: started, a breakpoint set, run to it, a step, then a look at the registers
 * (each session a different one, as an agent looking for something does), stopped.
 */
function debugSession(agent: Agent, register: string, breakpoint = 'main') {
  agent.call('debug_start', { args: 'unlimited_subway' }, GDB_STARTED);
  const verdicts = [
    agent.call('bash', { command: `debug_add_breakpoint ${breakpoint}` }, BREAKPOINT).check.verdict,
    agent.call('bash', { command: 'debug_continue' }, AT_MAIN).check.verdict,
    agent.call('bash', { command: 'debug_step' }, STEPPED).check.verdict,
  ];
  agent.call(
    'bash',
    { command: `debug_exec 'info registers ${register}'` },
    `${register}  0xffffd5f0  0xffffd5f0`,
  );
  agent.call('bash', { command: 'debug_stop' }, 'Interactive session gdb stopped successfully');
  return verdicts;
}

describe('a debugger session started again and fed the same commands', () => {
  it('blocks a command that answered alike at the same point of two sessions started the same way', () => {
    const agent = new Agent();
    debugSession(agent, 'esp');
    debugSession(agent, 'ebp');
    agent.call('debug_start', { args: 'unlimited_subway' }, GDB_STARTED);
    const check = agent.check('bash', { command: 'debug_add_breakpoint main' });
    expect(check.verdict).toBe('block');
    expect(check.rule).toBe('session-cycle');
  });

  it('lets the second session go the way the first went', () => {
    const agent = new Agent();
    debugSession(agent, 'esp');
    expect(debugSession(agent, 'ebp')).toEqual(['allow', 'allow', 'allow']);
  });

  it('lets a third session through once an earlier step answered otherwise in the second', () => {
    const agent = new Agent();
    debugSession(agent, 'esp');
    agent.call('debug_start', { args: 'unlimited_subway' }, GDB_STARTED);
    agent.call('bash', { command: 'debug_add_breakpoint main' }, BREAKPOINT);
    agent.call(
      'bash',
      { command: 'debug_continue' },
      'Continuing.\n[Inferior 1 (process 912) exited normally]',
    );
    agent.call('bash', { command: 'debug_stop' }, 'Interactive session gdb stopped successfully');
    agent.call('debug_start', { args: 'unlimited_subway' }, GDB_STARTED);
    agent.call('bash', { command: 'debug_add_breakpoint main' }, BREAKPOINT);
    expect(agent.check('bash', { command: 'debug_continue' }).verdict).not.toBe('block');
  });

  it('lets a session through whose inputs changed: another breakpoint before the same command', () => {
    const agent = new Agent();
    debugSession(agent, 'esp', 'main');
    debugSession(agent, 'ebp', 'view_account');
    agent.call('debug_start', { args: 'unlimited_subway' }, GDB_STARTED);
    agent.call('bash', { command: 'debug_add_breakpoint main' }, BREAKPOINT);
    expect(agent.check('bash', { command: 'debug_continue' }).verdict).not.toBe('block');
  });

  it('lets the sessions start over after a file the program reads was edited', () => {
    const agent = new Agent();
    debugSession(agent, 'esp');
    debugSession(agent, 'ebp');
    agent.call('bash', { command: "printf 'AAAA%p%p' > input.txt" }, '');
    agent.call('debug_start', { args: 'unlimited_subway' }, GDB_STARTED);
    expect(agent.check('bash', { command: 'debug_add_breakpoint main' }).verdict).not.toBe('block');
  });

  it('never blocks the start itself: it is what lets other inputs be tried', () => {
    const agent = new Agent();
    debugSession(agent, 'esp');
    debugSession(agent, 'ebp');
    expect(agent.check('debug_start', { args: 'unlimited_subway' }).rule).not.toBe('session-cycle');
  });

  it('keeps what the sessions answered across a restart of the guard', () => {
    const agent = new Agent();
    debugSession(agent, 'esp');
    debugSession(agent, 'ebp');
    const restarted = new Agent();
    restarted.loop.restore(agent.loop.snapshot());
    restarted.call('debug_start', { args: 'unlimited_subway' }, GDB_STARTED);
    expect(restarted.check('bash', { command: 'debug_add_breakpoint main' }).rule).toBe('session-cycle');
  });
});
