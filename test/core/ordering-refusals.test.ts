import { describe, expect, it } from 'vitest';
import { Agent } from './support.js';

/** Refusals of a call that is out of order: another call must run before it. */
const refused = (text: string) => ({ text, isError: true });

const CASES = [
  {
    host: 'a ReAct loop',
    call: { tool: 'Submit', args: { input: 'Paris' } },
    refusal: 'Invalid action. Submit only follows the Verify action.',
    first: { tool: 'Verify', args: { input: 'Paris' }, result: 'Verified. You may submit now.' },
  },
  {
    host: 'an MCP server',
    call: { tool: 'mcp__warehouse__run_query', args: { sql: 'SELECT count(*) FROM orders' } },
    refusal: 'Error: no active connection. Call connect first.',
    first: {
      tool: 'mcp__warehouse__connect',
      args: { dsn: 'warehouse-prod' },
      result: 'Connected to warehouse-prod (read only).',
    },
  },
  {
    host: 'a shell',
    call: { tool: 'run_shell_command', args: { command: 'terraform plan -out=tfplan' } },
    refusal: 'Error: terraform plan is not allowed before terraform init has completed in this directory.',
    first: {
      tool: 'run_shell_command',
      args: { command: 'terraform init' },
      result: 'Terraform has been successfully initialized!',
    },
  },
  {
    host: 'a browser tool',
    call: { tool: 'browser_click', args: { element: 'Checkout button', ref: 'e42' } },
    refusal: 'Error: you must take a snapshot before clicking an element.',
    first: {
      tool: 'browser_snapshot',
      args: {},
      result: '- button "Checkout" [ref=e42]',
    },
  },
  {
    host: 'a task tracker',
    call: { tool: 'close_ticket', args: { id: 'OPS-3381' } },
    refusal: 'Cannot close OPS-3381: this action requires assign_ticket to be run first.',
    first: { tool: 'assign_ticket', args: { id: 'OPS-3381', to: 'me' }, result: 'OPS-3381 assigned to you.' },
  },
  {
    host: 'a browser server naming the tool to use first',
    call: { tool: 'mcp__browser__click', args: { element: 'Sign in link', ref: 'e7' } },
    refusal: 'Error: no page is open. Use the "open_page" tool to load one first.',
    first: {
      tool: 'mcp__browser__open_page',
      args: { url: 'https://shop.example.com/' },
      result: '- link "Sign in" [ref=e7]',
    },
  },
] as const;

describe('a call refused because another must run first', () => {
  for (const { host, call, refusal, first } of CASES) {
    it(`allows the same call again once another call has succeeded since (${host})`, () => {
      const agent = new Agent();
      agent.call(call.tool, call.args, refused(refusal));
      agent.call(first.tool, first.args, first.result);
      expect(agent.check(call.tool, call.args).verdict).toBe('allow');
    });
  }

  it('allows the same call again once another call has succeeded, each call in a process of its own', () => {
    const query = ['mcp__warehouse__run_query', { sql: 'SELECT count(*) FROM orders' }] as const;
    const steps = [
      [...query, refused('Error: no active connection. Call connect first.')],
      [...query, refused('Error: no active connection. Call connect first.')],
      ['mcp__warehouse__connect', { dsn: 'warehouse-prod' }, 'Connected to warehouse-prod (read only).'],
      [...query, '[{"count": 1182}]'],
    ] as const;
    let agent = new Agent();
    const verdicts = steps.map(([tool, args, result]) => {
      const verdict = agent.call(tool, args, result).check.verdict;
      const next = new Agent();
      next.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
      agent = next;
      return verdict;
    });
    expect(verdicts).toEqual(['allow', 'allow', 'allow', 'allow']);
  });

  it('leaves the ban on an out-of-order call behind when a new session starts', () => {
    const agent = new Agent();
    const action = { input: 'Paris' };
    agent.call('Submit', action, refused('Invalid action. Submit only follows the Verify action.'));
    agent.loop.resetSession('next');
    expect(agent.check('Submit', action).verdict).toBe('allow');
  });

  it('keeps the ban on an out-of-order call out of the state written for later sessions', () => {
    const agent = new Agent();
    const action = { input: 'Paris' };
    agent.call('Submit', action, refused('Invalid action. Submit only follows the Verify action.'));
    expect(agent.check('Submit', action).verdict).toBe('block');
    expect(agent.loop.exportState().constraints).toEqual([]);
  });

  it('blocks the same out-of-order call retried with nothing in between', () => {
    const agent = new Agent();
    const close = { id: 'OPS-3381' };
    agent.call(
      'close_ticket',
      close,
      refused('Cannot close OPS-3381: this action requires assign_ticket to be run first.'),
    );
    expect(agent.check('close_ticket', close).verdict).toBe('block');
  });

  it('blocks the same out-of-order call retried with only failing calls in between', () => {
    const agent = new Agent();
    const action = { input: 'Paris' };
    agent.call('Submit', action, refused('Invalid action. Submit only follows the Verify action.'));
    agent.call('Search', { input: 'capital of France' }, refused('Invalid action. Search is not available.'));
    expect(agent.check('Submit', action).verdict).toBe('block');
  });
});
