import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../src/adapters/tool-call/index.js';
import type { DomainAdapter } from '../../src/core/types.js';
import { Agent } from './support.js';

/** Five guesses of one tool whose errors share nothing but what an adapter may know of them. */
const ERRORS = [
  'Error: project not found',
  'Error: no such project',
  'Error: unknown project',
  'Error: project does not exist',
  'Error: invalid project',
];

function guess(agent: Agent, index: number): string {
  return agent.call('cloud_api', { project: `p${index}x` }, { text: ERRORS[index] as string, isError: true })
    .check.verdict;
}

describe("the engine's error shapes", () => {
  it("compares failures by the adapter's error shape when the adapter has one", () => {
    const base = createToolCallAdapter();
    const adapter: DomainAdapter = { ...base, errorShape: () => 'quota project missing' };
    const agent = new Agent({ adapter });
    const seen = ERRORS.map((_, index) => guess(agent, index));
    expect(seen.at(-1)).toBe('block');
  });

  it('falls back on its own shapes for an adapter without one', () => {
    const { errorShape: _, ...base } = createToolCallAdapter();
    const agent = new Agent({ adapter: base });
    const seen = ERRORS.map((_, index) => guess(agent, index));
    expect(seen).not.toContain('block');
  });

  it("counts guessed names of an unknown tool as one shape through the tool-call adapter's shapes", () => {
    const agent = new Agent();
    const names = ['github_list_prs', 'githubListPrs', 'gh_prs_list', 'github_pr_list', 'listPullRequests'];
    const seen = names.map(
      (name) =>
        agent.call(
          'call_tool',
          { name },
          { text: `Unknown tool: ${name}. Use list_tools to see the tools.`, isError: true },
        ).check.verdict,
    );
    expect(seen.at(-1)).toBe('block');
  });
});
