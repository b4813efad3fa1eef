import {
  createToolCallAdapter,
  NarrowingLoop,
  toolCallToOutcome,
  toolCallToProposal,
} from 'narrowing-guard/compat';

const loop = new NarrowingLoop({ adapter: createToolCallAdapter() });
const missing = "ENOENT: no such file or directory, open 'data.json'";

for (const attempt of [1, 2, 3]) {
  const check = loop.checkProposal(toolCallToProposal('read_file', { path: 'data.json' }));
  if (!check.allowed) {
    const [violation] = check.violations;
    console.log(
      `attempt ${attempt}: blocked (${violation.banType} ban on ${violation.constraint.signature})`,
    );
    continue;
  }
  const result = loop.recordOutcome(
    toolCallToOutcome('read_file', { path: 'data.json' }, { success: false, error: missing, durationMs: 4 }),
  );
  console.log(`attempt ${attempt}: ran, ${result.outcome.failureSignature} (${result.outcome.failureKind})`);
}
await loop.flush(); // the journal is written in batches: flush before counting receipts
console.log(loop.verifyReceipts());
await loop.close();
