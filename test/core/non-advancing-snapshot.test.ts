import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { createNonAdvancingDetector } from '../../src/core/detectors/index.js';
import { Agent } from './support.js';

/** A new guard holding what `agent` saved, as a new process reads it back from a store. */
function restarted(agent: Agent): Agent {
  const next = new Agent();
  next.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
  return next;
}

/** The verdict of each call, each in a process of its own that reads what the one before saved. */
function processPerCall(calls: readonly (readonly [string, Record<string, unknown>, string])[]): string[] {
  let agent = new Agent();
  const seen: string[] = [];
  for (const [tool, args, result] of calls) {
    seen.push(agent.call(tool, args, result).check.verdict);
    agent = restarted(agent);
  }
  return seen;
}

const NO_TRANSACTIONS = '{"transactions": []}';
const NO_ITEMS = '{"items": [], "total_count": 0}';

describe('non-advancing across processes, each event in a process of its own', () => {
  it('never blocks a sweep of dates in order returning empty lists', () => {
    const calls = Array.from(
      { length: 9 },
      (_, day) =>
        ['search_transactions', { account: 'acc-1', date: `2026-01-0${day + 1}` }, NO_TRANSACTIONS] as const,
    );
    expect(processPerCall(calls)).not.toContain('block');
  });

  it('never blocks a sweep of pages in order returning empty lists', () => {
    const calls = Array.from(
      { length: 8 },
      (_, page) => ['search_issues', { query: 'label:flaky', page: page + 1 }, NO_ITEMS] as const,
    );
    expect(processPerCall(calls)).not.toContain('block');
  });

  it('never blocks a sweep of ids in names returning empty lists', () => {
    const calls = Array.from(
      { length: 8 },
      (_, at) => ['get_order_events', { order: `W${1001 + at}` }, '[]'] as const,
    );
    expect(processPerCall(calls)).not.toContain('block');
  });

  it('still blocks rephrasings of one request that keep coming back empty', () => {
    const queries = [
      'refund policy for damaged items',
      'Refund Policy Damaged Items',
      'return policy broken product',
      'refunds for damaged goods',
      'damaged item refund',
      'policy on refunds when item arrives damaged',
    ];
    const calls = queries.map((query) => ['search_knowledge_base', { query }, '[]'] as const);
    const one = new Agent();
    const inOne = calls.map(([tool, args, result]) => one.call(tool, args, result).check.verdict);
    expect(inOne).toContain('block');
    expect(processPerCall(calls)).toEqual(inOne);
  });

  it('keeps stopping reworded queries of one file after a restart, its streak filed under the hash of the file', () => {
    const file = 'config/billing-plans.json';
    const queries = [
      `jq '.plans[] | select(.id == "team-annual")' ${file}`,
      `cat ${file} | jq '.plans[] | select(.name == "Team (annual)")'`,
      `jq -r '.plans | map(select(.interval == "year")) | .[0].id' ${file}`,
      `jq '.plans["team-annual"]' ${file}`,
      `jq '.. | objects | select(.id? == "team-annual")' ${file}`,
      `jq -c '.annual.team' ${file}`,
    ];
    const calls = queries.map((command) => ['Bash', { command }, ''] as const);
    const one = new Agent();
    const inOne = calls.map(([tool, args, result]) => one.call(tool, args, result).check.verdict);
    expect(inOne).toContain('block');
    expect(processPerCall(calls)).toEqual(inOne);
    const saved = one.loop.sessionSnapshot().detectors['non-advancing'] as { tools: [string, unknown][] };
    expect(saved.tools.map(([key]) => key).join()).not.toContain('billing-plans');
  });

  it('saves no argument name or value in clear but the positions a sweep steps along', () => {
    const agent = new Agent();
    agent.call('search_transactions', { account: 'acc-7731', date: '2026-01-01' }, NO_TRANSACTIONS);
    agent.call('search_issues', { query: 'label:flaky', page: 2 }, NO_ITEMS);
    agent.call('find_customer', { phone: '555 0142', card_number: '4111 1111 1111 1111' }, '[]');
    agent.call('find_customer', { name: 'Ada Lovelace', ref: 'AB-1234567890' }, '[]');
    const saved = agent.loop.sessionSnapshot().detectors['non-advancing'] as {
      tools: [string, { lastArgs: unknown }][];
    };
    const args = JSON.stringify(saved.tools.map(([, streak]) => streak.lastArgs));
    for (const value of [
      'account',
      'acc-7731',
      'label:flaky',
      'query',
      'phone',
      '0142',
      '4111',
      'Ada',
      'AB-',
    ])
      expect(args).not.toContain(value);
    // A date and a page are positions, saved as such; the account beside the date is its hash.
    expect(args).toContain('2026-01-01');
    expect(args).toContain('{"number":2}');
    expect(args).not.toContain('1234567890');
  });

  it('blocks the seventh wording of one document search answered with the same passage each time', () => {
    const passages =
      '[{"doc": "lease.pdf", "page": 3, "text": "Rent is due on the first day of each month."}]';
    const wordings = [
      'security deposit refund',
      'when is the deposit returned',
      'deposit return deadline',
      'getting my security deposit back',
      'deposit refund timeline',
      'return of the deposit after moving out',
      'security deposit deductions',
    ];
    const calls = wordings.map(
      (text) => ['similarity_search', { chat_uuid: 'c0a8012e-5f1d', text }, passages] as const,
    );
    expect(processPerCall(calls)).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow', 'block']);
  });

  it('opens a snapshot saved before the last arguments were kept, and counts the next call as a rephrasing', () => {
    const detector = createNonAdvancingDetector();
    detector.restore({
      version: 1,
      tools: [['search_issues', { count: 1, inferred: true, tripped: false, calls: [], text: '' }]],
    });
    expect(detector.snapshot()).toMatchObject({ version: 3, tools: [['search_issues', { count: 1 }]] });
  });

  it('ignores a hostile or corrupt snapshot, and never throws reading one or checking after it', () => {
    const agent = new Agent();
    agent.call('search_issues', { query: 'label:flaky', page: 1 }, NO_ITEMS);
    agent.call('search_issues', { query: 'label:flaky', page: 2 }, NO_ITEMS);
    const valid = agent.loop.sessionSnapshot().detectors['non-advancing'] as {
      tools: [string, Record<string, unknown>][];
    };
    const [tool, streak] = valid.tools[0] as [string, Record<string, unknown>];
    const proposal = toolCallToProposal('search_issues', { query: 'label:flaky', page: 3 });
    const hostile = fc.oneof(
      fc.anything(),
      fc.record({
        version: fc.constant(2),
        tools: fc.array(
          fc.tuple(
            fc.constant(tool),
            fc.anything().map((lastArgs) => ({ ...streak, lastArgs })),
          ),
        ),
      }),
      fc.record({
        version: fc.constant(2),
        tools: fc.array(
          fc.tuple(
            fc.constant(tool),
            fc.record({
              count: fc.integer({ min: 1, max: 9 }),
              tripped: fc.boolean(),
              sweep: fc.anything(),
              lastArgs: fc.array(
                fc.tuple(
                  fc.string(),
                  fc.string(),
                  fc.oneof(
                    fc.jsonValue(),
                    fc.record({ number: fc.double() }),
                    fc.record({
                      shape: fc.string(),
                      numbers: fc.array(fc.jsonValue()),
                      date: fc.jsonValue(),
                    }),
                  ),
                ),
              ),
            }),
          ),
        ),
      }),
    );
    fc.assert(
      fc.property(hostile, (state) => {
        const guard = agent.restoredWith('non-advancing', state);
        expect(['allow', 'block', 'warn']).toContain(guard.loop.checkProposal(proposal).verdict);
        // Recording the next step compares it with the restored arguments.
        guard.call('search_issues', { query: 'label:flaky', page: 3 }, NO_ITEMS);
        expect(['allow', 'block', 'warn']).toContain(guard.check('search_issues', { page: 4 }).verdict);
      }),
      { numRuns: 150 },
    );
  });
});
