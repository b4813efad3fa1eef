import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { openGuardSync } from '../../src/guard/open.js';
import { loadOpenTelemetry } from '../../src/telemetry/load.js';
import { startToolSpan } from '../../src/telemetry/tool-spans.js';
import { cleanupsAfterEach, tempDir } from '../mcp/support/harness.js';

const cleanups = cleanupsAfterEach();

const MISSING_LINT =
  'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n';
const lint = { tool: 'Bash', args: { command: 'npm run lint' }, callId: 'toolu_01' };

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('test'), provider };
}

/** A project with a package.json that has no lint script, and a guard emitting spans to `tracer`. */
function guardWithSpans(otel: Parameters<typeof openGuardSync>[0]) {
  const dir = tempDir('narrowing-otel-');
  cleanups.push(dir.remove);
  writeFileSync(join(dir.path, 'package.json'), '{ "name": "shop", "scripts": { "test": "vitest run" } }\n');
  const guard = openGuardSync({
    workspaceRoot: dir.path,
    stateDir: join(dir.path, '.narrowing'),
    onProblem: () => undefined,
    ...otel,
  });
  cleanups.push(() => guard.close());
  return guard;
}

describe('verdict spans', () => {
  it('emits a guardrail span with a result event for a check that allows the call', () => {
    const { exporter, tracer } = tracing();
    const guard = guardWithSpans({ otel: { tracer } });
    guard.check(lint);
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('apply_guardrail narrowing');
    expect(span?.attributes).toMatchObject({
      'gen_ai.operation.name': 'apply_guardrail',
      'gen_ai.guardrail.source': 'tool_input',
      'gen_ai.guardrail.result.type': 'verdict',
      'gen_ai.guardrail.result.value': 'allow',
      'gen_ai.tool.name': 'Bash',
      'gen_ai.tool.call.id': 'toolu_01',
      'gen_ai.conversation.id': guard.sessionId,
    });
    expect(span?.events.map((event) => event.name)).toEqual(['gen_ai.guardrail.result']);
  });

  it('names the rule, the blame, the signature and the constraint behind a block', () => {
    const { exporter, tracer } = tracing();
    const guard = guardWithSpans({ otel: { tracer } });
    guard.check(lint);
    guard.record({ proposal: lint, success: false, content: MISSING_LINT, exitCode: 1 });
    const block = guard.check(lint);
    expect(block.verdict).toBe('block');
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(3);
    const learned = spans[1]!;
    expect(learned.attributes['gen_ai.guardrail.source']).toBe('tool_output');
    expect(learned.attributes['gen_ai.guardrail.result.value']).toBe('failure');
    expect(learned.attributes['narrowing.blame']).toBe('agent_failure');
    const constraintId = block.violations[0]?.constraint?.id;
    expect(constraintId).toBeDefined();
    expect(learned.attributes['narrowing.constraint.learned_ids']).toEqual([constraintId]);
    const result = spans[2]!.events[0]!;
    expect(result.name).toBe('gen_ai.guardrail.result');
    expect(result.attributes).toMatchObject({
      'gen_ai.guardrail.result.value': 'block',
      'narrowing.verdict': 'block',
      'narrowing.rule': block.rule,
      'gen_ai.guardrail.policy.rule.id': block.rule,
      'narrowing.blame': 'agent_failure',
      'narrowing.signature': block.violations[0]?.constraint?.signature,
      'narrowing.constraint.ids': [constraintId],
    });
  });

  it('puts nothing the tool printed into a span', () => {
    const { exporter, tracer } = tracing();
    const guard = guardWithSpans({ otel: { tracer } });
    guard.check(lint);
    guard.record({
      proposal: lint,
      success: false,
      content: `${MISSING_LINT}<script>x</script>`,
      exitCode: 1,
    });
    guard.check(lint);
    const text = JSON.stringify(exporter.getFinishedSpans().map((span) => [span.attributes, span.events]));
    expect(text).not.toContain('Missing script');
    expect(text).not.toContain('<script>');
  });

  it('uses the tracer provider an SDK registered globally when otel is true', async () => {
    const { exporter, provider } = tracing();
    trace.setGlobalTracerProvider(provider);
    try {
      const guard = guardWithSpans({ otel: true });
      guard.check(lint);
      await guard.close();
      expect(exporter.getFinishedSpans()[0]?.instrumentationScope.name).toBe('narrowing-guard');
    } finally {
      trace.disable();
    }
  });

  it('emits spans when the policy asks for them', () => {
    const { exporter, provider } = tracing();
    trace.setGlobalTracerProvider(provider);
    try {
      const guard = guardWithSpans({ policy: { otel: true } });
      guard.check(lint);
      expect(exporter.getFinishedSpans()).toHaveLength(1);
    } finally {
      trace.disable();
    }
  });

  it('keeps the verdict when the tracer throws', () => {
    const throwing = {
      startSpan: () => {
        throw new Error('exporter down');
      },
    };
    const guard = guardWithSpans({ otel: { tracer: throwing } });
    expect(guard.check(lint).verdict).toBe('allow');
  });

  it('refuses with DEPENDENCY_MISSING and says what to install when @opentelemetry/api is absent', () => {
    const missing = (name: string) => {
      throw Object.assign(new Error(`Cannot find module '${name}'`), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => loadOpenTelemetry(missing)).toThrow(
      expect.objectContaining({
        code: 'DEPENDENCY_MISSING',
        message: expect.stringContaining('npm install @opentelemetry/api'),
      }),
    );
  });
});

describe('tool spans', () => {
  it('names an execute_tool span after the tool and marks a failed call with error.type', () => {
    const { exporter, tracer } = tracing();
    const span = startToolSpan(tracer, { tool: 'read_file', callId: '7', type: 'extension' });
    span.end({ failed: true });
    const [finished] = exporter.getFinishedSpans();
    expect(finished?.name).toBe('execute_tool read_file');
    expect(finished?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_file',
      'gen_ai.tool.call.id': '7',
      'error.type': 'tool_error',
    });
    expect(finished?.status.code).toBe(2);
  });
});
