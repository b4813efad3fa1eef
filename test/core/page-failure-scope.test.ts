import { describe, expect, it } from 'vitest';
import { hostToolAnnotations } from '../../src/adapters/tool-call/host-tools.js';
import {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../src/adapters/tool-call/index.js';
import { NarrowingEngine } from '../../src/core/loop.js';
import type { ToolAnnotations } from '../../src/core/types.js';
import { ManualClock } from './support.js';

const PAGE = 'https://docs.example.com/guide/server-functions';
const OTHER_PAGE = 'https://docs.example.com/guide/data-loading';

const REDIRECTED = { text: 'Request failed with status code 303', isError: true };
const SIBLING_ERRORED = { text: '<tool_use_error>Sibling tool call errored</tool_use_error>', isError: true };

/** Claude Code's `WebFetch`: the page, and what to take from it. */
const webFetch = (prompt: string, url = PAGE) => ({ url, prompt });

/**
 * A guarded agent whose tools carry the annotations its host gives them (the hooks' table of
 * built-in tools, or an MCP server's own): proposes a call, and runs it only when allowed.
 */
class Agent {
  private readonly clock = new ManualClock();
  private readonly engine = new NarrowingEngine({ adapter: createToolCallAdapter(), clock: this.clock });

  constructor(private readonly annotationsOf: (tool: string) => ToolAnnotations | undefined) {}

  check(tool: string, args: Record<string, unknown>) {
    const annotations = this.annotationsOf(tool);
    return this.engine.checkProposal(toolCallToProposal(tool, args, annotations ? { annotations } : {}));
  }

  call(tool: string, args: Record<string, unknown>, result: { text: string; isError: boolean }): void {
    this.clock.advance(5);
    const annotations = this.annotationsOf(tool);
    const proposal = toolCallToProposal(tool, args, annotations ? { annotations } : {});
    if (!this.engine.checkProposal(proposal).allowed) return;
    const outcome = toolCallToOutcome(tool, args, {
      content: [{ type: 'text', text: result.text }],
      isError: result.isError,
    });
    this.engine.recordOutcome({ ...outcome, proposal });
  }
}

const claudeCode = () => new Agent((tool) => hostToolAnnotations('claude-code', tool));
const geminiCli = () => new Agent((tool) => hostToolAnnotations('gemini-cli', tool));
/** An MCP server's tool that says it only reads (`readOnlyHint`) from the open world. */
const readOnlyMcp = () => new Agent(() => ({ readOnlyHint: true, openWorldHint: true }));

const PROMPTS = [
  'Summarize how server functions are declared and called, with their options.',
  'List every option of a server function and what it does. Be thorough.',
  'Give me exact code examples for each kind of server function on this page.',
];

describe('a page that failed, fetched again with reworded instructions', () => {
  it("blocks Claude Code's third WebFetch of a page that failed twice, whatever its prompt says", () => {
    const agent = claudeCode();
    agent.call('WebFetch', webFetch(PROMPTS[0] as string), REDIRECTED);
    agent.call('WebFetch', webFetch(PROMPTS[1] as string), REDIRECTED);
    expect(agent.check('WebFetch', webFetch(PROMPTS[2] as string))).toMatchObject({
      verdict: 'block',
      rule: 'identical-failure',
    });
  });

  it("blocks Gemini CLI's third web_fetch of a page that failed twice, the page named inside its prompt", () => {
    const agent = geminiCli();
    const failed = {
      text: `Error: Error during fallback fetch for ${PAGE}: Request failed with status code 303`,
      isError: true,
    };
    agent.call('web_fetch', { prompt: `Summarize the server functions guide at ${PAGE}` }, failed);
    agent.call(
      'web_fetch',
      { prompt: `List every API with its options from ${PAGE} and give examples` },
      failed,
    );
    expect(
      agent.check('web_fetch', { prompt: `Explain how to call server functions, as ${PAGE} describes them` }),
    ).toMatchObject({ verdict: 'block', rule: 'identical-failure' });
  });

  it('blocks the third read of a page by a read-only MCP tool that failed twice, whatever its prompt asks', () => {
    const agent = readOnlyMcp();
    const tool = 'mcp__firecrawl__firecrawl_extract';
    agent.call(tool, { urls: [PAGE], prompt: PROMPTS[0] }, REDIRECTED);
    agent.call(tool, { urls: [PAGE], prompt: PROMPTS[1] }, REDIRECTED);
    expect(agent.check(tool, { urls: [PAGE], prompt: PROMPTS[2] })).toMatchObject({
      verdict: 'block',
      rule: 'identical-failure',
    });
  });

  it('allows a fetch of another page after one page failed twice', () => {
    const agent = claudeCode();
    agent.call('WebFetch', webFetch(PROMPTS[0] as string), REDIRECTED);
    agent.call('WebFetch', webFetch(PROMPTS[1] as string), REDIRECTED);
    expect(agent.check('WebFetch', webFetch(PROMPTS[2] as string, OTHER_PAGE)).verdict).toBe('allow');
  });

  it('allows a page fetched again after it answered between its two failures', () => {
    const agent = claudeCode();
    agent.call('WebFetch', webFetch(PROMPTS[0] as string), REDIRECTED);
    agent.call('WebFetch', webFetch(PROMPTS[1] as string), {
      text: '# Server functions\nDeclare one with createServerFn and call it from a loader.',
      isError: false,
    });
    agent.call('WebFetch', webFetch(PROMPTS[2] as string), REDIRECTED);
    expect(
      agent.check('WebFetch', webFetch('Explain the validators of server functions in detail.')).verdict,
    ).toBe('allow');
  });

  it('allows a page fetched again after the host cancelled it twice because a sibling call errored', () => {
    const agent = claudeCode();
    agent.call('WebFetch', webFetch(PROMPTS[0] as string, OTHER_PAGE), SIBLING_ERRORED);
    agent.call('WebFetch', webFetch(PROMPTS[1] as string, OTHER_PAGE), SIBLING_ERRORED);
    expect(agent.check('WebFetch', webFetch(PROMPTS[2] as string, OTHER_PAGE)).verdict).toBe('allow');
  });

  it('lets another prompt for a page through after the tool refused the prompt itself twice', () => {
    const agent = claudeCode();
    const refused = { text: 'Invalid input: prompt must be at most 1000 characters', isError: true };
    agent.call('WebFetch', webFetch(PROMPTS[0] as string), refused);
    agent.call('WebFetch', webFetch(PROMPTS[1] as string), refused);
    expect(agent.check('WebFetch', webFetch(PROMPTS[2] as string)).verdict).not.toBe('block');
  });

  it('allows a read of a page with another CSS selector after a selector found nothing twice', () => {
    const agent = readOnlyMcp();
    const nothing = (selector: string) => ({
      text: `Error: No node found for selector: ${selector}`,
      isError: true,
    });
    agent.call(
      'mcp__browser__get_text',
      { url: PAGE, selector: 'main article > p' },
      nothing('main article > p'),
    );
    agent.call(
      'mcp__browser__get_text',
      { url: PAGE, selector: 'div.content > h2' },
      nothing('div.content > h2'),
    );
    expect(
      agent.check('mcp__browser__get_text', { url: PAGE, selector: 'section#api pre code' }).verdict,
    ).toBe('allow');
  });
});
