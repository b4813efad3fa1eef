import { Agent, Runner, tool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForAgents } from '../../../src/integrations/openai-agents/index.js';
import { spiedSession } from '../support/spied-session.js';
import { FIXED_SUM, workspaceFactory } from '../support/workspace.js';
import { ScriptedModel, type ScriptStep, toolOutputsIn } from './scripted-model.js';
import { runAgent } from './support.js';

const workspace = workspaceFactory();

const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;

describe('narrowing for the OpenAI Agents SDK', () => {
  it('rejects the second read of a missing file and the model reads why', async () => {
    const ws = workspace();
    const { model } = await runAgent(ws, [
      { calls: [readMissing] },
      { calls: [readMissing] },
      { text: 'Gone.' },
    ]);

    expect(ws.runs.read_file).toBe(1);
    const [first, second] = toolOutputsIn(model.inputs[2]);
    expect(first?.text).toMatch(/^Error: ENOENT: no such file or directory, open '.*config\/prod\.yaml'/);
    expect(second?.text).toMatch(/^\[narrowing blocked this call \(identical-failure\)\] read_file/);
  });

  it('lets an edit → test → edit → test cycle run untouched', async () => {
    const ws = workspace();
    const { result, model } = await runAgent(ws, [
      { calls: [['edit_file', { path: 'src/sum.js', content: 'export const sum = (a, b) => a * b;\n' }]] },
      { calls: [['run_tests', {}]] },
      { calls: [['edit_file', { path: 'src/sum.js', content: FIXED_SUM }]] },
      { calls: [['run_tests', {}]] },
      { text: 'Fixed.' },
    ]);

    expect(ws.runs).toEqual({ edit_file: 2, run_tests: 2 });
    expect(toolOutputsIn(model.inputs[4]).some(({ text }) => text.includes('narrowing'))).toBe(false);
    expect(result.finalOutput).toBe('Fixed.');
  });

  it('learns nothing from a timeout: the same fetch runs again', async () => {
    const ws = workspace();
    const fetchDocs = ['fetch_url', { url: 'https://registry.example.com/pkg' }] as const;
    await runAgent(ws, [
      { calls: [fetchDocs] },
      { calls: [fetchDocs] },
      { calls: [fetchDocs] },
      { text: 'Down.' },
    ]);

    expect(ws.runs.fetch_url).toBe(3);
  });

  it('rejects in the next run, from the state file, what an earlier run learned', async () => {
    const ws = workspace();
    await runAgent(ws, [{ calls: [readMissing] }, { text: 'Missing.' }]);
    const { model } = await runAgent(ws, [{ calls: [readMissing] }, { text: 'Still missing.' }]);

    expect(ws.runs.read_file).toBe(1);
    expect(toolOutputsIn(model.inputs[1]).at(-1)?.text).toMatch(/^\[narrowing blocked this call/);
  });

  it('records a failed call once and a rejected call not at all', async () => {
    const ws = workspace();
    const { session, recorded } = spiedSession({ workspaceRoot: ws.dir, store: 'memory', probe: false });
    const guard = narrowingForAgents(session);
    const model = new ScriptedModel([{ calls: [readMissing] }, { calls: [readMissing] }, { text: 'Gone.' }]);
    const readFile = tool({
      name: 'read_file',
      description: 'Read a file',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => ws.readFile(path),
      ...guard.toolOptions,
    });
    const runner = new Runner({ tracingDisabled: true });
    runner.on('agent_tool_end', guard.onToolEnd);
    await runner.run(new Agent({ name: 'coder', model, tools: [readFile] }), 'Read the config.');
    await session.close();

    expect(
      recorded.map((outcome) => `${outcome.proposal.tool} ${outcome.success ? 'ok' : outcome.error}`),
    ).toEqual([expect.stringMatching(/^read_file ENOENT: no such file or directory/)]);
  });

  it('ends the run with the model answer, written without tools, once nothing is left to try', async () => {
    const ws = workspace();
    const stubborn: ScriptStep[] = [{ calls: [readMissing] }, { calls: [readMissing] }, { text: 'Gone.' }];
    const { result, model } = await runAgent(ws, stubborn, {
      policy: { detectors: { convergence: { exhaustAfterBlocks: 1 } } },
    });

    expect(result.finalOutput).toBe('Gone.');
    expect(model.offered.at(-1)).toEqual([]);
    expect(ws.runs.read_file).toBe(1);
  });

  it('halts the third refusal of the same call, and the model answers without tools', async () => {
    const ws = workspace();
    const stubborn: ScriptStep[] = [
      { calls: [readMissing] },
      { calls: [readMissing] },
      { calls: [readMissing] },
      { calls: [readMissing] },
      { text: 'config/prod.yaml does not exist.' },
    ];
    const { result, model } = await runAgent(ws, stubborn);

    expect(result.finalOutput).toBe('config/prod.yaml does not exist.');
    expect(model.inputs).toHaveLength(5);
    expect(model.offered[3]).toContain('read_file');
    expect(model.offered[4]).toEqual([]);
    expect(toolOutputsIn(model.inputs[4]).at(-1)?.text).toMatch(
      /^\[narrowing halted this call \(repeated-refusal\)\] read_file/,
    );
    expect(ws.runs.read_file).toBe(1);
  });

  it('halts a streamed run the same way, ending with the answer written without tools', async () => {
    const ws = workspace();
    const read: ScriptStep = { calls: [readMissing] };
    const { result, model } = await runAgent(ws, [read, read, read, read, { text: 'Missing.' }], {
      stream: true,
    });

    expect(result.finalOutput).toBe('Missing.');
    expect(model.offered).toHaveLength(5);
    expect(model.offered[4]).toEqual([]);
  });
});
