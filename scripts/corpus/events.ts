/**
 * What every corpus converter shares: the shape of one converted run and a few readers of loosely
 * typed JSON. The converters only reshape what the runs recorded; they judge nothing.
 */
import type { CallEvent, MetaEvent, ToolInfo, TraceEvent, TraceResult } from '../../src/trace/types.js';

/** Outputs longer than this keep their head and tail, as the calibration set does. */
export const MAX_OUTPUT = 100_000;

export interface ConvertedRun {
  /** File name without extension: unique inside the corpus. */
  readonly name: string;
  readonly events: TraceEvent[];
}

export interface RunSource {
  /** `owner/name@commit`. */
  readonly pin: string;
  readonly path: string;
  readonly licence: string;
  /** The agent that made the runs, as the corpus tables name it. */
  readonly agent: string;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((part) => (isObject(part) ? text(part.text) : text(part))).join('\n');
  return JSON.stringify(value);
}

export function clip(output: string): string {
  if (output.length <= MAX_OUTPUT) return output;
  const half = MAX_OUTPUT / 2;
  return `${output.slice(0, half)}\n[…]\n${output.slice(-half)}`;
}

export function result(output: string, failed: boolean): TraceResult {
  return failed ? { isError: true, content: clip(output) } : { content: clip(output) };
}

export function metaEvent(name: string, description: string, source: RunSource, tools: ToolInfo[]): MetaEvent {
  const from = `${source.pin} ${source.path} (${source.licence})`;
  return {
    type: 'meta',
    name,
    description: `${description}. ${from}`,
    tools,
    // Extra fields the trace format ignores; the scorer reads them.
    ...({ agent: source.agent, source: from } as object),
  };
}

export function toolList(calls: readonly CallEvent[], kinds: Readonly<Record<string, string>> = {}): ToolInfo[] {
  const names = [...new Set(calls.map((call) => call.tool))].sort();
  return names.map((name) => {
    const kind = kinds[name];
    return kind ? { name, annotations: { narrowing: { kind } } as ToolInfo['annotations'] } : { name };
  });
}

/** Seconds from `start`, rounded to milliseconds; undefined when either time is unknown. */
export function secondsSince(start: number | undefined, at: number | undefined): number | undefined {
  if (start === undefined || at === undefined || !Number.isFinite(at)) return undefined;
  return Math.max(0, Math.round((at - start) * 1000) / 1000);
}

export function safeName(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
}

/** Parses JSON arguments a model wrote; a string that is not JSON stays one argument. */
export function parseArguments(raw: unknown): Record<string, unknown> {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isObject(parsed) ? parsed : { input: parsed };
  } catch {
    return { input: raw };
  }
}

/** A converted run: its events after a meta event naming the run, its source and the tools its calls used. */
export function convertedRun(
  name: string,
  description: string,
  source: RunSource,
  events: readonly TraceEvent[],
  kinds: Readonly<Record<string, string>> = {},
): ConvertedRun {
  const runName = safeName(name);
  const calls = events.filter((event): event is CallEvent => event.type === 'call');
  return { name: runName, events: [metaEvent(runName, description, source, toolList(calls, kinds)), ...events] };
}
