import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

const PATHSPEC = {
  text: "fatal: pathspec 'docs/prior-chat.md' did not match any files",
  isError: true,
};
const LISTING = 'total 24\n-rw-r--r--  1 dev  staff  6001 Jul 17 15:01 prior-chat.md\n';

describe('a move of the working directory in a line that then only looks', () => {
  it.each(['run_terminal_cmd', 'Bash', 'run_shell_command'])(
    'lets a command on a relative path run again after `cd .. && ls` (%s)',
    (tool) => {
      const agent = new Agent();
      agent.call(tool, { command: 'git add docs/prior-chat.md docs/Context.md' }, PATHSPEC);
      expect(agent.check(tool, { command: 'git add docs/prior-chat.md docs/Context.md' }).verdict).toBe(
        'block',
      );
      agent.call(tool, { command: 'cd .. && ls -la docs/' }, LISTING);
      expect(agent.check(tool, { command: 'git add docs/prior-chat.md docs/Context.md' }).verdict).toBe(
        'allow',
      );
    },
  );

  it('keeps the ban when the line only looks, without moving', () => {
    const agent = new Agent();
    agent.call('Bash', { command: 'git add docs/prior-chat.md docs/Context.md' }, PATHSPEC);
    agent.call('Bash', { command: 'ls -la docs/' }, LISTING);
    expect(agent.check('Bash', { command: 'git add docs/prior-chat.md docs/Context.md' }).verdict).toBe(
      'block',
    );
  });

  it('keeps the ban on a command that names only absolute paths', () => {
    const agent = new Agent();
    const absent = {
      text: "fatal: pathspec '/srv/app/docs/notes.md' did not match any files",
      isError: true,
    };
    agent.call('Bash', { command: 'git add /srv/app/docs/notes.md' }, absent);
    agent.call('Bash', { command: 'cd .. && ls -la' }, LISTING);
    expect(agent.check('Bash', { command: 'git add /srv/app/docs/notes.md' }).verdict).toBe('block');
  });
});

describe('a move to where the last move went', () => {
  const MISSING = { text: 'chmod: scripts/check.sh: No such file or directory', isError: true };
  const CHMOD = { command: 'chmod +x scripts/check.sh' };
  const ROOT = '/Users/dev/shop';

  it.each(['run_terminal_cmd', 'Bash', 'run_shell_command'])(
    'changes nothing: the failing command on a relative path stays blocked (%s)',
    (tool) => {
      const agent = new Agent();
      agent.call(tool, { command: `cd ${ROOT}` }, '');
      agent.call(tool, CHMOD, MISSING);
      agent.call(tool, { command: `cd ${ROOT} && pwd` }, ROOT);
      expect(agent.check(tool, CHMOD).verdict).toBe('block');
    },
  );

  it('still lets the command run again after a move to another place', () => {
    const agent = new Agent();
    agent.call('Bash', { command: `cd ${ROOT}` }, '');
    agent.call('Bash', CHMOD, MISSING);
    agent.call('Bash', { command: `cd ${ROOT}/frontend && pwd` }, `${ROOT}/frontend`);
    expect(agent.check('Bash', CHMOD).verdict).toBe('allow');
  });

  it('is a move again after a line that went somewhere it did not name in full', () => {
    const agent = new Agent();
    agent.call('Bash', { command: `cd ${ROOT}` }, '');
    agent.call('Bash', { command: 'cd frontend && npm test' }, 'Tests: 12 passed, 12 total');
    agent.call('Bash', CHMOD, MISSING);
    agent.call('Bash', { command: `cd ${ROOT} && pwd` }, ROOT);
    expect(agent.check('Bash', CHMOD).verdict).toBe('allow');
  });
});

describe('a move that answers nothing, to where the last move went', () => {
  const ARCHIVE = { command: 'tar xzf bdos.tar.gz' };
  const CANNOT_OPEN = {
    text: 'tar (child): bdos.tar.gz: Cannot open: No such file or directory\ntar (child): Error is not recoverable: exiting now\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\n',
    isError: true,
  };

  it.each(['run_command', 'bash', 'Bash'])(
    'is a move again: the command on a relative path that failed gets its retry (%s)',
    (tool) => {
      const agent = new Agent();
      agent.call(tool, { command: 'cd ~/ctf_files' }, '');
      agent.call(tool, ARCHIVE, CANNOT_OPEN);
      expect(agent.check(tool, ARCHIVE).verdict).toBe('block');
      agent.call(tool, { command: 'cd ~/ctf_files' }, '');
      expect(agent.check(tool, ARCHIVE).verdict).toBe('allow');
    },
  );

  it('blocks the command again once its retry failed the same way with no move since', () => {
    const agent = new Agent();
    agent.call('run_command', { command: 'cd ~/ctf_files' }, '');
    agent.call('run_command', ARCHIVE, CANNOT_OPEN);
    agent.call('run_command', { command: 'cd ~/ctf_files' }, '');
    agent.call('run_command', ARCHIVE, CANNOT_OPEN);
    expect(agent.check('run_command', ARCHIVE).verdict).toBe('block');
  });
});

describe('a line that moves before running more', () => {
  const TYPECHECK = { command: 'pnpm run typecheck 2>&1', description: 'Run typecheck' };
  const NO_SCRIPT = {
    text: 'Exit code 1\n\u2009ERR_PNPM_NO_SCRIPT\u2009 Missing script: typecheck\n\nCommand "typecheck" not found.',
    isError: true,
  };
  const CHECKED = '> nextmavens-dashboard@1.0.0 typecheck /home/dev/platform/apps/dashboard\n> tsc --noEmit';

  it.each(['apps/dashboard', '/home/dev/platform/apps/dashboard'])(
    'lets the bare command run again after `cd %s && the same command`',
    (place) => {
      const agent = new Agent();
      agent.call('Bash', TYPECHECK, NO_SCRIPT);
      expect(agent.check('Bash', TYPECHECK).verdict).toBe('block');
      agent.call(
        'Bash',
        { command: `cd ${place} && pnpm run typecheck 2>&1`, description: 'Typecheck the dashboard' },
        CHECKED,
      );
      expect(agent.check('Bash', TYPECHECK).verdict).toBe('allow');
    },
  );

  it('still blocks the same `cd build && make` line failing again and again', () => {
    const agent = new Agent();
    const MAKE = { command: 'cd build && make', description: 'Build' };
    const NO_MAKEFILE = {
      text: 'Exit code 2\nmake: *** No targets specified and no makefile found.  Stop.',
      isError: true,
    };
    agent.call('Bash', { command: 'cd build && cmake ..' }, '-- Configuring done\n-- Generating done');
    agent.call('Bash', MAKE, NO_MAKEFILE);
    agent.call('Bash', MAKE, NO_MAKEFILE);
    expect(agent.check('Bash', MAKE).verdict).toBe('block');
  });

  it('is no move when it goes where the last such line went: a bare failure stays blocked', () => {
    const agent = new Agent();
    const LINT = { command: 'npm run lint' };
    const NO_LINT = {
      text: 'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run',
      isError: true,
    };
    agent.call('Bash', { command: 'cd frontend && npm ci' }, 'added 312 packages in 9s');
    agent.call('Bash', LINT, NO_LINT);
    agent.call('Bash', { command: 'cd frontend && mkdir -p src/components/cart' }, '');
    expect(agent.check('Bash', LINT).verdict).toBe('block');
  });

  it('keeps a ban on a command that names only absolute paths', () => {
    const agent = new Agent();
    const SEED = { command: 'node /srv/app/scripts/seed.js' };
    const NO_MODULE = {
      text: "node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '/srv/app/scripts/seed.js'",
      isError: true,
    };
    agent.call('Bash', SEED, NO_MODULE);
    agent.call('Bash', { command: 'cd frontend && git log --oneline -3' }, 'a1b2c3d Add seed data\n');
    expect(agent.check('Bash', SEED).verdict).toBe('block');
  });
});

describe('the same line that moves and answers nothing, right after itself', () => {
  const NO_OP = { command: ['bash', '-lc', 'cd /home/dev/shop && true'], workdir: '/home/dev/shop' };
  const EMPTY = 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\n';

  it('is no move when it names its place from the root: run again and again, it is blocked', () => {
    const verdicts = new Agent().repeat(8, 'shell', NO_OP, EMPTY);
    expect(verdicts.slice(0, 3)).toEqual(['allow', 'allow', 'allow']);
    expect(verdicts).toContain('block');
  });

  it('is a move again each time when its place is relative: a shell that keeps its directory goes deeper', () => {
    const deeper = { command: ['bash', '-lc', 'cd build && true'], workdir: '/home/dev/shop' };
    expect(new Agent().repeat(8, 'shell', deeper, EMPTY)).not.toContain('block');
  });
});
