import { homedir, tmpdir } from 'node:os';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { homeDir, temporaryDir } from '../../src/node/user-dirs.js';

const NAMES = ['TMPDIR', 'TMP', 'TEMP', 'HOME'] as const;
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));

afterEach(() => {
  for (const name of NAMES) {
    const value = saved[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Unset, empty, or a path with or without trailing slashes. */
const variable = fc.option(
  fc.constantFrom('', '/', '//', '/tmp', '/var/tmp/', '/srv/cache//', 'relative/dir/', '/home/dev'),
  { nil: undefined },
);

function setVariables(values: Readonly<Record<string, string | undefined>>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

describe.skipIf(process.platform === 'win32')('the temporary and home folders read without node:os', () => {
  it('are the folders os.tmpdir() and os.homedir() give, whatever the variables hold', () => {
    fc.assert(
      fc.property(variable, variable, variable, variable, (TMPDIR, TMP, TEMP, HOME) => {
        setVariables({ TMPDIR, TMP, TEMP, HOME });
        expect(temporaryDir()).toBe(tmpdir());
        expect(homeDir()).toBe(homedir());
      }),
      { numRuns: 300 },
    );
  });
});
