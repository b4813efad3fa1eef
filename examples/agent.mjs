import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { connectMcpServer, createAgent } from 'narrowing-guard/agent';

// Any OpenAI-compatible server: Ollama, vLLM, LM Studio, OpenAI…
const provider = createOpenAICompatible({
  name: 'local',
  baseURL: process.env.OPENAI_BASE_URL ?? 'http://localhost:11434/v1',
  apiKey: process.env.OPENAI_API_KEY,
  includeUsage: true,
});
// Tools from an MCP server: here the files of the current folder.
const files = await connectMcpServer(
  process.env.MCP_SERVER ?? 'npx -y @modelcontextprotocol/server-filesystem .',
);

const agent = await createAgent({
  model: provider.chatModel(process.env.MODEL ?? 'qwen3:8b'),
  tools: files.tools,
  budget: { maxSteps: 30, timeoutMs: 10 * 60_000 },
  context: { strategy: 'compact', maxTokens: 24_000 },
  onEvent: (event) => {
    if (event.type === 'tool-call') console.log(`${event.verdict} ${event.toolName}`);
  },
});
const result = await agent.run(process.argv[2] ?? 'Summarise README.md in one sentence.');
console.log(`${result.state}: ${result.text}`);

await agent.close();
await files.close();
