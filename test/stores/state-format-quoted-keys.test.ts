/**
 * A state written by the build before a quoted word holding a blank was kept one word in a
 * command's attempt key (`npm test -- --grep "login redirect"` was keyed as if `login` and
 * `redirect` were two words): it opens and keeps blocking what it blocked.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Constraint } from '../../src/core/types.js';
import { openGuardSync } from '../../src/guard/open.js';
import { temporaryDir } from './sample-state.js';

/** The state directory the earlier build wrote after the command below failed twice. */
const EARLIER_FIXTURE = join(import.meta.dirname, '../fixtures/stores/state-v3-quoted');
/** Within the lifetime of the fixture's ban. */
const CLOCK = { now: () => 1_764_000_100_000 };
/** The project's manifest the ban was pinned to (a missing script is about it). */
const PACKAGE_JSON = '{\n  "name": "orders-api",\n  "scripts": {\n    "build": "tsc -p ."\n  }\n}\n';
const QUOTED = { tool: 'Bash', args: { command: 'npm test -- --grep "login redirect"' } };

let dir: string;
let remove: () => void;
let project: string;
beforeEach(() => {
  ({ dir, remove } = temporaryDir());
  project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), PACKAGE_JSON);
});
afterEach(() => remove());

const open = () =>
  openGuardSync({
    workspaceRoot: project,
    stateDir: join(dir, 'state'),
    journal: false,
    context: false,
    clock: CLOCK,
    onProblem: () => undefined,
  });

describe('a state file written before a quoted word with a blank was kept one word', () => {
  it('keeps blocking the command it blocked', async () => {
    cpSync(EARLIER_FIXTURE, join(dir, 'state'), { recursive: true });
    const guard = open();
    try {
      expect(guard.check(QUOTED).verdict).toBe('block');
    } finally {
      await guard.close();
    }
  });

  it('keys the ban anew once found, and the next process finds it by the new key', async () => {
    cpSync(EARLIER_FIXTURE, join(dir, 'state'), { recursive: true });
    const first = open();
    first.check(QUOTED);
    await first.close();
    const saved: Constraint[] = JSON.parse(
      readFileSync(join(dir, 'state', 'state.json'), 'utf8'),
    ).constraints;
    expect(saved.find((ban) => ban.target === QUOTED.args.command)?.keyHash).toBe(3);
    const second = open();
    try {
      expect(second.check(QUOTED).verdict).toBe('block');
    } finally {
      await second.close();
    }
  });
});
