import { readFile } from 'node:fs/promises';
import { AIMessage, createAgent, fakeModel, tool } from 'langchain';
import { narrowingForLangChain } from 'narrowing-guard/langchain';
import { z } from 'zod';

const guard = narrowingForLangChain(); // learns into .narrowing/ of this project

const readFileTool = tool(({ path }) => readFile(path, 'utf8'), {
  name: 'read_file',
  description: 'Read a file of the project',
  schema: z.object({ path: z.string() }),
});

// A stand-in for your model: it reads the same missing file twice, then says what it read.
const readConfig = { name: 'read_file', args: { path: 'config/prod.yaml' } };
const model = fakeModel()
  .respondWithTools([{ ...readConfig, id: 'call_1' }])
  .respondWithTools([{ ...readConfig, id: 'call_2' }])
  .respond((messages) => {
    for (const message of messages.filter((message) => message.type === 'tool')) {
      console.log(`the model reads: ${message.text}`);
    }
    return new AIMessage('The file is missing.');
  });

const agent = createAgent({ model, tools: [readFileTool], middleware: [guard.middleware] });
await agent.invoke({ messages: [{ role: 'user', content: 'Read the production config.' }] });
await guard.close();
