/**
 * The guard beside a tool's own options, through the SDK's own runner and a scripted model: its
 * guardrails, error function and `isEnabled` keep working; a tool that throws `null` does not crash
 * the run; a call cancelled through its abort signal teaches nothing.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, Runner, tool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForAgents } from '../../../src/integrations/openai-agents/index.js';
import { guardOptionsFor } from '../support/guard-options.js';
import { spiedSession } from '../support/spied-session.js';
import { type Workspace, workspaceFactory } from '../support/workspace.js';
import { ScriptedModel, type ScriptStep, toolOutputsIn } from './scripted-model.js';

const workspace = workspaceFactory();

/** A guard on the workspace, with every proposal it checks and every outcome it records kept. */
function spiedGuard(ws: Workspace) {
  const { session, checked, recorded } = spiedSession(guardOptionsFor(ws));
  return { guard: narrowingForAgents(session), session, checked, recorded };
}

/** Refuses reads of `.env` files, as an application's own guardrail would. */
const noSecrets = {
  type: 'tool_input' as const,
  name: 'no-secrets',
  async run({ toolCall }: { toolCall: { arguments?: string } }) {
    const { path } = JSON.parse(toolCall.arguments ?? '{}') as { path?: string };
    if (path?.endsWith('.env')) {
      return { behavior: { type: 'rejectContent' as const, message: 'Reading secrets is not allowed.' } };
    }
    return { behavior: { type: 'allow' as const } };
  },
};

/** A runner that tells the guard each tool call's end, as the SDK's runner hook does. */
function hookedRunner(guard: ReturnType<typeof narrowingForAgents>) {
  const runner = new Runner({ tracingDisabled: true });
  runner.on('agent_tool_end', guard.onToolEnd);
  return runner;
}

/** The workspace's read_file as the options of a tool, with options of its own beside them. */
function readFileOptions<EXTRA extends object>(ws: Workspace, extra: EXTRA) {
  return {
    name: 'read_file',
    description: 'Read a file of the project',
    parameters: z.object({ path: z.string() }),
    ...extra,
    execute: async ({ path }: { path: string }) => ws.readFile(path),
  };
}

/** A deploy tool's options whose call throws `thrown`, with options of its own beside them. */
function throwingDeploy<EXTRA extends object>(thrown: unknown, extra?: EXTRA) {
  return {
    name: 'deploy',
    description: 'Deploy the service',
    parameters: z.object({}),
    execute: async (): Promise<string> => {
      throw thrown;
    },
    ...extra,
  };
}

async function run(agent: Agent, runner = new Runner({ tracingDisabled: true }), signal?: AbortSignal) {
  return runner.run(agent, 'Read the config.', { maxTurns: 8, ...(signal && { signal }) });
}

describe('guard.tool() beside a tool’s own options', () => {
  it('keeps the tool’s own input guardrail, and never counts a call it rejected', async () => {
    const ws = workspace();
    const { guard, session, checked } = spiedGuard(ws);
    const readEnv: ScriptStep = { calls: [['read_file', { path: '.env' }]] };
    const model = new ScriptedModel([readEnv, readEnv, readEnv, readEnv, { text: 'Not allowed.' }]);
    const readFile = tool(guard.tool(readFileOptions(ws, { inputGuardrails: [noSecrets] })));
    const runner = hookedRunner(guard);
    const result = await run(new Agent({ name: 'coder', model, tools: [readFile] }), runner);
    await session.close();

    expect(result.finalOutput).toBe('Not allowed.');
    expect(toolOutputsIn(model.inputs[4]).map(({ text }) => text)).toEqual(
      Array(4).fill('Reading secrets is not allowed.'),
    );
    expect(checked).toEqual([]);
    expect(ws.runs.read_file).toBeUndefined();
  });

  it('lets the tool’s own error function word the error, and still learns the real one', async () => {
    const ws = workspace();
    const { guard, session, recorded } = spiedGuard(ws);
    const read: ScriptStep = { calls: [['read_file', { path: 'config/prod.yaml' }]] };
    const model = new ScriptedModel([read, read, { text: 'Gone.' }]);
    const readFile = tool(
      guard.tool(readFileOptions(ws, { errorFunction: () => 'That file could not be read.' })),
    );
    const runner = hookedRunner(guard);
    await run(new Agent({ name: 'coder', model, tools: [readFile] }), runner);
    await session.close();

    const [first, second] = toolOutputsIn(model.inputs[2]);
    expect(first?.text).toBe('That file could not be read.');
    expect(second?.text).toMatch(/^\[narrowing blocked this call \(identical-failure\)\]/);
    expect(recorded.map((outcome) => outcome.error)).toEqual([expect.stringMatching(/^ENOENT/)]);
  });

  it('keeps a tool the tool’s own isEnabled switched off out of the model’s reach', async () => {
    const ws = workspace();
    const { guard, session } = spiedGuard(ws);
    const model = new ScriptedModel([{ text: 'No tools today.' }]);
    const readFile = tool(guard.tool(readFileOptions(ws, { isEnabled: false })));
    await run(new Agent({ name: 'coder', model, tools: [readFile] }));
    await session.close();

    expect(model.offered).toEqual([[]]);
  });

  it.each([null, undefined])(
    'turns a thrown %s into an error the model reads, without crashing the run',
    async (thrown) => {
      const ws = workspace();
      const { guard, session, recorded } = spiedGuard(ws);
      const model = new ScriptedModel([{ calls: [['deploy', {}]] }, { text: 'The deploy failed.' }]);
      const deploy = tool(guard.tool(throwingDeploy(thrown)));
      const runner = hookedRunner(guard);
      const result = await run(new Agent({ name: 'ops', model, tools: [deploy] }), runner);
      await session.close();

      expect(result.finalOutput).toBe('The deploy failed.');
      expect(toolOutputsIn(model.inputs[1])[0]?.text).toBe(
        `Error: the tool failed without an error (it threw ${String(thrown)})`,
      );
      expect(recorded).toHaveLength(1);
      expect(recorded[0]?.success).toBe(false);
    },
  );
});

describe('the bare spread of guard.toolOptions', () => {
  it.each([null, undefined])(
    'answers a tool that throws %s with an error the model reads, without crashing the run',
    async (thrown) => {
      const ws = workspace();
      const { guard, session, recorded } = spiedGuard(ws);
      const model = new ScriptedModel([{ calls: [['deploy', {}]] }, { text: 'The deploy failed.' }]);
      const deploy = tool(throwingDeploy(thrown, guard.toolOptions));
      const runner = hookedRunner(guard);
      const result = await run(new Agent({ name: 'ops', model, tools: [deploy] }), runner);
      await session.close();

      expect(result.finalOutput).toBe('The deploy failed.');
      expect(toolOutputsIn(model.inputs[1])[0]?.text).toBe(
        `Error: the tool failed without an error (it threw ${String(thrown)})`,
      );
      expect(recorded.map(({ success }) => success)).toEqual([false]);
    },
  );
});

describe('guard.agent() on an agent already built', () => {
  it('guards each function tool, keeps its own guardrail, and records once with a runner hook too', async () => {
    const ws = workspace();
    const { guard, session, recorded } = spiedGuard(ws);
    const env: ScriptStep = { calls: [['read_file', { path: '.env' }]] };
    const missing: ScriptStep = { calls: [['read_file', { path: 'config/prod.yaml' }]] };
    const model = new ScriptedModel([env, missing, missing, { text: 'Gone.' }]);
    const readFile = tool(
      readFileOptions(ws, { inputGuardrails: [noSecrets], errorFunction: guard.toolOptions.errorFunction }),
    );
    const agent = guard.agent(new Agent({ name: 'coder', model, tools: [readFile] }));
    const runner = hookedRunner(guard);
    await run(agent, runner);
    await session.close();

    expect(toolOutputsIn(model.inputs[3]).map(({ text }) => text)).toEqual([
      'Reading secrets is not allowed.',
      expect.stringMatching(/^Error: ENOENT/),
      expect.stringMatching(/^\[narrowing blocked this call \(identical-failure\)\]/),
    ]);
    expect(recorded).toHaveLength(1);
  });

  it('learns a failure from a tool with the SDK’s default error function, without a cause', async () => {
    const ws = workspace();
    const { guard, session, recorded } = spiedGuard(ws);
    const missing: ScriptStep = { calls: [['read_file', { path: 'config/prod.yaml' }]] };
    const model = new ScriptedModel([missing, missing, missing, { text: 'Gone.' }]);
    const readFile = tool(readFileOptions(ws, {}));
    await run(guard.agent(new Agent({ name: 'coder', model, tools: [readFile] })));
    await session.close();

    // A failure without a cause never blames the agent at once: the same failure twice stops a third.
    expect(ws.runs.read_file).toBe(2);
    expect(recorded.map(({ success }) => success)).toEqual([false, false]);
    expect(toolOutputsIn(model.inputs[3]).map(({ text }) => text)).toEqual([
      'An error occurred while running the tool. Please try again.',
      'An error occurred while running the tool. Please try again.',
      expect.stringMatching(/^\[narrowing blocked this call/),
    ]);
  });

  it('answers a tool of its own error function that throws null, without crashing the run', async () => {
    const ws = workspace();
    const { guard, session, recorded } = spiedGuard(ws);
    const model = new ScriptedModel([{ calls: [['deploy', {}]] }, { text: 'The deploy failed.' }]);
    const deploy = tool(
      throwingDeploy(null, {
        errorFunction: (_context: unknown, error: unknown) => `deploy failed: ${String(error)}`,
      }),
    );
    const result = await run(guard.agent(new Agent({ name: 'ops', model, tools: [deploy] })));
    await session.close();

    expect(result.finalOutput).toBe('The deploy failed.');
    expect(toolOutputsIn(model.inputs[1])[0]?.text).toBe(
      'Error: the tool failed without an error (it threw null)',
    );
    expect(recorded.map(({ success }) => success)).toEqual([false]);
  });
});

describe('a tool spread with guard.toolOptions', () => {
  it('answers a thrown null without crashing the run, and learns the failure', async () => {
    const ws = workspace();
    const { guard, session, recorded } = spiedGuard(ws);
    const model = new ScriptedModel([{ calls: [['deploy', {}]] }, { text: 'The deploy failed.' }]);
    const deploy = tool(throwingDeploy(null, guard.toolOptions));
    const runner = hookedRunner(guard);
    const result = await run(new Agent({ name: 'ops', model, tools: [deploy] }), runner);
    await session.close();

    expect(result.finalOutput).toBe('The deploy failed.');
    expect(toolOutputsIn(model.inputs[1])[0]?.text).toBe(
      'Error: the tool failed without an error (it threw null)',
    );
    expect(recorded.map(({ success }) => success)).toEqual([false]);
  });
});

/** A test run that takes a while and stops when its call is cancelled: by throwing, or by returning. */
function slowTests(runs: { count: number }, onAbort: 'throw' | 'return') {
  return {
    name: 'run_tests',
    description: 'Run the test suite',
    parameters: z.object({}),
    execute: async (_input: unknown, _context?: unknown, details?: { signal?: AbortSignal }) => {
      runs.count += 1;
      const signal = details?.signal;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (onAbort === 'throw') signal?.throwIfAborted();
      return signal?.aborted ? '' : 'PASS test/sum.test.js';
    },
  };
}

describe('a call cancelled through its abort signal', () => {
  it.each([
    ['spread', 'throw'],
    ['tool', 'throw'],
    ['tool', 'return'],
  ] as const)('teaches nothing (%s, the tool %ss)', async (wiring, onAbort) => {
    const ws = workspace();
    const { guard, session, recorded } = spiedGuard(ws);
    const runs = { count: 0 };
    const model = new ScriptedModel([{ calls: [['run_tests', {}]] }, { text: 'Stopped.' }]);
    const options = slowTests(runs, onAbort);
    const runTests = tool(wiring === 'spread' ? { ...options, ...guard.toolOptions } : guard.tool(options));
    const runner = hookedRunner(guard);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await run(new Agent({ name: 'coder', model, tools: [runTests] }), runner, controller.signal).catch(
      () => undefined,
    );
    await session.close();

    expect(runs.count).toBe(1);
    expect(recorded).toEqual([]);
  });
});

describe('guard.close() after the state folder was replaced during the run', () => {
  it('resolves, and says through onProblem what could not be saved', async () => {
    const ws = workspace();
    const problems: string[] = [];
    const guard = narrowingForAgents({
      workspaceRoot: ws.dir,
      stateDir: ws.stateDir,
      onProblem: (message) => problems.push(message),
    });
    const read: ScriptStep = { calls: [['read_file', { path: 'config/prod.yaml' }]] };
    const model = new ScriptedModel([read, { calls: [['clean', {}]] }, read, { text: 'Gone.' }]);
    const readFile = tool(guard.tool(readFileOptions(ws, {})));
    // A tool that moves the state folder away and leaves a file of the same name.
    const clean = tool(
      guard.tool({
        name: 'clean',
        description: 'Clean the workspace',
        parameters: z.object({}),
        execute: async () => {
          await guard.session().flush();
          renameSync(ws.stateDir, join(ws.dir, 'narrowing-old'));
          writeFileSync(ws.stateDir, 'not a folder\n');
          return 'cleaned';
        },
      }),
    );
    const runner = hookedRunner(guard);
    const result = await run(new Agent({ name: 'coder', model, tools: [readFile, clean] }), runner);

    await expect(guard.close()).resolves.toBeUndefined();
    expect(result.finalOutput).toBe('Gone.');
    expect(ws.runs.read_file).toBe(1);
    expect(problems).toContainEqual(
      expect.stringMatching(/^Closing the guard could not save what this session learned/),
    );
  });
});
