import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { programGoneUnderCall } from '../../../src/adapters/tool-call/gone-program.js';
import { failureOf } from './helpers.js';

describe('a program gone from under a command', () => {
  it('is a path the shell could not run that the command never named', () => {
    const text = 'bash: /usr/local/bin/node: No such file or directory';
    expect(programGoneUnderCall(text, { command: 'npm test' })).toBe(true);
    expect(
      programGoneUnderCall(`/bin/sh: line 1: /opt/venv/bin/python: No such file or directory`, {
        command: 'make test',
      }),
    ).toBe(true);
  });

  it('is not a path the command named, by its whole path or its file name', () => {
    const text = 'bash: /app/scripts/run.sh: No such file or directory';
    expect(programGoneUnderCall(text, { command: 'bash /app/scripts/run.sh' })).toBe(false);
    expect(programGoneUnderCall(text, { command: 'cd /app/scripts && ./run.sh' })).toBe(false);
  });

  it('is not a missing file a program other than the shell reports', () => {
    const text = 'cat: /etc/app/config.yaml: No such file or directory';
    expect(programGoneUnderCall(text, { command: 'npm run start' })).toBe(false);
  });

  it('blames the environment for it, and the agent for the path it named', () => {
    const gone = failureOf(
      'Bash',
      { command: 'npm test' },
      'bash: /usr/local/bin/node: No such file or directory',
    );
    expect(gone).toMatchObject({ blame: 'harness_fault' });
    const named = failureOf(
      'Bash',
      { command: 'bash /app/run.sh' },
      'bash: /app/run.sh: No such file or directory',
    );
    expect(named).toMatchObject({ signature: 'file_not_found', blame: 'agent_failure' });
  });

  it('reads any text and any arguments without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), fc.dictionary(fc.string(), fc.jsonValue()), (text, args) => {
        expect(typeof programGoneUnderCall(`bash: /${text}: No such file or directory\n${text}`, args)).toBe(
          'boolean',
        );
      }),
    );
  });
});
