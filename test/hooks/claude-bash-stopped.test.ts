import { afterEach, describe, expect, it } from 'vitest';
import { claudeCodeHooks } from '../../src/hooks/claude-code.js';
import { claudeCode } from './conformance/hosts.js';
import { HostRun, tempProject, type Verdict } from './conformance/scenario.js';

/**
 * Claude Code's `Bash` response (`BashOutput` in @anthropic-ai/claude-agent-sdk 0.3.332
 * `sdk-tools.d.ts`): `interrupted` is set when Claude Code killed the command because the call was
 * aborted (`ShellCommand`'s result: `interrupted: code === SIGKILL`), `timedOutAfterMs` when the
 * command ran past its timeout and was moved to the background.
 */
const session = 'b3f1c2d4-0e5a-4c1b-9d7e-2f6a8b9c0d1e';
const postBash = (command: string, response: unknown, id = 'toolu_01Stopped') => ({
  session_id: session,
  transcript_path: `/home/dev/.claude/projects/-home-dev-shop/${session}.jsonl`,
  cwd: '/home/dev/shop',
  permission_mode: 'default',
  hook_event_name: 'PostToolUse',
  tool_name: 'Bash',
  tool_input: { command, description: 'Run the test suite' },
  tool_use_id: id,
  tool_response: response,
});

const USER_STOPPED = {
  stdout: '\n> shop@1.0.0 test\n> vitest run\n\n RUN  v3.2.4 /home/dev/shop\n',
  stderr: '',
  interrupted: true,
  isImage: false,
};
const BACKGROUNDED_AT_TIMEOUT = {
  stdout: '',
  stderr: '',
  interrupted: false,
  isImage: false,
  backgroundTaskId: 'b4003ee',
  timedOutAfterMs: 120_000,
};
const KILLED_AT_TIMEOUT = {
  stdout: '',
  stderr: 'Command timed out after 2m 0s\nwaiting for localhost:5432...',
  interrupted: true,
  isImage: false,
};

describe("Claude Code's Bash stopped before it ended", () => {
  it('learns nothing from a command the user interrupted', () => {
    expect(claudeCodeHooks.parse(postBash('npm test', USER_STOPPED)).action).toEqual({ type: 'ignored' });
  });

  it('reads a command moved to the background at its timeout as a timeout', () => {
    const { action } = claudeCodeHooks.parse(postBash('npm run e2e', BACKGROUNDED_AT_TIMEOUT));
    expect(action).toMatchObject({ type: 'after-call', result: { ok: false, timedOut: true } });
  });

  it('reads a command killed at its timeout as a timeout, in its own words', () => {
    const { action } = claudeCodeHooks.parse(postBash('./scripts/wait-for-db.sh', KILLED_AT_TIMEOUT));
    expect(action).toMatchObject({
      type: 'after-call',
      result: {
        ok: false,
        timedOut: true,
        error: 'Command timed out after 2m 0s\nwaiting for localhost:5432...',
      },
    });
  });

  it('still reads a command that ended by itself as a success', () => {
    const { action } = claudeCodeHooks.parse(
      postBash('npm test', { stdout: 'Tests: 3 passed', stderr: '', interrupted: false, isImage: false }),
    );
    expect(action).toMatchObject({ type: 'after-call', result: { ok: true } });
  });
});

describe('a stopped Bash command and what was learned before it', () => {
  const projects: { remove: () => void }[] = [];
  afterEach(() => {
    for (const project of projects.splice(0)) project.remove();
  });

  /** `npm run tset` fails twice, is stopped once, and is proposed again. */
  async function failedThenStopped(stopped: unknown): Promise<Verdict> {
    const project = tempProject();
    projects.push(project);
    const run = new HostRun(claudeCode, { id: session, cwd: project.dir });
    await run.prompt('Run the tests');
    const missing = {
      output: 'npm error Missing script: "tset"\nnpm error\nnpm error   npm run',
      exitCode: 1,
    };
    await run.shell('npm run tset', missing, 'Run the tests');
    await run.shell('npm run tset', missing, 'Run the tests again');
    await run.send({
      ...postBash('npm run tset', stopped, 'toolu_01StoppedTset'),
      session_id: session,
      cwd: project.dir,
      tool_input: { command: 'npm run tset', description: 'Run tests' },
    });
    return (await run.shell('npm run tset', missing, 'Run tests once more')).verdict;
  }

  it('keeps denying a failing command after a run of it the user interrupted', async () => {
    expect(await failedThenStopped(USER_STOPPED)).toBe('deny');
  });

  it('keeps denying a failing command after a run of it that timed out', async () => {
    expect(await failedThenStopped(KILLED_AT_TIMEOUT)).toBe('deny');
  });
});

describe("Claude Code's Bash failure at its timeout", () => {
  it('reads a PostToolUseFailure whose error says the command timed out as a timeout', () => {
    const { action } = claudeCodeHooks.parse({
      ...postBash('./scripts/wait-for-db.sh', undefined),
      hook_event_name: 'PostToolUseFailure',
      tool_response: undefined,
      // Claude Code's ShellError for a command it killed at its timeout: exit 143 (SIGTERM).
      error: 'Exit code 143\nCommand timed out after 2m 0s\nwaiting for localhost:5432...',
      is_interrupt: false,
    });
    expect(action).toMatchObject({
      type: 'after-call',
      result: { ok: false, timedOut: true, exitCode: 143 },
    });
  });
});
