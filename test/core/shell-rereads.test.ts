import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const LISTING = 'encrypt.py\npublic-key.txt\nshark2.pcapng\n';
const KEY =
  'n1: 15192492059814175574941055248891268822162533520576381643453916855435310880285336743521199057\ne: 65537\n';
const SCRIPT =
  "#!/usr/bin/env python3\n\nfrom Crypto.Util.number import getPrime, bytes_to_long\n\nwith open('flag.txt', 'rb') as f:\n    flag = f.read()\n";
const MISSING = { text: 'cat: encrypt.txt: No such file or directory\n', isError: true };

/** An agent that looked at a task's files, tried something, and starts looking at them all again. */
function lookedAround(agent: Agent): void {
  agent.call('bash', { command: 'ls' }, LISTING);
  agent.call('bash', { command: 'cat public-key.txt' }, KEY);
  agent.call('bash', { command: 'cat encrypt.py' }, SCRIPT);
  agent.call('bash', { command: 'cat encrypt.txt' }, MISSING);
}

/** Commands run between the first reads and the reads again, with what each printed. */
type Between = readonly (readonly [string, string])[];

/** The verdict on the third file read again, after `between` ran and two reads came back as before. */
function thirdReadAgainAfter(between: Between): string {
  const agent = new Agent();
  lookedAround(agent);
  for (const [command, printed] of between) agent.call('bash', { command }, printed);
  agent.call('bash', { command: 'ls' }, LISTING);
  agent.call('bash', { command: 'cat public-key.txt' }, KEY);
  return agent.check('bash', { command: 'cat encrypt.py' }).verdict;
}

describe('a shell agent reading again what it has read, with nothing changed', () => {
  it('blocks the third file read again in a row when each came back as before', () => {
    const agent = new Agent();
    lookedAround(agent);
    expect(agent.call('bash', { command: 'ls' }, LISTING).check.verdict).toBe('allow');
    expect(agent.call('bash', { command: 'cat public-key.txt' }, KEY).check.verdict).toBe('allow');
    expect(agent.check('bash', { command: 'cat encrypt.py' }).verdict).toBe('block');
  });

  it('still blocks the third read again when the branch and the remotes were only listed in between', () => {
    const between: Between = [
      ['git branch --show-current', 'main\n'],
      ['git remote -v', 'origin\tgit@example.com:ctf/shark.git (fetch)\n'],
    ];
    expect(thirdReadAgainAfter(between)).toBe('block');
  });

  it('lets the reads run again once a branch was created', () => {
    expect(thirdReadAgainAfter([['git branch solve', '']])).toBe('allow');
  });

  it('lets the reads run again once a command may have changed the files', () => {
    expect(thirdReadAgainAfter([['python3 encrypt.py', 'done\n']])).toBe('allow');
  });

  it('lets a read of a file run again after an editor tool changed it', () => {
    const agent = new Agent();
    lookedAround(agent);
    agent.call('bash', { command: 'ls' }, LISTING);
    agent.call('bash', { command: 'cat public-key.txt' }, KEY);
    agent.call(
      'str_replace_based_edit_tool',
      { command: 'str_replace', path: 'encrypt.py', old_str: 'getPrime', new_str: 'getStrongPrime' },
      'The file encrypt.py has been edited.',
    );
    expect(agent.check('bash', { command: 'cat encrypt.py' }).verdict).toBe('allow');
  });

  it('leaves commands that watch processes and services alone, whose answers change with time', () => {
    const agent = new Agent();
    const ps = 'CONTAINER ID   IMAGE   STATUS\n3f2a1b   app     Up 2 minutes\n';
    agent.call('bash', { command: 'docker ps' }, ps);
    agent.call('bash', { command: 'kubectl get pods' }, 'NAME  READY  STATUS\napi-0  0/1  Pending\n');
    agent.call('bash', { command: 'uptime' }, ' 10:00:00 up 3 days,  load average: 1.0\n');
    agent.call('bash', { command: 'docker ps' }, ps);
    agent.call('bash', { command: 'kubectl get pods' }, 'NAME  READY  STATUS\napi-0  0/1  Pending\n');
    expect(agent.check('bash', { command: 'uptime' }).verdict).toBe('allow');
  });
});
