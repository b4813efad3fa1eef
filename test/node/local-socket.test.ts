import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exchangeLine, LocalSocketError } from '../../src/node/local-socket.js';
import { temporaryDir } from '../stores/sample-state.js';

let dir: string;
let remove: () => void;
const servers: Server[] = [];
beforeEach(() => {
  ({ dir, remove } = temporaryDir());
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  remove();
});

/** A server on a socket in `dir` that reads one line and does `reply` with it. */
async function serve(reply: (socket: Socket, line: string) => void): Promise<string> {
  const path = join(dir, 'helper.sock');
  const server = createServer((socket) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end !== -1) reply(socket, text.slice(0, end));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return path;
}

async function failure(promise: Promise<unknown>): Promise<LocalSocketError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(LocalSocketError);
  return error as LocalSocketError;
}

// The hook helper's sockets are Unix sockets.
describe.skipIf(process.platform === 'win32')('one line over a local socket', () => {
  for (const throughNet of [false, true]) {
    const way = throughNet ? 'through node:net' : 'through the pipe handle';

    it(`sends a line and resolves with the first line of the answer, ${way}`, async () => {
      const path = await serve((socket, line) => socket.end(`${line.toUpperCase()}\nsecond line\n`));
      const payload = `{"event":"${'é'.repeat(200_000)}"}`;
      const answer = await exchangeLine({
        path,
        line: `${payload}\n`,
        timeoutMs: 10_000,
        maxAnswerChars: 1024 * 1024,
        throughNet,
      });
      expect(answer).toBe(payload.toUpperCase());
    });

    it(`reads a character that arrives split over two reads whole, ${way}`, async () => {
      const answer = Buffer.from('{"text":"blocked → use the answer you have"}\n');
      const split = answer.indexOf('→') + 1;
      const path = await serve((socket) => {
        socket.write(answer.subarray(0, split));
        setTimeout(() => socket.end(answer.subarray(split)), 100);
      });
      const line = await exchangeLine({
        path,
        line: '{}\n',
        timeoutMs: 5_000,
        maxAnswerChars: 1_000,
        throughNet,
      });
      expect(line).toBe('{"text":"blocked → use the answer you have"}');
    });

    it(`says ENOENT when nothing listens at the path, ${way}`, async () => {
      const error = await failure(
        exchangeLine({
          path: join(dir, 'absent.sock'),
          line: '{}\n',
          timeoutMs: 5_000,
          maxAnswerChars: 100,
          throughNet,
        }),
      );
      expect(error.code).toBe('ENOENT');
    });

    it(`says the connection closed when the server ends it without an answer, ${way}`, async () => {
      const path = await serve((socket) => socket.end());
      const error = await failure(
        exchangeLine({ path, line: '{}\n', timeoutMs: 5_000, maxAnswerChars: 100, throughNet }),
      );
      expect(error.code).toBe('ECLOSED');
    });

    it(`gives up after the timeout when no answer comes, ${way}`, async () => {
      const path = await serve(() => undefined);
      const error = await failure(
        exchangeLine({ path, line: '{}\n', timeoutMs: 200, maxAnswerChars: 100, throughNet }),
      );
      expect(error.code).toBe('ETIMEDOUT');
    });

    it(`refuses an answer longer than allowed without a newline, ${way}`, async () => {
      const path = await serve((socket) => socket.write('x'.repeat(5_000)));
      const error = await failure(
        exchangeLine({ path, line: '{}\n', timeoutMs: 5_000, maxAnswerChars: 1_000, throughNet }),
      );
      expect(error.code).toBe('ETOOLONG');
    });
  }

  it('counts an answer without a newline in bytes through the pipe handle, never fewer than its characters', async () => {
    const path = await serve((socket) => socket.write('é'.repeat(600)));
    const error = await failure(
      exchangeLine({ path, line: '{}\n', timeoutMs: 5_000, maxAnswerChars: 1_000, throughNet: false }),
    );
    expect(error.code).toBe('ETOOLONG');
  });
});
