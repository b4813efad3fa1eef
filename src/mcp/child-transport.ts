import { type ChildProcess, spawn } from 'node:child_process';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { JsonLineTransport } from './line-transport.js';

export interface ChildCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** How long a server gets to leave after its stdin closes, then after SIGTERM. */
const GRACE_MS = 2_000;

/**
 * An MCP server run as a child process, spoken to over its stdin and stdout. Its stderr is the
 * proxy's stderr, so the user sees its diagnostics where they saw them before. It knows how the
 * process ended, so that the proxy can say it.
 */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private lines: JsonLineTransport | undefined;
  private ending: string | undefined;
  private exited: Promise<void> | undefined;

  constructor(private readonly spec: ChildCommand) {}

  /** "exited with code 3", "was killed by SIGKILL"; undefined while it runs. */
  get exit(): string | undefined {
    return this.ending;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.spec.command, [...this.spec.args], {
        env: { ...this.spec.env },
        ...(this.spec.cwd !== undefined && { cwd: this.spec.cwd }),
        stdio: ['pipe', 'pipe', 'inherit'],
        windowsHide: true,
      });
      this.child = child;
      const lines = new JsonLineTransport(child.stdout!, child.stdin!, 'the MCP server');
      this.lines = lines;
      lines.onmessage = (message) => this.onmessage?.(message);
      lines.onerror = (error) => this.onerror?.(error);
      this.exited = new Promise((settled) => {
        child.once('close', (code, signal) => {
          this.ending = signal ? `was killed by ${signal}` : `exited with code ${code}`;
          void lines.close();
          settled();
          this.onclose?.();
        });
      });
      child.once('error', (error) => {
        if (child.pid === undefined) reject(error);
        else this.onerror?.(error);
      });
      child.once('spawn', () => {
        void lines.start();
        resolve();
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (!this.lines) return Promise.reject(new Error('the MCP server has not been started'));
    return this.lines.send(message);
  }

  /** Closes stdin first (the polite way to ask an MCP server to leave), then signals. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || !this.exited) return;
    this.child = undefined;
    child.stdin?.end();
    if (await this.settlesWithin(GRACE_MS)) return;
    child.kill('SIGTERM');
    if (await this.settlesWithin(GRACE_MS)) return;
    child.kill('SIGKILL');
    await this.exited;
  }

  private async settlesWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const done = await Promise.race([this.exited!.then(() => true as const), late]);
    clearTimeout(timer);
    return done;
  }
}
