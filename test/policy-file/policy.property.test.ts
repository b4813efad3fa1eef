import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { loadPolicyFile, PolicyError, parsePolicy } from '../../src/policy-file/index.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-policy-prop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function onlyPolicyErrors(run: () => unknown): boolean {
  try {
    run();
  } catch (error) {
    return error instanceof PolicyError;
  }
  return true;
}

/** Values shaped like policies, so that validation goes deep instead of failing at the root. */
const policyLike = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    fc.dictionary(
      fc.constantFrom(
        'preset',
        'detectors',
        'poll',
        'blockAt',
        'tools',
        'Bash',
        'kind',
        'curve',
        'x',
        '__proto__',
      ),
      tie('value'),
    ),
  ),
})).value;

describe('policy parsing on arbitrary input', () => {
  it('throws nothing but PolicyError for any value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), policyLike), (value) => onlyPolicyErrors(() => parsePolicy(value))),
    );
  });

  it('throws nothing but PolicyError for any file content', () => {
    const yamlish = fc
      .array(
        fc.oneof(fc.string(), fc.constantFrom('preset: strict', '  poll:', '- a', '&a x', '*a', '{', '---')),
      )
      .map((lines) => lines.join('\n'));
    let index = 0;
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), yamlish),
        fc.constantFrom('.yaml', '.json', ''),
        (text, extension) => {
          const path = join(dir, `policy-${index++}${extension}`);
          writeFileSync(path, text);
          return onlyPolicyErrors(() => loadPolicyFile(path));
        },
      ),
      { numRuns: 200 },
    );
  });
});
