import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../../src/adapters/tool-call/index.js';
import type { ContentPolicy } from '../../../src/audit/entry.js';
import { createJournal } from '../../../src/audit/index.js';
import { NarrowingEngine } from '../../../src/core/loop.js';
import { guardedCall } from '../../../src/guard/guarded-call.js';
import { openGuardSync } from '../../../src/guard/open.js';
import { judgeBlocks, wastedSteps } from '../../../src/replay/judge.js';
import { replayTrace } from '../../../src/replay/replay.js';
import { journalToTrace } from '../../../src/trace/convert/index.js';
import { parseTrace, type TraceEvent, traceResultToOutcome } from '../../../src/trace/index.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const emptyRead: TraceEvent = {
  type: 'call',
  tool: 'read_file',
  args: { path: 'data.json' },
  result: { content: '' },
};
const config: TraceEvent = {
  type: 'call',
  tool: 'read_file',
  args: { path: 'config.json' },
  result: { content: '{"port":8080}' },
};

/** Runs calls through a live guard that writes a real journal, the way an agent would. */
async function recordJournal(name: string, content: ContentPolicy, events: TraceEvent[]): Promise<string[]> {
  const path = join(dir, `${name}.jsonl`);
  const journal = createJournal({ path, content, flushIntervalMs: 1 });
  let now = Date.UTC(2026, 2, 1);
  const loop = new NarrowingEngine({
    adapter: createToolCallAdapter(),
    audit: journal,
    clock: { now: () => now },
  });
  for (const event of events) {
    now += 2000;
    if (event.type === 'user') loop.newRun('user');
    if (event.type !== 'call') continue;
    const proposal = { tool: event.tool, args: event.args };
    if (!loop.checkProposal(proposal).allowed || !event.result) continue;
    loop.recordOutcome(traceResultToOutcome(proposal, event.result));
  }
  await loop.close();
  await journal.close();
  return readFileSync(path, 'utf8').split('\n');
}

describe('journalToTrace', () => {
  it('keeps calls stored as digests comparable', async () => {
    const lines = await recordJournal('digest', 'digest', [emptyRead, emptyRead, emptyRead, emptyRead]);
    const { events } = journalToTrace(lines, 'digest');
    const calls = events.filter((event) => event.type === 'call');
    expect(calls).toHaveLength(4);
    expect(calls[0]?.args).toEqual({ $digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(new Set(calls.map((call) => JSON.stringify(call.args))).size).toBe(1);
  });

  it('keeps an empty result empty and drops results of calls that were refused', async () => {
    const lines = await recordJournal('refused', 'digest', [emptyRead, emptyRead, emptyRead, emptyRead]);
    const calls = journalToTrace(lines).events.filter((event) => event.type === 'call');
    expect(calls.map((call) => call.result)).toEqual([
      { content: '' },
      { content: '' },
      undefined,
      undefined,
    ]);
  });

  it('replays to the verdicts the live guard gave', async () => {
    const lines = await recordJournal('verdicts', 'digest', [emptyRead, emptyRead, emptyRead, config]);
    const live = lines
      .filter((line) => line.includes('"type":"proposal"'))
      .map((line) => JSON.parse(line).verdict);
    const replayed = replayTrace(journalToTrace(lines).events).steps.map((step) => step.verdict);
    expect(replayed).toEqual(live);
  });

  it('keeps arguments when the journal stored them', async () => {
    const lines = await recordJournal('redacted', 'redacted', [config]);
    const calls = journalToTrace(lines).events.filter((event) => event.type === 'call');
    expect(calls[0]?.args).toEqual({ path: 'config.json' });
  });

  it('stands in for a successful result with its digest', async () => {
    const lines = await recordJournal('content', 'digest', [config]);
    const [call] = journalToTrace(lines).events.filter((event) => event.type === 'call');
    expect(call?.result).toEqual({ content: expect.stringMatching(/^\[result \S+\]$/) });
  });

  it('turns runs into user events', async () => {
    const lines = await recordJournal('runs', 'digest', [config, { type: 'user' }, config]);
    const types = journalToTrace(lines).events.map((event) => event.type);
    expect(types).toEqual(['meta', 'session', 'call', 'user', 'call']);
  });

  it('writes a trace that parses back unchanged', async () => {
    const lines = await recordJournal('roundtrip', 'digest', [emptyRead, config]);
    const { events } = journalToTrace(lines);
    expect(parseTrace(events.map((event) => JSON.stringify(event)).join('\n'))).toEqual(events);
  });

  it('counts lines that are not journal entries', () => {
    const { skipped, events } = journalToTrace([
      '{"seq":1,"type":"session","sessionId":"s","at":1}',
      '{"seq":2,"ty',
    ]);
    expect(skipped).toBe(1);
    expect(events).toHaveLength(2);
  });
});

/**
 * Two identical reads of a missing file issued together through a live guard, the way a model's
 * parallel tool calls reach it: the second is answered from the first and journalled `coalesced`.
 */
async function coalescedJournal(name: string): Promise<string[]> {
  const stateDir = join(dir, name);
  const guard = openGuardSync({ stateDir, journal: true, probe: false, onProblem: () => undefined });
  const proposal = { tool: 'read_file', args: { path: 'config/prod.yaml' } };
  const missing = async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return {
      content: [{ type: 'text', text: "ENOENT: no such file or directory, open 'config/prod.yaml'" }],
      isError: true,
    };
  };
  const results = await Promise.all([
    guardedCall(guard, proposal, missing),
    guardedCall(guard, proposal, missing),
  ]);
  expect(results.map((result) => result.status)).toEqual(['ran', 'coalesced']);
  await guard.close();
  return readFileSync(guard.journalPath ?? '', 'utf8').split('\n');
}

describe('journalToTrace, with calls coalesced live', () => {
  it('places a coalesced call right after its twin, in one turn, without a result', async () => {
    const calls = journalToTrace(await coalescedJournal('coalesced-turn')).events.filter(
      (event) => event.type === 'call',
    );
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ turn: expect.any(String), result: { isError: true } });
    expect(calls[1]).toMatchObject({ turn: calls[0]?.turn, coalesced: true });
    expect(calls[1]?.result).toBeUndefined();
  });

  it('replays a coalesced call as coalesced, never as a block or a false block', async () => {
    const { events } = journalToTrace(await coalescedJournal('coalesced-replay'));
    const report = replayTrace(events);
    expect(report.steps.map((step) => step.verdict)).toEqual(['allow', 'coalesced']);
    expect(report.summary).toMatchObject({ calls: 2, allow: 1, block: 0, coalesced: 1 });
    expect(judgeBlocks(report.steps, wastedSteps(events))).toMatchObject({ blocks: 0, false: 0 });
  });

  it('writes coalesced calls in a trace that parses back unchanged', async () => {
    const { events } = journalToTrace(await coalescedJournal('coalesced-roundtrip'));
    expect(events.some((event) => event.type === 'call' && event.coalesced)).toBe(true);
    expect(parseTrace(events.map((event) => JSON.stringify(event)).join('\n'))).toEqual(events);
  });
});
