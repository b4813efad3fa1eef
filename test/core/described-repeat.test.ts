import { describe, expect, it } from 'vitest';
import { hostToolAnnotations } from '../../src/adapters/tool-call/host-tools.js';
import { createToolCallAdapter, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { Agent } from './support.js';

const DESCRIPTIONS = [
  'Look up the release date of the second edition of the book.',
  'Find out when the second edition of this book was published.',
  'Search again for the publication year of the revised edition.',
  'Try once more to find when the new edition came out.',
];
const QUESTION = 'Designing Data-Intensive Applications second edition release date';
const SAME_ANSWER = {
  text: 'No exact matches. Related: Designing Data-Intensive Applications (2017), O’Reilly Media.',
  isError: false,
};
const search = (description: string) => ({ input: QUESTION, description });
const desc = (at: number) => DESCRIPTIONS[at] as string;

/** The verdict on the fourth search after three that got `answer`, described by `describe(i)`. */
function fourthSearch(describe: (at: number) => string, answer: { text: string; isError: boolean }) {
  const agent = new Agent();
  for (let at = 0; at < 3; at++) agent.call('Search', search(describe(at)), answer);
  return agent.check('Search', search(describe(3)));
}

describe('a call whose description is reworded while its answer stays the same', () => {
  it('treats a search answered alike under three reworded descriptions as the identical repeat', () => {
    const identical = fourthSearch(() => desc(0), SAME_ANSWER);
    expect(identical.verdict).not.toBe('allow');
    expect(fourthSearch(desc, SAME_ANSWER)).toMatchObject({
      verdict: identical.verdict,
      rule: identical.rule,
    });
  });

  it('treats a search failing alike under three reworded descriptions as the identical repeat', () => {
    const failed = {
      text: 'Error: search backend rejected the query: unsupported operator "-"',
      isError: true,
    };
    const identical = fourthSearch(() => desc(0), failed);
    expect(identical.verdict).toBe('block');
    expect(fourthSearch(desc, failed)).toMatchObject({ verdict: identical.verdict, rule: identical.rule });
  });

  it('treats a search answered alike under short reworded descriptions as the identical repeat', () => {
    const short = ['Verify the result', 'Search once more', 'Check the answer', 'Look it up'];
    const identical = fourthSearch(() => desc(0), SAME_ANSWER);
    expect(fourthSearch((at) => short[at] as string, SAME_ANSWER)).toMatchObject({
      verdict: identical.verdict,
      rule: identical.rule,
    });
  });

  it('never blocks the first repeat under a new description', () => {
    const agent = new Agent();
    agent.call('Search', search(desc(0)), SAME_ANSWER);
    expect(agent.check('Search', search(desc(1))).verdict).not.toBe('block');
  });

  it('does not count a search whose answers differ under its reworded descriptions', () => {
    const agent = new Agent();
    for (let at = 0; at < 3; at++)
      agent.call('Search', search(desc(at)), { text: `Result page ${at + 1}: nothing new.`, isError: false });
    expect(agent.check('Search', search(desc(3))).allowed).toBe(true);
  });

  it("keeps a task tracker's tasks with different descriptions allowed, whatever they answer", () => {
    const agent = new Agent();
    const created = { text: 'Task created.', isError: false };
    const task = (description: string) => ({ project: 'WEB', description });
    agent.call('create_task', task('Fix the broken login redirect on the settings page.'), created);
    agent.call('create_task', task('Add keyboard shortcuts to the search results list.'), created);
    agent.call('create_task', task('Write the migration guide for the new billing plans.'), created);
    expect(
      agent.check('create_task', task('Remove the unused analytics script from the footer.')).allowed,
    ).toBe(true);
  });

  it("keeps an issue's body apart when the tool's schema lists its description, failing alike or not", () => {
    const inputSchema = {
      type: 'object',
      properties: { project: { type: 'string' }, description: { type: 'string' } },
    };
    const loop = new Agent().loop;
    const bodies = [
      'The printer on floor two is offline again.',
      'The badge reader at the south door rejects every card.',
      'The projector in room four shows no picture at all.',
      'The coffee machine on floor three leaks water.',
    ];
    const verdicts = bodies.map((description) => {
      const proposal = toolCallToProposal('create_issue', { project: 'OPS', description }, { inputSchema });
      const { verdict } = loop.checkProposal(proposal);
      loop.recordOutcome({
        proposal,
        success: false,
        content: 'Error: project OPS is archived',
      });
      return verdict;
    });
    expect(verdicts).not.toContain('block');
  });

  it('keeps a search allowed under a new description when its failures were about the description', () => {
    const agent = new Agent();
    for (let at = 0; at < 3; at++)
      agent.call('Search', search(desc(at)), {
        text: `Error: invalid description "${desc(at)}": descriptions may not end with a period`,
        isError: true,
      });
    expect(agent.check('Search', search('Search for the date the second edition appeared')).allowed).toBe(
      true,
    );
  });

  it("leaves Claude Code's Bash call as it was: its description is already left out", () => {
    const adapter = createToolCallAdapter();
    const annotations = hostToolAnnotations('claude-code', 'Bash');
    const facts = adapter.describeCall(
      toolCallToProposal(
        'Bash',
        { command: 'npm test', description: 'Run the whole test suite once more to check the fix' },
        annotations ? { annotations } : {},
      ),
    );
    expect(facts.answerKey).toBeUndefined();
    expect(facts.failureKeyLeavesOutWords).toBeUndefined();
  });

  it('says where the failure key is made that it leaves the description out', () => {
    const facts = createToolCallAdapter().describeCall(toolCallToProposal('Search', search(desc(0))));
    expect(facts.failureKeyLeavesOutWords).toBe(true);
    expect(facts.failureKey).toBe(facts.answerKey);
  });
});

type Step = readonly [tool: string, input: string, answer: { text: string; isError: boolean }];

/** The verdicts on `steps`, each call described as `describe(i)` says, or not at all. */
function verdictsOf(steps: readonly Step[], describe?: (at: number) => string): string[] {
  const agent = new Agent();
  return steps.map(([tool, input, answer], at) => {
    const args = describe === undefined ? { input } : { input, description: describe(at) };
    const { check } = agent.call(tool, args, answer);
    return check.rule === undefined ? check.verdict : `${check.verdict} (${check.rule})`;
  });
}

const REWORDED = (at: number) =>
  ['Look this up again', 'Check the article once more', 'Verify what it says', 'Search for it'][
    at % 4
  ] as string;

describe('a run of calls reworded on every step', () => {
  it('counts a lookup retried under a new description as the same guess, not a new one', () => {
    const none = { text: 'No Results', isError: false };
    const steps: Step[] = [
      ['Lookup', 'Rodelio Astudillo', none],
      ['Lookup', 'Rodelio Astudillo', none],
      ['Lookup', 'Apollo mission 10', none],
      ['Lookup', 'Apollo mission 15', none],
    ];
    const plain = verdictsOf(steps);
    expect(verdictsOf(steps, REWORDED)).toEqual(plain);
  });

  it('blocks the third round of two queries answered alike each round, as without descriptions', () => {
    const found = {
      text: 'Mercury-Atlas 9 was the final crewed mission of the Mercury program.',
      isError: false,
    };
    const retrieved = { text: 'Gordon Cooper flew Mercury-Atlas 9 in May 1963, 22 orbits.', isError: false };
    const steps: Step[] = [];
    for (let round = 0; round < 3; round++)
      steps.push(['Search', 'Mercury-Atlas 9', found], ['Retrieve', 'Gordon Cooper', retrieved]);
    const plain = verdictsOf(steps);
    expect(plain.some((verdict) => verdict.startsWith('block'))).toBe(true);
    expect(verdictsOf(steps, REWORDED)).toEqual(plain);
  });
});

describe('a cycle whose steps are described anew on every round', () => {
  const moves = [
    'Head through the door to explore the next room.',
    'Walk over there to look for the coin.',
    'Move on to check whether the coin is in this room.',
    'Go back the way I came and try another path.',
    'Explore further to find where the coin might be.',
    'Try this direction once more to search for the coin.',
    'Continue exploring the rooms to find the coin.',
  ];

  it('blocks the first edit of the third round of an edit and its undoing, each edit explained anew', () => {
    // Cursor's edits carry the model's explanation of why it makes them; the file is named.
    const agent = new Agent();
    const edit = (to: string, explanation: string) =>
      toolCallToProposal('edit_file', {
        target_file: 'src/date/parse.ts',
        code_edit: `  const [${to}, year] = raw.split('/');`,
        explanation,
      });
    const test = toolCallToProposal('run_terminal_cmd', { command: 'npx jest src/date/parse.test.ts' });
    const answers = [
      ['day, month', 'month, day'],
      ['month, day', 'day, month'],
    ] as const;
    const verdicts: string[] = [];
    for (let at = 0; at < 4; at++) {
      const [from, to] = answers[at % 2] as (typeof answers)[number];
      const proposal = edit(to, moves[at] as string);
      verdicts.push(agent.loop.checkProposal(proposal).verdict);
      agent.loop.recordOutcome({
        proposal,
        success: true,
        content: `-  const [${from}, year]\n+  const [${to}, year]`,
      });
      verdicts.push(agent.loop.checkProposal(test).verdict);
      agent.loop.recordOutcome({
        proposal: test,
        success: false,
        content: `FAIL src/date/parse.test.ts\n  ● parseStatementDate › reads ${at % 2 === 0 ? 'day-first bank dates' : 'ISO dates'}\nTests: 1 failed, 7 passed`,
      });
    }
    expect(verdicts).not.toContain('block');
    const third = agent.loop.checkProposal(edit('month, day', moves[4] as string));
    expect([third.verdict, third.rule]).toEqual(['block', 'cycle']);
  });

  it("blocks the third round of Claude Code's Bash going round three branches, each run described anew", () => {
    const agent = new Agent();
    const annotations = hostToolAnnotations('claude-code', 'Bash');
    const bash = (command: string, description: string) =>
      toolCallToProposal('Bash', { command, description }, annotations ? { annotations } : {});
    const round = [
      ['git checkout main', "Switched to branch 'main'", false],
      ['npm test', 'FAIL test/cart.test.ts > adds up the total: expected 30, received 27\nexit code 1', true],
      ['git checkout fix/totals', "Switched to branch 'fix/totals'", false],
      ['npm test', 'FAIL test/cart.test.ts > adds up the total: expected 30, received 33\nexit code 1', true],
      ['git checkout fix/rounding', "Switched to branch 'fix/rounding'", false],
      ['npm test', "TypeError: Cannot read properties of undefined (reading 'price')\nexit code 1", true],
    ] as const;
    const verdicts: string[] = [];
    for (let at = 0; at < 12; at++) {
      const [command, text, isError] = round[at % 6] as (typeof round)[number];
      const proposal = bash(command, `${moves[at % 7]} (attempt ${at + 1})`);
      const { verdict } = agent.loop.checkProposal(proposal);
      verdicts.push(verdict);
      if (verdict !== 'block') agent.loop.recordOutcome({ proposal, success: !isError, content: text });
    }
    expect(verdicts).not.toContain('block');
    const third = agent.loop.checkProposal(bash('git checkout main', 'Go back to main and look again.'));
    expect([third.verdict, third.rule]).toEqual(['block', 'cycle']);
  });

  it("keeps a ticket's updates allowed when their descriptions are what the ticket then reads back", () => {
    const agent = new Agent();
    const bodies = [
      'The export button does nothing on the reports page.',
      'Exporting a report to CSV fails silently on the reports page.',
      'The CSV export of a report never starts; no error is shown.',
      'Clicking Export on a report shows a spinner that never ends.',
    ];
    const verdicts = bodies.flatMap((description) => [
      agent.call('update_ticket', { id: 'WEB-212', description }, 'Ticket WEB-212 updated.').check.verdict,
      agent.call('get_ticket', { id: 'WEB-212' }, `WEB-212 (open): ${description}`).check.verdict,
    ]);
    expect(verdicts).not.toContain('block');
  });
});

describe('a refusal that quotes the whole description', () => {
  it('keeps the call allowed under a new description when the refusal, blamed on the call, quoted the old one', () => {
    const agent = new Agent();
    const refused = (at: number) => ({
      text: `Error: invalid value "${desc(at)}" for description: the first word must be a verb in the infinitive`,
      isError: true,
    });
    agent.call('Search', search(desc(1)), refused(1));
    expect(agent.check('Search', search(desc(0))).verdict).toBe('allow');
  });

  it('still blocks the same description refused again', () => {
    const agent = new Agent();
    const text = `Error: invalid value "${desc(1)}" for description: the first word must be a verb in the infinitive`;
    agent.call('Search', search(desc(1)), { text, isError: true });
    expect(agent.check('Search', search(desc(1))).verdict).toBe('block');
  });
});
