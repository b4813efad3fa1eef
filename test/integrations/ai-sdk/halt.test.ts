/**
 * A model that keeps proposing the call it was refused: the run is halted by the third refusal and
 * the model is given one step without tools to answer, through the SDK's own loop and mock models.
 */
import { generateText, isStepCount, tool } from 'ai';
import { generateText as generateTextV6, stepCountIs as stepCountIsV6, tool as toolV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForAiSdk } from '../../../src/integrations/ai-sdk/index.js';
import { quiet, workspaceFactory } from '../support/workspace.js';
import { type ScriptStep, scriptedModel, scriptedModelV3 } from './scripted-model.js';

const workspace = workspaceFactory();

const readMissing: ScriptStep = { calls: [['read_file', { path: 'config/prod.yaml' }]] };
const ANSWER = 'config/prod.yaml does not exist, so I could not read the production settings.';
/** Four reads of a missing file, then (offered no tools) an answer. */
const stubborn: ScriptStep[] = [readMissing, readMissing, readMissing, readMissing, { text: ANSWER }];

describe('the halt on repeated refusals in the AI SDK', () => {
  it('halts the third refusal and gives the model one step without tools to answer (toolApproval)', async () => {
    const ws = workspace();
    const guard = narrowingForAiSdk({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
    const { model, offered } = scriptedModel(stubborn);
    const result = await generateText({
      model,
      tools: {
        read_file: tool({
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => ws.readFile(path),
        }),
      },
      prompt: 'What are the production settings?',
      toolApproval: guard.toolApproval,
      onToolExecutionEnd: guard.onToolExecutionEnd,
      prepareStep: guard.prepareStep,
      stopWhen: [isStepCount(30), guard.stopWhen],
    }).finally(() => guard.close());

    expect(ws.runs.read_file).toBe(1);
    expect(offered).toEqual([['read_file'], ['read_file'], ['read_file'], ['read_file'], []]);
    expect(result.text).toBe(ANSWER);
    const denied = result.steps[3]?.content.find((part) => part.type === 'tool-approval-response');
    expect(denied).toMatchObject({ approved: false });
    expect(JSON.stringify(denied)).toContain('narrowing halted this call (repeated-refusal)');
  });

  it('ends the loop at the halt when prepareStep is not used', async () => {
    const ws = workspace();
    const guard = narrowingForAiSdk({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
    const { model } = scriptedModel(Array.from({ length: 20 }, () => readMissing));
    const result = await generateText({
      model,
      tools: {
        read_file: tool({
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => ws.readFile(path),
        }),
      },
      prompt: 'What are the production settings?',
      toolApproval: guard.toolApproval,
      onToolExecutionEnd: guard.onToolExecutionEnd,
      stopWhen: [isStepCount(30), guard.stopWhen],
    }).finally(() => guard.close());

    expect(result.steps).toHaveLength(4);
  });

  it('halts the same way through wrapped tools on the AI SDK 6', async () => {
    const ws = workspace();
    const guard = narrowingForAiSdk({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
    const { model, offered } = scriptedModelV3(stubborn);
    const result = await generateTextV6({
      model,
      tools: guard.wrapTools({
        read_file: toolV6({
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => ws.readFile(path),
        }),
      }),
      prompt: 'What are the production settings?',
      prepareStep: guard.prepareStep,
      stopWhen: [stepCountIsV6(30), guard.stopWhen],
    }).finally(() => guard.close());

    expect(ws.runs.read_file).toBe(1);
    expect(offered.at(-1)).toEqual([]);
    expect(offered).toHaveLength(5);
    expect(result.text).toBe(ANSWER);
  });
});
