import { describe, expect, it } from 'vitest';
import { isNarrowingError } from '../../src/core/errors.js';
import type { Outcome, Proposal } from '../../src/core/types.js';
import { openGuardSync } from '../../src/guard/open.js';
import { cleanupsAfterEach, tempDir } from '../mcp/support/harness.js';

const cleanups = cleanupsAfterEach();
const quiet = () => undefined;
const report: Proposal = { tool: 'read_file', args: { path: 'report.txt' } };
const reportMissing: Outcome = {
  proposal: report,
  success: false,
  content: "ENOENT: no such file or directory, open 'report.txt'",
};

/** A guard on its own state folder, as a server opens one for all its users. */
function serverGuard(options: { scope?: string; stateDir?: string } = {}) {
  let stateDir = options.stateDir;
  if (stateDir === undefined) {
    const dir = tempDir();
    cleanups.push(dir.remove);
    stateDir = dir.path;
  }
  const guard = openGuardSync({ stateDir, probe: false, onProblem: quiet, ...options });
  cleanups.push(() => guard.close());
  return { guard, stateDir };
}

function failFor(guard: { check(p: Proposal): unknown; record(o: Outcome): unknown }) {
  guard.check(report);
  guard.record(reportMissing);
}

describe('one guard serving several users through scopes', () => {
  it("never refuses user B's first call because user A's identical call failed", () => {
    const { guard } = serverGuard();
    failFor(guard.scope('alice'));
    expect(guard.scope('bob').check(report).verdict).toBe('allow');
  });

  it("still blocks user A's second identical call after it failed", () => {
    const { guard } = serverGuard();
    failFor(guard.scope('alice'));
    guard.scope('bob').check(report);
    const again = guard.scope('alice').check(report);
    expect(again.verdict).toBe('block');
  });

  it('keeps each scope apart in the state folder, for a guard opened on it later', async () => {
    const { guard, stateDir } = serverGuard();
    failFor(guard.scope('alice'));
    await guard.close();
    const later = serverGuard({ stateDir }).guard;
    expect(later.scope('bob').check(report).verdict).toBe('allow');
    expect(later.scope('alice').check(report).verdict).toBe('block');
  });

  it('applies what the guard learned outside any scope to every scope', () => {
    const { guard } = serverGuard();
    failFor(guard);
    expect(guard.scope('bob').check(report).verdict).toBe('block');
  });

  it('gives the same session for the same scope, and refuses an empty scope', () => {
    const { guard } = serverGuard();
    expect(guard.scope('alice')).toBe(guard.scope('alice'));
    let error: unknown;
    try {
      guard.scope('');
    } catch (caught) {
      error = caught;
    }
    expect(isNarrowingError(error) && error.code).toBe('USAGE');
  });
});

describe('separate guards of several users on one state folder', () => {
  it("never refuse user B's first call because user A's identical call failed", async () => {
    const { guard: alice, stateDir } = serverGuard({ scope: 'alice' });
    failFor(alice);
    await alice.close();
    expect(serverGuard({ stateDir, scope: 'bob' }).guard.check(report).verdict).toBe('allow');
    expect(serverGuard({ stateDir, scope: 'alice' }).guard.check(report).verdict).toBe('block');
  });
});
