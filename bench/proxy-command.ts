/** `narrowing bench proxy`: the MCP proxy's overhead, from `bench/proxy.ts`. */
import type { ProxyCommandOptions } from '../src/cli/commands/bench.js';
import type { CommandIO } from '../src/cli/commands/io.js';
import { formatProxyBench, type ProxyBenchOptions, runProxyBench } from './proxy.js';

export async function proxyCommand(options: ProxyCommandOptions, io: CommandIO): Promise<number> {
  const benchOptions: ProxyBenchOptions = {
    ...(options.calls !== undefined ? { calls: options.calls } : {}),
    ...(options.concurrentCalls !== undefined ? { concurrentCalls: options.concurrentCalls } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.warmup !== undefined ? { warmup: options.warmup } : {}),
    ...(options.breakdown ? { breakdown: true } : {}),
  };
  io.stderr.write(
    options.breakdown
      ? 'starting server-everything five times: directly, behind `narrowing mcp` (twice), a byte relay and a JSON relay…\n'
      : 'starting server-everything three times: directly, behind `narrowing mcp`, and behind a byte relay…\n',
  );
  const result = await runProxyBench(benchOptions);
  io.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatProxyBench(result)}\n`);
  return 0;
}
