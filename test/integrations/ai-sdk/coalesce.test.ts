/**
 * Identical calls in one model response, through the SDK's own loop and mock model: the tool runs
 * once, and the duplicates are recorded as coalesced, never as refusals.
 */
import { generateText, isStepCount } from 'ai';
import { describe, expect, it } from 'vitest';
import { journalVerdicts, workspaceFactory } from '../support/workspace.js';
import { type ScriptStep, scriptedModel, toolResultsIn } from './scripted-model.js';
import { guardFor, toolsFor } from './support.js';

const workspace = workspaceFactory();
const readMissingThrice: ScriptStep = {
  calls: [
    ['read_file', { path: 'config/prod.yaml' }],
    ['read_file', { path: 'config/prod.yaml' }],
    ['read_file', { path: 'config/prod.yaml' }],
  ],
};
const ANSWER = 'config/prod.yaml does not exist.';

describe('parallel duplicates in the AI SDK', () => {
  it('run once through wrapTools, every duplicate reading the first one’s error', async () => {
    const ws = workspace();
    const guard = guardFor(ws);
    const { model, prompts } = scriptedModel([readMissingThrice, { text: ANSWER }]);
    const result = await generateText({
      model,
      tools: guard.wrapTools(toolsFor(ws)),
      prompt: 'What are the production settings?',
      stopWhen: isStepCount(5),
    }).finally(() => guard.close());

    expect(result.text).toBe(ANSWER);
    expect(ws.runs.read_file).toBe(1);
    const outputs = toolResultsIn(prompts[1]).map((part) => JSON.stringify(part.output));
    expect(outputs).toHaveLength(3);
    expect(new Set(outputs).size).toBe(1);
    expect(outputs[0]).toContain('ENOENT');
    expect(journalVerdicts(ws)).toEqual(['allow', 'coalesced', 'coalesced']);
  });

  it('run once through toolApproval, the duplicates denied with a note that the first answers them', async () => {
    const ws = workspace();
    const guard = guardFor(ws);
    const { model, prompts } = scriptedModel([readMissingThrice, { text: ANSWER }]);
    await generateText({
      model,
      tools: toolsFor(ws),
      prompt: 'What are the production settings?',
      toolApproval: guard.toolApproval,
      onToolExecutionEnd: guard.onToolExecutionEnd,
      prepareStep: guard.prepareStep,
      stopWhen: [isStepCount(5), guard.stopWhen],
    }).finally(() => guard.close());

    expect(ws.runs.read_file).toBe(1);
    const read = JSON.stringify(prompts[1]);
    expect(read).toContain('ENOENT');
    expect(read.match(/narrowing coalesced this call/g)).toHaveLength(2);
    expect(journalVerdicts(ws)).toEqual(['allow', 'coalesced', 'coalesced']);
  });

  it('count a coalesced step as no refusal: the next identical call is the second attempt, not a halt', async () => {
    const ws = workspace();
    const guard = guardFor(ws);
    const { model } = scriptedModel([
      readMissingThrice,
      { calls: [['read_file', { path: 'config/prod.yaml' }]] },
      { text: ANSWER },
    ]);
    await generateText({
      model,
      tools: guard.wrapTools(toolsFor(ws)),
      prompt: 'What are the production settings?',
      stopWhen: isStepCount(5),
    }).finally(() => guard.close());

    expect(journalVerdicts(ws)).toEqual(['allow', 'coalesced', 'coalesced', 'block']);
  });
});
