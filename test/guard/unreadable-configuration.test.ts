import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { openGuardSync } from '../../src/guard/open.js';
import { withSessionState } from '../../src/guard/session-state.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-unreadable-config-'));
  dirs.push(dir);
  return dir;
}

const build = { command: 'npm run build' };
const missingScript = {
  content: [
    {
      type: 'text',
      text: 'npm error Missing script: "build"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run',
    },
  ],
  isError: true,
};

type Guard = ReturnType<typeof openGuardSync>;

function run(guard: Guard): string {
  const verdict = guard.check(toolCallToProposal('Bash', build)).verdict;
  if (verdict === 'allow' || verdict === 'warn')
    guard.record(toolCallToOutcome('Bash', build, missingScript));
  return verdict;
}

describe('a ban about a configuration file the guard cannot read', () => {
  it('holds across a restart within the session, and is not carried into another session', async () => {
    const state = folder();
    // No probe: the guard cannot look at package.json, so it cannot tell later whether it changed.
    const open = (sessionId: string) =>
      openGuardSync({ stateDir: state, sessionId, journal: false, probe: false, workspaceRoot: state });
    for (let i = 0; i < 2; i++) {
      const guard = open('session-a');
      await withSessionState(guard, () => run(guard));
      await guard.close();
    }
    const restarted = open('session-a');
    const same = await withSessionState(
      restarted,
      () => restarted.check(toolCallToProposal('Bash', build)).verdict,
    );
    await restarted.close();
    const other = open('session-b');
    const next = await withSessionState(other, () => other.check(toolCallToProposal('Bash', build)).verdict);
    await other.close();
    expect([same, next]).toEqual(['block', 'allow']);
  });

  it('pins a configuration file that is not on disk as absent, and lifts the ban once it appears', async () => {
    const root = folder();
    const open = (sessionId: string) =>
      openGuardSync({ stateDir: join(root, '.narrowing'), sessionId, journal: false, workspaceRoot: root });
    const first = open('one');
    run(first);
    run(first);
    await first.close();
    const second = open('two');
    const blocked = second.check(toolCallToProposal('Bash', build)).verdict;
    await second.close();
    writeFileSync(join(root, 'package.json'), '{"scripts":{"build":"tsc"}}');
    const third = open('three');
    const allowed = third.check(toolCallToProposal('Bash', build)).verdict;
    await third.close();
    expect([blocked, allowed]).toEqual(['block', 'allow']);
  });
});
