/**
 * A `Model` of the OpenAI Agents SDK answering with a script: each turn either calls tools or says
 * something and stops. It keeps every input it was sent, to show what the model read.
 */
import { type Model, type ModelRequest, type ModelResponse, type StreamEvent, Usage } from '@openai/agents';

type CompletedResponse = Extract<StreamEvent, { type: 'response_done' }>['response'];

export type ScriptStep =
  | { readonly calls: readonly (readonly [string, unknown])[] }
  | { readonly text: string };

export class ScriptedModel implements Model {
  readonly inputs: ModelRequest['input'][] = [];
  /** The names of the tools offered with each request. */
  readonly offered: string[][] = [];
  private callNumber = 0;

  constructor(private readonly script: readonly ScriptStep[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const step = this.script[this.inputs.length] ?? { text: 'Nothing left to do.' };
    this.inputs.push(structuredClone(request.input));
    this.offered.push(request.tools.map((tool) => tool.name));
    const usage = new Usage({ requests: 1, inputTokens: 20, outputTokens: 10, totalTokens: 30 });
    if ('text' in step) {
      return {
        usage,
        output: [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: step.text }],
          },
        ],
      };
    }
    return {
      usage,
      output: step.calls.map(([name, input]) => ({
        type: 'function_call' as const,
        callId: `call_${++this.callNumber}`,
        name,
        arguments: JSON.stringify(input),
        status: 'completed' as const,
      })),
    };
  }

  /** The same turn as one event: the whole response at once. */
  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const response = await this.getResponse(request);
    yield {
      type: 'response_done',
      response: {
        id: `response_${this.inputs.length}`,
        usage: { requests: 1, inputTokens: 20, outputTokens: 10, totalTokens: 30 },
        output: response.output as CompletedResponse['output'],
      },
    };
  }
}

/** The tool outputs in a model input, as the model reads them. */
export function toolOutputsIn(input: ModelRequest['input'] | undefined): { name: string; text: string }[] {
  if (!Array.isArray(input)) return [];
  return input.flatMap((item) => {
    if (item.type !== 'function_call_result') return [];
    const output = item.output;
    const text =
      typeof output === 'string'
        ? output
        : 'text' in output && typeof output.text === 'string'
          ? output.text
          : '';
    return [{ name: item.name, text }];
  });
}
