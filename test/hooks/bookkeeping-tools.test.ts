/**
 * Tools an agent uses to keep its own books (Claude Code's task list, Gemini CLI's topic and task
 * tracker) change nothing it works on: called between two runs of a failing command, they are no
 * change the command could have been waiting for, and the retry is refused as if they were not there.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostToolKind } from '../../src/adapters/tool-call/host-tools.js';
import { claudeCode, gemini } from './conformance/hosts.js';
import { HostRun, tempProject } from './conformance/scenario.js';

const MISSING_SCRIPT =
  'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run';
const FAILED = { output: MISSING_SCRIPT, exitCode: 1 };

const projects: { remove: () => void }[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

function project(): string {
  const made = tempProject();
  projects.push(made);
  return made.dir;
}

/** A built-in tool's call and its answer, through Claude Code's hook events. */
async function claudeTool(run: HostRun, tool: string, input: unknown, response: unknown, id: string) {
  const base = {
    session_id: run.session.id,
    transcript_path: join(run.session.cwd, '.claude-transcript.jsonl'),
    cwd: run.session.cwd,
    permission_mode: 'default',
    tool_name: tool,
    tool_input: input,
    tool_use_id: id,
  };
  await run.send({ ...base, hook_event_name: 'PreToolUse' });
  await run.send({ ...base, hook_event_name: 'PostToolUse', tool_response: response });
}

/** A built-in tool's call and its answer, through Gemini CLI's hook events. */
async function geminiTool(run: HostRun, tool: string, input: unknown, answer: string) {
  const base = {
    session_id: run.session.id,
    transcript_path: join(run.session.cwd, '.gemini-chat.json'),
    cwd: run.session.cwd,
    timestamp: '2026-12-06T09:12:00.000Z',
    tool_name: tool,
    tool_input: input,
  };
  await run.send({ ...base, hook_event_name: 'BeforeTool' });
  await run.send({
    ...base,
    hook_event_name: 'AfterTool',
    tool_response: { llmContent: answer, returnDisplay: answer },
  });
}

describe('bookkeeping tools between runs of a failing command', () => {
  it('refuses the third run of a failing command under Claude Code, its task list written between the runs', async () => {
    const run = new HostRun(claudeCode, { id: '3e1f5a70-7c2d-4b8e-9a61-0d4c2b7e9f13', cwd: project() });
    await run.prompt('Fix the lint errors');
    const verdicts: string[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      verdicts.push((await run.shell('npm run lint', FAILED, 'Run the linter')).verdict);
      // Each failure gets a task of its own on the list, then taken up.
      const task = {
        subject: `Find why the linter fails (${attempt})`,
        description: 'Read the lint output.',
      };
      const created = { task: { id: String(attempt), subject: task.subject } };
      await claudeTool(run, 'TaskCreate', task, created, `toolu_create_${attempt}`);
      const update = { taskId: String(attempt), status: 'in_progress' };
      const updated = { success: true, taskId: String(attempt), updatedFields: ['status'] };
      await claudeTool(run, 'TaskUpdate', update, updated, `toolu_update_${attempt}`);
    }
    expect(verdicts[2]).toBe('deny');
  });

  it('refuses the third run of a failing command under Gemini CLI, topic updates between the runs', async () => {
    const run = new HostRun(gemini(), { id: 'gemini-4b7e', cwd: project() });
    await run.prompt('Fix the lint errors');
    const verdicts: string[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      verdicts.push((await run.shell('npm run lint', FAILED, 'Run the linter')).verdict);
      const topic = {
        title: 'Fix lint errors',
        summary: `Attempt ${attempt} at running the linter.`,
        strategic_intent: 'Get the linter to run.',
      };
      await geminiTool(
        run,
        'update_topic',
        topic,
        `Current topic: "Fix lint errors"\nTopic summary: Attempt ${attempt} at running the linter.`,
      );
    }
    expect(verdicts[2]).toBe('deny');
  });

  it('knows each host’s bookkeeping tools as acting on nothing, and its subagents as running anything', () => {
    for (const tool of ['TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'AskUserQuestion', 'ToolSearch'])
      expect(hostToolKind('claude-code', tool)).toBe('other');
    for (const tool of [
      'update_topic',
      'tracker_create_task',
      'tracker_update_task',
      'ask_user',
      'enter_plan_mode',
    ])
      expect(hostToolKind('gemini-cli', tool)).toBe('other');
    expect(hostToolKind('gemini-cli', 'invoke_agent')).toBe('exec');
    expect(hostToolKind('codex', 'spawn_agent')).toBe('exec');
    expect(hostToolKind('codex', 'wait_agent')).toBe('poll');
  });
});
