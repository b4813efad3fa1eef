import { describe, expect, it } from 'vitest';
import {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../src/adapters/tool-call/index.js';
import { NarrowingEngine } from '../../src/core/loop.js';
import type { CallFacts, DomainAdapter, Outcome, Proposal } from '../../src/core/types.js';

/** The tool-call adapter, counting how often it reads a call and which facts its failures are read with. */
function countingAdapter() {
  const adapter = createToolCallAdapter();
  const described: CallFacts[] = [];
  const failuresReadWith: CallFacts[] = [];
  const counting: DomainAdapter = {
    ...adapter,
    describeCall(proposal: Proposal) {
      const facts = adapter.describeCall(proposal);
      described.push(facts);
      return facts;
    },
    describeFailure(outcome: Outcome, call: CallFacts) {
      failuresReadWith.push(call);
      return adapter.describeFailure(outcome, call);
    },
  };
  return { adapter: counting, described, failuresReadWith };
}

describe("the adapter's reading of a call", () => {
  it('is made once for a check and the outcome converted afresh from the same decoded call', () => {
    const { adapter, described } = countingAdapter();
    const loop = new NarrowingEngine({ adapter, sessionId: 'facts-once' });
    const decoded = () => JSON.parse('{"command":"npm test -- test/orders/parse.test.ts"}');
    loop.checkProposal(toolCallToProposal('bash', decoded()));
    loop.recordOutcome(
      toolCallToOutcome('bash', decoded(), {
        content: [{ type: 'text', text: ' ✓ test/orders/parse.test.ts (4 tests) 12ms' }],
      }),
    );
    expect(described).toHaveLength(1);
  });

  it("hands the check's facts to the reading of the failure", () => {
    const { adapter, described, failuresReadWith } = countingAdapter();
    const loop = new NarrowingEngine({ adapter, sessionId: 'facts-once' });
    const args = {
      path: 'src/orders/parse.ts',
      old_string: 'const limit = 3;',
      new_string: 'const limit = 4;',
    };
    loop.checkProposal(toolCallToProposal('edit_file', { ...args }));
    loop.recordOutcome(
      toolCallToOutcome('edit_file', { ...args }, new Error('Could not find exact match for edit')),
    );
    expect(described).toHaveLength(1);
    expect(failuresReadWith).toHaveLength(1);
    expect(failuresReadWith[0]?.searchTexts).toEqual(['const limit = 3;']);
    expect(failuresReadWith[0]?.targets).toEqual(described[0]?.targets);
  });

  it('is made again for an outcome whose arguments differ from the checked call', () => {
    const { adapter, described } = countingAdapter();
    const loop = new NarrowingEngine({ adapter, sessionId: 'facts-once' });
    loop.checkProposal(toolCallToProposal('read_file', { path: 'src/a.ts' }));
    loop.recordOutcome(toolCallToOutcome('read_file', { path: 'src/b.ts' }, 'export const b = 1;\n'));
    expect(described).toHaveLength(2);
  });
});
