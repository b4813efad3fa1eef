import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const solve = { command: 'python3 solve.py' };
/** What the script prints each time it runs: it catches its own error and goes on. */
const printed =
  "Trying n = 1\nError with n=1, key=flag{: can't concat str to bytes\nTrying n = 2\nNo key found";

describe('a command run again between reads, answering alike each time', () => {
  it('blocks its third run when it answered the same twice and only reads ran in between', () => {
    const agent = new Agent();
    expect(agent.call('bash', solve, printed).check.verdict).toBe('allow');
    agent.call('bash', { command: 'cat solve.py' }, 'import binascii\nkey = "flag{"\n');
    expect(agent.call('bash', solve, printed).check.verdict).toBe('allow');
    agent.call('bash', { command: 'head -c 64 ciphertext' }, '809fdd88dafa96e3ee60c8f179f2d889');
    expect(agent.check('bash', solve).verdict).toBe('block');
  });

  it('blocks the third run of a script file that printed nothing each time, only reads in between', () => {
    const agent = new Agent();
    const decode = { command: 'python3 decode_emoji.py' };
    expect(agent.call('bash', decode, '').check.verdict).toBe('allow');
    agent.call('bash', { command: 'head -n 1 emoji.txt' }, '👎🥩🍺🌚🏈');
    expect(agent.call('bash', decode, '').check.verdict).toBe('allow');
    agent.call('bash', { command: 'ls -l' }, 'total 8\n-rw-r--r-- 1 root root 1 decode_emoji.py');
    expect(agent.check('bash', decode).verdict).toBe('block');
  });

  it('leaves alone a one-line command that prints nothing, since what it did shows nowhere in its answer', () => {
    const agent = new Agent();
    const fix = { command: "find /testbed -name '*.sh' -exec chmod 755 {} +" };
    expect(agent.call('bash', fix, '').check.verdict).toBe('allow');
    agent.call('bash', { command: 'ls -l /testbed' }, 'total 8\n-rw-r--r-- 1 root root 412 run.sh');
    expect(agent.call('bash', fix, '').check.verdict).toBe('allow');
    agent.call('bash', { command: 'head -n 1 /testbed/run.sh' }, '#!/bin/sh');
    expect(agent.check('bash', fix).verdict).not.toBe('block');
  });

  it('allows it again once an edit changed the workspace in between', () => {
    const agent = new Agent();
    agent.call('bash', solve, printed);
    agent.call('bash', solve, printed);
    agent.call(
      'str_replace_based_edit_tool',
      { command: 'str_replace', path: 'solve.py', old_str: 'key = "flag{"', new_str: 'key = b"flag{"' },
      'The file solve.py has been edited.',
    );
    expect(agent.check('bash', solve).verdict).toBe('allow');
  });

  it('allows it again once another command that may change files ran in between', () => {
    const agent = new Agent();
    agent.call('bash', solve, printed);
    agent.call('bash', { command: 'cat solve.py' }, 'import binascii\n');
    agent.call('bash', solve, printed);
    agent.call('bash', { command: 'pip install pycryptodome' }, 'Successfully installed pycryptodome-3.20.0');
    expect(agent.check('bash', solve).verdict).toBe('allow');
  });

  it('allows a check again once a wait came in between, since the answer may change by then', () => {
    const agent = new Agent();
    const health = { command: 'curl -s http://localhost:8080/health' };
    const down = 'upstream connect error or disconnect/reset before headers';
    agent.call('bash', health, down);
    agent.call('bash', { command: 'sleep 5' }, '');
    agent.call('bash', health, down);
    agent.call('bash', { command: 'tail -n 1 server.log' }, 'Listening on :8080 (starting workers)');
    agent.call('bash', { command: 'sleep 5' }, '');
    expect(agent.check('bash', health).verdict).not.toBe('block');
  });

  it('leaves alone a command that writes a file, even one whose path it cannot read', () => {
    const agent = new Agent();
    const chmod = { command: 'chmod +x ~/ctf_files/solve.py' };
    agent.call('run_command', chmod, '');
    agent.call('run_command', { command: 'cat ~/ctf_files/solve.py' }, 'print(1)');
    agent.call('run_command', chmod, '');
    agent.call('run_command', { command: 'ls ~/ctf_files' }, 'solve.py');
    expect(agent.check('run_command', chmod).verdict).not.toBe('block');
  });

  it('leaves a re-read of a file to the rules on reads', () => {
    const agent = new Agent();
    const read = { command: 'cat solve.py' };
    agent.call('bash', read, 'import binascii\n');
    agent.call('bash', solve, printed);
    agent.call('bash', read, 'import binascii\n');
    agent.call('bash', { command: 'ls' }, 'solve.py');
    expect(agent.check('bash', read).verdict).not.toBe('block');
  });
});

describe('a streak of failing guesses broken by a call blocked for repeating what worked', () => {
  it('starts the guesses over after the agent goes back to a script that worked', () => {
    const agent = new Agent();
    const decrypt = { command: 'python decrypt.py' };
    const missing = (name: string) => ({
      text: `python: can't open file '/root/${name}': [Errno 2] No such file or directory`,
      isError: true,
    });
    agent.call('bash', decrypt, printed);
    agent.call('bash', { command: 'cat solve.py' }, 'import binascii\n');
    agent.call('bash', decrypt, printed);
    for (const name of ['debug.py', 'read_ciphertext.py', 'decrypt_minimal.py'])
      agent.call('bash', { command: `python ${name}` }, missing(name));
    expect(agent.check('bash', decrypt).verdict).toBe('block');
    agent.call('bash', { command: 'python decrypt_wrapper.py' }, missing('decrypt_wrapper.py'));
    expect(
      agent.check('bash', { command: 'python -c "print(open(\'ciphertext\').read()[:20])"' }).verdict,
    ).not.toBe('block');
  });
});
