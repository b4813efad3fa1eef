import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { VERDICT_META_KEY, type VerdictMeta } from '../../src/guard/verdict.js';
import { CrashLedger, type WatchedCall } from '../../src/mcp/crash-ledger.js';
import {
  cleanupsAfterEach,
  probeLog,
  spawnProxy,
  startInProcess,
  tempDir,
  textOf,
} from './support/harness.js';
import { PROBE_SERVER } from './support/paths.js';
import { ScriptedGuard } from './support/scripted-guard.js';

const cleanups = cleanupsAfterEach();

const poison = { tool: 'render_page', args: { page: 'poison' } };
const home = { tool: 'render_page', args: { page: 'home' } };
const search = { tool: 'search_catalog', args: { query: 'gpu' } };

/** One crash of the server with these calls in flight; each call ends, as the proxy ends it, by failing. */
function crashWith(ledger: CrashLedger, ...calls: WatchedCall[]): void {
  const ends = calls.map((call) => ledger.begin(call));
  ledger.crashed('exited with code 3');
  for (const end of ends) end(false);
}

describe('the crash ledger', () => {
  it('blames no call for one crash', () => {
    const ledger = new CrashLedger();
    crashWith(ledger, poison);
    expect(ledger.culprit(poison)).toBeUndefined();
  });

  it('blames the call that was alone in flight at two crashes in a row', () => {
    const ledger = new CrashLedger();
    crashWith(ledger, poison);
    crashWith(ledger, poison);
    expect(ledger.culprit(poison)).toEqual({ exit: 'exited with code 3' });
    expect(ledger.culprit(home)).toBeUndefined();
  });

  it('blames only the repeated call when others ran beside it', () => {
    const ledger = new CrashLedger();
    crashWith(ledger, poison, home);
    crashWith(ledger, search, poison);
    expect(ledger.culprit(poison)).toBeDefined();
    expect(ledger.culprit(home)).toBeUndefined();
    expect(ledger.culprit(search)).toBeUndefined();
  });

  it('blames none of two calls that were both in flight at both crashes', () => {
    const ledger = new CrashLedger();
    crashWith(ledger, poison, home);
    crashWith(ledger, poison, home);
    expect(ledger.culprit(poison)).toBeUndefined();
    expect(ledger.culprit(home)).toBeUndefined();
  });

  it('forgets a crash once the same call completes', () => {
    const ledger = new CrashLedger();
    crashWith(ledger, poison);
    ledger.begin(poison)(true);
    crashWith(ledger, poison);
    expect(ledger.culprit(poison)).toBeUndefined();
  });

  it('does not blame a call for crashes that were not in a row', () => {
    const ledger = new CrashLedger();
    crashWith(ledger, poison);
    crashWith(ledger, home);
    crashWith(ledger, poison);
    expect(ledger.culprit(poison)).toBeUndefined();
  });

  it('does not read the arguments of a call the server answers while no crash is remembered', () => {
    const ledger = new CrashLedger();
    let reads = 0;
    const args = {
      get page() {
        reads += 1;
        return 'home';
      },
    };
    ledger.begin({ tool: 'render_page', args })(true);
    expect(reads).toBe(0);
  });

  it('still blames a call whose identity was first worked out at the crash', () => {
    const ledger = new CrashLedger();
    const end = ledger.begin(poison);
    ledger.crashed('exited with code 3');
    end(false);
    ledger.begin(home)(true);
    crashWith(ledger, poison);
    expect(ledger.culprit(poison)).toEqual({ exit: 'exited with code 3' });
  });

  it('knows a call by its identity: the same arguments in another order are the same call', () => {
    const ledger = new CrashLedger();
    crashWith(ledger, { tool: 'render_page', args: { page: 'poison', zoom: 2 } });
    crashWith(ledger, { tool: 'render_page', args: { zoom: 2, page: 'poison' } });
    expect(ledger.culprit({ tool: 'render_page', args: { page: 'poison', zoom: 2 } })).toBeDefined();
  });
});

describe('a call that crashes the server every time', () => {
  it('is refused the third time under --restart, saying it crashed the server twice, while other calls work', async () => {
    const dir = tempDir();
    cleanups.push(dir.remove);
    const log = join(dir.path, 'probe.jsonl');
    const proxy = await spawnProxy(
      ['--state-dir', join(dir.path, 'state'), '--restart', '--', process.execPath, PROBE_SERVER],
      { env: { PROBE_LOG: log } },
    );
    cleanups.push(() => {
      if (proxy.child.exitCode === null) proxy.child.kill('SIGKILL');
    });
    const render = (page: string) =>
      proxy.client.callTool({ name: 'render_page', arguments: { page } }) as Promise<CallToolResult>;

    const first = await render('poison');
    expect(textOf(first)).toContain('This is not a problem with the call');
    const second = await render('poison');
    expect(textOf(second)).toContain('crashed the MCP server twice in a row');
    const third = await render('poison');
    const verdict = third._meta?.[VERDICT_META_KEY] as VerdictMeta | undefined;
    expect(verdict?.verdict).toBe('block');
    expect(textOf(third)).toContain('crashed the MCP server twice in a row');
    expect(textOf(await render('home'))).toBe('Rendered home.');

    const poisoned = probeLog(log).filter((entry) => entry.event === 'call' && entry.tool === 'render_page');
    expect(poisoned.map((entry) => (entry.args as { page: string }).page)).toEqual([
      'poison',
      'poison',
      'home',
    ]);
    expect(probeLog(log).filter((entry) => entry.event === 'start')).toHaveLength(3);
    expect(await proxy.close()).toBe(0);
  });

  it('does not blame a call that only ran beside the crashing one', async () => {
    const dir = tempDir();
    cleanups.push(dir.remove);
    const guard = new ScriptedGuard();
    const proxy = await startInProcess({
      target: {
        kind: 'command',
        command: process.execPath,
        args: [PROBE_SERVER],
        env: { PROBE_LOG: join(dir.path, 'probe.jsonl') },
      },
      guard,
      restart: { maxAttempts: 5, initialDelayMs: 20, maxDelayMs: 50, stableAfterMs: 60_000 },
    });
    cleanups.push(() => proxy.close());

    for (let crash = 0; crash < 2; crash += 1) {
      await Promise.all([
        proxy.client.callTool({ name: 'render_page', arguments: { page: 'poison' } }),
        proxy.client.callTool({ name: 'slow_fail', arguments: { ms: '5000' } }),
      ]);
    }
    const blamed = guard.outcomes.filter((outcome) => outcome.exceptionName === 'ServerCrashedByCallError');
    expect(blamed.map((outcome) => outcome.proposal.tool)).toEqual([]);
    expect(guard.outcomes.filter((outcome) => outcome.exceptionName === 'ConnectionError')).toHaveLength(4);
  });
});
