import { generateText, isStepCount } from 'ai';
import { describe, expect, it } from 'vitest';
import { allApprove, narrowingForAiSdk } from '../../../src/integrations/ai-sdk/index.js';
import { FIXED_SUM, quiet, type Workspace, workspaceFactory } from '../support/workspace.js';
import { type ScriptStep, scriptedModel, toolResultsIn } from './scripted-model.js';
import { toolsFor } from './support.js';

const workspace = workspaceFactory();

async function runAgent(ws: Workspace, script: readonly ScriptStep[], policy?: object) {
  const guard = narrowingForAiSdk({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet, policy });
  const { model, prompts } = scriptedModel(script);
  const ended: string[] = [];
  try {
    const result = await generateText({
      model,
      tools: toolsFor(ws),
      prompt: 'Fix the failing test.',
      toolApproval: guard.toolApproval,
      onToolExecutionEnd: (event) => {
        ended.push(event.toolCall.toolName);
        guard.onToolExecutionEnd(event);
      },
      stopWhen: [isStepCount(10), guard.stopWhen],
    });
    return { result, prompts, ended, guard };
  } finally {
    await guard.close();
  }
}

const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;

describe('narrowing for the AI SDK', () => {
  it('denies the second read of a missing file and the model reads why', async () => {
    const ws = workspace();
    const { result, prompts, ended } = await runAgent(ws, [
      { calls: [readMissing] },
      { calls: [readMissing] },
      { text: 'The config file does not exist.' },
    ]);

    expect(ws.runs.read_file).toBe(1);
    expect(ended).toEqual(['read_file']);
    const denied = result.steps[1]?.content.find((part) => part.type === 'tool-approval-response');
    expect(denied).toMatchObject({ approved: false, toolCall: { toolName: 'read_file' } });
    expect(toolResultsIn(prompts[2]).at(-1)).toEqual({
      toolName: 'read_file',
      output: {
        type: 'execution-denied',
        reason: expect.stringMatching(
          /^\[narrowing blocked this call \(identical-failure\)\] read_file \{path: "config\/prod\.yaml"\} failed and .*ENOENT/s,
        ),
      },
    });
  });

  it('lets an edit → test → edit → test cycle run untouched', async () => {
    const ws = workspace();
    const { result, ended } = await runAgent(ws, [
      { calls: [['edit_file', { path: 'src/sum.js', content: 'export const sum = (a, b) => a * b;\n' }]] },
      { calls: [['run_tests', {}]] },
      { calls: [['edit_file', { path: 'src/sum.js', content: FIXED_SUM }]] },
      { calls: [['run_tests', {}]] },
      { text: 'Fixed.' },
    ]);

    expect(ended).toEqual(['edit_file', 'run_tests', 'edit_file', 'run_tests']);
    const parts = result.steps.flatMap((step) => step.content);
    expect(parts.some((part) => part.type === 'tool-approval-response')).toBe(false);
    expect(result.text).toBe('Fixed.');
  });

  it('learns nothing from a timeout: the same fetch runs again', async () => {
    const ws = workspace();
    const fetchDocs = ['fetch_url', { url: 'https://registry.example.com/pkg' }] as const;
    const { result } = await runAgent(ws, [
      { calls: [fetchDocs] },
      { calls: [fetchDocs] },
      { calls: [fetchDocs] },
      { text: 'The registry is down.' },
    ]);

    expect(ws.runs.fetch_url).toBe(3);
    const errors = result.steps.flatMap((step) => step.content).filter((part) => part.type === 'tool-error');
    expect(errors).toHaveLength(3);
  });

  it('denies in the next run, from the state file, what an earlier run learned', async () => {
    const ws = workspace();
    await runAgent(ws, [{ calls: [readMissing] }, { text: 'It is missing.' }]);
    const { prompts } = await runAgent(ws, [{ calls: [readMissing] }, { text: 'Still missing.' }]);

    expect(ws.runs.read_file).toBe(1);
    expect(toolResultsIn(prompts[1]).at(-1)?.output).toMatchObject({ type: 'execution-denied' });
  });

  it('ends the loop once every recent proposal was refused', async () => {
    const ws = workspace();
    const stubborn = Array.from({ length: 9 }, () => ({ calls: [readMissing] }));
    const { result } = await runAgent(ws, stubborn, {
      detectors: { convergence: { exhaustAfterBlocks: 2 } },
    });

    expect(result.steps).toHaveLength(3);
    expect(ws.runs.read_file).toBe(1);
  });

  it('stands beside another guard on the same hook: either one denies', async () => {
    const ws = workspace();
    const guard = narrowingForAiSdk({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
    const noEditsToTests = ({ toolCall }: { toolCall: { toolName: string; input: unknown } }) =>
      toolCall.toolName === 'edit_file' &&
      String((toolCall.input as { path: string }).path).startsWith('test/')
        ? { type: 'denied' as const, reason: 'policy: tests are read-only' }
        : ('not-applicable' as const);
    const { model, prompts } = scriptedModel([
      { calls: [['edit_file', { path: 'test/sum.test.js', content: '' }]] },
      { calls: [readMissing] },
      { calls: [readMissing] },
      { text: 'Done.' },
    ]);
    try {
      await generateText({
        model,
        tools: toolsFor(ws),
        prompt: 'Fix the failing test.',
        toolApproval: allApprove(noEditsToTests, guard.toolApproval),
        onToolExecutionEnd: guard.onToolExecutionEnd,
        stopWhen: [isStepCount(10), guard.stopWhen],
      });
    } finally {
      await guard.close();
    }

    expect(toolResultsIn(prompts[1]).at(-1)?.output).toEqual({
      type: 'execution-denied',
      reason: 'policy: tests are read-only',
    });
    expect(toolResultsIn(prompts[3]).at(-1)?.output).toMatchObject({
      type: 'execution-denied',
      reason: expect.stringMatching(/^\[narrowing blocked this call/),
    });
    expect(ws.runs.edit_file).toBeUndefined();
  });
});
