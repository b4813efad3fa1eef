/**
 * A Claude Code transcript (`~/.claude/projects/<project>/<session>.jsonl`) as a trace. The
 * transcript has one line per message block: assistant lines carry `tool_use` blocks, user lines
 * carry `tool_result` blocks (or the user's own words), and the two pair up by tool-use id.
 *
 * Subagents (the Task tool) are converted too: their calls keep the subagent's id in `agent`.
 * Older versions write them into the session's own file as sidechain lines; newer ones write one
 * file per subagent (`<session>/subagents/agent-<id>.jsonl`), which `addSubagent` merges in by time.
 * A call the user interrupted or rejected stays a call without a result: it never finished, so it
 * teaches nothing, and the interruption notice is not a new user message.
 */
import { hostToolAnnotations } from '../../adapters/tool-call/host-tools.js';
import type { Mutable, ToolAnnotations } from '../../core/types.js';
import type { CallEvent, McpContent, ToolInfo, TraceEvent, TraceResult } from '../types.js';
import { callEvent } from './call-event.js';
import type { ConversionResult } from './types.js';

type Entry = Record<string, unknown>;
type MutableCall = Mutable<CallEvent>;

/** A line longer than this (characters) is skipped and counted: a transcript is read, not trusted. */
export const MAX_TRANSCRIPT_LINE = 32 * 1024 * 1024;

/** Text kept of one tool result; beyond it, the head and the tail (a failure says why at either end). */
export const MAX_RESULT_TEXT = 100_000;

/** Lines Claude Code writes that hold no message: read and left out on purpose. */
const BOOKKEEPING_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'progress',
  'queue-operation',
  'system',
  'custom-title',
  'attachment',
]);

/** Distinct unknown line types named in the report; more are counted as "other". */
const MAX_NAMED_TYPES = 12;

const INTERRUPTION_NOTICE = /^\[Request interrupted by user( for tool use)?\]$/;
const CANCELLED_RESULT =
  /^(\[Request interrupted by user( for tool use)?\]|The user doesn't want to (proceed with this tool use|take this action))/;

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

/** A subagent's id as the line gives it, when it is a usable one. */
function agentIdOf(entry: Entry): string | undefined {
  const { agentId } = entry;
  return typeof agentId === 'string' && agentId !== '' && agentId.length <= 128 ? agentId : undefined;
}

function blocksOf(entry: Entry): unknown[] | string | undefined {
  const message = entry.message;
  if (!isObject(message)) return undefined;
  const content = message.content;
  return typeof content === 'string' || Array.isArray(content) ? content : undefined;
}

function boundedText(text: string): string {
  if (text.length <= MAX_RESULT_TEXT) return text;
  const half = MAX_RESULT_TEXT / 2;
  const cut = text.length - MAX_RESULT_TEXT;
  return `${text.slice(0, half)}\n[… ${cut} characters left out …]\n${text.slice(-half)}`;
}

/** A tool_result's content: a string, or text and image blocks in the Anthropic shape. */
function resultContent(content: unknown): string | McpContent[] {
  if (typeof content === 'string') return boundedText(content);
  if (!Array.isArray(content)) return '';
  const items: McpContent[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string')
      items.push({ type: 'text', text: boundedText(block.text) });
    else if (block.type === 'image' && isObject(block.source)) {
      const { media_type: mimeType, data } = block.source;
      items.push({ type: 'image', mimeType: String(mimeType ?? 'image'), data: String(data ?? '') });
    }
  }
  const [only] = items;
  return items.length === 1 && only?.type === 'text' ? (only.text ?? '') : items;
}

function textOf(content: string | McpContent[]): string {
  if (typeof content === 'string') return content;
  return content.map((item) => (typeof item.text === 'string' ? item.text : '')).join('\n');
}

function userText(blocks: unknown[] | string): string | undefined {
  if (typeof blocks === 'string') return blocks;
  if (blocks.some((block) => isObject(block) && block.type === 'tool_result')) return undefined;
  const texts = blocks.filter((block): block is Entry => isObject(block) && block.type === 'text');
  return texts.length > 0 ? texts.map((block) => String(block.text ?? '')).join('\n') : undefined;
}

interface Timed {
  /** Milliseconds since the epoch, when the line had a timestamp. */
  readonly at: number | undefined;
  readonly event: TraceEvent;
}

/** What the conversion read but could not use, or used differently than a plain message. */
export interface ClaudeConversionReport {
  readonly calls: number;
  /** Calls made by subagents (they carry `agent`). */
  readonly subagentCalls: number;
  readonly subagents: number;
  /** Calls the user interrupted or rejected: kept without a result. */
  readonly cancelled: number;
  readonly notJson: number;
  readonly tooLong: number;
  /** Lines of a type this converter does not know, by type. */
  readonly unknownTypes: Readonly<Record<string, number>>;
  /** Lines with no message in them (summaries, file snapshots, progress), by type. */
  readonly bookkeeping: Readonly<Record<string, number>>;
  /** Results whose call is not in the transcript. */
  readonly orphanResults: number;
}

export interface ClaudeConversionResult extends ConversionResult {
  readonly report: ClaudeConversionReport;
}

/**
 * Converts transcripts one line at a time: `add` the session's lines (several sessions in a row
 * make one trace), `addSubagent` the lines of a subagent's own file, then `finish`.
 */
export class ClaudeTranscriptConverter {
  private readonly main: Timed[] = [];
  private readonly subagentStreams = new Map<string, Timed[]>();
  private readonly calls = new Map<string, MutableCall>();
  /** The agent's own calls still waiting for their result. */
  private readonly waiting = new Set<MutableCall>();
  private readonly toolsPerMessage = new Map<string, number>();
  private readonly usedTools = new Set<string>();
  private readonly agents = new Set<string>();
  private sessionId: string | undefined;
  /** The first time in the transcript: `t` counts from it. */
  private startedAt: number | undefined;
  private counts = { cancelled: 0, notJson: 0, tooLong: 0, orphanResults: 0 };
  private readonly unknownTypes = new Map<string, number>();
  private readonly bookkeeping = new Map<string, number>();

  constructor(private readonly name = 'claude-code') {}

  /** A line of a session transcript. */
  add(line: string): void {
    const entry = this.entry(line);
    if (entry) this.take(entry, undefined);
  }

  /** A line of a subagent's own transcript (`agent-<id>.jsonl`). */
  addSubagent(agent: string, line: string): void {
    const entry = this.entry(line);
    if (entry) this.take(entry, agentIdOf(entry) ?? agent);
  }

  /** A line too long to read, counted without being held. */
  skipTooLong(): void {
    this.counts.tooLong++;
  }

  finish(): ClaudeConversionResult {
    const merged = mergeByTime(this.main, [...this.subagentStreams.values()]);
    const startedAt = this.startedAt;
    let calls = 0;
    let subagentCalls = 0;
    const events = merged.map(({ at, event }): TraceEvent => {
      if (event.type !== 'call') return event;
      calls++;
      if (event.agent !== undefined) subagentCalls++;
      const { tool, args, result, id, turn, agent } = event;
      const t =
        at !== undefined && startedAt !== undefined
          ? Number((Math.max(0, at - startedAt) / 1000).toFixed(3))
          : undefined;
      // A turn only matters when the model issued several calls at once.
      const shared = turn !== undefined && (this.toolsPerMessage.get(turn) ?? 0) > 1;
      return callEvent({ tool, args, result, t, id, turn: shared ? turn : undefined, agent });
    });
    const tools: ToolInfo[] = [...this.usedTools].sort().flatMap((tool) => {
      const annotations: ToolAnnotations | undefined = hostToolAnnotations('claude-code', tool);
      return annotations ? [{ name: tool, annotations }] : [];
    });
    const meta: TraceEvent = {
      type: 'meta',
      name: this.name,
      description: 'Converted from a Claude Code transcript.',
      ...(tools.length > 0 ? { tools } : {}),
    };
    const unknownTypes = Object.fromEntries(this.unknownTypes);
    const unknownLines = [...this.unknownTypes.values()].reduce((sum, count) => sum + count, 0);
    return {
      events: [meta, ...events],
      skipped: this.counts.notJson + this.counts.tooLong + unknownLines + this.counts.orphanResults,
      report: {
        calls,
        subagentCalls,
        subagents: this.agents.size,
        ...this.counts,
        unknownTypes,
        bookkeeping: Object.fromEntries(this.bookkeeping),
      },
    };
  }

  private entry(line: string): Entry | undefined {
    if (line.length > MAX_TRANSCRIPT_LINE) {
      this.counts.tooLong++;
      return undefined;
    }
    if (line.trim() === '') return undefined;
    const entry = parseLine(line);
    if (!entry) this.counts.notJson++;
    return entry;
  }

  private take(entry: Entry, subagent: string | undefined): void {
    const type = typeof entry.type === 'string' ? entry.type : undefined;
    if (type === undefined || !(type === 'user' || type === 'assistant' || BOOKKEEPING_TYPES.has(type))) {
      this.countUnknown(type === undefined ? '(no type)' : type);
      return;
    }
    // Sidechain lines in the session's own file are a subagent's, as older versions wrote them.
    const agent = subagent ?? (entry.isSidechain === true ? (agentIdOf(entry) ?? 'sidechain') : undefined);
    const stream = agent === undefined ? this.main : this.streamOf(agent);
    const at = typeof entry.timestamp === 'string' ? Date.parse(entry.timestamp) : Number.NaN;
    const time = Number.isNaN(at) ? undefined : at;
    if (time !== undefined && (this.startedAt === undefined || time < this.startedAt)) this.startedAt = time;
    const push = (event: TraceEvent) => stream.push({ at: time, event });

    if (agent === undefined && typeof entry.sessionId === 'string' && entry.sessionId !== this.sessionId) {
      this.sessionId = entry.sessionId;
      push({ type: 'session', id: this.sessionId });
    }
    if (type === 'system' && entry.subtype === 'compact_boundary') {
      if (agent === undefined) this.compact(push);
      return;
    }
    if (BOOKKEEPING_TYPES.has(type)) {
      this.bookkeeping.set(type, (this.bookkeeping.get(type) ?? 0) + 1);
      return;
    }
    const blocks = blocksOf(entry);
    if (blocks === undefined) return;
    if (type === 'assistant') {
      if (Array.isArray(blocks)) this.toolUses(entry, blocks, agent, push);
      return;
    }
    if (entry.isCompactSummary === true) {
      if (agent === undefined) this.compact(push);
      return;
    }
    if (Array.isArray(blocks)) this.toolResults(blocks);
    // A subagent's prompt comes from the agent that called it, not from the user.
    if (agent !== undefined || entry.isMeta === true) return;
    const text = userText(blocks);
    if (text === undefined) return;
    // "[Request interrupted by user]" marks a stop, not something the user said: what was still
    // running was cancelled.
    if (INTERRUPTION_NOTICE.test(text.trim())) {
      this.counts.cancelled += this.waiting.size;
      this.waiting.clear();
      return;
    }
    push({ type: 'user', text });
  }

  private toolUses(
    entry: Entry,
    blocks: readonly unknown[],
    agent: string | undefined,
    push: (event: TraceEvent) => void,
  ): void {
    const message = entry.message as Entry;
    const messageId = typeof message.id === 'string' ? message.id : undefined;
    for (const block of blocks) {
      if (
        !isObject(block) ||
        block.type !== 'tool_use' ||
        typeof block.name !== 'string' ||
        block.name === ''
      )
        continue;
      const call: MutableCall = {
        type: 'call',
        tool: block.name,
        args: isObject(block.input) ? block.input : {},
      };
      if (typeof block.id === 'string') {
        call.id = block.id;
        this.calls.set(block.id, call);
      }
      if (messageId !== undefined) {
        call.turn = messageId;
        this.toolsPerMessage.set(messageId, (this.toolsPerMessage.get(messageId) ?? 0) + 1);
      }
      if (agent !== undefined) {
        call.agent = agent;
        this.agents.add(agent);
      } else {
        this.waiting.add(call);
      }
      this.usedTools.add(block.name);
      push(call);
    }
  }

  private toolResults(blocks: readonly unknown[]): void {
    for (const block of blocks) {
      if (!isObject(block) || block.type !== 'tool_result') continue;
      const call = typeof block.tool_use_id === 'string' ? this.calls.get(block.tool_use_id) : undefined;
      if (!call) {
        this.counts.orphanResults++;
        continue;
      }
      const content = resultContent(block.content);
      if (!this.waiting.delete(call) && call.agent === undefined) continue;
      if (block.is_error === true && CANCELLED_RESULT.test(textOf(content).trimStart())) {
        // Interrupted or rejected: the call never finished, so there is no outcome to learn from.
        this.counts.cancelled++;
        continue;
      }
      const result: Mutable<TraceResult> = { content };
      if (block.is_error === true) result.isError = true;
      call.result = result;
    }
  }

  private compact(push: (event: TraceEvent) => void): void {
    if (this.main.at(-1)?.event.type !== 'compact') push({ type: 'compact' });
  }

  private streamOf(agent: string): Timed[] {
    let stream = this.subagentStreams.get(agent);
    if (!stream) {
      stream = [];
      this.subagentStreams.set(agent, stream);
    }
    return stream;
  }

  private countUnknown(type: string): void {
    const name =
      this.unknownTypes.has(type) || this.unknownTypes.size < MAX_NAMED_TYPES ? type.slice(0, 40) : 'other';
    this.unknownTypes.set(name, (this.unknownTypes.get(name) ?? 0) + 1);
  }
}

/**
 * The session's events with each subagent's calls placed where they happened in time. Within a
 * stream the order is kept; a line without a time goes with the one before it.
 */
function mergeByTime(main: readonly Timed[], others: readonly (readonly Timed[])[]): Timed[] {
  if (others.length === 0) return [...main];
  const streams = [main, ...others].map((stream) => {
    let last = Number.NEGATIVE_INFINITY;
    return stream.map((item) => {
      last = item.at ?? last;
      return { item, key: last };
    });
  });
  const positions = streams.map(() => 0);
  const merged: Timed[] = [];
  for (;;) {
    let best = -1;
    for (let index = 0; index < streams.length; index++) {
      const next = streams[index]?.[positions[index] ?? 0];
      if (!next) continue;
      const current = best === -1 ? undefined : streams[best]?.[positions[best] ?? 0];
      // Ties go to the earlier stream, the session itself first: a subagent runs inside its call.
      if (!current || next.key < current.key) best = index;
    }
    if (best === -1) return merged;
    const stream = streams[best] as { item: Timed }[];
    merged.push((stream[positions[best] as number] as { item: Timed }).item);
    positions[best] = (positions[best] as number) + 1;
  }
}

/**
 * Whether a line is a Claude Code transcript's rather than a trace's: a line type traces do not
 * have, or a message in Claude Code's envelope (`message`, `uuid`, `sessionId`).
 */
export function isClaudeTranscriptLine(line: string): boolean {
  const entry = parseLine(line);
  if (!entry || typeof entry.type !== 'string') return false;
  if (entry.type === 'assistant' || BOOKKEEPING_TYPES.has(entry.type)) return true;
  return entry.type === 'user' && (isObject(entry.message) || typeof entry.uuid === 'string');
}

/** Converts a whole transcript held in memory. */
export function claudeTranscriptToTrace(
  lines: Iterable<string>,
  name = 'claude-code',
): ClaudeConversionResult {
  const converter = new ClaudeTranscriptConverter(name);
  for (const line of lines) converter.add(line);
  return converter.finish();
}
