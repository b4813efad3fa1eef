/**
 * The hook's verdict spans as an OpenTelemetry Collector receives them: the built CLI runs with the
 * example SDK set-up (`examples/otel/otlp.mjs`, the OTLP/HTTP exporter), and a receiver on loopback
 * takes the export requests on the Collector's path (`POST /v1/traces`) and decodes the OTLP JSON
 * body, which is exactly what a Collector's `otlp` receiver would be handed.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stopDaemons } from '../../src/hooks/daemon-client.js';

const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'bin', 'narrowing.js');
const OTLP_SETUP = `--import ${join(root, 'examples', 'otel', 'otlp.mjs')}`;
const MISSING_LINT =
  'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run';

/** One OTLP attribute value (`AnyValue`) as a plain value. */
type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  events?: { name: string; attributes?: KeyValue[] }[];
}
interface ExportTraceServiceRequest {
  resourceSpans: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans: { scope?: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

function plain(value: AnyValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}
const attributes = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

/** A span as received, with its resource and scope, attributes decoded. */
interface ReceivedSpan {
  readonly service: unknown;
  readonly scope: string | undefined;
  readonly traceId: string;
  readonly spanId: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
  readonly events: { name: string; attributes: Record<string, unknown> }[];
}

/** Listens on loopback as a Collector's OTLP/HTTP receiver does; keeps every span it is sent. */
function otlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const requests: { method: string; path: string; contentType: string }[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
      });
      const decoded = JSON.parse(body) as ExportTraceServiceRequest;
      for (const resourceSpans of decoded.resourceSpans) {
        const service = attributes(resourceSpans.resource?.attributes)['service.name'];
        for (const scopeSpans of resourceSpans.scopeSpans)
          for (const span of scopeSpans.spans)
            spans.push({
              service,
              scope: scopeSpans.scope?.name,
              traceId: span.traceId,
              spanId: span.spanId,
              name: span.name,
              kind: span.kind,
              attributes: attributes(span.attributes),
              events: (span.events ?? []).map((event) => ({
                name: event.name,
                attributes: attributes(event.attributes),
              })),
            });
      }
      // The Collector's answer to a fully accepted export.
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return {
    spans,
    requests,
    listen: () =>
      new Promise<string>((done) =>
        server.listen(0, '127.0.0.1', () => {
          done(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`);
        }),
      ),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

const receiver = otlpReceiver();
let endpoint = '';
beforeAll(async () => {
  endpoint = await receiver.listen();
});
afterAll(() => receiver.close());

const projects: string[] = [];
afterEach(async () => {
  receiver.spans.splice(0);
  receiver.requests.splice(0);
  for (const dir of projects.splice(0)) {
    await stopDaemons(join(dir, '.narrowing'));
    rmSync(dir, { recursive: true, force: true });
  }
});

function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-otlp-')));
  projects.push(dir);
  writeFileSync(join(dir, 'package.json'), '{ "name": "shop", "scripts": { "test": "vitest run" } }\n');
  return dir;
}

/** The hook run as Claude Code runs it, its SDK sending to the receiver (never waits on the receiver). */
function hook(
  dir: string,
  args: string[],
  fields: object,
  collector = endpoint,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // A deadline of 20 s unless the test sets one: on a loaded machine a hook process alone can take
  // longer than the default 5 s, and a hook past its deadline exits without its spans.
  const deadline = args.includes('--deadline-ms') ? [] : ['--deadline-ms', '20000'];
  const child = spawn(
    process.execPath,
    [bin, 'hook', 'claude-code', ...args, ...deadline, '--idle-ms', '5000'],
    {
      cwd: dir,
      env: {
        ...process.env,
        CLAUDE_PROJECT_DIR: dir,
        NODE_OPTIONS: OTLP_SETUP,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector,
        OTEL_SERVICE_NAME: 'claude-code-hook',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  child.stdin.end(
    JSON.stringify({
      session_id: 'cc-otlp',
      cwd: dir,
      tool_name: 'Bash',
      tool_input: { command: 'npm run lint' },
      ...fields,
    }),
  );
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    }),
  );
}

/** A failed `npm run lint`, then the same command again: the second is blocked. */
async function failThenRetry(dir: string, args: string[], collector = endpoint) {
  await hook(dir, args, { hook_event_name: 'PreToolUse', tool_use_id: 'toolu_01' }, collector);
  await hook(
    dir,
    args,
    { hook_event_name: 'PostToolUseFailure', tool_use_id: 'toolu_01', error: MISSING_LINT },
    collector,
  );
  return hook(dir, args, { hook_event_name: 'PreToolUse', tool_use_id: 'toolu_02' }, collector);
}

/** An OTLP endpoint on loopback where nothing listens any more: connections are refused. */
async function closedEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return `http://127.0.0.1:${port}/v1/traces`;
}

const checkOf = (callId: string) =>
  receiver.spans.find(
    (span) =>
      span.attributes['gen_ai.tool.call.id'] === callId &&
      span.attributes['gen_ai.guardrail.source'] === 'tool_input',
  );

// Each test runs up to four hook processes, each a few seconds on a loaded machine.
describe.runIf(existsSync(join(root, 'dist', 'hooks', 'hook.js')))(
  'hook spans over OTLP/HTTP',
  { timeout: 90_000 },
  () => {
    it('is what the README and the visibility guide show', () => {
      const command =
        'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://localhost:4318/v1/traces NODE_OPTIONS="--import ./examples/otel/otlp.mjs" npx narrowing-guard hook claude-code --otel';
      for (const doc of ['README.md', join('docs', 'visibility.md')])
        expect(readFileSync(join(root, doc), 'utf8')).toContain(command);
    });

    it('posts OTLP JSON export requests on the Collector path', async () => {
      const dir = project();
      await hook(dir, ['--otel'], { hook_event_name: 'PreToolUse', tool_use_id: 'toolu_01' });
      expect(receiver.requests).toEqual([
        { method: 'POST', path: '/v1/traces', contentType: 'application/json' },
      ]);
    });

    it('delivers the check span of an allowed call with its service, scope and conventions attributes', async () => {
      const dir = project();
      await hook(dir, ['--otel'], { hook_event_name: 'PreToolUse', tool_use_id: 'toolu_01' });
      const [span] = receiver.spans;
      expect(span).toMatchObject({
        service: 'claude-code-hook',
        scope: 'narrowing-guard',
        name: 'apply_guardrail narrowing',
        kind: 1, // SPAN_KIND_INTERNAL
        attributes: {
          'gen_ai.operation.name': 'apply_guardrail',
          'gen_ai.guardrail.source': 'tool_input',
          'gen_ai.guardrail.result.type': 'verdict',
          'gen_ai.guardrail.result.value': 'allow',
          'gen_ai.tool.name': 'Bash',
          'gen_ai.tool.call.id': 'toolu_01',
          'gen_ai.conversation.id': 'cc-otlp',
        },
      });
      expect(span?.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span?.spanId).toMatch(/^[0-9a-f]{16}$/);
    });

    it('delivers the block of a repeated failing call with its rule, blame and the constraint it rests on', async () => {
      const dir = project();
      const retry = await failThenRetry(dir, ['--otel']);
      expect(retry.stdout).toContain('"permissionDecision":"deny"');

      const outcome = receiver.spans.find(
        (span) => span.attributes['gen_ai.guardrail.source'] === 'tool_output',
      );
      expect(outcome?.attributes).toMatchObject({
        'gen_ai.guardrail.result.type': 'outcome',
        'gen_ai.guardrail.result.value': 'failure',
      });
      const learned = outcome?.events[0]?.attributes['narrowing.constraint.learned_ids'] as string[];
      expect(learned).toHaveLength(1);

      const block = checkOf('toolu_02');
      expect(block?.attributes).toMatchObject({
        'gen_ai.guardrail.result.value': 'block',
        'gen_ai.guardrail.policy.rule.id': 'identical-failure',
      });
      expect(block?.events).toEqual([
        {
          name: 'gen_ai.guardrail.result',
          attributes: expect.objectContaining({
            'narrowing.verdict': 'block',
            'narrowing.rule': 'identical-failure',
            'narrowing.blame': 'agent_failure',
            'narrowing.constraint.ids': learned,
          }),
        },
      ]);
    });

    it('delivers the spans of a hook run through its helper when the policy says otel: true', async () => {
      const dir = project();
      const policy = join(dir, 'narrowing.yaml');
      writeFileSync(policy, 'preset: precise\notel: true\n');
      const retry = await failThenRetry(dir, ['--policy', policy]);
      expect(retry.stdout).toContain('"permissionDecision":"deny"');
      // The helper hands each event's spans over before it answers.
      expect(checkOf('toolu_01')?.attributes['gen_ai.guardrail.result.value']).toBe('allow');
      expect(checkOf('toolu_02')?.attributes['gen_ai.guardrail.result.value']).toBe('block');
    });

    it('answers the agent in time when the Collector is down', async () => {
      const dir = project();
      const down = await closedEndpoint();
      await failThenRetry(dir, ['--otel'], down);
      // Under the OTLP exporter's own 10 s of retries, with room for a loaded machine.
      const run = await hook(
        dir,
        ['--otel', '--deadline-ms', '8000'],
        { hook_event_name: 'PreToolUse', tool_use_id: 'toolu_03' },
        down,
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('"permissionDecision":"deny"');
      expect(run.stderr).not.toContain('took longer');
    });

    it('sends nothing without --otel or the policy entry', async () => {
      const dir = project();
      await failThenRetry(dir, ['--no-daemon']);
      expect(receiver.requests).toEqual([]);
    });
  },
);
