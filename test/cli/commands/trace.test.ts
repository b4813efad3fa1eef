import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../../../src/cli/commands/io.js';
import { runConvert } from '../../../src/cli/commands/trace.js';
import { parseTrace } from '../../../src/trace/index.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-trace-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const transcript = fileURLToPath(
  new URL('../../fixtures/claude/auth-middleware-session.jsonl', import.meta.url),
);

function fakeIO() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe('narrowing trace from-claude', () => {
  it('writes a trace to standard output and a count to standard error', async () => {
    const { io, stdout, stderr } = fakeIO();
    expect(await runConvert('claude', transcript, {}, io)).toBe(0);
    const events = parseTrace(stdout());
    expect(events[0]).toMatchObject({ type: 'meta', name: 'auth-middleware-session' });
    expect(stderr()).toBe('9 calls converted; 1 unusable line skipped\n');
  });

  it('writes the trace to the file given with -o', async () => {
    const output = join(dir, 'session.jsonl');
    const { io, stdout } = fakeIO();
    expect(await runConvert('claude', transcript, { output, name: 'auth' }, io)).toBe(0);
    expect(stdout()).toBe('');
    expect(parseTrace(readFileSync(output, 'utf8'))[0]).toMatchObject({ name: 'auth' });
  });

  it('exits 2 when the input cannot be read', async () => {
    const { io, stderr } = fakeIO();
    expect(await runConvert('journal', join(dir, 'nothing.jsonl'), {}, io)).toBe(2);
    expect(stderr()).toContain('nothing.jsonl: cannot read the file (ENOENT)');
  });
});
