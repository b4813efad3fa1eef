import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalHeadPath } from '../../src/audit/index.js';
import { defaultStateDir, findProjectRoot, hostProjectDir, stateLayout } from '../../src/node/index.js';
import { temporaryDir } from '../stores/sample-state.js';

describe('state layout', () => {
  it('keeps state in .narrowing inside the project', () => {
    expect(defaultStateDir('/home/dev/api')).toBe(join('/home/dev/api', '.narrowing'));
  });

  it('names the state file, the journal and a head file the journal itself would find', () => {
    const layout = stateLayout(join('/home/dev/api', '.narrowing'));
    expect(layout).toEqual({
      dir: join('/home/dev/api', '.narrowing'),
      state: join('/home/dev/api', '.narrowing', 'state.json'),
      journal: join('/home/dev/api', '.narrowing', 'journal.jsonl'),
      journalHead: join('/home/dev/api', '.narrowing', 'journal.head.json'),
    });
    expect(journalHeadPath(layout.journal)).toBe(layout.journalHead);
  });
});

const posix = process.platform !== 'win32';
let root: string;
let remove: () => void;
const savedHome = process.env.HOME;

beforeEach(() => {
  ({ dir: root, remove } = temporaryDir());
});

afterEach(() => {
  process.env.HOME = savedHome;
  remove();
});

/** A folder under the temporary root, created with its parents. */
function folder(...parts: string[]): string {
  const path = join(root, ...parts);
  mkdirSync(path, { recursive: true });
  return path;
}

describe('finding a project state directory', () => {
  it('shares the state of the checkout root from a subfolder', () => {
    const repo = folder('repo');
    folder('repo', '.git');
    folder('repo', 'src', 'api');
    expect(defaultStateDir(join(repo, 'src', 'api'))).toBe(join(repo, '.narrowing'));
  });

  it('takes a state directory between the working folder and the checkout root', () => {
    const repo = folder('repo');
    folder('repo', '.git');
    folder('repo', 'packages', 'web', '.narrowing');
    expect(defaultStateDir(folder('repo', 'packages', 'web', 'src'))).toBe(
      join(repo, 'packages', 'web', '.narrowing'),
    );
  });

  it('never takes a .narrowing above the git root', () => {
    folder('.narrowing');
    const repo = folder('shared', 'repo');
    folder('shared', 'repo', '.git');
    expect(defaultStateDir(folder('shared', 'repo', 'src'))).toBe(join(repo, '.narrowing'));
  });

  it('takes no .narrowing from a parent folder outside a checkout', () => {
    const stray = folder('.narrowing');
    chmodSync(stray, 0o777);
    const work = folder('scratch', 'work');
    expect(defaultStateDir(work)).toBe(join(work, '.narrowing'));
  });

  it('stops at the project folder the host names', () => {
    const project = folder('project');
    folder('.git');
    folder('.narrowing');
    expect(findProjectRoot(folder('project', 'lib'), { projectDir: project })).toBe(project);
  });

  it('takes the host project folder when the payload cwd is the file system root', () => {
    const project = folder('project');
    expect(defaultStateDir('/', { projectDir: project })).toBe(join(project, '.narrowing'));
  });

  it('refuses to keep state at the file system root', () => {
    expect(() => defaultStateDir('/')).toThrow(expect.objectContaining({ code: 'NO_PROJECT_ROOT' }));
  });

  it('refuses to keep state at the root of a home directory', () => {
    process.env.HOME = folder('home', 'dev');
    expect(() => defaultStateDir(process.env.HOME as string)).toThrow(
      expect.objectContaining({ code: 'NO_PROJECT_ROOT' }),
    );
  });

  it('keeps a project in a home directory under version control apart from the home state', () => {
    const home = folder('home', 'dev');
    process.env.HOME = home;
    folder('home', 'dev', '.git');
    folder('home', 'dev', '.narrowing');
    const project = folder('home', 'dev', 'notes');
    expect(defaultStateDir(project)).toBe(join(project, '.narrowing'));
  });

  it.runIf(posix)('refuses a found state directory others can write in', () => {
    const repo = folder('repo');
    folder('repo', '.git');
    chmodSync(folder('repo', '.narrowing'), 0o777);
    expect(() => defaultStateDir(repo)).toThrow(
      expect.objectContaining({ code: 'UNSAFE_STATE_DIR', message: expect.stringContaining('chmod 700') }),
    );
  });

  it.runIf(posix && process.getuid?.() === 0)('refuses a found state directory another user owns', () => {
    const repo = folder('repo');
    folder('repo', '.git');
    chownSync(folder('repo', '.narrowing'), 4242, 4242);
    expect(() => defaultStateDir(repo)).toThrow(
      expect.objectContaining({ code: 'UNSAFE_STATE_DIR', message: expect.stringContaining('another user') }),
    );
  });

  it.runIf(posix && process.getuid?.() === 0)(
    'ignores a .git another user planted in a parent folder',
    () => {
      const planted = folder('.git');
      chownSync(planted, 4242, 4242);
      const work = folder('work');
      expect(findProjectRoot(join(work))).toBe(work);
      expect(findProjectRoot(folder('work', 'src'))).toBe(join(work, 'src'));
    },
  );

  it('reads the project folder from the variables agent hosts set', () => {
    expect(hostProjectDir({ CLAUDE_PROJECT_DIR: '/srv/api' })).toBe('/srv/api');
    expect(hostProjectDir({ GEMINI_PROJECT_DIR: '/srv/web' })).toBe('/srv/web');
    expect(hostProjectDir({ CLAUDE_PROJECT_DIR: 'relative/dir' })).toBeUndefined();
    expect(hostProjectDir({ CLAUDE_PROJECT_DIR: '/' })).toBeUndefined();
  });
});
