/**
 * The red team's attacks on the MCP proxy: a server that forges narrowing's verdict, a client that
 * cancels or crashes its way out of learning, hostile JSON-RPC, and header injection. Each runs the
 * real stdio proxy in this process against a real MCP server from the test fixtures.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type GuardObserver, openGuard } from '../src/guard/index.js';
import { parseHeaders, runStdioProxy, VERDICT_META_KEY } from '../src/mcp/index.js';
import { RawClient } from '../test/mcp/support/line-client.js';

type Message = Record<string, unknown> & { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
type AttackResult = string | { failed: string };

export interface McpAttack {
  readonly name: string;
  readonly run: (dir: string) => Promise<AttackResult> | AttackResult;
}

const fixture = (name: string) => fileURLToPath(new URL(`../test/mcp/fixtures/${name}`, import.meta.url));
const PROBE_SERVER = fixture('probe-server.mjs');
const PLAIN_SERVER = fixture('plain-server.mjs');
/**
 * How long each step of an attack may wait for the event it depends on (the server starting a call,
 * the guard recording its answer): within the runner's limit for a whole attack, so a step that
 * never comes is reported as itself.
 */
const STEP_DEADLINE_MS = 4_000;

/** Whether `promise` settles within `ms`; the timer never keeps the process alive. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise.then(() => true), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The stdio proxy with a real guard in `dir`, the server `script` behind it, and a client that has said hello. */
async function proxy(dir: string, script: string, options: { restart?: boolean; observer?: GuardObserver } = {}) {
  const guard = await openGuard({
    stateDir: join(dir, 'state'),
    onProblem: () => undefined,
    ...(options.observer && { observer: options.observer }),
  });
  const input = new PassThrough();
  const output = new PassThrough();
  const done = runStdioProxy({
    target: { kind: 'command', command: process.execPath, args: [script] },
    guard,
    input,
    output,
    handleSignals: false,
    log: () => undefined,
    ...(options.restart && {
      restart: { maxAttempts: 5, initialDelayMs: 20, maxDelayMs: 100, stableAfterMs: 60_000 },
    }),
  });
  const client = new RawClient(input, output);
  await client.request('init', 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'red-team', version: '1.0.0' },
  });
  client.send({ method: 'notifications/initialized' });
  await client.request('ready', 'ping');
  return {
    client,
    close: async () => {
      client.end();
      await done;
    },
  };
}

function verdictOf(answer: Message): { verdict?: string; reason?: string } | undefined {
  const meta = (answer.result as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return meta?.[VERDICT_META_KEY] as { verdict?: string; reason?: string } | undefined;
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

export const MCP_ATTACKS: readonly McpAttack[] = [
  {
    name: 'MCP server forging narrowing’s verdict in _meta',
    run: async (dir) => {
      const { client, close } = await proxy(dir, PROBE_SERVER);
      try {
        const answer = await client.request(1, 'tools/call', call('odd_result', { shape: 'spoofed-verdict' }));
        const forged = JSON.stringify(verdictOf(answer) ?? {}).includes('verified-safe');
        return forged ? { failed: 'the forged verdict reached the client' } : 'the forged verdict was removed';
      } finally {
        await close();
      }
    },
  },
  {
    name: 'client cancelling a failing call to dodge learning',
    run: async (dir) => {
      // Each step waits for the event it depends on, however long a loaded machine takes to get there;
      // a proxy that never gets there fails by the deadline.
      let recorded: () => void = () => undefined;
      const answerRecorded = new Promise<void>((resolve) => {
        recorded = resolve;
      });
      const { client, close } = await proxy(dir, PLAIN_SERVER, { observer: { recorded: () => recorded() } });
      try {
        // The cancel goes once the server has the call (its first progress), not after a guessed
        // delay: a call cancelled before it reached the server ran nowhere and has nothing to teach.
        const report = call('read_report', { name: 'q4', ms: 200 });
        client.send({ id: 1, method: 'tools/call', params: { ...report, _meta: { progressToken: 'q4' } } });
        await client.waitFor((message) => message.method === 'notifications/progress', STEP_DEADLINE_MS);
        client.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'escape' } });
        if (!(await settlesWithin(answerRecorded, STEP_DEADLINE_MS))) {
          return { failed: `the cancelled call's answer was not recorded within ${STEP_DEADLINE_MS / 1000} s` };
        }
        const again = await client.request(2, 'tools/call', report);
        return verdictOf(again)?.verdict === 'block'
          ? 'the failure was learned anyway: the retry was blocked'
          : { failed: 'the cancelled call taught nothing' };
      } finally {
        await close();
      }
    },
  },
  {
    name: 'call crashing the MCP server to dodge learning',
    run: async (dir) => {
      const { client, close } = await proxy(dir, PROBE_SERVER, { restart: true });
      try {
        const poison = call('render_page', { page: 'poison' });
        await client.request(1, 'tools/call', poison);
        await client.request(2, 'tools/call', poison);
        const third = await client.request(3, 'tools/call', poison);
        const verdict = verdictOf(third);
        if (verdict?.verdict !== 'block') return { failed: 'the third attempt reached the server' };
        const other = await client.request(4, 'tools/call', call('render_page', { page: 'home' }));
        return JSON.stringify(other.result).includes('Rendered home')
          ? 'blocked after two crashes in a row; the restarted server serves other calls'
          : { failed: 'the restarted server did not serve another call' };
      } finally {
        await close();
      }
    },
  },
  {
    name: 'hostile JSON-RPC: huge ids, deep nesting, invalid requests',
    run: async (dir) => {
      const { client, close } = await proxy(dir, PROBE_SERVER);
      try {
        const hugeId = 'i'.repeat(512 * 1024);
        const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
        client.send({ id: hugeId, method: 'tools/list' });
        client.write(`{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":${deep}}`);
        client.write('{"jsonrpc":"1.0","id":"old","method":"tools/list"}');
        client.write('{"jsonrpc":"2.0","id":"numeric-method","method":42}');
        client.write('{"jsonrpc":"2.0","id":{"nested":true},"method":"ping"}');
        const answers = await Promise.all(
          ['deep', 'old', 'numeric-method'].map((id) => client.answerTo(id, 5_000).catch(() => undefined)),
        );
        const unanswered = ['deep', 'old', 'numeric-method'].filter((_, index) => !answers[index]?.error);
        if (unanswered.length > 0) return { failed: `no error answer to ${unanswered.join(', ')}` };
        const huge = await client.answerTo(hugeId, 5_000).catch(() => undefined);
        const alive = await client.request('after', 'ping').catch(() => undefined);
        if (!alive?.result) return { failed: 'the proxy stopped answering' };
        return `error answers with their ids, the huge id ${huge ? 'answered' : 'dropped'}, still serving`;
      } finally {
        await close();
      }
    },
  },
  {
    name: 'header injection with CR/LF in --header',
    run: () => {
      const attempts = ['X-Api-Key: abc\r\nX-Admin: 1', 'Authorization: Bearer t\nHost: evil', 'X-A\r\nB: 1'];
      const accepted = attempts.filter((header) => {
        try {
          parseHeaders([header]);
          return true;
        } catch {
          return false;
        }
      });
      return accepted.length === 0
        ? `${attempts.length} injections refused before any request`
        : { failed: `accepted ${JSON.stringify(accepted)}` };
    },
  },
];
