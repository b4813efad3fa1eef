/**
 * The hook as a program of its own, bundled into one file: `node hook.js <agent> [options]`, or
 * through the package's bin as `narrowing-guard hook <agent> [options]`.
 */
import { hookMain } from './main.js';
import { MAX_PAYLOAD_BYTES } from './payload.js';
import type { HookStreams } from './run.js';

const streams = directStreams();
const words = process.argv.slice(2);
hookMain(words[0] === 'hook' ? words.slice(1) : words, streams).then(
  (code) => exitAfterWriting(code),
  (error: unknown) => {
    // hookMain never throws; should it ever, the agent still runs its call.
    streams.stderr.write(`narrowing-guard: the hook failed: ${String(error)}; the call proceeds unchecked\n`);
    exitAfterWriting(0);
  },
);

/** Node's stream objects this process made for its standard streams (see `directStreams`). */
const madeStreams: NodeJS.WriteStream[] = [];

/**
 * The hook's standard streams, read and written with the file descriptors themselves: the payload
 * is read to its end and the answer written in one go, and making Node's stream objects for them
 * (a socket for each pipe, with its machinery) costs a hook process several milliseconds of CPU on
 * every tool call. A descriptor that cannot be used so (a non-blocking pipe, a full one) falls back
 * to Node's stream for what is left.
 */
function directStreams(): HookStreams {
  const fs = process.getBuiltinModule('node:fs');
  const writer = (fd: 1 | 2) => {
    let stream: NodeJS.WriteStream | undefined;
    return {
      write(text: string): void {
        if (stream !== undefined) return void stream.write(text);
        const bytes = Buffer.from(text);
        let written = 0;
        try {
          while (written < bytes.length) written += fs.writeSync(fd, bytes, written);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
          stream = fd === 1 ? process.stdout : process.stderr;
          madeStreams.push(stream);
          stream.write(bytes.subarray(written));
        }
      },
    };
  };
  return { stdin: stdinChunks(), stdout: writer(1), stderr: writer(2) };
}

/**
 * The payload, read to its end at the first step as one chunk: an agent writes it whole and closes
 * the pipe, so one step of iteration costs the process what reading it does, and nothing more.
 */
async function* stdinChunks(): AsyncGenerator<Uint8Array> {
  const fs = process.getBuiltinModule('node:fs');
  let buffer = Buffer.allocUnsafe(64 * 1024);
  let size = 0;
  for (;;) {
    if (size === buffer.length) {
      // Past what the hook reads at all: the reader stops at its own limit.
      if (size > MAX_PAYLOAD_BYTES) break;
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, 0, size);
      buffer = larger;
    }
    let count: number;
    try {
      count = fs.readSync(0, buffer, size, buffer.length - size, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Windows reports a pipe's end as an error.
      if (code === 'EOF') break;
      if (code !== 'EAGAIN') throw error;
      // A non-blocking descriptor: the rest is read as a stream, which waits for it.
      if (size > 0) yield buffer.subarray(0, size);
      yield* process.stdin;
      return;
    }
    if (count === 0) break;
    size += count;
  }
  if (size > 0) yield buffer.subarray(0, size);
}

/**
 * Ends the process once its answer is written, whatever is still running: the agent waits for the
 * process, not for its answer, so work left after a late answer (an event handled here, a lock being
 * waited for) must not keep it. Locks held are released by their exit handlers.
 */
function exitAfterWriting(code: number): void {
  let pending = madeStreams.length;
  if (pending === 0) process.exit(code);
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  for (const stream of madeStreams) stream.write('', done);
}
