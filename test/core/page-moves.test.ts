import { describe, expect, it } from 'vitest';
import { WorldTracker } from '../../src/core/world.js';
import { Agent } from './support.js';

const RESULTS = [
  '[Back to Search]',
  'Page 1 (Total results: 50)',
  '[Next >]',
  '[B08FGWZZ8J]',
  'Itachishop Flannel Fleece Blanket with Pompom Fringe, Fuzzy Throw Blanket Bed Blanket for Couch Home Decor, 60x50in',
  '$28.8',
  '[B09KTB1VG6]',
  'FOHOG Collection Flannel Fleece Silky Soft Throw Shaggy Blanket Lightweight Comfy and Cozy Plush Microfiber',
  '$11.99',
].join('\n');
const PRODUCT = [
  '[Back to Search]',
  '[< Prev]',
  'FOHOG Collection Flannel Fleece Silky Soft Throw Shaggy Blanket Lightweight Comfy and Cozy Plush Microfiber',
  'Price: $11.99',
  'Rating: N.A.',
  '[Description]',
  '[Features]',
  '[Reviews]',
  '[Attributes]',
  '[Buy Now]',
].join('\n');
const DESCRIPTION = [
  '[Back to Search]',
  '[< Prev]',
  'Our FLANNEL FLEECE BLANKET Soft & Durable Construction. Our high-quality bed throw blanket with plush microfiber flannel will bring you extra comfort.',
].join('\n');
const HOME = [
  'WebShop',
  'Instruction:',
  'i am looking for super soft and fleece throw blanket in multi 10 color, and price lower than 40.00 dollars',
  '[Search]',
].join('\n');
const INVALID = { text: 'Invalid action!', isError: true };

/** A product opened, its description read, and `Buy Now` refused on the description page. */
function refusedOnDescription(agent: Agent) {
  agent.call('search', { input: 'super soft fleece throw blanket multi 10 color' }, RESULTS);
  agent.call('click', { input: 'B09KTB1VG6' }, PRODUCT);
  agent.call('click', { input: 'Description' }, DESCRIPTION);
  agent.call('click', { input: 'Buy Now' }, INVALID);
}

describe('a click that answered another page', () => {
  it('gives a click refused on the page before its retry', () => {
    const agent = new Agent();
    refusedOnDescription(agent);
    agent.call('click', { input: 'Back to Search' }, HOME);
    agent.call('search', { input: 'super soft fleece throw blanket multi 10 color' }, RESULTS);
    agent.call('click', { input: 'B09KTB1VG6' }, PRODUCT);
    expect(agent.check('click', { input: 'Buy Now' }).verdict).not.toBe('block');
  });

  it('still blocks the refused click when the click in between answered the page already shown', () => {
    const agent = new Agent();
    refusedOnDescription(agent);
    agent.call('click', { input: 'B08FGWZZ8J' }, DESCRIPTION);
    expect(agent.check('click', { input: 'Buy Now' }).verdict).toBe('block');
  });

  it('blocks the click again once it is refused again on the new page', () => {
    const agent = new Agent();
    refusedOnDescription(agent);
    agent.call('click', { input: 'Back to Search' }, HOME);
    agent.call('click', { input: 'Buy Now' }, INVALID);
    expect(agent.check('click', { input: 'Buy Now' }).verdict).toBe('block');
  });

  it('still blocks a line a session refused when the line in between answered a screen shown before', () => {
    const agent = new Agent();
    const menu = "Welcome to the gUeST func\nIt's time to input your command:\nCommand > ";
    const line = 'print(open("/etc/passwd").read())';
    const refused = {
      text: [
        'Traceback (most recent call last):',
        '  File "/root/commands/_connect", line 66, in <module>',
        '    NetcatShell().cmdloop()',
        `    b"${line}"`,
        'SyntaxError: invalid syntax',
        '[*] Closed connection to misc.chal.csaw.io port 9999',
        'COMMAND FAILED TO EXECUTE. TERMINATING INTERACTIVE SESSION.',
      ].join('\n'),
      isError: true,
    };
    agent.call('connect_sendline', { args: '1' }, menu);
    agent.call('connect_sendline', { args: 'a'.repeat(40) }, "too long!you're hacker!");
    agent.call('connect_sendline', { args: line }, refused);
    agent.call('connect_sendline', { args: '1' }, menu);
    expect(agent.check('connect_sendline', { args: line }).verdict).toBe('block');
  });

  it('still blocks a request through a proxy tool after another request through it answered', () => {
    const agent = new Agent();
    const createIssue = {
      server_name: 'github',
      tool_name: 'create_issue',
      arguments: { owner: 'thetom42', repo: 'stock-portfolio', title: 'Fix failed Postman test runs' },
    };
    agent.call('use_mcp_tool', createIssue, {
      text: 'The tool execution failed with the following error:\n<error>\nError executing MCP tool: {"code":-32603,"message":"MCP error -32603: Not Found: Resource not found: Not Found"}\n</error>',
      isError: true,
    });
    agent.call(
      'use_mcp_tool',
      {
        server_name: 'github',
        tool_name: 'search_repositories',
        arguments: { query: 'repo:thetom42/stock-portfolio' },
      },
      '{\n  "total_count": 1,\n  "incomplete_results": false,\n  "items": [{ "full_name": "thetom42/stock-portfolio" }]\n}',
    );
    expect(agent.check('use_mcp_tool', createIssue).verdict).toBe('block');
  });

  it('gives no retry to a failed command after a tool that names a page answered another one', () => {
    const agent = new Agent();
    agent.call('bash', { command: 'python solve.py' }, { error: 'ModuleNotFoundError: No module named pwn' });
    agent.call('click', { input: 'Description' }, DESCRIPTION);
    expect(agent.check('bash', { command: 'python solve.py' }).verdict).toBe('block');
  });
});

describe('the pages a tool has shown', () => {
  it('are still known after the session is saved and restored', () => {
    const world = new WorldTracker();
    world.showsNew('click', 'digest-of-the-description-page');
    const restored = new WorldTracker();
    restored.restore(JSON.parse(JSON.stringify(world.snapshot())));
    expect(restored.showsNew('click', 'digest-of-the-description-page')).toBe(false);
  });
});
