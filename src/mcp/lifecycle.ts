import { describeError, type Log } from './log.js';

type Step = () => Promise<unknown> | unknown;

/**
 * The signals that end the proxy cleanly. SIGHUP is what a closed terminal or a client that
 * tears down its process group sends: without a handler Node exits at once and what was learned
 * since the last save is lost.
 */
const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const EXIT_CODES: Readonly<Partial<Record<NodeJS.Signals, number>>> = {
  SIGINT: 130,
  SIGTERM: 143,
  SIGHUP: 129,
};

/**
 * The one way out of a running proxy. Whatever ends it (the client closing stdin, a signal,
 * the upstream dying), the same steps run once, in order: answer the calls still running,
 * close both connections, and close the guard so that what it learned is written down.
 */
export class Lifecycle {
  private readonly steps: { name: string; run: Step }[] = [];
  private exitCode: number | undefined;
  private resolveDone!: (code: number) => void;
  readonly done = new Promise<number>((resolve) => {
    this.resolveDone = resolve;
  });
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.exitCode !== undefined) {
      // A second signal while cleaning up means the user wants out now.
      process.exit(EXIT_CODES[signal] ?? 143);
    }
    this.end(0);
  };

  constructor(
    private readonly log: Log,
    { signals, stop }: { signals: boolean; stop?: AbortSignal | undefined },
  ) {
    if (signals) for (const signal of ENDING_SIGNALS) process.on(signal, this.onSignal);
    if (stop?.aborted) this.end(0);
    else stop?.addEventListener('abort', () => this.end(0), { once: true });
  }

  get ending(): boolean {
    return this.exitCode !== undefined;
  }

  /** Adds a step to run on the way out, after the steps added before it. */
  add(name: string, run: Step): void {
    this.steps.push({ name, run });
  }

  /** Starts the way out; the first call decides the exit code, later calls are ignored. */
  end(code: number, reason?: string): void {
    if (this.exitCode !== undefined) return;
    this.exitCode = code;
    if (reason) this.log(reason);
    // One turn of the event loop first, so that answers already on their way are written.
    setImmediate(() => void this.runSteps(code));
  }

  private async runSteps(code: number): Promise<void> {
    for (const step of this.steps) {
      try {
        await step.run();
      } catch (error) {
        this.log(`while stopping (${step.name}): ${describeError(error)}`);
      }
    }
    for (const signal of ENDING_SIGNALS) process.off(signal, this.onSignal);
    this.resolveDone(code);
  }
}
