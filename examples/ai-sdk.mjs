import { readFile } from 'node:fs/promises';
import { generateText, isStepCount, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { narrowingForAiSdk } from 'narrowing-guard/ai-sdk';
import { z } from 'zod';

const guard = narrowingForAiSdk(); // learns into .narrowing/ of this project

const tools = {
  read_file: tool({
    description: 'Read a file of the project',
    inputSchema: z.object({ path: z.string() }),
    execute: ({ path }) => readFile(path, 'utf8'),
  }),
};

// A stand-in for your model: it reads the same missing file twice, then says what it read.
const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const readConfig = { type: 'tool-call', toolName: 'read_file', input: '{"path":"config/prod.yaml"}' };
let step = 0;
const model = new MockLanguageModelV4({
  doGenerate: async ({ prompt }) => {
    step += 1;
    if (step <= 2) {
      const content = [{ ...readConfig, toolCallId: `call_${step}` }];
      return { content, finishReason: { unified: 'tool-calls' }, usage, warnings: [] };
    }
    for (const { content } of prompt.filter((message) => message.role === 'tool')) {
      for (const { output } of content) console.log(`the model reads: ${output.value ?? output.reason}`);
    }
    return { content: [], finishReason: { unified: 'stop' }, usage, warnings: [] };
  },
});

await generateText({
  model,
  tools,
  prompt: 'Read the production config.',
  toolApproval: guard.toolApproval, // refuses what will fail again; the model reads why
  onToolExecutionEnd: guard.onToolExecutionEnd, // learns from what ran
  prepareStep: guard.prepareStep, // a halted run gets one step without tools to answer
  stopWhen: [isStepCount(10), guard.stopWhen], // ends the loop after it
});
await guard.close();
