/**
 * Claude Code transcripts, through the product's own converter: a session and each of its
 * subagents' transcripts are converted on their own, as the calibration set does.
 */
import { claudeTranscriptToTrace } from '../../src/trace/convert/claude.js';
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { type ConvertedRun, metaEvent, type RunSource, safeName, toolList } from './events.js';

export function convertClaudeTranscript(jsonl: string, source: RunSource, name: string): ConvertedRun {
  const { events } = claudeTranscriptToTrace(jsonl.split('\n'), name);
  const body = events.filter((event) => event.type !== 'meta');
  const tools = events.find((event) => event.type === 'meta')?.tools;
  const calls = body.filter((event): event is CallEvent => event.type === 'call');
  const runName = safeName(name);
  const meta = metaEvent(runName, `Claude Code transcript ${source.path}`, source, [...(tools ?? toolList(calls))]);
  return { name: runName, events: [meta, ...(body as TraceEvent[])] };
}
