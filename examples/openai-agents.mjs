import { readFile } from 'node:fs/promises';
import { Agent, Runner, tool, Usage } from '@openai/agents';
import { narrowingForAgents } from 'narrowing-guard/openai-agents';
import { z } from 'zod';

const guard = narrowingForAgents(); // learns into .narrowing/ of this project

// guard.tool() composes the guard with the tool's options: its guardrail, its error function
// (the real error text for the guard and the model) and the switch that ends a halted run.
const readFileTool = tool(
  guard.tool({
    name: 'read_file',
    description: 'Read a file of the project',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => readFile(path, 'utf8'),
  }),
);

// A stand-in for your model: it reads the same missing file twice, then says what it read.
let turn = 0;
const model = {
  async getResponse({ input }) {
    turn += 1;
    const usage = new Usage();
    if (turn <= 2) {
      const call = {
        type: 'function_call',
        callId: `call_${turn}`,
        name: 'read_file',
        arguments: '{"path":"config/prod.yaml"}',
      };
      return { usage, output: [call] };
    }
    for (const item of input.filter((item) => item.type === 'function_call_result')) {
      console.log(`the model reads: ${item.output.text ?? item.output}`);
    }
    const text = [{ type: 'output_text', text: 'The file is missing.' }];
    return { usage, output: [{ type: 'message', role: 'assistant', status: 'completed', content: text }] };
  },
  getStreamedResponse() {
    throw new Error('this example does not stream');
  },
};

const runner = new Runner({ tracingDisabled: true });
runner.on('agent_tool_end', guard.onToolEnd); // learns from what ran
await runner.run(new Agent({ name: 'coder', model, tools: [readFileTool] }), 'Read the production config.');
await guard.close();
