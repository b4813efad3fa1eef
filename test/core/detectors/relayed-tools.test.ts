import { describe, expect, it } from 'vitest';
import { Agent } from '../support.js';

/**
 * Cline's, Roo Code's and Kilo Code's one tool for every MCP server, `use_mcp_tool {server_name,
 * tool_name, arguments}` with the arguments as JSON text: what is counted per tool counts the tool
 * it relays to.
 */
const relay = (tool: string, args: Record<string, unknown>, server = 'work-log') => ({
  server_name: server,
  tool_name: tool,
  arguments: JSON.stringify(args),
});
const EMPTY = '{"results":[]}';
const timeline = '{"items":[{"id":"obs_81342","date":"2026-07-07","title":"Fixed flaky upload test"}]}';

describe('a call relayed to an MCP server’s tool', () => {
  it('leaves another tool of the server alone after one tool found nothing, whatever the question', () => {
    const agent = new Agent();
    const queries = ['upload test', 'flaky upload', 'Upload Test', 'uploads', 'test uploads', 'upload flake'];
    for (const query of queries) agent.call('use_mcp_tool', relay('search', { query, limit: 20 }), EMPTY);
    const check = agent.check('use_mcp_tool', relay('timeline', { anchor: 'obs_81342', depth_before: 50 }));
    expect(check.verdict).toBe('allow');
  });

  it('still blocks the tool that found nothing for every rewording', () => {
    const agent = new Agent();
    const queries = ['upload test', 'flaky upload', 'Upload Test', 'uploads', 'test uploads', 'upload flake'];
    for (const query of queries) agent.call('use_mcp_tool', relay('search', { query, limit: 20 }), EMPTY);
    const check = agent.check('use_mcp_tool', relay('search', { query: 'uploader flakiness', limit: 20 }));
    expect(check).toMatchObject({ verdict: 'block', rule: 'non-advancing' });
    expect(check.reason).toContain('mcp__work-log__search');
  });

  it('reads a sweep of days through the relay as exploration: its empty days block nothing', () => {
    const agent = new Agent();
    const verdicts = [1, 2, 3, 4, 5, 6, 7, 8].map((day) => {
      const date = `2026-07-0${day}`;
      const args = relay('search', { query: 'worked on', date_from: date, date_to: date, limit: 20 });
      return agent.call('use_mcp_tool', args, EMPTY).check.verdict;
    });
    expect(verdicts).not.toContain('block');
    const next = agent.call('use_mcp_tool', relay('timeline', { anchor: 'obs_81342' }), timeline);
    expect(next.check.verdict).not.toBe('block');
  });
});

describe('a window of dates moved along', () => {
  it('reads a `from` and a `to` stepped together as a sweep, not as rephrasings', () => {
    const agent = new Agent();
    const verdicts = [1, 2, 3, 4, 5, 6, 7, 8].map((day) => {
      const from = `2026-03-0${day}`;
      const to = `2026-03-0${day + 1}`;
      return agent.call('search_orders', { customer: 'C-1042', from, to }, '[]').check.verdict;
    });
    expect(verdicts).not.toContain('block');
  });

  it('counts fields moved apart (one forward, one back) as rephrasings', () => {
    const agent = new Agent();
    const verdicts = [1, 2, 3, 4, 5, 6, 7, 8].map((day) => {
      const from = `2026-03-0${day}`;
      const to = `2026-04-0${9 - day}`;
      return agent.call('search_orders', { customer: 'C-1042', from, to }, '[]').check.verdict;
    });
    expect(verdicts).toContain('block');
  });
});

describe('the health of a tool behind the relay', () => {
  it('counts one server’s faults against its tool, not against every server’s tools', () => {
    const agent = new Agent();
    const unavailable = {
      text: 'MCP error -32603: upstream returned 503 Service Unavailable',
      isError: true,
    };
    for (let attempt = 0; attempt < 6; attempt++)
      agent.call(
        'use_mcp_tool',
        relay('fetch', { url: 'https://status.example.com/api' }, 'fetcher'),
        unavailable,
      );
    const faulty = agent.check(
      'use_mcp_tool',
      relay('fetch', { url: 'https://status.example.com/api' }, 'fetcher'),
    );
    expect(faulty.rule).toBe('tool-health');
    const other = agent.check('use_mcp_tool', relay('search', { query: 'deploy freeze' }));
    expect(other.verdict).toBe('allow');
  });
});
