/**
 * A real redis-server for the tests, on a free loopback port, with persistence off, stopped by the
 * test that started it. Without redis-server the Redis tests skip, and say so; on CI they fail.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

export const redisInstalled = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

if (!redisInstalled) {
  if (process.env.CI === 'true') {
    throw new Error('redis-server is required on CI: apt-get install -y redis-server');
  }
  process.stderr.write('redis-server is not installed: the Redis store tests are skipped\n');
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server at once, as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (nothing was saved). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => end(child, 'SIGKILL'),
    async restart() {
      child = await launch(port);
    },
    stop: () => end(child, 'SIGTERM'),
  };
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', () => reject(new Error(`redis-server exited: ${output}`)));
  });
  child.stdout?.resume();
  return child;
}

async function end(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
