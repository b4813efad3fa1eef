/**
 * A state written by the build before a quoted word holding a blank was kept one word in a
 * command's attempt key (`npm test -- --grep "login redirect"` was keyed as if `login` and
 * `redirect` were two words): it opens and keeps blocking what it blocked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openGuardSync } from '../../src/guard/open.js';
import { type EarlierBuildProject, earlierBuildProject, earlierState } from './earlier-build.js';

/** The state directory the earlier build wrote after the command below failed twice. */
const EARLIER_FIXTURE = earlierState('state-v3-quoted');
const QUOTED = { tool: 'Bash', args: { command: 'npm test -- --grep "login redirect"' } };

let project: EarlierBuildProject;
beforeEach(() => {
  project = earlierBuildProject();
});
afterEach(() => project.remove());

const open = () => openGuardSync(project.options({ stateDir: project.stateDir }));

describe('a state file written before a quoted word with a blank was kept one word', () => {
  it('keeps blocking the command it blocked', async () => {
    project.copyState(EARLIER_FIXTURE);
    const guard = open();
    try {
      expect(guard.check(QUOTED).verdict).toBe('block');
    } finally {
      await guard.close();
    }
  });

  it('keys the ban anew once found, and the next process finds it by the new key', async () => {
    project.copyState(EARLIER_FIXTURE);
    const first = open();
    first.check(QUOTED);
    await first.close();
    expect(project.savedBans().find((ban) => ban.target === QUOTED.args.command)?.keyHash).toBe(3);
    const second = open();
    try {
      expect(second.check(QUOTED).verdict).toBe('block');
    } finally {
      await second.close();
    }
  });
});
