/**
 * The LangChain messages the middleware builds and reads. `@langchain/core` is loaded on first use,
 * so the subpath loads in a project without LangChain; everything else here reads messages by shape.
 */
import type { ToolMessage } from '@langchain/core/messages';
import { VERDICT_META_KEY, type VerdictMeta } from '../../guard/index.js';

type MessagesModule = typeof import('@langchain/core/messages');

let loading: Promise<MessagesModule> | undefined;

/** `@langchain/core/messages`, imported once, when a call first needs a message built. */
export function langchainMessages(): Promise<MessagesModule> {
  loading ??= import('@langchain/core/messages');
  return loading;
}

/** A message in the agent's state, as far as this module reads it. */
export interface StateMessage {
  readonly type?: unknown;
  readonly content?: unknown;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** The text of a message's content: a string, or the text blocks of a list of blocks. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: unknown) =>
      typeof block === 'string'
        ? block
        : typeof block === 'object' &&
            block !== null &&
            typeof (block as { text?: unknown }).text === 'string'
          ? (block as { text: string }).text
          : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}

/** A tool's answer as the guard learns from it: its text, or `{ error }` when its status is `error`. */
export function toolMessageResult(message: Pick<ToolMessage, 'content' | 'status'>): unknown {
  const text = contentText(message.content);
  return message.status === 'error' ? { error: text } : text;
}

/** The verdict narrowing attached to a tool message, if any. */
export function verdictOf(message: StateMessage): VerdictMeta | undefined {
  const meta = message.metadata?.[VERDICT_META_KEY];
  return typeof meta === 'object' && meta !== null ? (meta as VerdictMeta) : undefined;
}

/** The tool messages that answer the last model turn: the run of `tool` messages at the end. */
export function lastToolStep(messages: readonly StateMessage[]): StateMessage[] {
  const step: StateMessage[] = [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.type !== 'tool') break;
    step.push(message);
  }
  return step.reverse();
}
