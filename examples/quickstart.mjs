import { NarrowingLoop } from 'narrowing-guard';
import { toolCallToOutcome, toolCallToProposal } from 'narrowing-guard/adapters/tool-call';

// Learned constraints persist here: run this twice and the second run blocks at once.
const loop = new NarrowingLoop({ statePath: '.narrowing/state.json' });

// A stand-in for your agent's tool runner, returning MCP-style results.
async function runTool(name, args) {
  if (name === 'read_file' && args.path === 'config/prod.yaml') {
    return {
      content: [{ type: 'text', text: "ENOENT: no such file or directory, open 'config/prod.yaml'" }],
      isError: true,
    };
  }
  return { content: [{ type: 'text', text: 'port: 8080' }] };
}

for (const path of ['config/prod.yaml', 'config/prod.yaml', 'config/default.yaml']) {
  const proposal = toolCallToProposal('read_file', { path });
  const check = loop.checkProposal(proposal); // 1. before the call
  if (!check.allowed) {
    console.log(`blocked read_file ${path}: ${check.reason}`); // tell the model why
    continue;
  }
  const result = await runTool('read_file', { path });
  loop.recordOutcome(toolCallToOutcome('read_file', { path }, result)); // 2. after the call
  console.log(`ran read_file ${path}`);
}
console.log(`done: ${loop.isDone()}`); // 3. is anything left to try?
await loop.close();
