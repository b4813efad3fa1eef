import { describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../../src/adapters/tool-call/index.js';
import { Agent } from '../support.js';

/**
 * A web search that keeps finding nothing, reworded, with a command run between the wordings: a
 * change made on this machine does not put on the web what the search did not find there.
 */
const OPEN_WORLD = { annotations: { openWorldHint: true, readOnlyHint: true } };
const nothing = (query: string) => `No search results or information found for query: "${query}"`;

function search(agent: Agent, query: string) {
  agent.clock.advance(5);
  const proposal = toolCallToProposal('google_web_search', { query }, OPEN_WORLD);
  const check = agent.loop.checkProposal(proposal);
  if (check.allowed) {
    const outcome = toolCallToOutcome('google_web_search', { query }, nothing(query), OPEN_WORLD);
    agent.loop.recordOutcome({ ...outcome, proposal });
  }
  return check.verdict;
}

const QUERIES = [
  'etf_code.mst file format',
  'etf_code.mst column layout',
  'KIS ETF master file specification',
  'ETF_CODE.MST FILE FORMAT',
  'etf_code.mst fixed width fields',
  'etf master file structure',
];

describe('empty answers of a search that asks outside this machine', () => {
  it('still count after a command that changes only this machine', () => {
    const agent = new Agent();
    const verdicts = QUERIES.slice(0, 2).map((query) => search(agent, query));
    agent.call(
      'run_shell_command',
      { command: 'python3 scripts/peek.py data/etf_code.mst > /tmp/peek.txt' },
      'ok\n',
    );
    verdicts.push(...QUERIES.slice(2).map((query) => search(agent, query)));
    expect(verdicts.slice(0, 5)).not.toContain('block');
    expect(verdicts[5]).toBe('block');
  });

  it('start over after a command that changes something outside (a push)', () => {
    const agent = new Agent();
    const verdicts = QUERIES.slice(0, 4).map((query) => search(agent, query));
    agent.call(
      'run_shell_command',
      { command: 'git push origin main' },
      'To github.com:kis/etf-tools.git\n   3f2a1b0..9c8d7e6  main -> main\n',
    );
    verdicts.push(...QUERIES.slice(4).map((query) => search(agent, query)));
    expect(verdicts).not.toContain('block');
  });
});
