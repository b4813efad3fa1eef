/**
 * `--otel` on the commands that run tools themselves: `narrowing-guard mcp` (the built command, with
 * the example SDK that prints spans on stderr) and `narrowing-guard agent` (in this process, with an
 * in-memory exporter registered globally).
 */
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgentCommand } from '../../src/cli/commands/agent.js';
import { scriptedServer } from '../agent/support/agent.js';
import { captureIO } from '../cli/commands/cli-io.js';
import { spawnProxy } from '../mcp/support/harness.js';
import { BIN, BUILT_CLI, PROBE_SERVER, REPO_ROOT } from '../mcp/support/paths.js';

const dirs: string[] = [];
afterEach(() => {
  trace.disable();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-cli-otel-')));
  dirs.push(dir);
  return dir;
}

/** The spans the example SDK printed, one JSON line each, among the proxy's own messages. */
function printedSpans(stderr: string): { name: string; attributes: Record<string, unknown> }[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

describe.runIf(existsSync(BUILT_CLI))('narrowing-guard mcp --otel', () => {
  it('prints an execute_tool span and its guardrail spans for a relayed call', async () => {
    const dir = project();
    const proxy = await spawnProxy(
      ['--otel', '--state-dir', join(dir, '.narrowing'), '--', process.execPath, PROBE_SERVER],
      {
        command: [process.execPath, BIN],
        env: { NODE_OPTIONS: `--import ${join(REPO_ROOT, 'examples', 'otel', 'stderr.mjs')}` },
      },
    );
    await proxy.client.callTool({ name: 'read_note', arguments: { name: 'q3-plan.md' } });
    expect(await proxy.close()).toBe(0);

    const spans = printedSpans(proxy.stderr());
    expect(spans.map((span) => span.name)).toEqual([
      'apply_guardrail narrowing',
      'apply_guardrail narrowing',
      'execute_tool read_note',
    ]);
    expect(spans[2]?.attributes).toMatchObject({
      'gen_ai.tool.name': 'read_note',
      'mcp.method.name': 'tools/call',
      'error.type': 'tool_error',
    });
  });

  it('emits nothing without --otel', async () => {
    const dir = project();
    const proxy = await spawnProxy(
      ['--state-dir', join(dir, '.narrowing'), '--', process.execPath, PROBE_SERVER],
      {
        command: [process.execPath, BIN],
        env: { NODE_OPTIONS: `--import ${join(REPO_ROOT, 'examples', 'otel', 'stderr.mjs')}` },
      },
    );
    await proxy.client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    await proxy.close();
    expect(printedSpans(proxy.stderr())).toEqual([]);
  });
});

describe('narrowing-guard agent --otel', () => {
  it('emits an execute_tool span for each tool call of the run', async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    const dir = project();
    writeFileSync(join(dir, 'README.md'), '# Demo\nA tiny project.\n');
    const server = await scriptedServer([
      { toolCalls: [{ name: 'echo', args: { text: 'hello' } }] },
      { text: 'It said hello.' },
    ]);
    const capture = captureIO({ env: { TEST_KEY: 'secret' } });
    const code = await runAgentCommand(
      'Say hello through echo.',
      {
        model: 'scripted',
        baseUrl: server.baseURL,
        apiKeyEnv: 'TEST_KEY',
        mcp: [`"${process.execPath}" "${PROBE_SERVER}"`],
        stream: true,
        stateDir: join(dir, '.narrowing'),
        maxSteps: 10,
        otel: true,
      },
      capture.io,
    );
    expect(code).toBe(0);
    const spans = exporter.getFinishedSpans();
    const tool = spans.find((span) => span.name === 'execute_tool echo');
    expect(tool?.attributes).toMatchObject({ 'gen_ai.tool.type': 'function', 'narrowing.verdict': 'allow' });
    expect(tool?.instrumentationScope.name).toBe('narrowing-guard');
    const children = spans.filter((span) => span.parentSpanContext?.spanId === tool?.spanContext().spanId);
    expect(children.map((span) => span.name)).toEqual([
      'apply_guardrail narrowing',
      'apply_guardrail narrowing',
    ]);
  });
});
