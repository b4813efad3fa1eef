import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const NO_APP = { text: "ls: cannot access 'app': No such file or directory\n", isError: true };
const BASH_TIMED_OUT = { text: 'Command timed out after 2m 0s', isError: true };
/** Codex's `shell` answer for a command it stopped at its timeout. */
const CODEX_TIMED_OUT = {
  text: 'Exit code: 124\nWall time: 10 seconds\nOutput:\ncommand timed out after 10000 milliseconds\n',
  isError: true,
};
const SCAFFOLD = { command: 'npx create-vite@latest app --template react-ts', timeout: 120000 };

describe('a command stopped before it ended', () => {
  it('lets a listing that found nothing run again after a scaffolder that timed out making it', () => {
    const agent = new Agent();
    agent.call('Bash', { command: 'ls app' }, NO_APP);
    agent.call('Bash', SCAFFOLD, BASH_TIMED_OUT);
    expect(agent.check('Bash', { command: 'ls app' }).verdict).not.toBe('block');
  });

  it('lets a read of a file an install writes run again after the install timed out', () => {
    const agent = new Agent();
    const missing = {
      text: 'Exit code: 1\nWall time: 0.1 seconds\nOutput:\ncat: web/package-lock.json: No such file or directory\n',
      isError: true,
    };
    const read = { command: ['bash', '-lc', 'cat web/package-lock.json'] };
    agent.call('shell', read, missing);
    agent.call('shell', { command: ['bash', '-lc', 'cd web && npm install'] }, CODEX_TIMED_OUT);
    expect(agent.check('shell', read).verdict).not.toBe('block');
  });

  it('lets a listing of a config file run again after the set-up that writes it timed out', () => {
    const agent = new Agent();
    const missing = {
      text: 'Exit code: 1\nWall time: 0.1 seconds\nOutput:\nls: components.json: No such file or directory\n',
      isError: true,
    };
    const list = { command: ['bash', '-lc', 'ls -a components.json'] };
    agent.call('shell', list, missing);
    agent.call(
      'shell',
      { command: ['bash', '-lc', 'npx shadcn@latest init -y --base-color neutral'] },
      CODEX_TIMED_OUT,
    );
    expect(agent.check('shell', list).verdict).not.toBe('block');
  });

  it('still blocks the listing after a script that timed out, which the shell reader cannot see writing', () => {
    const agent = new Agent();
    agent.call('Bash', { command: 'ls app' }, NO_APP);
    agent.call('Bash', { command: 'python3 fetch_fixtures.py' }, BASH_TIMED_OUT);
    expect(agent.check('Bash', { command: 'ls app' }).verdict).toBe('block');
  });

  it('still blocks the listing after the same scaffolder timed out twice in a row with nothing changed between', () => {
    const agent = new Agent();
    agent.call('Bash', { command: 'ls app' }, NO_APP);
    agent.call('Bash', SCAFFOLD, BASH_TIMED_OUT);
    agent.call('Bash', { command: 'ls app' }, NO_APP);
    agent.call('Bash', SCAFFOLD, BASH_TIMED_OUT);
    expect(agent.check('Bash', { command: 'ls app' }).verdict).toBe('block');
  });

  it('counts a test run that timed out between two identical failing runs as no change', () => {
    const failing = {
      text: [
        'Exit code: 1',
        'Wall time: 3.2 seconds',
        'Output:',
        '============================= test session starts ==============================',
        'collected 12 items',
        '',
        'tests/test_orders.py ...F........                                         [100%]',
        '',
        '=================================== FAILURES ===================================',
        '___________________________ test_refund_rounds_down ____________________________',
        '    def test_refund_rounds_down():',
        '>       assert refund(Decimal("10.005")) == Decimal("10.00")',
        "E       AssertionError: assert Decimal('10.01') == Decimal('10.00')",
        '',
        'tests/test_orders.py:41: AssertionError',
        '=========================== short test summary info ============================',
        'FAILED tests/test_orders.py::test_refund_rounds_down - AssertionError',
        '========================= 1 failed, 11 passed in 3.02s =========================',
        '',
      ].join('\n'),
      isError: true,
    };
    const run = { command: ['bash', '-lc', 'pytest tests/test_orders.py'] };
    const stopped = new Agent();
    stopped.call('shell', run, failing);
    stopped.call('shell', { command: ['bash', '-lc', 'pytest tests'] }, CODEX_TIMED_OUT);
    stopped.call('shell', run, failing);
    expect(stopped.check('shell', run).verdict).toBe('block');
  });
});

describe('an install still running after it was stopped', () => {
  const NOT_FOUND = { text: 'bash: line 1: binwalk: command not found\n', isError: true };
  const INSTALL_TIMED_OUT = {
    text: 'Unpacking libxcb-render-util0:amd64 (0.3.9-1build3) ...\n\nCommand timed out\n',
    isError: true,
  };
  const LOCK_HELD = {
    text:
      'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 264 (apt-get)\n' +
      'E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?\n',
    isError: true,
  };
  const binwalk = { command: 'binwalk ~/ctf_files/chal/cell.pkg' };

  it('lets a command that was missing run again once an install says another process holds its lock', () => {
    const agent = new Agent();
    agent.call('run_command', binwalk, NOT_FOUND);
    agent.call(
      'run_command',
      { command: 'sudo apt-get update && sudo apt-get install -y binwalk' },
      INSTALL_TIMED_OUT,
    );
    agent.call('run_command', binwalk, NOT_FOUND);
    agent.call('run_command', { command: 'sudo apt-get install -y binwalk' }, LOCK_HELD);
    expect(agent.check('run_command', binwalk).verdict).not.toBe('block');
  });

  it('still blocks the command after the same refusal for the lock came twice with nothing changed between', () => {
    const agent = new Agent();
    const install = { command: 'sudo apt-get install -y binwalk' };
    agent.call('run_command', binwalk, NOT_FOUND);
    agent.call('run_command', install, LOCK_HELD);
    agent.call('run_command', binwalk, NOT_FOUND);
    agent.call('run_command', install, LOCK_HELD);
    agent.call('run_command', binwalk, NOT_FOUND);
    expect(agent.check('run_command', binwalk).verdict).toBe('block');
  });

  it('still blocks the command when the install failed for a reason other than a lock held by another process', () => {
    const agent = new Agent();
    agent.call('run_command', binwalk, NOT_FOUND);
    agent.call(
      'run_command',
      { command: 'sudo apt-get update && sudo apt-get install -y binwalk' },
      INSTALL_TIMED_OUT,
    );
    agent.call('run_command', binwalk, NOT_FOUND);
    agent.call(
      'run_command',
      { command: 'sudo apt-get install -y binwalk' },
      { text: 'E: Unable to locate package binwalk\n', isError: true },
    );
    expect(agent.check('run_command', binwalk).verdict).toBe('block');
  });
});
