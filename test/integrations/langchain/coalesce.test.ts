/**
 * Identical calls in one model turn, through `createAgent` (whose tool node runs them together) and
 * LangChain's fake model: the tool runs once and the duplicates are recorded as coalesced.
 */
import { describe, expect, it } from 'vitest';
import { journalVerdicts, workspaceFactory } from '../support/workspace.js';
import { toolMessagesIn } from './scripted-model.js';
import { runAgent } from './support.js';

const workspace = workspaceFactory();
const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;

describe('parallel duplicates in LangChain', () => {
  it('run once, each duplicate answered with the first one’s error under its own call id', async () => {
    const ws = workspace();
    const { model } = await runAgent(ws, [
      { calls: [readMissing, readMissing, readMissing] },
      { text: 'config/prod.yaml does not exist.' },
    ]);

    expect(ws.runs.read_file).toBe(1);
    const read = toolMessagesIn(model, 1);
    expect(read).toHaveLength(3);
    expect(new Set(read.map((message) => message.text)).size).toBe(1);
    expect(read[0]).toMatchObject({ status: 'error', text: expect.stringContaining('ENOENT') });
    expect(journalVerdicts(ws)).toEqual(['allow', 'coalesced', 'coalesced']);
  });

  it('edit a file once when the model asks twice in one turn', async () => {
    const ws = workspace();
    const edit = ['edit_file', { path: 'notes.md', content: '# Notes\n' }] as const;
    await runAgent(ws, [{ calls: [edit, edit] }, { text: 'Written.' }]);

    expect(ws.runs.edit_file).toBe(1);
    expect(journalVerdicts(ws)).toEqual(['allow', 'coalesced']);
  });
});
