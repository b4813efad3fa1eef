import { describe, expect, it } from 'vitest';
import { Agent, type ToolResult } from './support.js';

type Step = readonly [tool: string, args: Record<string, unknown>, result: ToolResult];

/** The verdicts of `steps`, each call in a guard of its own restored from the last one's snapshot, as hook processes run. */
function acrossProcesses(steps: readonly Step[]): string[] {
  let agent = new Agent();
  return steps.map(([tool, args, result]) => {
    const verdict = agent.call(tool, args, result).check.verdict;
    const next = new Agent();
    next.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
    agent = next;
    return verdict;
  });
}

function inOneProcess(steps: readonly Step[]): string[] {
  const agent = new Agent();
  return steps.map(([tool, args, result]) => agent.call(tool, args, result).check.verdict);
}

const UPSTREAM = { text: 'Error: the upstream answered 418 for this ticket', isError: true };
/** Two calls of one tool on one ticket failing with one error nobody can blame yet. */
const TICKET: readonly Step[] = [
  ['get_ticket', { ticket_id: 'T-4410', fields: ['status'] }, UPSTREAM],
  ['get_ticket', { ticket_id: 'T-4410', fields: ['owner'] }, UPSTREAM],
  ['get_ticket', { ticket_id: 'T-4410', fields: ['owner'] }, UPSTREAM],
];

const PAUSED = { text: 'Error: relation "orders" is paused by a migration', isError: true };
/** A failure set aside by a change, then the same failure after it. */
const QUERY: readonly Step[] = [
  ['run_query', { sql: 'SELECT * FROM orders' }, PAUSED],
  ['write_file', { path: 'notes.md', content: 'orders paused' }, 'Wrote 13 bytes to notes.md'],
  ['run_query', { sql: 'SELECT * FROM orders' }, PAUSED],
  ['run_query', { sql: 'SELECT * FROM orders' }, PAUSED],
];

describe('what the learner remembers of recent failures, across processes', () => {
  it('takes a second call failing as another did on the same target as corroboration in a new process too', () => {
    expect(acrossProcesses(TICKET)).toEqual(inOneProcess(TICKET));
    expect(acrossProcesses(TICKET)).toEqual(['allow', 'allow', 'block']);
  });

  it('takes a failure that came back after a change as its second sighting in a new process too', () => {
    expect(acrossProcesses(QUERY)).toEqual(inOneProcess(QUERY));
    expect(acrossProcesses(QUERY)).toEqual(['allow', 'allow', 'allow', 'block']);
  });

  it('saves neither the calls’ arguments nor their errors in clear', () => {
    const agent = new Agent();
    for (const [tool, args, result] of [...TICKET.slice(0, 1), ...QUERY.slice(0, 2)])
      agent.call(tool, args, result);
    const saved = JSON.stringify(agent.loop.sessionSnapshot().learner);
    expect(saved).toMatch(/\[\[/);
    for (const text of ['T-4410', 'orders', 'upstream', 'paused']) expect(saved).not.toContain(text);
  });

  it('starts from nothing when what it saved cannot be read', () => {
    for (const learner of ['recent', [1, 2], { unknown: [[1, 2, 3]], setAside: [['a']] }, { unknown: 'x' }]) {
      const agent = new Agent();
      agent.call(...TICKET[0]!);
      const saved = agent.loop.snapshot();
      const next = new Agent();
      next.loop.restore({ ...saved, session: { ...(saved.session as object), learner } });
      expect(next.call(...TICKET[1]!).check.verdict).toBe('allow');
      expect(next.call(...TICKET[2]!).check.verdict).toBe('allow');
    }
  });
});
