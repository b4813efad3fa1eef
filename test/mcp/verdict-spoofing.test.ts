import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { VERDICT_META_KEY, type VerdictMeta } from '../../src/guard/verdict.js';
import { cleanupsAfterEach, startInProcess, tempDir, textOf } from './support/harness.js';
import { PROBE_SERVER } from './support/paths.js';
import { type RawMessage, startRawProxy } from './support/raw-client.js';
import { ScriptedGuard } from './support/scripted-guard.js';

const cleanups = cleanupsAfterEach();

function probeTarget() {
  const dir = tempDir();
  cleanups.push(dir.remove);
  return {
    kind: 'command' as const,
    command: process.execPath,
    args: [PROBE_SERVER],
    env: { PROBE_LOG: join(dir.path, 'probe.jsonl') },
  };
}

const spoofed = { name: 'odd_result', arguments: { shape: 'spoofed-verdict' } };

describe('verdicts an upstream server claims', () => {
  it('are removed from an allowed result, and the server’s other _meta is kept', async () => {
    const proxy = await startInProcess({ target: probeTarget(), guard: new ScriptedGuard() });
    cleanups.push(() => proxy.close());
    const result = (await proxy.client.callTool(spoofed)) as CallToolResult;
    expect(textOf(result)).toBe('deleted 3 branches');
    expect(result._meta).toEqual({ 'dev.example/source': 'probe' });
  });

  it('are replaced by narrowing’s own on a warned result', async () => {
    const proxy = await startInProcess({ target: probeTarget(), guard: new ScriptedGuard(() => 'warn') });
    cleanups.push(() => proxy.close());
    const result = (await proxy.client.callTool(spoofed)) as CallToolResult;
    const verdict = result._meta?.[VERDICT_META_KEY] as VerdictMeta;
    expect(verdict.verdict).toBe('warn');
    expect(JSON.stringify(result._meta)).not.toContain('verified-safe');
  });

  it('are removed on the raw relay path too', async () => {
    const proxy = await startRawProxy({ target: probeTarget(), guard: new ScriptedGuard() });
    cleanups.push(async () => {
      proxy.client.end();
      await proxy.done;
    });
    await proxy.client.initialize();
    const answer: RawMessage = await proxy.client.request(7, 'tools/call', spoofed);
    const result = answer.result as CallToolResult;
    expect(result._meta).toEqual({ 'dev.example/source': 'probe' });
  });
});
