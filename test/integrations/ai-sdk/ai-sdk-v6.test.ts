import { generateText, stepCountIs, tool } from 'ai-v6';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForAiSdk } from '../../../src/integrations/ai-sdk/index.js';
import { codingWorkspace, FIXED_SUM, quiet, type Workspace } from '../support/workspace.js';
import { type ScriptStep, scriptedModelV3, toolResultsIn } from './scripted-model.js';

const workspaces: Workspace[] = [];
afterEach(() => {
  for (const workspace of workspaces.splice(0)) workspace.remove();
});

async function runAgent(ws: Workspace, script: readonly ScriptStep[]) {
  const guard = narrowingForAiSdk({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
  const { model, prompts } = scriptedModelV3(script);
  const tools = guard.wrapTools({
    read_file: tool({
      description: 'Read a file of the project',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => ws.readFile(path),
    }),
    edit_file: tool({
      description: 'Replace the content of a file',
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: async ({ path, content }) => ws.editFile(path, content),
    }),
    run_tests: tool({
      description: 'Run the test suite',
      inputSchema: z.object({}),
      execute: async () => ws.runTests(),
    }),
    fetch_url: tool({
      description: 'Fetch a URL',
      inputSchema: z.object({ url: z.string() }),
      execute: async ({ url }): Promise<string> => ws.fetchUrl(url),
    }),
  });
  try {
    const result = await generateText({
      model,
      tools,
      prompt: 'Fix the failing test.',
      stopWhen: [stepCountIs(10), guard.stopWhen],
    });
    return { result, prompts };
  } finally {
    await guard.close();
  }
}

const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;

describe('narrowing for the AI SDK 6, through wrapped tools', () => {
  it('refuses the second read of a missing file and the model reads why as a tool error', async () => {
    const ws = codingWorkspace();
    workspaces.push(ws);
    const { prompts } = await runAgent(ws, [
      { calls: [readMissing] },
      { calls: [readMissing] },
      { text: 'Gone.' },
    ]);

    expect(ws.runs.read_file).toBe(1);
    const [first, second] = toolResultsIn(prompts[2]);
    expect(first?.output).toMatchObject({ type: 'error-text', value: expect.stringContaining('ENOENT') });
    expect(second?.output).toMatchObject({
      type: 'error-text',
      value: expect.stringMatching(/^\[narrowing blocked this call \(identical-failure\)\] read_file/),
    });
  });

  it('lets an edit → test → edit → test cycle run untouched', async () => {
    const ws = codingWorkspace();
    workspaces.push(ws);
    const { result } = await runAgent(ws, [
      { calls: [['edit_file', { path: 'src/sum.js', content: 'export const sum = (a, b) => a * b;\n' }]] },
      { calls: [['run_tests', {}]] },
      { calls: [['edit_file', { path: 'src/sum.js', content: FIXED_SUM }]] },
      { calls: [['run_tests', {}]] },
      { text: 'Fixed.' },
    ]);

    expect(ws.runs).toEqual({ edit_file: 2, run_tests: 2 });
    expect(result.text).toBe('Fixed.');
  });

  it('learns nothing from a timeout: the same fetch runs again', async () => {
    const ws = codingWorkspace();
    workspaces.push(ws);
    const fetchDocs = ['fetch_url', { url: 'https://registry.example.com/pkg' }] as const;
    await runAgent(ws, [
      { calls: [fetchDocs] },
      { calls: [fetchDocs] },
      { calls: [fetchDocs] },
      { text: 'Down.' },
    ]);

    expect(ws.runs.fetch_url).toBe(3);
  });

  it('refuses in the next run, from the state file, what an earlier run learned', async () => {
    const ws = codingWorkspace();
    workspaces.push(ws);
    await runAgent(ws, [{ calls: [readMissing] }, { text: 'Missing.' }]);
    const { prompts } = await runAgent(ws, [{ calls: [readMissing] }, { text: 'Still missing.' }]);

    expect(ws.runs.read_file).toBe(1);
    expect(toolResultsIn(prompts[1]).at(-1)?.output).toMatchObject({
      type: 'error-text',
      value: expect.stringMatching(/^\[narrowing blocked this call/),
    });
  });
});
