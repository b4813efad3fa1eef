/**
 * The models the loop accepts: the AI SDK's language-model interface in its version 3
 * (`LanguageModelV3`, the AI SDK 6 provider packages) and its version 2 (`LanguageModelV2`, the AI
 * SDK 5 ones). The runner speaks version 3; a version 2 model is adapted here, at the edge: the
 * request goes down in its words, and what comes back (finish reason, usage, stream parts,
 * warnings) comes up in version 3's. Any other version is refused before the run starts.
 */
import type {
  LanguageModelV2,
  LanguageModelV2CallOptions,
  LanguageModelV2CallWarning,
  LanguageModelV2Content,
  LanguageModelV2FinishReason,
  LanguageModelV2Message,
  LanguageModelV2StreamPart,
  LanguageModelV2ToolResultOutput,
  LanguageModelV2Usage,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3Usage,
  SharedV3Warning,
} from '@ai-sdk/provider';
import { NarrowingError } from '../core/errors.js';

/** A language model of a provider package of the AI SDK 6 line (`v3`) or the AI SDK 5 line (`v2`). */
export type AgentModel = LanguageModelV3 | LanguageModelV2;

/** The `specificationVersion`s the loop accepts. */
export const ACCEPTED_MODEL_VERSIONS = ['v3', 'v2'] as const;

/**
 * The model as the runner consumes it: a `v3` model as it is, a `v2` model adapted. Anything else
 * is a `MODEL_UNSUPPORTED` error that names the versions accepted.
 */
export function asLanguageModelV3(model: AgentModel): LanguageModelV3 {
  const fields: Record<string, unknown> =
    typeof model === 'object' && model !== null ? (model as unknown as Record<string, unknown>) : {};
  const version = fields.specificationVersion;
  if (version === 'v3') return model as LanguageModelV3;
  if (version === 'v2') return fromV2(model as LanguageModelV2);
  const name =
    typeof fields.provider === 'string' && typeof fields.modelId === 'string'
      ? `the model ${bounded(fields.provider)} ${bounded(fields.modelId)}`
      : 'the model';
  const implemented =
    version === undefined
      ? 'is not an AI SDK language model (it has no specificationVersion)'
      : `implements the AI SDK language-model interface ${bounded(String(version))}`;
  throw new NarrowingError(
    'MODEL_UNSUPPORTED',
    `${name} ${implemented}; the agent accepts ${ACCEPTED_MODEL_VERSIONS.join(' (AI SDK 6) and ')} ` +
      '(AI SDK 5): pass a model from a provider package of one of those lines',
  );
}

function bounded(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function fromV2(model: LanguageModelV2): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    async doGenerate(options) {
      const result = await model.doGenerate(callOptions(options));
      return {
        content: result.content.flatMap(content),
        finishReason: finishReason(result.finishReason),
        usage: usage(result.usage),
        warnings: result.warnings.map(warning),
        ...(result.providerMetadata !== undefined && { providerMetadata: result.providerMetadata }),
        ...(result.request !== undefined && { request: result.request }),
        ...(result.response !== undefined && { response: result.response }),
      };
    },
    async doStream(options) {
      const result = await model.doStream(callOptions(options));
      return {
        ...result,
        stream: result.stream.pipeThrough(
          new TransformStream<LanguageModelV2StreamPart, LanguageModelV3StreamPart>({
            transform(part, controller) {
              const converted = streamPart(part);
              if (converted) controller.enqueue(converted);
            },
          }),
        ),
      };
    },
  };
}

// ---- down: the request ------------------------------------------------------------------------

/*
 * Besides what is converted below (tool result outputs, provider tools, approvals), the two versions'
 * requests differ only in the provider options, whose JSON values version 3 lets be `undefined`:
 * the same on the wire, hence the casts.
 */

function callOptions(options: LanguageModelV3CallOptions): LanguageModelV2CallOptions {
  const { prompt, tools, ...rest } = options;
  return {
    ...rest,
    prompt: prompt.map(message),
    ...(tools !== undefined && {
      tools: tools.map((tool) =>
        tool.type === 'provider'
          ? { type: 'provider-defined' as const, id: tool.id, name: tool.name, args: tool.args }
          : tool,
      ),
    }),
  } as LanguageModelV2CallOptions;
}

function message(entry: LanguageModelV3Message): LanguageModelV2Message {
  switch (entry.role) {
    case 'system':
    case 'user':
      return entry as LanguageModelV2Message;
    case 'assistant':
      return {
        ...entry,
        content: entry.content.map((part) =>
          part.type === 'tool-result' ? { ...part, output: toolOutput(part.output) } : part,
        ),
      } as LanguageModelV2Message;
    case 'tool':
      return {
        ...entry,
        // Approvals of provider-executed calls are a version 3 notion: a version 2 model has none to answer.
        content: entry.content.flatMap((part) =>
          part.type === 'tool-result' ? [{ ...part, output: toolOutput(part.output) }] : [],
        ),
      } as LanguageModelV2Message;
  }
}

function toolOutput(output: LanguageModelV3ToolResultOutput): LanguageModelV2ToolResultOutput {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return { type: output.type, value: output.value };
    case 'json':
    case 'error-json':
      return { type: output.type, value: output.value };
    case 'execution-denied':
      return { type: 'error-text', value: output.reason ?? 'The execution of this tool call was denied.' };
    case 'content':
      return {
        type: 'content',
        value: output.value.map((item) => {
          if (item.type === 'text') return { type: 'text', text: item.text };
          if (item.type === 'file-data' || item.type === 'image-data') {
            return { type: 'media', data: item.data, mediaType: item.mediaType };
          }
          if (item.type === 'file-url' || item.type === 'image-url') return { type: 'text', text: item.url };
          return { type: 'text', text: `[${item.type}]` };
        }),
      };
  }
}

// ---- up: the response -------------------------------------------------------------------------

/** Version 2 has one finish reason more: `unknown`, when the provider sent none. */
function finishReason(reason: LanguageModelV2FinishReason): LanguageModelV3FinishReason {
  return { unified: reason === 'unknown' ? 'other' : reason, raw: reason };
}

/** Version 2 counts tokens as flat numbers; version 3 splits input and output into their parts. */
function usage(counts: LanguageModelV2Usage): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: counts.inputTokens,
      noCache: undefined,
      cacheRead: counts.cachedInputTokens,
      cacheWrite: undefined,
    },
    outputTokens: { total: counts.outputTokens, text: undefined, reasoning: counts.reasoningTokens },
    ...(counts.totalTokens !== undefined && { raw: { totalTokens: counts.totalTokens } }),
  };
}

function warning(entry: LanguageModelV2CallWarning): SharedV3Warning {
  switch (entry.type) {
    case 'unsupported-setting':
      return {
        type: 'unsupported',
        feature: String(entry.setting),
        ...(entry.details !== undefined && { details: entry.details }),
      };
    case 'unsupported-tool':
      return {
        type: 'unsupported',
        feature: `tool ${entry.tool.name}`,
        ...(entry.details !== undefined && { details: entry.details }),
      };
    case 'other':
      return entry;
  }
}

function content(part: LanguageModelV2Content): LanguageModelV3Content[] {
  if (part.type !== 'tool-result') return [part];
  const result = toolResult(part);
  return result ? [result] : [];
}

type LanguageModelV2ToolResult = Extract<LanguageModelV2Content, { type: 'tool-result' }>;
type LanguageModelV3ToolResult = Extract<LanguageModelV3Content, { type: 'tool-result' }>;

/** A provider-executed tool's result: version 3 requires one that is JSON and not null. */
function toolResult(part: LanguageModelV2ToolResult): LanguageModelV3ToolResult | undefined {
  if (part.result === undefined || part.result === null) return undefined;
  return {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    result: part.result as LanguageModelV3ToolResult['result'],
    ...(part.isError !== undefined && { isError: part.isError }),
    ...(part.providerMetadata !== undefined && { providerMetadata: part.providerMetadata }),
  };
}

function streamPart(part: LanguageModelV2StreamPart): LanguageModelV3StreamPart | undefined {
  switch (part.type) {
    case 'finish':
      return {
        type: 'finish',
        finishReason: finishReason(part.finishReason),
        usage: usage(part.usage),
        ...(part.providerMetadata !== undefined && { providerMetadata: part.providerMetadata }),
      };
    case 'stream-start':
      return { type: 'stream-start', warnings: part.warnings.map(warning) };
    case 'tool-result':
      return toolResult(part);
    default:
      return part;
  }
}
