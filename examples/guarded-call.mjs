import { guardedCall, openGuard, toolCallToProposal } from 'narrowing-guard';

// One guard for this project: learned constraints in .narrowing/, a journal beside them.
const guard = await openGuard({ workspaceRoot: process.cwd() });

// Your tool runner. Here a read that fails the way Node's fs does.
async function readFile(path) {
  throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
}

for (let attempt = 1; attempt <= 2; attempt++) {
  const proposal = toolCallToProposal('read_file', { path: 'notes/todo.md' });
  const call = await guardedCall(guard, proposal, () => readFile('notes/todo.md'));
  if (call.status === 'refused') console.log(`attempt ${attempt}: refused. ${call.message}`);
  else if (call.status === 'threw') console.log(`attempt ${attempt}: ran and failed: ${call.error.message}`);
  else console.log(`attempt ${attempt}: ran`);
}
await guard.close();
