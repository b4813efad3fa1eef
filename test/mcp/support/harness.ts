import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import { afterEach } from 'vitest';
import { runStdioProxy, type StdioProxyOptions } from '../../../src/mcp/stdio.js';
import { CLI_COMMAND, REPO_ROOT } from './paths.js';
import { StreamTransport } from './stream-transport.js';

/**
 * What a test pushes here is undone after it, newest first: a proxy closes before the folder it
 * writes into is removed.
 */
export function cleanupsAfterEach(): (() => unknown)[] {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}

export function tempDir(prefix = 'narrowing-mcp-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function nodeServer(script: string, ...args: string[]): StdioProxyOptions['target'] {
  return { kind: 'command', command: process.execPath, args: [script, ...args] };
}

export interface InProcessProxy {
  readonly client: Client;
  readonly transport: StreamTransport;
  readonly logs: string[];
  /** Resolves with the proxy's exit code. */
  readonly done: Promise<number>;
  /** Closes the client (the proxy sees its stdin end) and waits for the proxy to stop. */
  close(): Promise<number>;
}

export interface PipedProxy {
  /** What the client writes. */
  readonly toProxy: PassThrough;
  /** What the client reads. */
  readonly fromProxy: PassThrough;
  readonly logs: string[];
  /** Resolves with the proxy's exit code. */
  readonly done: Promise<number>;
}

/** The stdio proxy in this process, reading and writing a pair of pipes, its log kept. */
export function startOnPipes(options: Omit<StdioProxyOptions, 'input' | 'output'>): PipedProxy {
  const toProxy = new PassThrough();
  const fromProxy = new PassThrough();
  const logs: string[] = [];
  const done = runStdioProxy({
    log: (message) => logs.push(message),
    handleSignals: false,
    ...options,
    input: toProxy,
    output: fromProxy,
  });
  return { toProxy, fromProxy, logs, done };
}

/** A client that negotiates the 2026 protocol era, connected to a proxy on pipes. */
export async function connectModernClient(proxy: PipedProxy): Promise<Client> {
  const client = new Client(
    { name: 'modern-host', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StreamTransport(proxy.fromProxy, proxy.toProxy));
  return client;
}

/** The stdio proxy in this process, on a pipe, with a real upstream process behind it. */
export async function startInProcess(
  options: Omit<StdioProxyOptions, 'input' | 'output'>,
  client: { capabilities?: ClientCapabilities; setup?: (client: Client) => void } = {},
): Promise<InProcessProxy> {
  const { toProxy, fromProxy, logs, done } = startOnPipes(options);
  const mcp = new Client(
    { name: 'proxy-test', version: '1.0.0' },
    { capabilities: client.capabilities ?? {} },
  );
  client.setup?.(mcp);
  const transport = new StreamTransport(fromProxy, toProxy);
  await mcp.connect(transport);
  return {
    client: mcp,
    transport,
    logs,
    done,
    close: async () => {
      await mcp.close();
      return done;
    },
  };
}

export interface SpawnedProxy {
  readonly child: ChildProcess;
  readonly client: Client;
  readonly transport: StreamTransport;
  stderr(): string;
  readonly exit: Promise<number | null>;
  close(): Promise<number | null>;
}

/** `narrowing mcp <args>` as a separate process, run from source, driven by a v2 client. */
export async function spawnProxy(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; capabilities?: ClientCapabilities; command?: readonly string[] } = {},
): Promise<SpawnedProxy> {
  const child = startCli(args, options);
  const client = new Client(
    { name: 'proxy-test', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  );
  const transport = new StreamTransport(child.process.stdout!, child.process.stdin!);
  await client.connect(transport);
  return {
    child: child.process,
    client,
    transport,
    stderr: child.stderr,
    exit: child.exit,
    close: async () => {
      await client.close();
      return child.exit;
    },
  };
}

export interface CliProcess {
  readonly process: ChildProcess;
  stderr(): string;
  readonly exit: Promise<number | null>;
}

export function startCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; command?: readonly string[] } = {},
): CliProcess {
  const command = options.command ?? CLI_COMMAND;
  const [program, ...prefix] = command as [string, ...string[]];
  const child = spawn(program, [...prefix, 'mcp', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // 'close', not 'exit': by then everything the process wrote to stderr has been read.
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { process: child, stderr: () => stderr, exit };
}

/** The JSON lines a probe server appended to its log. */
export function probeLog(
  path: string,
): { pid: number; event: string; tool?: string; args?: unknown; requestId?: string | number }[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

export function textOf(result: unknown): string {
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((item): item is { type: 'text'; text: string } => item?.type === 'text')
    .map((item) => item.text)
    .join('\n');
}
