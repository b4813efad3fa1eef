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
    ...(options.compare !== undefined ? { compare: options.compare } : {}),
    ...(options.messageBytes !== undefined ? { messageBytes: options.messageBytes } : {}),
  };
  const paths = [
    'directly',
    options.breakdown ? 'behind `narrowing mcp` (three times)' : 'behind `narrowing mcp`',
    ...(options.compare !== undefined ? [`behind the proxy of ${options.compare}`] : []),
    'behind a byte relay',
    'behind a JSON relay',
  ];
  io.stderr.write(
    `starting server-everything ${paths.length + (options.breakdown ? 2 : 0)} times: ${paths.slice(0, -1).join(', ')} and ${paths.at(-1)}…\n`,
  );
  const result = await runProxyBench(benchOptions);
  io.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatProxyBench(result)}\n`);
  return 0;
}
