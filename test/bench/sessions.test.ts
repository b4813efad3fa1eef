import { describe, expect, it } from 'vitest';
import {
  consecutiveTimeouts,
  fileStoreInNewProcess,
  mixedBlame,
  runSessionsBench,
  snapshotRestore,
} from '../../bench/sessions.js';
import { formatSessions } from '../../bench/sessions-command.js';
import {
  failedCalls,
  ManualClock,
  MockWorkspace,
  runCalls,
  SESSION_ONE,
} from '../../bench/sessions-workload.js';

describe('the scripted workspace', () => {
  it('fails the calls a real workspace would fail, and lets the type error be fixed by an edit', () => {
    const steps = runCalls(SESSION_ONE, new MockWorkspace(), undefined, new ManualClock(0));
    const failing = failedCalls(steps).map((call) => call.args.path ?? call.args.command);
    expect(failing).toEqual([
      'src/policy-file/production.ts',
      'src/policy-file/development.ts',
      'src/policy-file/default.ts',
      'npx tsc --noEmit',
      'npm run migrate',
      'docs/DEPLOY.md',
      'git checkout -b fix/port-config',
      'node scripts/seed.js',
      '.env.production',
    ]);
    const typecheck = steps.filter((step) => step.args.command === 'npx tsc --noEmit');
    expect(typecheck.map((step) => step.ok)).toEqual([false, true]);
  });
});

describe('narrowing bench sessions', () => {
  it('restores session 1 snapshot into session 2, which reruns none of the learned failures', () => {
    const check = snapshotRestore();
    expect(check.pass).toBe(true);
    expect(check.figures).toMatchObject({ rediscovered: 0, falseBlocks: 0, nowSucceeding: 1 });
    expect(check.figures.learned).toBeGreaterThan(0);
    expect(check.figures.rediscoveredVanilla).toBe(check.figures.learned);
  });

  it('carries learned file and edit failures to a new process through the default file store', async () => {
    const check = await fileStoreInNewProcess();
    expect(check.pass).toBe(true);
    expect(check.figures).toMatchObject({ rediscovered: 0, falseBlocks: 0, storeProblems: 0 });
    expect(check.figures.loaded).toBe(check.figures.persisted);
    expect(check.figures.rediscoveredVanilla).toBeGreaterThan(0);
  });

  it('learns nothing from ten consecutive timeouts and still lets the next attempt through', () => {
    const check = consecutiveTimeouts();
    expect(check.pass).toBe(true);
    expect(check.figures).toMatchObject({
      timeouts: 10,
      constraintsSeeded: 0,
      activeConstraints: 0,
      persisted: 0,
    });
    expect(check.figures.eleventhVerdict).not.toBe('block');
  });

  it('seeds constraints only from agent failures when outages are mixed in', () => {
    const check = mixedBlame();
    expect(check.pass).toBe(true);
    expect(check.figures.harness_faultFailures).toBeGreaterThanOrEqual(8);
    expect(check.figures.harness_faultConstraints).toBe(0);
    expect(check.figures.unknownConstraints).toBe(0);
    expect(check.figures.agent_failureConstraints).toBeGreaterThan(0);
    expect(check.figures.outageCallsBlocked).toBe(0);
    // The guard still works between the outages: the repeated read of a missing file and the
    // repeated run of an npm script that does not exist are refused.
    expect(check.figures.blocked).toBe(2);
  });

  it('prints PASS for every check', async () => {
    const report = await runSessionsBench();
    expect(report.ok).toBe(true);
    const text = formatSessions(report);
    expect(text.match(/^PASS /gm)).toHaveLength(4);
    expect(text).toContain('All checks pass.');
  });
});
