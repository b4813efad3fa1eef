import { afterEach, describe, expect, it } from 'vitest';
import { hostToolKind } from '../../src/adapters/tool-call/host-tools.js';
import { claudeCodeHooks } from '../../src/hooks/claude-code.js';
import { claudeCode } from './conformance/hosts.js';
import { HostRun, tempProject } from './conformance/scenario.js';

/**
 * Claude Code's tools as @anthropic-ai/claude-agent-sdk 0.3.333 (Claude Code 2.1.333) names them
 * (`BUILTIN_TOOL_NAMES` in `sdk.d.ts`, the inputs and outputs in `sdk-tools.d.ts`): `Agent` is the
 * subagent tool `Task` was before 2.1.63, with the same short `description` beside its `prompt`;
 * `Bash` with `run_in_background` (or moved there by the user) answers before the command ends.
 */
const session = '5d0c7a9e-3b1f-4e2a-8c6d-9f0e1a2b3c4d';
const projects: { remove: () => void }[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

function start(): { run: HostRun; cwd: string } {
  const project = tempProject();
  projects.push(project);
  return { run: new HostRun(claudeCode, { id: session, cwd: project.dir }), cwd: project.dir };
}

const base = (cwd: string) => ({
  session_id: session,
  transcript_path: `${cwd}/.claude-transcript.jsonl`,
  cwd,
  permission_mode: 'default',
});

describe("Claude Code's Agent tool", () => {
  it('knows the subagent tool under its name since Claude Code 2.1.63 as under its older one', () => {
    expect(hostToolKind('claude-code', 'Agent')).toBe(hostToolKind('claude-code', 'Task'));
  });

  /** Claude Code's answer to a subagent type the project does not define. */
  const UNKNOWN_AGENT =
    "Agent type 'code-reviewer' not found. Available agents: general-purpose, statusline-setup, Explore, Plan";
  const input = (description: string) => ({
    description,
    prompt: 'Review the changes in src/cart.ts for bugs and report what you find.',
    subagent_type: 'code-reviewer',
  });

  it('learns nothing from a subagent launched to run in the background', () => {
    const launched = {
      ...base('/home/dev/shop'),
      hook_event_name: 'PostToolUse',
      tool_name: 'Agent',
      tool_input: input('Review cart changes'),
      tool_use_id: 'toolu_01AgentAsync',
      tool_response: {
        status: 'async_launched',
        agentId: 'a3f9c2e1b7d4',
        description: 'Review cart changes',
        prompt: 'Review the changes in src/cart.ts for bugs and report what you find.',
        outputFile: '/tmp/claude/tasks/a3f9c2e1b7d4.output',
      },
    };
    expect(claudeCodeHooks.parse(launched).action).toEqual({ type: 'ignored' });
  });

  it('sees a retried subagent call with a rewritten description as the same call', async () => {
    const { run, cwd } = start();
    await run.prompt('Review my changes');
    const verdicts: string[] = [];
    const descriptions = ['Review cart changes', 'Review the cart diff', 'Code review of cart.ts'];
    for (const [index, description] of descriptions.entries()) {
      const id = `toolu_01Agent${index}`;
      const call = { tool_name: 'Agent', tool_input: input(description), tool_use_id: id };
      const before = await run.send({ ...base(cwd), hook_event_name: 'PreToolUse', ...call });
      verdicts.push(before.verdict);
      if (before.verdict === 'deny') continue;
      await run.send({
        ...base(cwd),
        hook_event_name: 'PostToolUseFailure',
        ...call,
        error: UNKNOWN_AGENT,
        is_interrupt: false,
      });
    }
    expect(verdicts).toContain('deny');
  });
});

describe("Claude Code's Bash answered before the command ended", () => {
  const postBash = (cwd: string, response: unknown) => ({
    ...base(cwd),
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'npm run dev', description: 'Start the dev server', run_in_background: true },
    tool_use_id: 'toolu_01Background',
    tool_response: response,
  });

  it('learns nothing from a command started in the background', () => {
    const started = {
      stdout: '',
      stderr: '',
      interrupted: false,
      isImage: false,
      backgroundTaskId: 'bq81x2c',
    };
    expect(claudeCodeHooks.parse(postBash('/home/dev/shop', started)).action).toEqual({ type: 'ignored' });
  });

  it('learns nothing from a command the user moved to the background', () => {
    const moved = {
      stdout: '\n> shop@1.0.0 dev\n> vite\n',
      stderr: '',
      interrupted: false,
      isImage: false,
      backgroundTaskId: 'bq81x2d',
      backgroundedByUser: true,
    };
    expect(claudeCodeHooks.parse(postBash('/home/dev/shop', moved)).action).toEqual({ type: 'ignored' });
  });
});

describe("Claude Code's PowerShell tool", () => {
  const postPowerShell = (response: unknown) => ({
    ...base('C:\\Users\\dev\\shop'),
    hook_event_name: 'PostToolUse',
    tool_name: 'PowerShell',
    tool_input: { command: 'npm run e2e', description: 'Run the end-to-end tests' },
    tool_use_id: 'toolu_01PowerShell',
    tool_response: response,
  });

  it('reads a command moved to the background at its timeout as a timeout, as for Bash', () => {
    const backgrounded = {
      stdout: '',
      stderr: '',
      interrupted: false,
      isImage: false,
      backgroundTaskId: 'bq81x2e',
      timedOutAfterMs: 120_000,
    };
    expect(claudeCodeHooks.parse(postPowerShell(backgrounded)).action).toMatchObject({
      type: 'after-call',
      result: { ok: false, timedOut: true },
    });
  });

  it('learns nothing from a command the user interrupted, as for Bash', () => {
    const stopped = {
      stdout: 'Running 24 tests using 4 workers\n',
      stderr: '',
      interrupted: true,
      isImage: false,
    };
    expect(claudeCodeHooks.parse(postPowerShell(stopped)).action).toEqual({ type: 'ignored' });
  });
});
