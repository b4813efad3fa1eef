/**
 * Keeping the conversation within the model's context: no management, a sliding window of the
 * newest messages, or compaction, which keeps the task (the first message) and the last messages,
 * puts a marker where messages were removed, and spends a share of the room on older messages that
 * mention the files being worked on (the ones an error recovery depends on).
 *
 * A tool result never loses the assistant message that called it: the two are kept or removed
 * together.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';

/** Why the loop wrote a message itself: the user never sees these. */
export type InternalReason =
  | 'max_tokens_recovery'
  | 'compaction'
  | 'alternatives'
  | 'budget_reserve'
  | 'halt';

export interface ConversationEntry {
  readonly message: LanguageModelV3Message;
  readonly internal?: InternalReason;
}

export type ContextStrategy = 'none' | 'sliding' | 'compact';

export interface ContextOptions {
  /** Default `none`. */
  readonly strategy?: ContextStrategy;
  /** The estimated tokens the conversation may take (about four characters each). */
  readonly maxTokens?: number;
  /** Compaction keeps at least this many of the newest messages when they fit. Default 8. */
  readonly keepLast?: number;
  /** The share of `maxTokens` compaction may spend on older messages about the active files. Default 0.15. */
  readonly activeFileShare?: number;
}

export interface FittedContext {
  readonly entries: readonly ConversationEntry[];
  /** Messages removed; 0 when the conversation fitted. */
  readonly removed: number;
}

export function fitContext(
  entries: readonly ConversationEntry[],
  options: ContextOptions = {},
): FittedContext {
  const { strategy = 'none', maxTokens } = options;
  if (strategy === 'none' || maxTokens === undefined || totalTokens(entries) <= maxTokens) {
    return { entries, removed: 0 };
  }
  const units = groupUnits(entries);
  return strategy === 'sliding' ? slide(units, maxTokens) : compact(units, maxTokens, options);
}

/** A rough count: about four characters a token, as most tokenizers average on English and code. */
export function estimateTokens(entry: ConversationEntry): number {
  return Math.ceil(entryText(entry).length / 4) + 4;
}

function totalTokens(entries: readonly ConversationEntry[]): number {
  let total = 0;
  for (const entry of entries) total += estimateTokens(entry);
  return total;
}

/** Messages that must stay together: an assistant message with the tool results that answer it. */
type Unit = readonly ConversationEntry[];

function groupUnits(entries: readonly ConversationEntry[]): Unit[] {
  const units: ConversationEntry[][] = [];
  for (const entry of entries) {
    const last = units[units.length - 1];
    if (entry.message.role === 'tool' && last) last.push(entry);
    else units.push([entry]);
  }
  return units;
}

function slide(units: readonly Unit[], maxTokens: number): FittedContext {
  const kept: Unit[] = [];
  let used = 0;
  for (let index = units.length - 1; index >= 0; index--) {
    const unit = units[index] as Unit;
    const cost = totalTokens(unit);
    if (kept.length > 0 && used + cost > maxTokens) break;
    kept.unshift(unit);
    used += cost;
  }
  const entries = kept.flat();
  return { entries, removed: countEntries(units) - entries.length };
}

function compact(units: readonly Unit[], maxTokens: number, options: ContextOptions): FittedContext {
  const [first, ...rest] = units;
  if (!first || rest.length === 0) return { entries: units.flat(), removed: 0 };
  const keepLast = options.keepLast ?? 8;
  const room = maxTokens - totalTokens(first) - MARKER_TOKENS;
  // The newest units: up to `keepLast` messages, always the last unit, fewer when they do not fit.
  const tail: Unit[] = [];
  let used = 0;
  let messages = 0;
  for (let index = rest.length - 1; index >= 0; index--) {
    const unit = rest[index] as Unit;
    const cost = totalTokens(unit);
    if (tail.length > 0 && (messages >= keepLast || used + cost > room)) break;
    tail.unshift(unit);
    used += cost;
    messages += unit.length;
  }
  const middle = rest.slice(0, rest.length - tail.length);
  if (middle.length === 0) return { entries: units.flat(), removed: 0 };
  // Older units that mention the files in hand, newest first, within their share of the room.
  const active = activePaths(tail.flat().slice(-4));
  const share = Math.min(room - used, Math.floor(maxTokens * (options.activeFileShare ?? 0.15)));
  const kept = new Set<Unit>();
  let spent = 0;
  for (let index = middle.length - 1; index >= 0 && active.size > 0; index--) {
    const unit = middle[index] as Unit;
    const cost = totalTokens(unit);
    if (spent + cost > share || !mentionsAny(unit, active)) continue;
    kept.add(unit);
    spent += cost;
  }
  const removed = countEntries(middle) - countEntries([...kept]);
  const marker: ConversationEntry = {
    internal: 'compaction',
    message: {
      role: 'user',
      content: [
        {
          type: 'text',
          text:
            `[${removed} earlier messages were removed to keep the conversation within the context; ` +
            'the task above and the most recent messages are kept. Do not repeat work you have done: ' +
            'if you need something from before, look it up again.]',
        },
      ],
    },
  };
  const entries = [...first, marker, ...middle.filter((unit) => kept.has(unit)).flat(), ...tail.flat()];
  return { entries, removed };
}

const MARKER_TOKENS = 60;

const PATH = /(?:[\w.@-]+\/)+[\w.@-]+|\b[\w.-]+\.[a-z][a-z0-9]{0,4}\b/gi;

/** The file paths that the given messages mention. */
export function activePaths(entries: readonly ConversationEntry[]): Set<string> {
  const paths = new Set<string>();
  for (const entry of entries) {
    for (const match of entryText(entry).matchAll(PATH)) {
      const path = match[0].replace(/^\.\//, '');
      if (/[a-z]/i.test(path) && !/^\d/.test(path)) paths.add(path);
    }
  }
  return paths;
}

function mentionsAny(unit: Unit, paths: ReadonlySet<string>): boolean {
  return unit.some((entry) => {
    const text = entryText(entry);
    for (const path of paths) if (text.includes(path)) return true;
    return false;
  });
}

function countEntries(units: readonly Unit[]): number {
  let count = 0;
  for (const unit of units) count += unit.length;
  return count;
}

/** The words of a message: its text, the arguments of its tool calls and the tool results. */
export function entryText(entry: ConversationEntry): string {
  const { message } = entry;
  if (typeof message.content === 'string') return message.content;
  const parts: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text' || part.type === 'reasoning') parts.push(part.text);
    else if (part.type === 'tool-call') parts.push(part.toolName, JSON.stringify(part.input) ?? '');
    else if (part.type === 'tool-result') {
      const { output } = part;
      if (output.type === 'text' || output.type === 'error-text') parts.push(output.value);
      else if (output.type === 'json' || output.type === 'error-json')
        parts.push(JSON.stringify(output.value));
      else if (output.type === 'execution-denied') parts.push(output.reason ?? '');
    }
  }
  return parts.join('\n');
}
