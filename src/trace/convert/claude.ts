/**
 * A Claude Code transcript (`~/.claude/projects/<project>/<session>.jsonl`) as a trace. The
 * transcript has one line per message block: assistant lines carry `tool_use` blocks, user lines
 * carry `tool_result` blocks (or the user's own words), and the two pair up by tool-use id.
 */
import { hostToolAnnotations } from '../../adapters/tool-call/host-tools.js';
import type { Mutable, ToolAnnotations } from '../../core/types.js';
import type { CallEvent, McpContent, ToolInfo, TraceEvent, TraceResult } from '../types.js';
import type { ConversionResult } from './types.js';

type Entry = Record<string, unknown>;
type MutableCall = Mutable<CallEvent>;

function isObject(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseLine(line: string): Entry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function blocksOf(entry: Entry): unknown[] | string | undefined {
  const message = entry.message;
  if (!isObject(message)) return undefined;
  const content = message.content;
  return typeof content === 'string' || Array.isArray(content) ? content : undefined;
}

/** A tool_result's content: a string, or text and image blocks in the Anthropic shape. */
function resultContent(content: unknown): string | McpContent[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const items: McpContent[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string')
      items.push({ type: 'text', text: block.text });
    else if (block.type === 'image' && isObject(block.source)) {
      const { media_type: mimeType, data } = block.source;
      items.push({ type: 'image', mimeType: String(mimeType ?? 'image'), data: String(data ?? '') });
    }
  }
  const [only] = items;
  return items.length === 1 && only?.type === 'text' ? (only.text ?? '') : items;
}

function userText(blocks: unknown[] | string): string | undefined {
  if (typeof blocks === 'string') return blocks;
  if (blocks.some((block) => isObject(block) && block.type === 'tool_result')) return undefined;
  const texts = blocks.filter((block): block is Entry => isObject(block) && block.type === 'text');
  return texts.length > 0 ? texts.map((block) => String(block.text ?? '')).join('\n') : undefined;
}

export function claudeTranscriptToTrace(lines: Iterable<string>, name = 'claude-code'): ConversionResult {
  const events: TraceEvent[] = [];
  const calls = new Map<string, MutableCall>();
  const toolsPerMessage = new Map<string, number>();
  const usedTools = new Set<string>();
  let skipped = 0;
  let startedAt: number | undefined;
  let sessionId: string | undefined;

  const secondsAt = (entry: Entry): number | undefined => {
    const at = typeof entry.timestamp === 'string' ? Date.parse(entry.timestamp) : Number.NaN;
    if (Number.isNaN(at)) return undefined;
    startedAt ??= at;
    return Math.max(0, (at - startedAt) / 1000);
  };
  const compact = () => {
    if (events.at(-1)?.type !== 'compact') events.push({ type: 'compact' });
  };

  for (const line of lines) {
    if (line.trim() === '') continue;
    const entry = parseLine(line);
    if (!entry) {
      skipped++;
      continue;
    }
    // Subagents keep their own streaks; their calls are not this agent's.
    if (entry.isSidechain === true) continue;
    secondsAt(entry);
    if (typeof entry.sessionId === 'string' && entry.sessionId !== sessionId) {
      sessionId = entry.sessionId;
      events.push({ type: 'session', id: sessionId });
    }
    if (entry.type === 'system' && entry.subtype === 'compact_boundary') {
      compact();
      continue;
    }
    const blocks = blocksOf(entry);
    if (blocks === undefined) continue;
    if (entry.type === 'assistant' && Array.isArray(blocks)) {
      const message = entry.message as Entry;
      const messageId = typeof message.id === 'string' ? message.id : undefined;
      for (const block of blocks) {
        if (!isObject(block) || block.type !== 'tool_use' || typeof block.name !== 'string') continue;
        const call: MutableCall = {
          type: 'call',
          tool: block.name,
          args: isObject(block.input) ? block.input : {},
        };
        const t = secondsAt(entry);
        if (t !== undefined) call.t = Number(t.toFixed(3));
        if (typeof block.id === 'string') {
          call.id = block.id;
          calls.set(block.id, call);
        }
        if (messageId !== undefined) {
          call.turn = messageId;
          toolsPerMessage.set(messageId, (toolsPerMessage.get(messageId) ?? 0) + 1);
        }
        usedTools.add(block.name);
        events.push(call);
      }
    } else if (entry.type === 'user') {
      if (entry.isCompactSummary === true) {
        compact();
        continue;
      }
      if (Array.isArray(blocks)) {
        for (const block of blocks) {
          if (!isObject(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string')
            continue;
          const call = calls.get(block.tool_use_id);
          if (!call) continue;
          const result: { -readonly [K in keyof TraceResult]: TraceResult[K] } = {
            content: resultContent(block.content),
          };
          if (block.is_error === true) result.isError = true;
          call.result = result;
        }
      }
      const text = entry.isMeta === true ? undefined : userText(blocks);
      if (text !== undefined) events.push({ type: 'user', text });
    }
  }

  // A turn only matters when the model issued several calls at once.
  const ordered = events.map((event): TraceEvent => {
    if (event.type !== 'call') return event;
    const { tool, args, result, t, id, turn } = event;
    return {
      type: 'call',
      tool,
      args,
      ...(result ? { result } : {}),
      ...(t !== undefined ? { t } : {}),
      ...(id !== undefined ? { id } : {}),
      ...(turn !== undefined && (toolsPerMessage.get(turn) ?? 0) > 1 ? { turn } : {}),
    };
  });
  const tools: ToolInfo[] = [...usedTools].sort().flatMap((tool) => {
    const annotations: ToolAnnotations | undefined = hostToolAnnotations('claude-code', tool);
    return annotations ? [{ name: tool, annotations }] : [];
  });
  const meta: TraceEvent = {
    type: 'meta',
    name,
    description: 'Converted from a Claude Code transcript.',
    ...(tools.length > 0 ? { tools } : {}),
  };
  return { events: [meta, ...ordered], skipped };
}
