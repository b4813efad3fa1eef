import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const CANNOT_OPEN = { text: "\u001b[31mERROR:\u001b[0m Cannot open 'flag.txt'\n", isError: true };
const STOPPED = {
  text: 'Error response from daemon: Container b6503cc0cbca78f2008fae224bb6eadb843b12b36a1c035f934f63b75d81de40 is not running\n',
  isError: true,
};
const GONE = { text: 'Error response from daemon: No such container: ctfenv\n', isError: true };
const R2 = { command: 'r2 -i ~/ctf_files/welcome2.r2 -q flag.txt' };

describe('a sandbox lost under the agent', () => {
  it('sets aside a failure learned in the sandbox that then vanished', () => {
    const agent = new Agent();
    agent.call('run_command', R2, CANNOT_OPEN);
    agent.call(
      'run_command',
      { command: 'ls -l /tmp' },
      'total 8\n-rw-r--r-- 1 ctfplayer ctfplayer 61 ctf_web.log\n',
    );
    agent.call('run_command', { command: 'find / -name "welcome2.r2" 2>/dev/null' }, STOPPED);
    agent.call('run_command', { command: 'find / -name "welcome2.r2" 2>/dev/null' }, GONE);
    expect(agent.check('run_command', R2).verdict).not.toBe('block');
  });

  it('still blocks the same failure repeated while the sandbox stays up', () => {
    const agent = new Agent();
    agent.call('run_command', R2, CANNOT_OPEN);
    agent.call(
      'run_command',
      { command: 'ls -l /tmp' },
      'total 8\n-rw-r--r-- 1 ctfplayer ctfplayer 61 ctf_web.log\n',
    );
    expect(agent.check('run_command', R2).verdict).toBe('block');
  });

  it('keeps a failure when the agent asked for a container by a name that does not exist', () => {
    const agent = new Agent();
    agent.call('run_command', R2, CANNOT_OPEN);
    agent.call(
      'run_command',
      { command: 'docker logs shop-backend-1' },
      {
        text: 'Error response from daemon: No such container: shop-backend-1\n',
        isError: true,
      },
    );
    expect(agent.check('run_command', R2).verdict).toBe('block');
  });

  it('bans the same failure again at once when the sandbox is back and the call fails as before', () => {
    const agent = new Agent();
    agent.call('run_command', R2, CANNOT_OPEN);
    agent.call('run_command', { command: 'uname -a' }, GONE);
    agent.call('run_command', R2, CANNOT_OPEN);
    expect(agent.check('run_command', R2).verdict).toBe('block');
  });

  it('takes the answers of a sandbox that stays lost for one loss, so guesses made meanwhile still count', () => {
    const agent = new Agent();
    const named = { text: 'Error response from daemon: No such container: ctfenv\n', isError: true };
    agent.call('run_command', { command: 'curl -s http://ctfenv:8000' }, STOPPED);
    agent.call('run_command', { command: 'docker ps -a' }, GONE);
    agent.call('run_command', { command: 'docker run -d -p 8000:8000 --name ctfenv httpd:2.4' }, named);
    agent.call('run_command', { command: 'docker run -d -p 8000:80 --name ctfenv httpd:2.4' }, named);
    agent.call(
      'run_command',
      { command: 'docker run -d -p 8000:80 --name ctfenv python:3 -m http.server 80' },
      named,
    );
    agent.call('run_command', { command: 'docker ps -a' }, GONE);
    agent.call(
      'run_command',
      { command: 'docker run -d -p 8000:8000 --name ctfenv python3 -m http.server 8000' },
      named,
    );
    const verdicts = [
      agent.call(
        'run_command',
        { command: 'docker run -d -p 8000:80 --name ctfenv python3 -m http.server 80' },
        named,
      ),
      agent.call('run_command', { command: 'docker run -d -p 8080:80 --name ctfenv nginx' }, named),
    ].map((step) => step.check.verdict);
    expect(verdicts).toContain('block');
  });
});
