import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GuardSession } from '../../src/guard/session.js';
import { cleanupsAfterEach, tempDir } from '../mcp/support/harness.js';
import { guardedWorkspace } from './support.js';

const cleanups = cleanupsAfterEach();

const MANIFEST = '{\n  "name": "shop",\n  "scripts": {\n    "test": "vitest run"\n  }\n}\n';
const WITH_LINT = MANIFEST.replace(
  '"test": "vitest run"',
  '"test": "vitest run",\n    "lint": "biome check ."',
);
const MISSING_LINT =
  'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n';
const MAKEFILE = 'build:\n\tgo build ./...\n';
const NO_DEPLOY = "make: *** No rule to make target 'deploy'.  Stop.\n";

/** A project with its manifest and Makefile, and a guard over its state directory per session. */
function project() {
  const { root, open } = guardedWorkspace(cleanups, 'narrowing-config-bans-');
  writeFileSync(join(root, 'package.json'), MANIFEST);
  writeFileSync(join(root, 'Makefile'), MAKEFILE);
  return { root, open };
}

const bash = (command: string) => ({ tool: 'Bash', args: { command } });

/** Proposes the command; when it runs, it fails with `error`. Returns the verdict. */
function run(guard: GuardSession, command: string, error: string): string {
  const check = guard.check(bash(command));
  if (check.allowed) guard.record({ proposal: bash(command), success: false, content: error, exitCode: 1 });
  return check.verdict;
}

describe('a ban that depends on a configuration file, across sessions', () => {
  it('still blocks a missing npm script in a new session while package.json is unchanged', async () => {
    const { open } = project();
    const first = open();
    expect(run(first, 'npm run lint', MISSING_LINT)).toBe('allow');
    expect(run(first, 'npm run lint', MISSING_LINT)).toBe('block');
    await first.close();

    const second = open();
    const check = second.check(bash('npm run lint'));
    expect(check.verdict).toBe('block');
    expect(check.reason).toContain('package.json');
  });

  it('lifts the ban in a new session once package.json has changed', async () => {
    const { root, open } = project();
    const first = open();
    run(first, 'npm run lint', MISSING_LINT);
    await first.close();

    writeFileSync(join(root, 'package.json'), WITH_LINT);
    const second = open();
    expect(second.check(bash('npm run lint')).verdict).toBe('allow');
    await second.close();
    const third = open();
    expect(third.check(bash('npm run lint')).verdict).toBe('allow');
  });

  it('lifts a missing Make target once the Makefile has changed, and keeps it while it has not', async () => {
    const { root, open } = project();
    const first = open();
    run(first, 'make deploy', NO_DEPLOY);
    await first.close();

    const second = open();
    expect(second.check(bash('make deploy')).verdict).toBe('block');
    await second.close();
    writeFileSync(join(root, 'Makefile'), `${MAKEFILE}\ndeploy: build\n\t./scripts/deploy.sh\n`);
    const third = open();
    expect(third.check(bash('make deploy')).verdict).toBe('allow');
  });

  it("lifts the ban within the session when package.json is edited by hand, outside the agent's view", () => {
    const { root, open } = project();
    const guard = open();
    run(guard, 'npm run lint', MISSING_LINT);
    expect(guard.check(bash('npm run lint')).verdict).toBe('block');
    writeFileSync(join(root, 'package.json'), WITH_LINT);
    expect(guard.check(bash('npm run lint')).verdict).toBe('allow');
  });

  it('keeps only a digest of the file in the state file, never its content', async () => {
    const { root, open } = project();
    const first = open();
    run(first, 'npm run lint', MISSING_LINT);
    await first.close();
    const saved = readFileSync(join(root, '.narrowing', 'state.json'), 'utf8');
    expect(saved).toContain('fileDigests');
    expect(saved).not.toContain('vitest run');
  });

  it('does not carry over a failure of a command run in another folder, whose manifest it cannot check', async () => {
    const { root, open } = project();
    mkdirSync(join(root, 'packages', 'web'), { recursive: true });
    const first = open();
    run(first, 'cd packages/web && npm run lint', MISSING_LINT);
    expect(first.check(bash('cd packages/web && npm run lint')).verdict).toBe('block');
    await first.close();

    const second = open();
    expect(second.check(bash('cd packages/web && npm run lint')).verdict).toBe('allow');
  });

  it('does not carry over a failure whose manifest is a link it will not follow', async () => {
    const { root, open } = project();
    const shared = tempDir('narrowing-config-shared-');
    cleanups.push(shared.remove);
    writeFileSync(join(shared.path, 'Makefile'), MAKEFILE);
    rmSync(join(root, 'Makefile'));
    symlinkSync(join(shared.path, 'Makefile'), join(root, 'Makefile'));
    const first = open();
    run(first, 'make deploy', NO_DEPLOY);
    await first.close();

    const second = open();
    expect(second.check(bash('make deploy')).verdict).toBe('allow');
  });
});
