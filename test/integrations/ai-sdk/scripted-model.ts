/**
 * The AI SDK's own mock language models (`ai/test`), answering with a script: each step either calls
 * tools or says something and stops. They keep every prompt they were sent, to show what the model
 * read.
 */

import { MockLanguageModelV4 } from 'ai/test';
import { MockLanguageModelV3 } from 'ai-v6/test';

export type ScriptStep =
  | { readonly calls: readonly (readonly [string, unknown])[] }
  | { readonly text: string };

/** A prompt as both versions of the model interface send it, as far as these tests read it. */
type Prompt = readonly { readonly role: string; readonly content: unknown }[];

const usage = {
  inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

function scripted(script: readonly ScriptStep[]) {
  const prompts: Prompt[] = [];
  /** The names of the tools offered with each request. */
  const offered: string[][] = [];
  let callNumber = 0;
  const doGenerate = async (options: { prompt: Prompt; tools?: readonly { name: string }[] }) => {
    const step = script[prompts.length] ?? { text: 'Nothing left to do.' };
    prompts.push(options.prompt);
    offered.push((options.tools ?? []).map((tool) => tool.name));
    if ('text' in step) {
      return {
        content: [{ type: 'text' as const, text: step.text }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage,
        warnings: [],
      };
    }
    return {
      content: step.calls.map(([toolName, input]) => ({
        type: 'tool-call' as const,
        toolCallId: `call_${++callNumber}`,
        toolName,
        input: JSON.stringify(input),
      })),
      finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
      usage,
      warnings: [],
    };
  };
  return { doGenerate, prompts, offered };
}

/** For `ai` 7 (language model interface v4). */
export function scriptedModel(script: readonly ScriptStep[]) {
  const { doGenerate, prompts, offered } = scripted(script);
  return { model: new MockLanguageModelV4({ doGenerate }), prompts, offered };
}

/** For `ai` 6 (language model interface v3). */
export function scriptedModelV3(script: readonly ScriptStep[]) {
  const { doGenerate, prompts, offered } = scripted(script);
  return { model: new MockLanguageModelV3({ doGenerate }), prompts, offered };
}

/** The tool results in a prompt, as the model reads them. */
export function toolResultsIn(prompt: Prompt | undefined): { toolName: string; output: unknown }[] {
  const results: { toolName: string; output: unknown }[] = [];
  for (const message of prompt ?? []) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; toolName: string; output: unknown }[]) {
      if (part.type === 'tool-result') results.push({ toolName: part.toolName, output: part.output });
    }
  }
  return results;
}
