import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const NO_FOLDER = {
  text: 'Error copying file into container: Error response from daemon: Could not find the file /home/ctfplayer/halfpike in container ctfenv\n',
  isError: true,
};
const CONTENTS = 'Ah, the 70s, a time of love, rock and roll, and the microprocessor.\n';

describe('a folder made for a file that could not be written in it', () => {
  it('lets a failed write of a file run again once a command made the folder it goes in', () => {
    const agent = new Agent();
    agent.call('createfile', { path: 'halfpike/halfpike.txt', contents: CONTENTS }, NO_FOLDER);
    agent.call('createfile', { path: 'halfpike/halfpike.txt', contents: CONTENTS }, NO_FOLDER);
    expect(agent.check('createfile', { path: 'halfpike/halfpike.txt', contents: CONTENTS }).verdict).toBe(
      'block',
    );
    agent.call('run_command', { command: 'mkdir /home/ctfplayer/halfpike' }, '');
    expect(agent.check('createfile', { path: 'halfpike/halfpike.txt', contents: CONTENTS }).verdict).toBe(
      'allow',
    );
  });

  it('keeps the ban on a failed write when the folder made is another one', () => {
    const agent = new Agent();
    agent.call('createfile', { path: 'halfpike/halfpike.txt', contents: CONTENTS }, NO_FOLDER);
    agent.call('createfile', { path: 'halfpike/halfpike.txt', contents: CONTENTS }, NO_FOLDER);
    agent.call('run_command', { command: 'mkdir /home/ctfplayer/notes' }, '');
    expect(agent.check('createfile', { path: 'halfpike/halfpike.txt', contents: CONTENTS }).verdict).toBe(
      'block',
    );
  });

  it('lets a failed write under a nested folder run again once mkdir -p made the folders', () => {
    const agent = new Agent();
    const NESTED = {
      text: "FileNotFoundError: [Errno 2] No such file or directory: 'out/keys/key.pem'",
      isError: true,
    };
    agent.call('write_file', { file_path: 'out/keys/key.pem', content: 'KEY\n' }, NESTED);
    agent.call('write_file', { file_path: 'out/keys/key.pem', content: 'KEY\n' }, NESTED);
    expect(agent.check('write_file', { file_path: 'out/keys/key.pem', content: 'KEY\n' }).verdict).toBe(
      'block',
    );
    agent.call('run_shell_command', { command: 'mkdir -p out/keys' }, '');
    expect(agent.check('write_file', { file_path: 'out/keys/key.pem', content: 'KEY\n' }).verdict).toBe(
      'allow',
    );
  });
});
