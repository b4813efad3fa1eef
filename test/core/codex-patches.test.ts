/**
 * Codex edits a file with a patch (`*** Begin Patch`), and its tool refuses one whose lines are not
 * in the file: `apply_patch verification failed: Failed to find expected lines in FILE:` and the
 * lines. Such a patch wrote nothing: the agent is where it was before it.
 */
import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const FILE = 'crypto-wallet-backend/internal/domain/entities/user.go';
const ON_DISK = '/home/dev/crypto-wallet/crypto-wallet-backend/internal/domain/entities/user.go';
const SOURCE = 'package entities\n\nfunc (u *User) IsEmailVerified() bool {\n\treturn u.emailVerified\n}\n';

/** A patch of the file expecting `expected` there, to put `added` in its place. */
function patch(expected: string, added: string): Record<string, unknown> {
  return { input: `*** Begin Patch\n*** Update File: ${FILE}\n@@\n-${expected}\n+${added}\n*** End Patch` };
}

/** Codex's refusal of a patch whose `expected` line is not in the file. */
function notFound(expected: string) {
  return {
    text: `apply_patch verification failed: Failed to find expected lines in ${ON_DISK}:\n${expected}`,
    isError: true,
  };
}

const MISSING = '\treturn u.isVerified';

describe('a Codex patch whose lines are not in the file', () => {
  it('lets through a patch that expects other lines of the file', () => {
    const agent = new Agent();
    agent.call('apply_patch', patch(MISSING, '\treturn true'), notFound(MISSING));
    const other = agent.call('apply_patch', patch('\treturn u.emailVerified', '\treturn true'), 'Success.');
    expect(other.check.verdict).toBe('allow');
  });

  it('lets the patch through again once the file changed', () => {
    const agent = new Agent();
    agent.call('apply_patch', patch(MISSING, '\treturn true'), notFound(MISSING));
    agent.call(
      'apply_patch',
      patch('\treturn u.emailVerified', MISSING),
      `Success. Updated the following files:\nM ${FILE}`,
    );
    expect(agent.check('apply_patch', patch(MISSING, '\treturn true')).verdict).toBe('allow');
  });

  it('counts the file read again after it as a repeat: the patch changed nothing', () => {
    const agent = new Agent();
    const read = { file_path: FILE };
    const verdicts = [
      agent.call('read_file', read, SOURCE).check.verdict,
      agent.call('read_file', read, SOURCE).check.verdict,
      agent.call('read_file', read, SOURCE).check.verdict,
    ];
    agent.call('apply_patch', patch(MISSING, '\treturn true'), notFound(MISSING));
    verdicts.push(agent.call('read_file', read, SOURCE).check.verdict);
    verdicts.push(agent.call('read_file', read, SOURCE).check.verdict);
    expect(verdicts).toEqual(['allow', 'allow', 'warn', 'warn', 'block']);
  });
});
