/**
 * Identical calls in one model response, through the SDK's own runner (which runs them together)
 * and a scripted model: the tool runs once and the duplicates are recorded as coalesced.
 */
import { describe, expect, it } from 'vitest';
import { journalVerdicts, workspaceFactory } from '../support/workspace.js';
import { toolOutputsIn } from './scripted-model.js';
import { runAgent } from './support.js';

const workspace = workspaceFactory();
const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;

describe('parallel duplicates in the OpenAI Agents SDK', () => {
  it('run once, each duplicate reading the first one’s error', async () => {
    const ws = workspace();
    const { model, result } = await runAgent(ws, [
      { calls: [readMissing, readMissing, readMissing] },
      { text: 'config/prod.yaml does not exist.' },
    ]);

    expect(result.finalOutput).toBe('config/prod.yaml does not exist.');
    expect(ws.runs.read_file).toBe(1);
    const outputs = toolOutputsIn(model.inputs[1]).map((output) => output.text);
    expect(outputs).toHaveLength(3);
    expect(new Set(outputs).size).toBe(1);
    expect(outputs[0]).toMatch(/ENOENT/);
    expect(journalVerdicts(ws)).toEqual(['allow', 'coalesced', 'coalesced']);
  });

  it('run them once in a streamed run too', async () => {
    const ws = workspace();
    await runAgent(
      ws,
      [{ calls: [readMissing, readMissing] }, { text: 'config/prod.yaml does not exist.' }],
      { stream: true },
    );

    expect(ws.runs.read_file).toBe(1);
    expect(journalVerdicts(ws)).toEqual(['allow', 'coalesced']);
  });
});
