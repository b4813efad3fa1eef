import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heldByAnotherProcess } from '../../../src/adapters/tool-call/held-lock.js';

describe('a lock another process holds', () => {
  it.each([
    'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 264 (apt-get)',
    'E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?',
    'Waiting for cache lock: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1408 (unattended-upgr)',
    'dpkg: error: dpkg frontend lock was locked by another process with pid 2217',
    'Another app is currently holding the yum lock; waiting for it to exit...',
    'Waiting for process with pid 4121 to finish.',
    'System management is locked by the application with pid 3318 (zypper).',
    'error: failed to init transaction (unable to lock database)',
    'Error: Another active Homebrew update process is already in progress.',
    '    Blocking waiting for file lock on package cache',
    'error: snap "node" has "install-snap" change in progress',
  ])('is read in %s', (text) => {
    expect(heldByAnotherProcess(text)).toBe(true);
  });

  it.each([
    'E: Unable to locate package binwalk',
    "fatal: Unable to create '/repo/.git/index.lock': File exists.",
    'bash: line 1: binwalk: command not found',
    'npm ERR! code ENOENT',
  ])('is not read in %s', (text) => {
    expect(heldByAnotherProcess(text)).toBe(false);
  });

  it('is found after megabytes of install output, in the last lines', () => {
    const output = `${'Unpacking libxcb-render-util0:amd64 (0.3.9-1build3) ...\n'.repeat(40_000)}E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 264 (apt-get)\n`;
    expect(heldByAnotherProcess(output)).toBe(true);
  });

  it('answers for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20_000 }), (text) => {
        expect(typeof heldByAnotherProcess(text)).toBe('boolean');
      }),
    );
  });
});
