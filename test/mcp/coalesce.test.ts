import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { openGuardSync } from '../../src/guard/open.js';
import type { GuardSession } from '../../src/guard/session.js';
import { VERDICT_META_KEY, type VerdictMeta } from '../../src/guard/verdict.js';
import {
  cleanupsAfterEach,
  connectModernClient,
  probeLog,
  startInProcess,
  startOnPipes,
  tempDir,
  textOf,
} from './support/harness.js';
import { PROBE_SERVER } from './support/paths.js';

const quiet = () => undefined;
const cleanups = cleanupsAfterEach();
const verdictOf = (result: CallToolResult) =>
  (result._meta?.[VERDICT_META_KEY] as VerdictMeta | { verdict: 'coalesced' } | undefined)?.verdict;

/** A probe server behind the proxy, with a guard that journals into a fresh state folder. */
function setUp(): {
  log: string;
  guard: GuardSession;
  target: Parameters<typeof startInProcess>[0]['target'];
} {
  const dir = tempDir();
  cleanups.push(dir.remove);
  const state = join(dir.path, 'state');
  mkdirSync(state);
  const log = join(dir.path, 'probe.jsonl');
  return {
    log,
    guard: openGuardSync({ stateDir: state, onProblem: quiet }),
    target: { kind: 'command', command: process.execPath, args: [PROBE_SERVER], env: { PROBE_LOG: log } },
  };
}

const callsTo = (log: string, tool: string) =>
  probeLog(log).filter((entry) => entry.event === 'call' && entry.tool === tool);

const journalVerdicts = (guard: GuardSession) =>
  readFileSync(guard.journalPath ?? '', 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"proposal"'))
    .map((line) => JSON.parse(line).verdict as string);

/** The same call, twice, both sent before either is answered. */
function twice(client: Client, call: { name: string; arguments: Record<string, unknown> }) {
  return Promise.all([client.callTool(call), client.callTool(call)]) as Promise<CallToolResult[]>;
}

describe('identical calls a client has in flight at once, through the proxy', () => {
  it('reach the server once when the first fails, the second answered with its failure', async () => {
    const { log, guard, target } = setUp();
    const proxy = await startInProcess({ target, guard });
    cleanups.push(() => proxy.close());

    const [first, second] = await twice(proxy.client, { name: 'slow_fail', arguments: { ms: '300' } });

    expect(callsTo(log, 'slow_fail')).toHaveLength(1);
    expect(first?.isError).toBe(true);
    expect(second?.isError).toBe(true);
    expect(textOf(second)).toContain("ENOENT: no such file or directory, open 'reports/300.csv'");
    expect(textOf(second)).toContain('[narrowing coalesced this call]');
    expect(verdictOf(second!)).toBe('coalesced');
  });

  it('are journalled as one allowed call and one coalesced, never as a block', async () => {
    const { guard, target } = setUp();
    const proxy = await startInProcess({ target, guard });

    await twice(proxy.client, { name: 'slow_fail', arguments: { ms: '200' } });
    await proxy.close();

    expect(journalVerdicts(guard)).toEqual(['allow', 'coalesced']);
  });

  it('both reach the server when the first is a read that succeeded', async () => {
    const { log, guard, target } = setUp();
    const proxy = await startInProcess({ target, guard });
    cleanups.push(() => proxy.close());

    const results = await twice(proxy.client, { name: 'echo', arguments: { text: 'status: green' } });

    expect(callsTo(log, 'echo')).toHaveLength(2);
    expect(results.map((result) => textOf(result))).toEqual(['status: green', 'status: green']);
    expect(results.map((result) => verdictOf(result))).toEqual([undefined, undefined]);
  });

  it('reach the server once when the first fails, for a client of the 2026 protocol era', async () => {
    const { log, guard, target } = setUp();
    const proxy = startOnPipes({ target, guard });
    const client = await connectModernClient(proxy);
    cleanups.push(async () => {
      await client.close();
      await proxy.done;
    });

    const [, second] = await twice(client, { name: 'slow_fail', arguments: { ms: '300' } });

    expect(callsTo(log, 'slow_fail')).toHaveLength(1);
    expect(verdictOf(second!)).toBe('coalesced');
  });

  it('reach the server once when the first times out, the second answered with the timeout', async () => {
    const { log, guard, target } = setUp();
    const proxy = await startInProcess({ target, guard, callTimeoutMs: 400 });
    cleanups.push(() => proxy.close());

    const started = Date.now();
    const [first, second] = await twice(proxy.client, { name: 'hang', arguments: {} });

    // `hang` never answers: both end by the 400 ms timeout or never (the test's own limit is 30 s).
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(callsTo(log, 'hang')).toHaveLength(1);
    expect(textOf(first)).toContain('did not answer in time');
    expect(verdictOf(second!)).toBe('coalesced');
  });
});
