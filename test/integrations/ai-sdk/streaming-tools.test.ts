/**
 * Tools whose `execute` is an `async function*` (the SDK's streaming tools), wrapped: they stay
 * streams, the model reads their last value, and the guard learns from that value.
 */
import { generateText, isStepCount, tool } from 'ai';
import { generateText as generateTextV6, stepCountIs as stepCountIsV6, tool as toolV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForAiSdk } from '../../../src/integrations/ai-sdk/index.js';
import { quiet, type Workspace, workspaceFactory } from '../support/workspace.js';
import { type ScriptStep, scriptedModel, scriptedModelV3, toolResultsIn } from './scripted-model.js';

const workspace = workspaceFactory();

const readTwice: ScriptStep[] = [
  { calls: [['read_file', { path: 'src/sum.js' }]] },
  { calls: [['read_file', { path: 'config/prod.yaml' }]] },
  { calls: [['read_file', { path: 'config/prod.yaml' }]] },
  { text: 'Done.' },
];

/** Reports progress, then the file's text (or throws the read's real error). */
function streamingRead(ws: Workspace) {
  return async function* ({ path }: { path: string }) {
    yield `reading ${path}…`;
    yield ws.readFile(path);
  };
}

describe('streaming tools wrapped for the AI SDK', () => {
  it('runs the stream on ai 7, the model reads its last value, and a repeated failure is refused', async () => {
    const ws = workspace();
    const guard = narrowingForAiSdk({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
    const { model, prompts } = scriptedModel(readTwice);
    await generateText({
      model,
      tools: guard.wrapTools({
        read_file: tool({ inputSchema: z.object({ path: z.string() }), execute: streamingRead(ws) }),
      }),
      prompt: 'Read the files.',
      stopWhen: [isStepCount(10), guard.stopWhen],
    }).finally(() => guard.close());

    expect(ws.runs.read_file).toBe(2);
    const results = toolResultsIn(prompts[3]);
    expect(JSON.stringify(results[0]?.output)).toContain('export const sum');
    expect(JSON.stringify(results[1]?.output)).toContain('ENOENT');
    expect(JSON.stringify(results[2]?.output)).toContain('narrowing blocked this call');
  });

  it('runs the stream on ai 6 without a clone error, and learns from its last value', async () => {
    const ws = workspace();
    const guard = narrowingForAiSdk({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
    const { model, prompts } = scriptedModelV3(readTwice);
    await generateTextV6({
      model,
      tools: guard.wrapTools({
        read_file: toolV6({ inputSchema: z.object({ path: z.string() }), execute: streamingRead(ws) }),
      }),
      prompt: 'Read the files.',
      stopWhen: [stepCountIsV6(10), guard.stopWhen],
    }).finally(() => guard.close());

    expect(ws.runs.read_file).toBe(2);
    const results = toolResultsIn(prompts[3]);
    expect(JSON.stringify(results[0]?.output)).toContain('export const sum');
    expect(JSON.stringify(results[2]?.output)).toContain('narrowing blocked this call');
  });
});
