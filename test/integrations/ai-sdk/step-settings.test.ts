/**
 * What `prepareStep` changes before each step, through the SDK's own loop and mock models: the model
 * reads the warnings of `warn` verdicts beside the results they are about, and a tool the guard has
 * switched off for the run is no longer offered.
 */
import { generateText, isStepCount, tool } from 'ai';
import { generateText as generateTextV6, stepCountIs as stepCountIsV6, tool as toolV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { workspaceFactory } from '../support/workspace.js';
import { type ScriptStep, scriptedModel, scriptedModelV3, toolResultsIn } from './scripted-model.js';
import { guardFor, toolsFor } from './support.js';

const workspace = workspaceFactory();

const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;
const readTwice: ScriptStep[] = [{ calls: [readMissing] }, { calls: [readMissing] }, { text: 'Gone.' }];
const ADVISORY = { enforcement: 'advisory' };
/** The text of a tool result's output, as the model reads it. */
function outputText(result: { output: unknown } | undefined): string {
  return String((result?.output as { value?: unknown } | undefined)?.value ?? '');
}

const WARNING = /\n\[narrowing would have blocked this call; it runs because enforcement is advisory/;

describe('prepareStep in the AI SDK', () => {
  it('gives the model the warning of a call approved with a warn verdict, after its result (toolApproval)', async () => {
    const ws = workspace();
    const guard = guardFor(ws, {}, ADVISORY);
    const { model, prompts } = scriptedModel(readTwice);
    await generateText({
      model,
      tools: toolsFor(ws),
      prompt: 'Read the production config.',
      toolApproval: guard.toolApproval,
      onToolExecutionEnd: guard.onToolExecutionEnd,
      prepareStep: guard.prepareStep,
      stopWhen: [isStepCount(10), guard.stopWhen],
    }).finally(() => guard.close());

    expect(ws.runs.read_file).toBe(2);
    const [first, second] = toolResultsIn(prompts[2]);
    expect(JSON.stringify(first?.output)).not.toContain('narrowing would');
    expect(second?.output).toMatchObject({ type: 'error-text', value: expect.stringMatching(/ENOENT/) });
    expect(outputText(second)).toMatch(WARNING);
    expect(outputText(second).match(/narrowing would have blocked/g)).toHaveLength(1);
  });

  it('gives the model the warning through wrapped tools on the AI SDK 6', async () => {
    const ws = workspace();
    const guard = guardFor(ws, {}, ADVISORY);
    const { model, prompts } = scriptedModelV3([
      ...readTwice.slice(0, 2),
      { calls: [['run_tests', {}]] },
      { text: 'Done.' },
    ]);
    await generateTextV6({
      model,
      tools: guard.wrapTools({
        read_file: toolV6({
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => ws.readFile(path),
        }),
        run_tests: toolV6({ inputSchema: z.object({}), execute: async () => 'PASS' }),
      }),
      prompt: 'Read the production config.',
      prepareStep: guard.prepareStep,
      stopWhen: [stepCountIsV6(10), guard.stopWhen],
    }).finally(() => guard.close());

    expect(ws.runs.read_file).toBe(2);
    // The SDK 6 rebuilds the prompt every step: the warning is there once, in each later step.
    for (const prompt of [prompts[2], prompts[3]]) {
      const second = toolResultsIn(prompt)[1];
      expect(outputText(second)).toMatch(WARNING);
      expect(outputText(second).match(/narrowing would have blocked/g)).toHaveLength(1);
    }
  });

  it('stops offering a tool the guard has switched off for the run, and offers the others', async () => {
    const ws = workspace();
    const guard = guardFor(ws, {}, { detectors: { nonAdvancing: { emptyBlockAfter: 2 } } });
    const search = (query: string) => ['search_docs', { query }] as const;
    const { model, offered, prompts } = scriptedModel([
      { calls: [search('config loader')] },
      { calls: [search('settings reader')] },
      { calls: [search('yaml parser')] },
      { calls: [['read_file', { path: 'src/sum.js' }]] },
      { text: 'There are no docs about configuration.' },
    ]);
    await generateText({
      model,
      tools: {
        ...toolsFor(ws),
        search_docs: tool({
          description: 'Search the documentation',
          inputSchema: z.object({ query: z.string() }),
          execute: async () => 'No matches found.',
        }),
      },
      prompt: 'How is the configuration loaded?',
      toolApproval: guard.toolApproval,
      onToolExecutionEnd: guard.onToolExecutionEnd,
      prepareStep: guard.prepareStep,
      stopWhen: [isStepCount(10), guard.stopWhen],
    }).finally(() => guard.close());

    expect(JSON.stringify(toolResultsIn(prompts[3]).at(-1)?.output)).toContain('non-advancing');
    expect(offered[2]).toContain('search_docs');
    expect(offered[3]).toEqual(['read_file', 'edit_file', 'run_tests', 'fetch_url']);
    expect(offered[4]).toEqual(['read_file', 'edit_file', 'run_tests', 'fetch_url']);
  });
});
