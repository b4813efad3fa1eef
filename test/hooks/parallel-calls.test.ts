import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHooks } from '../../src/hooks/daemon.js';
import { askDaemon, stopDaemons } from '../../src/hooks/daemon-client.js';
import type { HookVerdict } from '../../src/hooks/event.js';
import { HOOK_PROTOCOLS } from '../../src/hooks/protocols.js';
import { claudeMissingRead } from './claude-read.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A project with the hook helper serving it in this process, as `hook serve` runs it. */
async function helperFor(): Promise<{ dir: string; stateDir: string; ask: Ask }> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-parallel-')));
  const stateDir = join(dir, '.narrowing');
  mkdirSync(stateDir);
  const socketPath = join(stateDir, 'hookd-0000000000000000.sock');
  const served = serveHooks({ socketPath, stateDir, handleSignals: false, idleMs: 60_000 });
  cleanups.push(async () => {
    await stopDaemons(stateDir);
    await served;
    rmSync(dir, { recursive: true, force: true });
  });
  for (let tries = 0; tries < 200; tries += 1) {
    try {
      await askDaemon(socketPath, { event: parse({ ...base(dir), hook_event_name: 'Stop' }) }, 2_000);
      break;
    } catch {
      await pause(25);
    }
  }
  const ask: Ask = (payload, holdMs = 4_000) =>
    askDaemon(socketPath, { event: parse(payload), holdMs }, holdMs + 2_000);
  return { dir, stateDir, ask };
}

type Ask = (payload: Record<string, unknown>, holdMs?: number) => Promise<HookVerdict>;

const parse = (payload: Record<string, unknown>) => HOOK_PROTOCOLS['claude-code'].parse(payload);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const base = (dir: string) => ({ session_id: 'cc-parallel', cwd: dir });

/** Claude Code's events for one `Read` of a file, with the call's own tool_use_id. */
function read(dir: string, file: string, id: string) {
  const missing = claudeMissingRead('cc-parallel', dir, file, id);
  const { call } = missing;
  return {
    ...missing,
    read: {
      ...call,
      hook_event_name: 'PostToolUse',
      tool_response: { type: 'text', file: { filePath: call.tool_input.file_path, content: '# Setup\n' } },
    },
  };
}

/** A verdict, and whether it came after `mark()` was called. */
function watched(answer: Promise<HookVerdict>) {
  let marked = false;
  const settled = answer.then((verdict) => ({ verdict, afterMark: marked }));
  return { settled, mark: () => (marked = true) };
}

describe('the hook helper, with identical calls the agent runs in parallel', () => {
  it('holds the second PreToolUse until the first fails, then refuses it with that failure', async () => {
    const { dir, ask } = await helperFor();
    const first = read(dir, 'docs/setup.md', 'toolu_01');
    const second = read(dir, 'docs/setup.md', 'toolu_02');

    expect(await ask(first.before)).toEqual({ type: 'none' });
    const held = watched(ask(second.before));
    await pause(300);
    held.mark();
    await ask(first.failed);
    const { verdict, afterMark } = await held.settled;

    expect(afterMark).toBe(true);
    expect(verdict.type).toBe('deny');
    expect(verdict.type === 'deny' && verdict.text).toMatch(/^\[narrowing coalesced this call\]/);
    expect(verdict.type === 'deny' && verdict.text).toContain('File does not exist');
  });

  it('journals the refused duplicate as coalesced, never as a block', async () => {
    const { dir, stateDir, ask } = await helperFor();
    const first = read(dir, 'docs/setup.md', 'toolu_01');
    const second = read(dir, 'docs/setup.md', 'toolu_02');

    await ask(first.before);
    const held = ask(second.before);
    await pause(300);
    await ask(first.failed);
    await held;

    const verdicts = readFileSync(join(stateDir, 'journal.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"type":"proposal"'))
      .map((line) => JSON.parse(line).verdict);
    expect(verdicts).toEqual(['allow', 'coalesced']);
  });

  it('lets the second read proceed once the first has read the file', async () => {
    const { dir, ask } = await helperFor();
    const first = read(dir, 'docs/setup.md', 'toolu_01');
    const second = read(dir, 'docs/setup.md', 'toolu_02');

    await ask(first.before);
    const held = watched(ask(second.before));
    await pause(300);
    held.mark();
    await ask(first.read);

    expect(await held.settled).toEqual({ verdict: { type: 'none' }, afterMark: true });
  });

  it('lets the second proceed unchecked against the first when the first does not end within the hold', async () => {
    const { dir, ask } = await helperFor();
    const first = read(dir, 'docs/setup.md', 'toolu_01');
    const second = read(dir, 'docs/setup.md', 'toolu_02');

    await ask(first.before);
    const started = Date.now();
    const verdict = await ask(second.before, 400);

    expect(verdict).toEqual({ type: 'none' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });
});
