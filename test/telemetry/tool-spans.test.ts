import { join } from 'node:path';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createAgent, defineTool } from '../../src/agent/index.js';
import { openGuardSync } from '../../src/guard/open.js';
import { eventLog, modelOn, scriptedServer } from '../agent/support/agent.js';
import {
  cleanupsAfterEach,
  connectModernClient,
  nodeServer,
  startInProcess,
  startOnPipes,
  tempDir,
} from '../mcp/support/harness.js';
import { PROBE_SERVER } from '../mcp/support/paths.js';

const cleanups = cleanupsAfterEach();

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('test') };
}

/** A guard with its state in a folder of the test's own, emitting spans to `tracer`. */
function guardWithSpans(tracer: ReturnType<typeof tracing>['tracer']) {
  const dir = tempDir('narrowing-tool-spans-');
  cleanups.push(dir.remove);
  return openGuardSync({ stateDir: join(dir.path, 'state'), onProblem: () => undefined, otel: { tracer } });
}

const toolSpans = (spans: readonly ReadableSpan[]) =>
  spans.filter((span) => span.name.startsWith('execute_tool'));
const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
const sourceOf = (span: ReadableSpan) => span.attributes['gen_ai.guardrail.source'];

const readMissingNote = { name: 'read_note', arguments: { name: 'q3-plan.md' } };

describe('tool spans in the MCP proxy', () => {
  it('puts a relayed call in an execute_tool span whose children are the check and the record', async () => {
    const { exporter, tracer } = tracing();
    const proxy = await startInProcess({ target: nodeServer(PROBE_SERVER), guard: guardWithSpans(tracer) });
    cleanups.push(() => proxy.close());

    await proxy.client.callTool(readMissingNote);

    const spans = exporter.getFinishedSpans();
    const [tool] = toolSpans(spans);
    expect(tool?.name).toBe('execute_tool read_note');
    expect(tool?.kind).toBe(0);
    expect(tool?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_note',
      'gen_ai.tool.type': 'extension',
      'mcp.method.name': 'tools/call',
      'narrowing.verdict': 'allow',
      'narrowing.blame': 'agent_failure',
      'error.type': 'tool_error',
    });
    expect(tool?.attributes['jsonrpc.request.id']).toBe(tool?.attributes['gen_ai.tool.call.id']);
    expect(tool?.status.code).toBe(2);
    expect(childrenOf(spans, tool!).map(sourceOf)).toEqual(['tool_input', 'tool_output']);
  });

  it('ends the span of a blocked call with error.type refused and the check as its only child', async () => {
    const { exporter, tracer } = tracing();
    const proxy = await startInProcess({ target: nodeServer(PROBE_SERVER), guard: guardWithSpans(tracer) });
    cleanups.push(() => proxy.close());

    for (let attempt = 0; attempt < 3; attempt += 1) await proxy.client.callTool(readMissingNote);

    const spans = exporter.getFinishedSpans();
    const refused = toolSpans(spans).find((span) => span.attributes['narrowing.verdict'] === 'block');
    expect(refused?.attributes['error.type']).toBe('refused');
    expect(refused?.attributes['narrowing.rule']).toBeDefined();
    const [check] = childrenOf(spans, refused!);
    expect(childrenOf(spans, refused!)).toHaveLength(1);
    expect(check?.events[0]?.attributes?.['gen_ai.guardrail.result.value']).toBe('block');
  });

  it('names a JSON-RPC error the server answers with by its code', async () => {
    const { exporter, tracer } = tracing();
    const proxy = await startInProcess({ target: nodeServer(PROBE_SERVER), guard: guardWithSpans(tracer) });
    cleanups.push(() => proxy.close());

    await expect(proxy.client.callTool({ name: 'reject', arguments: {} })).rejects.toThrow(/depth/);

    const [tool] = toolSpans(exporter.getFinishedSpans());
    expect(tool?.attributes['error.type']).toBe('-32602');
  });

  it('traces calls on the SDK path of a 2026-era session the same way', async () => {
    const { exporter, tracer } = tracing();
    const proxy = startOnPipes({ target: nodeServer(PROBE_SERVER), guard: guardWithSpans(tracer) });
    const client = await connectModernClient(proxy);
    cleanups.push(async () => {
      await client.close();
      await proxy.done;
    });

    await client.callTool({ name: 'echo', arguments: { text: 'hello' } });

    const spans = exporter.getFinishedSpans();
    const [tool] = toolSpans(spans);
    expect(tool?.name).toBe('execute_tool echo');
    expect(tool?.attributes['error.type']).toBeUndefined();
    expect(tool?.status.code).toBe(0);
    expect(childrenOf(spans, tool!).map(sourceOf)).toEqual(['tool_input', 'tool_output']);
  });

  it("continues the trace a client sent in the call's _meta", async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    cleanups.push(() => propagation.disable());
    const { exporter, tracer } = tracing();
    const proxy = await startInProcess({ target: nodeServer(PROBE_SERVER), guard: guardWithSpans(tracer) });
    cleanups.push(() => proxy.close());
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const clientSpanId = '00f067aa0ba902b7';

    await proxy.client.callTool({
      name: 'echo',
      arguments: { text: 'hello' },
      _meta: { traceparent: `00-${traceId}-${clientSpanId}-01` },
    });

    const [tool] = toolSpans(exporter.getFinishedSpans());
    expect(tool?.spanContext().traceId).toBe(traceId);
    expect(tool?.parentSpanContext?.spanId).toBe(clientSpanId);
  });

  it('emits no tool span when telemetry is off', async () => {
    const dir = tempDir('narrowing-tool-spans-');
    cleanups.push(dir.remove);
    const guard = openGuardSync({ stateDir: join(dir.path, 'state'), onProblem: () => undefined });
    // Closed before its folder is removed: its journal and state file are written on close, not after.
    cleanups.push(() => guard.close());
    expect(guard.toolCalls).toBeUndefined();
  });
});

describe('tool spans in the agent loop', () => {
  const readFile = defineTool({
    name: 'read_file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    annotations: { readOnlyHint: true },
    execute: ({ path }) => ({ error: `ENOENT: no such file or directory, open '${String(path)}'` }),
  });

  it('puts each tool call of a run in an execute_tool span with its check and record as children', async () => {
    const { exporter, tracer } = tracing();
    const read = { toolCalls: [{ name: 'read_file', args: { path: 'src/missing.ts' } }] };
    const server = await scriptedServer([read, read, read, { text: 'The file does not exist.' }]);
    const log = eventLog();
    const dir = tempDir('narrowing-tool-spans-');
    cleanups.push(dir.remove);
    const agent = await createAgent({
      model: modelOn(server),
      tools: [readFile],
      guard: { stateDir: join(dir.path, 'state'), workspaceRoot: dir.path, otel: { tracer } },
      onEvent: log.onEvent,
    });
    // Closed before its folder is removed: the guard it opened saves its state on close, not after.
    cleanups.push(() => agent.close());

    await agent.run('Read src/missing.ts.');

    const spans = exporter.getFinishedSpans();
    const tools = toolSpans(spans);
    const statuses = log.ofType('tool-result').map((event) => event.status);
    expect(tools).toHaveLength(statuses.length);
    expect(tools[0]?.attributes).toMatchObject({
      'gen_ai.tool.name': 'read_file',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': log.ofType('tool-call')[0]?.toolCallId,
      'error.type': 'tool_error',
    });
    expect(childrenOf(spans, tools[0]!).map(sourceOf)).toEqual(['tool_input', 'tool_output']);
    expect(statuses).toContain('refused');
    const refused = tools[statuses.indexOf('refused')];
    expect(refused?.attributes['error.type']).toBe('refused');
    expect(childrenOf(spans, refused!).map(sourceOf)).toEqual(['tool_input']);
  });
});
