/**
 * The ways in besides the bare spread, through the SDK's own runner and a scripted model:
 * `guard.tool(options)` builds each tool with the guard composed in, `guard.agent(agent)` guards
 * the tools of an agent already built. Plain and streamed runs block and halt alike.
 */
import { ModelBehaviorError } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { workspaceFactory } from '../support/workspace.js';
import { type ScriptStep, toolOutputsIn } from './scripted-model.js';
import { runAgent } from './support.js';

const workspace = workspaceFactory();
const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;
const read: ScriptStep = { calls: [readMissing] };

describe.each(['tool', 'agent', 'spread'] as const)('the guard wired through %s', (wiring) => {
  it.each([false, true])('rejects the second read of a missing file (streamed: %s)', async (stream) => {
    const ws = workspace();
    const { model, result } = await runAgent(ws, [read, read, { text: 'Gone.' }], { wiring, stream });

    expect(result.finalOutput).toBe('Gone.');
    expect(ws.runs.read_file).toBe(1);
    const [first, second] = toolOutputsIn(model.inputs[2]);
    expect(first?.text).toMatch(/^Error: ENOENT: no such file or directory/);
    expect(second?.text).toMatch(/^\[narrowing blocked this call \(identical-failure\)\] read_file/);
  });

  it.each([false, true])(
    'halts the third refusal, the model answering without tools (streamed: %s)',
    async (stream) => {
      const ws = workspace();
      const { model, result, guard } = await runAgent(ws, [read, read, read, read, { text: 'Missing.' }], {
        wiring,
        stream,
      });

      expect(result.finalOutput).toBe('Missing.');
      expect(model.offered).toHaveLength(5);
      expect(model.offered[3]).toContain('read_file');
      expect(model.offered[4]).toEqual([]);
      expect(toolOutputsIn(model.inputs[4]).at(-1)?.text).toMatch(
        /^\[narrowing halted this call \(repeated-refusal\)\]/,
      );
      expect(guard.halted).toBe(true);
      expect(ws.runs.read_file).toBe(1);
    },
  );
});

describe('a model that calls a tool after the halt, when none is offered', () => {
  it('makes the SDK throw ModelBehaviorError, and guard.halted says the guard halted the run', async () => {
    const ws = workspace();
    let thrown: unknown;
    let halted = false;
    try {
      await runAgent(ws, [read, read, read, read, read, { text: 'Never reached.' }], {
        wiring: 'tool',
        onGuard: (guard) => () => {
          halted = guard.halted;
        },
      });
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(ModelBehaviorError);
    expect((thrown as Error).message).toBe('Tool read_file not found in agent coder.');
    expect(halted).toBe(true);
  });
});
