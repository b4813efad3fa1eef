import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../../src/adapters/tool-call/adapter.js';
import { toolCallToProposal } from '../../../src/adapters/tool-call/convert.js';
import { relayedCall, wrappedArguments } from '../../../src/adapters/tool-call/relayed-call.js';
import { Agent } from '../../core/support.js';

const ISSUE = {
  owner: 'thetom42',
  repo: 'stock-portfolio',
  title: 'Fix failed Postman test runs for the Categories collection',
  body: 'The Postman collection for Categories fails on every run.',
};
const CREATED =
  '{"number": 33, "html_url": "https://github.com/thetom42/stock-portfolio/issues/33", "state": "open"}';

function relay(toolName: string, args: unknown, server = 'github'): Record<string, unknown> {
  return { server_name: server, tool_name: toolName, arguments: args };
}

describe('a call that relays another tool call', () => {
  it('blocks an issue created a second time through use_mcp_tool with the same arguments', () => {
    const agent = new Agent();
    agent.call('use_mcp_tool', relay('create_issue', ISSUE), CREATED);
    expect(agent.check('use_mcp_tool', relay('create_issue', ISSUE))).toMatchObject({
      verdict: 'block',
      rule: 'duplicate-effect',
    });
  });

  it('reads arguments given as JSON text as it reads an object', () => {
    const agent = new Agent();
    agent.call('use_mcp_tool', relay('create_issue', JSON.stringify(ISSUE)), CREATED);
    expect(agent.check('use_mcp_tool', relay('create_issue', JSON.stringify(ISSUE))).verdict).toBe('block');
  });

  it('reads a relayed call as the call itself, its server included', () => {
    const adapter = createToolCallAdapter();
    const read = { owner: 'thetom42', repo: 'stock-portfolio', path: 'src/app.ts' };
    for (const [tool, args] of [
      ['get_file_contents', read],
      ['create_issue', ISSUE],
    ] as const) {
      const { relayed, ...relayedFacts } = adapter.describeCall(
        toolCallToProposal('use_mcp_tool', relay(tool, args)),
      );
      expect(relayedFacts).toEqual(adapter.describeCall(toolCallToProposal(`mcp__github__${tool}`, args)));
      expect(relayed).toEqual({ tool: `mcp__github__${tool}`, args });
    }
  });

  it('allows the same question asked again through the relay', () => {
    const agent = new Agent();
    const search = relay('search_repositories', { query: 'repo:thetom42/stock-portfolio' });
    agent.call(
      'use_mcp_tool',
      search,
      '{"total_count": 1, "items": [{"full_name": "thetom42/stock-portfolio"}]}',
    );
    expect(agent.check('use_mcp_tool', search).allowed).toBe(true);
  });

  it('reads the relay as it stands when the user said what it does', () => {
    const adapter = createToolCallAdapter({ toolKinds: { use_mcp_tool: 'read' } });
    const facts = adapter.describeCall(toolCallToProposal('use_mcp_tool', relay('create_issue', ISSUE)));
    expect(facts.kind).toBe('read');
    expect(facts.sideEffect).toBeUndefined();
  });
});

describe('what is no relayed call', () => {
  it('needs a tool name and its arguments', () => {
    expect(relayedCall({ tool_name: 'create_issue' })).toBeUndefined();
    expect(relayedCall({ arguments: ISSUE })).toBeUndefined();
    expect(relayedCall({ tool_name: 'create_issue', arguments: ['a'] })).toBeUndefined();
  });

  it('takes no name that is not a word, and no text that is not an object', () => {
    expect(relayedCall({ tool_name: 'create issue; rm -rf /', arguments: ISSUE })).toBeUndefined();
    expect(relayedCall({ tool_name: 'mcp__github__create_issue', arguments: ISSUE })).toBeUndefined();
    expect(relayedCall({ tool_name: 'create_issue', arguments: '{"title": "unterminated' })).toBeUndefined();
    expect(relayedCall({ tool_name: 'create_issue', arguments: '[1, 2]' })).toBeUndefined();
  });

  it('does not read arguments text longer than 64 KB', () => {
    const long = JSON.stringify({ body: 'x'.repeat(70_000) });
    expect(relayedCall({ tool_name: 'create_issue', arguments: long })).toBeUndefined();
  });

  it('reads empty arguments text as no arguments', () => {
    expect(relayedCall({ tool_name: 'list_issues', arguments: '' })?.args).toEqual({});
  });

  it('never throws, whatever the arguments hold', () => {
    fc.assert(
      fc.property(
        fc.record({
          tool_name: fc.oneof(fc.string(), fc.constantFrom('create_issue', 'get_me'), fc.anything()),
          server_name: fc.oneof(fc.string(), fc.anything()),
          arguments: fc.oneof(fc.json(), fc.string(), fc.anything()),
        }),
        (args) => {
          const found = relayedCall(args);
          if (found !== undefined) expect(typeof found.proposal.tool).toBe('string');
        },
      ),
    );
  });
});

describe('arguments wrapped in one object', () => {
  const update = {
    type: 'update_file',
    path: 'src/app.py',
    diff: "@@ def main():\n-    print('hi')\n+    print('hello')\n",
  };

  it('reads an OpenAI apply_patch operation as the same operation given flat', () => {
    const adapter = createToolCallAdapter();
    const wrapped = adapter.describeCall(toolCallToProposal('apply_patch', { operation: update }));
    expect(wrapped).toEqual(adapter.describeCall(toolCallToProposal('apply_patch', update)));
    expect(wrapped).toMatchObject({ kind: 'mutate', targets: ['src/app.py'] });
  });

  it('reads an operation by its type: a creation, an update, a deletion', () => {
    const adapter = createToolCallAdapter();
    const kinds = ['create_file', 'update_file', 'delete_file'].map(
      (type) =>
        adapter.describeCall(toolCallToProposal('apply_patch', { operation: { ...update, type } })).kind,
    );
    expect(kinds).toEqual(['create', 'mutate', 'delete']);
  });

  it('takes only one object under a wrapper name, and nothing beside it', () => {
    expect(wrappedArguments({ operation: update })).toBe(update);
    expect(wrappedArguments({ operation: update, dry_run: true })).toBeUndefined();
    expect(wrappedArguments({ filter: { status: 'open' } })).toBeUndefined();
    expect(wrappedArguments({ input: 'ls -la' })).toBeUndefined();
    expect(wrappedArguments({})).toBeUndefined();
  });
});
