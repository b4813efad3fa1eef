import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createAgent, createMiddleware, toolCallLimitMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { narrowingForLangChain } from '../../../src/integrations/langchain/index.js';
import { spiedSession } from '../support/spied-session.js';
import { FIXED_SUM, workspaceFactory } from '../support/workspace.js';
import { type ScriptStep, scriptedModel, toolMessagesIn } from './scripted-model.js';
import { runAgent, toolsOf } from './support.js';

const workspace = workspaceFactory();

const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;

describe('narrowing for LangChain', () => {
  it('refuses the second read of a missing file and the model reads why', async () => {
    const ws = workspace();
    const { model } = await runAgent(ws, [
      { calls: [readMissing] },
      { calls: [readMissing] },
      { text: 'Gone.' },
    ]);

    expect(ws.runs.read_file).toBe(1);
    expect(toolMessagesIn(model, 1)).toEqual([
      {
        name: 'read_file',
        text: expect.stringMatching(/^Error: ENOENT: no such file or directory, open '.*config\/prod\.yaml'/),
        status: 'error',
      },
    ]);
    expect(toolMessagesIn(model, 2)[1]).toEqual({
      name: 'read_file',
      text: expect.stringMatching(/^\[narrowing blocked this call \(identical-failure\)\] read_file/),
      status: 'error',
    });
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
    expect(toolMessagesIn(model, 4).some(({ text }) => text.includes('narrowing'))).toBe(false);
    expect(result.messages.at(-1)?.text).toBe('Fixed.');
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

  it('refuses in the next run, from the state file, what an earlier run learned', async () => {
    const ws = workspace();
    await runAgent(ws, [{ calls: [readMissing] }, { text: 'Missing.' }]);
    expect(existsSync(join(ws.stateDir, 'state.json'))).toBe(true);
    const { model } = await runAgent(ws, [{ calls: [readMissing] }, { text: 'Still missing.' }]);

    expect(ws.runs.read_file).toBe(1);
    expect(toolMessagesIn(model, 1).at(-1)?.text).toMatch(/^\[narrowing blocked this call/);
  });

  it('turns a thrown tool error into an error tool message, and invoke goes on', async () => {
    const ws = workspace();
    const { result, model } = await runAgent(ws, [{ calls: [['run_tests', {}]] }, { text: 'It fails.' }]);

    expect(toolMessagesIn(model, 1)).toEqual([
      {
        name: 'run_tests',
        text: 'Error: FAIL test/sum.test.js > sum adds two numbers: expected 3, received -1\nTests: 1 failed, 1 total',
        status: 'error',
      },
    ]);
    expect(result.messages.at(-1)?.text).toBe('It fails.');
  });

  it('records a failed call once and a refused call not at all', async () => {
    const ws = workspace();
    const { session, recorded } = spiedSession({ workspaceRoot: ws.dir, store: 'memory', probe: false });
    const guard = narrowingForLangChain(session);
    const model = scriptedModel([{ calls: [readMissing] }, { calls: [readMissing] }, { text: 'Gone.' }]);
    const agent = createAgent({ model, tools: toolsOf(ws), middleware: [guard.middleware] });
    await agent.invoke({ messages: [{ role: 'user', content: 'Read the config.' }] });
    await session.close();

    expect(
      recorded.map((outcome) => `${outcome.proposal.tool} ${outcome.success ? 'ok' : outcome.error}`),
    ).toEqual([expect.stringMatching(/^read_file ENOENT: no such file or directory/)]);
  });

  it('lets a repeated read run when enforcement is advisory, and the model reads the warning beside the error', async () => {
    const ws = workspace();
    const { model } = await runAgent(
      ws,
      [{ calls: [readMissing] }, { calls: [readMissing] }, { text: 'Gone.' }],
      {
        policy: { enforcement: 'advisory' },
      },
    );

    expect(ws.runs.read_file).toBe(2);
    const [answer, warning] = (toolMessagesIn(model, 2)[1]?.text ?? '').split('\n');
    expect(answer).toMatch(/^Error: ENOENT: no such file or directory/);
    expect(warning).toMatch(
      /^\[narrowing would have blocked this call; it runs because enforcement is advisory/,
    );
  });

  it('ends the run after its last turn when the model still calls tools, with the reason as the last message', async () => {
    const ws = workspace();
    const stubborn = [
      { calls: [readMissing] },
      ...Array.from({ length: 10 }, () => ({ calls: [readMissing, readMissing, readMissing] })),
    ];
    const { result, model } = await runAgent(ws, stubborn, {
      policy: { detectors: { convergence: { exhaustAfterBlocks: 2 } } },
    });

    expect(ws.runs.read_file).toBe(1);
    // Duplicates within a turn are coalesced, not refused: each turn adds one refusal, the third halts.
    expect(model.callCount).toBe(5);
    expect(result.messages.at(-2)?.text).toMatch(/^\[narrowing halted this call/);
    expect(result.messages.at(-1)?.text).toMatch(/^\[narrowing ended this run\] /);
  });

  it('halts the third refusal of the same call and the model answers in a turn without tools', async () => {
    const ws = workspace();
    const offered: string[][] = [];
    const recorder = createMiddleware({
      name: 'offered-tools',
      wrapModelCall: (request, handler) => {
        offered.push(request.tools.map((offeredTool) => String(offeredTool.name)));
        return handler(request);
      },
    });
    const read: ScriptStep = { calls: [readMissing] };
    const { result, model } = await runAgent(
      ws,
      [read, read, read, read, { text: 'config/prod.yaml does not exist.' }],
      { beside: [recorder] },
    );

    expect(ws.runs.read_file).toBe(1);
    expect(model.callCount).toBe(5);
    expect(offered[3]).toContain('read_file');
    expect(offered[4]).toEqual([]);
    expect(toolMessagesIn(model, 4).at(-1)?.text).toMatch(
      /^\[narrowing halted this call \(repeated-refusal\)\]/,
    );
    expect(result.messages.at(-1)?.text).toBe('config/prod.yaml does not exist.');
  });

  it('works beside toolCallLimitMiddleware: the limit answers the calls it stops, narrowing the rest', async () => {
    const ws = workspace();
    const { model } = await runAgent(
      ws,
      [
        { calls: [['run_tests', {}]] },
        { calls: [['run_tests', {}], readMissing] },
        { calls: [readMissing] },
        { text: 'Stuck.' },
      ],
      { beside: [toolCallLimitMiddleware({ toolName: 'run_tests', runLimit: 1 })] },
    );

    expect(ws.runs).toEqual({ run_tests: 1, read_file: 1 });
    const read = toolMessagesIn(model, 3).map(({ text }) => text.split('\n')[0]);
    expect(read).toEqual([
      expect.stringMatching(/^Error: FAIL test\/sum\.test\.js/),
      "Tool call limit exceeded. Do not call 'run_tests' again.",
      expect.stringMatching(/^Error: ENOENT/),
      expect.stringMatching(/^\[narrowing blocked this call \(identical-failure\)\] read_file/),
    ]);
  });
});
