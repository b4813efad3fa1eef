import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../src/adapters/tool-call/index.js';
import {
  createJournal,
  GENESIS_HASH,
  type Journal,
  JournalInUseError,
  type JournalOptions,
  type JournalProblem,
  readJournalSync,
  verifyJournal,
} from '../../src/audit/index.js';
import { canonicalJson } from '../../src/core/identity/index.js';
import { NarrowingEngine } from '../../src/core/loop.js';
import type { JournalEvent } from '../../src/core/types.js';
import { runScript } from '../stores/run-node.js';
import { temporaryDir } from '../stores/sample-state.js';
import { events, readMissingFile } from './sample-events.js';

let dir: string;
let remove: () => void;
let path: string;
let problems: JournalProblem[];
const open: Journal[] = [];

beforeEach(() => {
  ({ dir, remove } = temporaryDir());
  path = join(dir, 'journal.jsonl');
  problems = [];
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((journal) => journal.close().catch(() => undefined)));
  remove();
});

function journal(options: Partial<JournalOptions> = {}): Journal {
  const created = createJournal({ path, onProblem: (problem) => problems.push(problem), ...options });
  open.push(created);
  return created;
}

function lines(): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('journal', () => {
  it('numbers events from 1 and returns before writing anything', () => {
    const sink = journal({ flushIntervalMs: 60_000 });
    expect(readMissingFile().map((event) => sink.record(event))).toEqual([1, 2, 3, 4, 5]);
    expect(existsSync(path)).toBe(false);
  });

  it('writes a batch on its own after the flush interval', async () => {
    const sink = journal({ flushIntervalMs: 5 });
    for (const event of readMissingFile()) sink.record(event);
    await expect.poll(() => existsSync(path) && lines().length).toBe(5);
  });

  it('hashes a batch that is due a slice at a time, so that other work runs in between, and writes it whole', async () => {
    const sink = journal({ flushIntervalMs: 5 });
    let argumentsRead = 0;
    const args = {
      get path() {
        argumentsRead += 1;
        return 'src/config.ts';
      },
    };
    for (let index = 0; index < 100; index += 1) {
      sink.record({
        type: 'proposal',
        at: index,
        tool: 'read_file',
        callKey: 'read_file#9c1d',
        args,
        verdict: 'allow',
      });
    }
    // Due with the journal's batch, and run right after it: what the batch's first turn sealed.
    const sealedInOneTurn = await new Promise<number>((resolve) =>
      setTimeout(() => resolve(argumentsRead), 5),
    );
    expect(sealedInOneTurn).toBeGreaterThan(0);
    expect(sealedInOneTurn).toBeLessThan(100);
    await expect.poll(() => existsSync(path) && lines().length).toBe(100);
    expect(argumentsRead).toBe(100);
    await sink.flush();
    expect(verifyJournal(path)).toMatchObject({ ok: true, count: 100 });
  });

  it('writes a full batch without waiting for the interval', async () => {
    const sink = journal({ flushIntervalMs: 60_000, maxBatch: 4 });
    for (const event of events(4)) sink.record(event);
    await expect.poll(() => existsSync(path) && lines().length).toBe(4);
  });

  it('writes one line per event with its number, session, link and hash', async () => {
    const sink = journal();
    for (const event of readMissingFile()) sink.record(event);
    await sink.flush();
    const written = lines();
    expect(written.map((line) => line.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(written.map((line) => line.type)).toEqual([
      'session',
      'proposal',
      'outcome',
      'constraint_added',
      'proposal',
    ]);
    expect(written.every((line) => line.sessionId === 'sess-7f3a')).toBe(true);
    expect(written[0]?.prev).toBe(GENESIS_HASH);
    for (let index = 1; index < written.length; index++)
      expect(written[index]?.prev).toBe(written[index - 1]?.hash);
  });

  it('hashes every field of a receipt, its link to the previous one included', async () => {
    const sink = journal();
    for (const event of readMissingFile()) sink.record(event);
    await sink.flush();
    for (const line of lines()) {
      const { hash, ...rest } = line;
      expect(hash).toBe(sha256((rest.prev as string) + canonicalJson(rest)));
    }
  });

  it('writes everything on close, and a head with the count and the last hash', async () => {
    const sink = journal({ flushIntervalMs: 60_000 });
    for (const event of readMissingFile()) sink.record(event);
    await sink.close();
    const written = lines();
    expect(written).toHaveLength(5);
    expect(JSON.parse(readFileSync(join(dir, 'journal.head.json'), 'utf8'))).toEqual({
      count: 5,
      lastHash: written[4]?.hash,
    });
  });

  it('rewrites the head once per durability window, not after every write, and on flush', async () => {
    const sink = journal({ flushIntervalMs: 1, syncIntervalMs: 60_000 });
    const [first, ...rest] = readMissingFile();
    sink.record(first!);
    await sink.flush();
    const head = () => JSON.parse(readFileSync(join(dir, 'journal.head.json'), 'utf8')).count;
    expect(head()).toBe(1);
    for (const event of rest) sink.record(event);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines()).toHaveLength(5);
    expect(head()).toBe(1);
    await sink.flush();
    expect(head()).toBe(5);
  });

  it('verifies a journal whose head is still behind it, inside the durability window', async () => {
    const sink = journal({ flushIntervalMs: 1, syncIntervalMs: 60_000 });
    const [first, ...rest] = readMissingFile();
    sink.record(first!);
    await sink.flush();
    for (const event of rest) sink.record(event);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines()).toHaveLength(5);
    expect(verifyJournal(path)).toMatchObject({ ok: true, count: 5 });
    await sink.close();
  });

  it('gives the receipt hash of an event not yet written, and the same hash is written later', async () => {
    const sink = journal({ flushIntervalMs: 60_000 });
    const seqs = readMissingFile().map((event) => sink.record(event));
    const third = sink.receiptHash(seqs[2]!);
    expect(third).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(path)).toBe(false);
    await sink.flush();
    expect(lines()[2]?.hash).toBe(third);
    expect(sink.receiptHash(99)).toBeUndefined();
  });

  it('continues numbering and the chain when the journal is opened again', async () => {
    const first = journal();
    for (const event of readMissingFile()) first.record(event);
    await first.close();
    const second = journal();
    expect(second.record(readMissingFile(5)[1]!)).toBe(6);
    await second.close();
    expect(lines()[5]?.prev).toBe(lines()[4]?.hash);
    expect(verifyJournal(path)).toEqual({ ok: true, count: 6, entries: 6 });
  });

  it('stores argument digests by default, not the arguments', async () => {
    const sink = journal();
    const args = {
      url: 'https://api.example.com/v1/charges',
      headers: { Authorization: 'Bearer sk_live_51Hx9' },
    };
    sink.record({
      type: 'proposal',
      at: 1,
      tool: 'http_request',
      callKey: 'http_request#1',
      args,
      verdict: 'allow',
    });
    await sink.flush();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('api.example.com');
    expect(text).not.toContain('sk_live');
    expect(lines()[0]?.args).toEqual({
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      bytes: expect.any(Number),
    });
  });

  it('stores redacted arguments when asked to keep content', async () => {
    const sink = journal({ content: 'redacted' });
    const args = {
      url: 'https://api.example.com/v1/charges',
      headers: { Authorization: 'Bearer sk_live_51Hx9' },
    };
    sink.record({
      type: 'proposal',
      at: 1,
      tool: 'http_request',
      callKey: 'http_request#1',
      args,
      verdict: 'allow',
    });
    await sink.flush();
    expect(lines()[0]?.args).toEqual({
      url: 'https://api.example.com/v1/charges',
      headers: { Authorization: '[REDACTED]' },
    });
  });

  it('redacts secrets in error texts whatever the content policy', async () => {
    const sink = journal();
    const error =
      'fatal: could not read from https://x-access-token:ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ12@github.com';
    sink.record({ ...(readMissingFile()[2] as Extract<JournalEvent, { type: 'outcome' }>), error });
    await sink.flush();
    expect(readFileSync(path, 'utf8')).not.toContain('ghp_');
  });

  it('records events with cyclic or odd arguments and keeps the chain valid', async () => {
    const sink = journal({ content: 'redacted' });
    const args: Record<string, unknown> = { size: 10n, when: new Date(0) };
    args.self = args;
    sink.record({ type: 'proposal', at: 1, tool: 'odd', callKey: 'odd#1', args, verdict: 'allow' });
    await sink.close();
    expect(lines()[0]?.args).toEqual({
      size: '[bigint 10]',
      when: '1970-01-01T00:00:00.000Z',
      self: '[circular]',
    });
    expect(verifyJournal(path).ok).toBe(true);
  });

  it('writes no links or hashes with receipts off, and verify says there is nothing to check', async () => {
    const sink = journal({ receipts: false });
    for (const event of readMissingFile()) sink.record(event);
    await sink.close();
    expect(lines().some((line) => 'hash' in line || 'prev' in line)).toBe(false);
    expect(sink.receiptHash(1)).toBeUndefined();
    expect(verifyJournal(path)).toMatchObject({
      ok: false,
      count: 0,
      entries: 5,
      problem: expect.stringMatching(/^no receipts/),
    });
  });

  it('refuses a second writer on the same journal', () => {
    journal();
    expect(() => createJournal({ path })).toThrow(JournalInUseError);
  });

  it('refuses events after it was closed', async () => {
    const sink = journal();
    await sink.close();
    expect(() => sink.record(readMissingFile()[0]!)).toThrow(/closed/);
  });

  it('verifies its own receipts while open', async () => {
    const sink = journal();
    for (const event of events(12)) sink.record(event);
    await sink.flush();
    expect(sink.verify()).toEqual({ ok: true, count: 12, entries: 12 });
  });
});

describe('journal after a crash', () => {
  it('moves a torn last line aside, reports it and goes on numbering after the last whole line', async () => {
    const first = journal();
    for (const event of readMissingFile()) first.record(event);
    await first.close();
    const torn = '{"at":1771405213000,"callKey":"read_file#9c1d","prev":"ab12';
    appendFileSync(path, torn);

    const second = journal();
    expect(problems).toEqual([
      { kind: 'torn-line', path, movedTo: expect.stringContaining('.torn-'), bytes: torn.length },
    ]);
    const moved = problems[0] as Extract<JournalProblem, { kind: 'torn-line' }>;
    expect(readFileSync(moved.movedTo, 'utf8')).toBe(torn);
    expect(second.record(readMissingFile()[1]!)).toBe(6);
    await second.close();
    expect(verifyJournal(path)).toEqual({ ok: true, count: 6, entries: 6 });
  });

  it('keeps a last line that is whole but lost its newline', async () => {
    const first = journal();
    for (const event of readMissingFile()) first.record(event);
    await first.close();
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, -1));

    const second = journal();
    expect(problems).toEqual([]);
    expect(second.record(readMissingFile()[1]!)).toBe(6);
    await second.close();
    expect(verifyJournal(path)).toEqual({ ok: true, count: 6, entries: 6 });
  });

  it('keeps the gap on record when entries were cut from the end', async () => {
    const first = journal();
    for (const event of events(8)) first.record(event);
    await first.close();
    const kept = readFileSync(path, 'utf8').split('\n').slice(0, 6).join('\n');
    writeFileSync(path, `${kept}\n`);

    const second = journal();
    expect(problems).toEqual([{ kind: 'truncated', path, headCount: 8, lastSeq: 6 }]);
    expect(second.record(readMissingFile()[1]!)).toBe(9);
    await second.close();
    expect(verifyJournal(path)).toMatchObject({ ok: false, brokenAt: 7 });
  });

  it('writes what was recorded when the process ends without closing the journal', async () => {
    const { exited } = runScript('test/fixtures/audit/journal-writer.ts', [path, 'exit', '23']);
    expect(await exited).toMatchObject({ code: 0, stderr: '' });
    expect(lines().map((line) => line.seq)).toEqual(Array.from({ length: 23 }, (_, index) => index + 1));
    expect(verifyJournal(path)).toEqual({ ok: true, count: 23, entries: 23 });
    expect(existsSync(`${path}.writer`)).toBe(false);
  });

  it('writes what was recorded when the process calls exit at once', async () => {
    const { exited } = runScript('test/fixtures/audit/journal-writer.ts', [path, 'exit-now', '7']);
    expect(await exited).toMatchObject({ code: 0, stderr: '' });
    expect(verifyJournal(path)).toEqual({ ok: true, count: 7, entries: 7 });
  });

  it('opens again after its writer was killed and continues after what reached the disk', async () => {
    const { child, exited } = runScript('test/fixtures/audit/journal-writer.ts', [path, 'kill', '10']);
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('flushed')) child.kill('SIGKILL');
    });
    expect(await exited).toMatchObject({ signal: 'SIGKILL' });
    expect(existsSync(`${path}.writer`)).toBe(true);

    const reopened = journal();
    expect(reopened.record(readMissingFile()[0]!)).toBe(11);
    await reopened.close();
    expect(verifyJournal(path)).toEqual({ ok: true, count: 11, entries: 11 });
    expect(readJournalSync(path).map((entry) => entry.seq)).toHaveLength(11);
  });
});

describe('the receipt of an outcome', () => {
  it('is the hash of the outcome’s journal line, read on demand and written into JSON', async () => {
    const sink = journal({ flushIntervalMs: 60_000 });
    const loop = new NarrowingEngine({
      adapter: createToolCallAdapter(),
      audit: sink,
      sessionId: 'receipts',
    });
    const proposal = toolCallToProposal('read_file', { path: 'docs/missing.md' });
    loop.checkProposal(proposal);
    const recorded = loop.recordOutcome({
      ...toolCallToOutcome('read_file', proposal.args, {
        content: [{ type: 'text', text: "ENOENT: no such file or directory, open 'docs/missing.md'" }],
        isError: true,
      }),
      proposal,
    });
    const hash = recorded.receiptHash;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(JSON.stringify(recorded)).receiptHash).toBe(hash);
    await sink.flush();
    const last = lines().at(-1) as { hash: string; type: string };
    expect(last.hash).toBe(hash);
  });

  it('is absent without a journal', () => {
    const loop = new NarrowingEngine({ adapter: createToolCallAdapter(), sessionId: 'no-receipts' });
    const proposal = toolCallToProposal('read_file', { path: 'README.md' });
    loop.checkProposal(proposal);
    const recorded = loop.recordOutcome({
      ...toolCallToOutcome('read_file', proposal.args, { content: [{ type: 'text', text: '# narrowing' }] }),
      proposal,
    });
    expect(recorded.receiptHash).toBeUndefined();
    expect(JSON.parse(JSON.stringify(recorded))).not.toHaveProperty('receiptHash');
  });
});
