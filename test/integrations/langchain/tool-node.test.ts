/**
 * A graph built by hand with LangGraph's own `ToolNode` and `StateGraph` loop, outside `createAgent`:
 * `guard.tools(tools)` puts the guard around each call the node makes, and `guard.stage(messages)`
 * tells the graph's model node and router when a halted run owes the model its answer and ends.
 */
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { type BaseMessage, tool } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { narrowingForLangChain } from '../../../src/integrations/langchain/index.js';
import { journalVerdicts, quiet, type Workspace, workspaceFactory } from '../support/workspace.js';
import { type ScriptStep, scriptedModel, toolMessagesIn } from './scripted-model.js';
import { toolsOf } from './support.js';

const workspace = workspaceFactory();
const readMissing = ['read_file', { path: 'config/prod.yaml' }] as const;
const read: ScriptStep = { calls: [readMissing] };

/** The graph of LangGraph's documentation: a model node, a `ToolNode`, and a router between them. */
async function runGraph(ws: Workspace, script: readonly ScriptStep[]) {
  const guard = narrowingForLangChain({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
  const model = scriptedModel(script);
  /** Whether the model was offered the tools, turn by turn (a model node binds them or not). */
  const offered: boolean[] = [];
  const callModel = async ({ messages }: typeof MessagesAnnotation.State) => {
    offered.push(guard.stage(messages) === 'tools');
    return { messages: [await model.invoke(messages)] };
  };
  const route = ({ messages }: typeof MessagesAnnotation.State) => {
    const last = messages.at(-1) as BaseMessage & { tool_calls?: unknown[] };
    if (!last.tool_calls?.length || guard.stage(messages) === 'end') return END;
    return 'tools';
  };
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', callModel)
    .addNode('tools', new ToolNode(guard.tools(toolsOf(ws))))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', route, ['tools', END])
    .addEdge('tools', 'agent')
    .compile();
  try {
    const result = await graph.invoke(
      { messages: [{ role: 'user', content: 'Read the production config.' }] },
      { recursionLimit: 40 },
    );
    return { result, model, offered };
  } finally {
    await guard.close();
  }
}

describe('a hand-built LangGraph with guard.tools() in its ToolNode', () => {
  it('refuses the second read of a missing file and the model reads why', async () => {
    const ws = workspace();
    const { model } = await runGraph(ws, [read, read, { text: 'Gone.' }]);

    expect(ws.runs.read_file).toBe(1);
    const [first, second] = toolMessagesIn(model, 2);
    expect(first).toMatchObject({ status: 'error', text: expect.stringMatching(/^Error: ENOENT/) });
    expect(second).toMatchObject({
      status: 'error',
      text: expect.stringMatching(/^\[narrowing blocked this call \(identical-failure\)\] read_file/),
    });
  });

  it('lets an edit → test → edit cycle run untouched', async () => {
    const ws = workspace();
    const edit = (content: string) => ({ calls: [['edit_file', { path: 'src/sum.js', content }] as const] });
    await runGraph(ws, [
      edit('export const sum = (a, b) => a * b;\n'),
      { calls: [['run_tests', {}]] },
      edit('export const sum = (a, b) => a + b;\n'),
      { text: 'Fixed.' },
    ]);

    expect(ws.runs).toEqual({ edit_file: 2, run_tests: 1 });
  });

  it('halts the third refusal, the model answering in a turn without tools, and the graph ends', async () => {
    const ws = workspace();
    const { result, model, offered } = await runGraph(ws, [read, read, read, read, read, read]);

    expect(ws.runs.read_file).toBe(1);
    expect(offered).toEqual([true, true, true, true, false]);
    expect(toolMessagesIn(model, 4).at(-1)?.text).toMatch(
      /^\[narrowing halted this call \(repeated-refusal\)\]/,
    );
    // The model called a tool in its last turn anyway: the router ended the run instead.
    expect(model.callCount).toBe(5);
    expect(result.messages.at(-1)?.type).toBe('ai');
  });

  it('runs identical calls of one turn once, the duplicates recorded as coalesced', async () => {
    const ws = workspace();
    const { model } = await runGraph(ws, [
      { calls: [readMissing, readMissing, readMissing] },
      { text: 'Gone.' },
    ]);

    expect(ws.runs.read_file).toBe(1);
    expect(toolMessagesIn(model, 1).map(({ text }) => text.split(':')[0])).toEqual(Array(3).fill('Error'));
    expect(journalVerdicts(ws)).toEqual(['allow', 'coalesced', 'coalesced']);
  });

  it('leaves a direct call of a guarded tool, outside a tool node, unguarded and unchanged', async () => {
    const ws = workspace();
    const guard = narrowingForLangChain({ workspaceRoot: ws.dir, stateDir: ws.stateDir, onProblem: quiet });
    const echo = tool(({ text }) => `echo ${text}`, {
      name: 'echo',
      description: 'Say it back',
      schema: z.object({ text: z.string() }),
    });
    const [guarded] = guard.tools([echo]);
    await guard.close();

    expect(await guarded?.invoke({ text: 'hi' })).toBe('echo hi');
    expect(guarded?.name).toBe('echo');
  });
});
