import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { homeDir, isPrivateFolder, temporaryDir } from '../../src/node/user-dirs.js';

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

describe.skipIf(process.platform === 'win32')('a folder private to this user', () => {
  const uid = process.getuid?.() ?? 0;
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function folder(mode: number): string {
    dir = mkdtempSync(join(tmpdir(), 'narrowing-user-dirs-'));
    const path = join(dir, 'private');
    mkdirSync(path);
    chmodSync(path, mode);
    return path;
  }

  it('is a folder of this user that nobody else may enter', () => {
    expect(isPrivateFolder(lstatSync(folder(0o700)), uid)).toBe(true);
  });

  it('is not a folder that the group or others may read', () => {
    expect(isPrivateFolder(lstatSync(folder(0o750)), uid)).toBe(false);
  });

  it('is not a folder of another user', () => {
    expect(isPrivateFolder(lstatSync(folder(0o700)), uid + 1)).toBe(false);
  });

  it('is not a link, even to a private folder', () => {
    const target = folder(0o700);
    const link = join(dir, 'link');
    symlinkSync(target, link);
    expect(isPrivateFolder(lstatSync(link), uid)).toBe(false);
  });
});
