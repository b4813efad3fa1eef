/**
 * The warnings of `warn` verdicts, put where the model reads them: after the result of the call each
 * one is about, in the messages `prepareStep` hands the SDK for the next step. The approval hook can
 * only allow or deny a call, so this is the one way a warning reaches the model there.
 *
 * Applying them again changes nothing: the SDK 7 carries the changed messages forward, the SDK 6
 * rebuilds them from the results each step, and either way each warning is in the prompt once.
 */

/** A message of the SDK's prompt, as far as this module reads it. */
export interface StepMessage {
  readonly role?: unknown;
  readonly content?: unknown;
}

interface ToolResultPart {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly output: ToolResultOutput;
}

type ToolResultOutput =
  | { readonly type: 'text' | 'error-text'; readonly value: string }
  | { readonly type: 'json' | 'error-json'; readonly value: unknown }
  | { readonly type: 'content'; readonly value: readonly unknown[] }
  | { readonly type: string; readonly value?: unknown };

/** The messages with each warning after its call's result; undefined when none had to change. */
export function withWarnings(
  messages: readonly StepMessage[],
  warnings: ReadonlyMap<string, string>,
): StepMessage[] | undefined {
  if (warnings.size === 0) return undefined;
  let changed = false;
  const result = messages.map((message) => {
    if (message.role !== 'tool' || !Array.isArray(message.content)) return message;
    let partChanged = false;
    const content = message.content.map((part: unknown) => {
      if (!isToolResult(part)) return part;
      const warning = warnings.get(part.toolCallId);
      const output = warning === undefined ? undefined : warnedOutput(part.output, warning);
      if (output === undefined) return part;
      partChanged = true;
      return { ...part, output };
    });
    if (!partChanged) return message;
    changed = true;
    return { ...message, content };
  });
  return changed ? result : undefined;
}

function isToolResult(part: unknown): part is ToolResultPart {
  if (typeof part !== 'object' || part === null) return false;
  const candidate = part as Partial<ToolResultPart>;
  return (
    candidate.type === 'tool-result' &&
    typeof candidate.toolCallId === 'string' &&
    typeof candidate.output === 'object' &&
    candidate.output !== null
  );
}

/** The output with the warning after it; undefined when it already has it or cannot take it. */
function warnedOutput(output: ToolResultOutput, warning: string): ToolResultOutput | undefined {
  switch (output.type) {
    case 'text':
    case 'error-text': {
      const value = String(output.value);
      return value.includes(warning) ? undefined : { type: output.type, value: `${value}\n${warning}` };
    }
    case 'json':
    case 'error-json': {
      // Providers send a JSON result to the model as its text: the same text, with the warning after it.
      const type = output.type === 'json' ? 'text' : 'error-text';
      return { type, value: `${JSON.stringify(output.value) ?? 'null'}\n${warning}` };
    }
    case 'content': {
      const parts = Array.isArray(output.value) ? output.value : [];
      const has = parts.some(
        (part: unknown) =>
          typeof part === 'object' && part !== null && (part as { text?: unknown }).text === warning,
      );
      return has ? undefined : { type: 'content', value: [...parts, { type: 'text', text: warning }] };
    }
    default:
      // A denied call did not run: there is no result to warn about.
      return undefined;
  }
}
