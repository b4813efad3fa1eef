import { describe, expect, it } from 'vitest';
import { locationAddresses } from '../../src/core/identity/index.js';
import { Agent } from './support.js';

const solve = { command: 'python3 solve.py' };
/** What the script prints each time it runs: it catches its own error and goes on. */
const printed =
  "Trying n = 1\nError with n=1, key=flag{: can't concat str to bytes\nTrying n = 2\nNo key found";

describe('a command of unknown effects run back to back with the same answer', () => {
  it('blocks its third run when the two before it answered alike', () => {
    const agent = new Agent();
    expect(agent.call('bash', solve, printed).check.verdict).toBe('allow');
    expect(agent.call('bash', solve, printed).check.verdict).toBe('allow');
    expect(agent.check('bash', solve).verdict).toBe('block');
  });

  it('blocks a third run that printed an object at another address each time', () => {
    const agent = new Agent();
    const show = { command: 'python3 -c "import shapes; print(shapes.Point(1, 2))"' };
    agent.call('bash', show, '<shapes.Point object at 0x7f3a2b1c4d50>');
    agent.call('bash', show, '<shapes.Point object at 0x7f91c05e2b90>');
    expect(agent.check('bash', show).verdict).toBe('block');
  });

  it('allows a third run when the second answered otherwise than the first', () => {
    const agent = new Agent();
    agent.call('bash', solve, printed);
    agent.call('bash', solve, 'Trying n = 1\nTrying n = 2\nkey = flag{s1mpl3_x0r}');
    expect(agent.check('bash', solve).verdict).toBe('allow');
  });

  it('allows a debugger step whose answers differ only in the address the program stopped at', () => {
    const agent = new Agent();
    const step = { command: 'debug_step' };
    agent.call('bash', step, '0x000000000040149b\t121\tin util.c\n');
    agent.call('bash', step, '0x000000000040149e\t121\tin util.c\n');
    expect(agent.call('bash', step, '0x00000000004014a4\t121\tin util.c\n').check.verdict).toBe('allow');
    expect(agent.check('bash', step).verdict).toBe('allow');
  });

  it('allows an instruction step whose answers name where in a function it stopped', () => {
    const agent = new Agent();
    const stepi = { command: 'gdb -batch -ex "stepi" ./arevenge' };
    agent.call('bash', stepi, '0x0000555555400f50 in go() ()\n');
    agent.call('bash', stepi, '0x0000555555400f59 in go() ()\n');
    expect(agent.check('bash', stepi).verdict).toBe('allow');
  });

  it('blocks a debugger step that stopped at the same address twice', () => {
    const agent = new Agent();
    const step = { command: 'debug_step' };
    agent.call('bash', step, '0x0000000000401326 in read ()\n');
    agent.call('bash', step, '0x0000000000401326 in read ()\n');
    expect(agent.check('bash', step).verdict).toBe('block');
  });

  it('blocks a third restart that stopped in the same library frame, loaded at another base', () => {
    const agent = new Agent();
    const run = { command: 'debug_add_breakpoint FUN_0040107b\ndebug_continue' };
    const stopped = (base: string) =>
      `\nProgram received signal SIGINT, Interrupt.\n0x00007f${base}7e2 in __GI___libc_read (fd=0, ` +
      'nbytes=4096) at ../sysdeps/unix/sysv/linux/read.c:26\nQuit';
    agent.call('bash', run, stopped('4d4ea93'));
    agent.call('bash', run, stopped('b4ca332'));
    expect(agent.check('bash', run).verdict).toBe('block');
  });

  it('leaves a listing run three times in a row to the rules on reads', () => {
    const agent = new Agent();
    const ls = { command: 'ls' };
    agent.call('bash', ls, 'level1.flag.txt.enc\nlevel1.py');
    agent.call('bash', ls, 'level1.flag.txt.enc\nlevel1.py');
    expect(agent.check('bash', ls).verdict).not.toBe('block');
  });

  it('allows a check that waits before it asks, however often it answers alike', () => {
    const agent = new Agent();
    const poll = { command: 'sleep 10 && curl -s http://localhost:8080/health' };
    const down = 'upstream connect error or disconnect/reset before headers';
    expect(agent.repeat(4, 'bash', poll, down)).toEqual(['allow', 'allow', 'allow', 'allow']);
  });
});

describe('the addresses an answer reports as where something is', () => {
  it('reads an address that leads its line or names the code it points into', () => {
    const text =
      'Breakpoint 1, 0x000055555540094a in main ()\n=> 0x0000555555400f50 <go+4>:\tmov eax, 0x0\n' +
      '#1  0x00007ffff7a2d830 in __libc_start_main (main=0x555555400f40 <main>) at libc-start.c:291';
    expect(locationAddresses(text)).toBe('94a f50 830 f40');
  });

  it('leaves out where a run put an object, inside a line about something else', () => {
    const text =
      '<__main__.Point object at 0x7f3a2b1c4d50>\nCurrent thread 0x00007f8b1c2d3740 (most recent call first):';
    expect(locationAddresses(text)).toBe('');
  });
});
