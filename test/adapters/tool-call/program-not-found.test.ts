import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { programNotFound } from '../../../src/adapters/tool-call/failure-lines.js';
import { growth } from '../../growth.js';

describe('programNotFound', () => {
  it("reads bash's and sh's line for a program they could not find", () => {
    expect(programNotFound('bash: apply_patch: command not found', 'apply_patch')).toBe(true);
    expect(programNotFound('bash: line 1: apply-patch: command not found', 'apply-patch')).toBe(true);
    expect(programNotFound('/bin/sh: 1: codex-apply-patch: not found', 'codex-apply-patch')).toBe(true);
  });

  it("reads zsh's, fish's, PowerShell's and cmd's lines", () => {
    expect(programNotFound('zsh:1: command not found: vercel', 'vercel')).toBe(true);
    expect(programNotFound('(eval):1: command not found: vercel', 'vercel')).toBe(true);
    expect(programNotFound('zsh: command not found: vercel', 'vercel')).toBe(true);
    expect(programNotFound('fish: Unknown command: vercel', 'vercel')).toBe(true);
    expect(
      programNotFound(
        "apply_patch : The term 'apply_patch' is not recognized as the name of a cmdlet, function, script file, or operable program.",
        'apply_patch',
      ),
    ).toBe(true);
    expect(
      programNotFound(
        "apply_patch: The term 'apply_patch' is not recognized as a name of a cmdlet, function, script file, or executable program.",
        'apply_patch',
      ),
    ).toBe(true);
    expect(
      programNotFound("'apply_patch' is not recognized as an internal or external command,", 'apply_patch'),
    ).toBe(true);
  });

  it('reads a program run by its path, by the name the shell printed', () => {
    expect(programNotFound('bash: ./bin/apply_patch: No such file or directory', 'apply_patch')).toBe(true);
    expect(
      programNotFound(
        "~/.codex/bin/apply_patch : The term '~/.codex/bin/apply_patch' is not recognized as the name of a cmdlet",
        'apply_patch',
      ),
    ).toBe(true);
  });

  it('does not take another program missing for the one the command runs', () => {
    // A build's own step could not find its compiler: the command ran, and another program was missing.
    expect(programNotFound('make: cc1plus: command not found', 'make')).toBe(false);
    expect(programNotFound('sh: 1: node-gyp: not found', 'npm')).toBe(false);
    // Python pasted into a shell: its first line ran ImageMagick's `import`, a later line was not found.
    expect(programNotFound('bash: line 3: from: command not found', 'import')).toBe(false);
  });

  it('does not take a missing file for a missing program', () => {
    expect(programNotFound('cat: notes.md: No such file or directory', 'cat')).toBe(false);
  });

  it('never throws, and holds only for the program it is given', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,12}$/);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 80 }), (text, command) => {
        expect(typeof programNotFound(text, command)).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(name, name, (said, ran) => {
        const found = programNotFound(`bash: ${said}: command not found`, ran);
        expect(found).toBe(said === ran);
      }),
    );
  });
});

describe('programNotFound on long and hostile outputs', () => {
  it('reads a long output for the shell line at its head or its tail', () => {
    const log = 'npm warn deprecated inflight@1.0.6\n'.repeat(2_000);
    expect(programNotFound(`bash: vercel: command not found\n${log}`, 'vercel')).toBe(true);
    expect(programNotFound(`${log}bash: vercel: command not found`, 'vercel')).toBe(true);
  });

  it('reads lines of letters with no end it looks for once', async () => {
    const output = (scale: number) =>
      `${`${'a'.repeat(sizes(scale))}sh: ${'b'.repeat(sizes(scale))} not found\n`.repeat(4)}`;
    expect(await growth((scale) => programNotFound(output(scale), 'x'), 16)).toBeLessThan(64);
  });
});

function sizes(scale: number): number {
  return 200 * scale;
}
