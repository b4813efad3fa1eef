/**
 * ReAct transcripts: the agent writes `Thought:`, then `Action: Tool[argument]`, and the
 * environment answers `Observation: …` (numbered `Action 3:` / `Observation 3:` in some logs). The
 * Reflexion logs print every agent of every trial this way under `Question: …`; an agent that was
 * already right, or that ran again unchanged, is printed again in the next trial and in other logs,
 * so a question answered with the same calls and observations is read once.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { type ConvertedRun, metaEvent, type RunSource, result, safeName, toolList } from './events.js';

/** Logs longer than this are refused: no recorded run comes near it. */
export const MAX_LOG_CHARS = 32 * 1024 * 1024;
/** Calls kept from one transcript; the agents these logs record stop after a few dozen. */
export const MAX_STEPS = 1_000;

const LINE = /^(Thought|Action|Observation)(?: \d+)?:[ \t]?(.*)$/;
/** What ends an observation besides the next step: the answer key or the next agent's question. */
const OUTSIDE = /^(Correct answer:|Question:|Reflections:|#{5,}|-{5,}|BEGIN TRIAL)/;
const ACTION = /^([A-Za-z_][\w ]*?)\[([\s\S]*)\]\s*$/;
/** How these environments say that a call failed: no such page, no such action, or the tool threw. */
const FAILED = /^(could not find\b|invalid action\b)|^\(.*\) generated an exception:/i;

export interface ReActAction {
  readonly tool: string;
  readonly args: { readonly input: string };
}

/** `Search[Nick Park]` as a call of `Search`; anything else the agent wrote stays one `action` argument. */
export function parseReActAction(action: string): ReActAction {
  const trimmed = action.trim();
  const match = ACTION.exec(trimmed);
  if (!match) return { tool: 'action', args: { input: trimmed } };
  return { tool: (match[1] as string).trim(), args: { input: match[2] as string } };
}

/** The calls of one transcript, each answered by the observation that follows its action. */
export function reactCalls(transcript: string): CallEvent[] {
  const calls: CallEvent[] = [];
  let pending: ReActAction | undefined;
  let observation: string[] | undefined;
  const flush = () => {
    if (pending && observation) {
      const output = observation.join('\n').trim();
      calls.push({ type: 'call', tool: pending.tool, args: pending.args, result: result(output, FAILED.test(output)) });
      pending = undefined;
    }
    observation = undefined;
  };
  for (const line of transcript.split('\n')) {
    if (calls.length >= MAX_STEPS) break;
    const step = LINE.exec(line);
    if (step) {
      flush();
      const [, kind, rest] = step as unknown as [string, string, string];
      if (kind === 'Action') {
        if (pending) calls.push({ type: 'call', tool: pending.tool, args: pending.args });
        pending = parseReActAction(rest);
      } else if (kind === 'Observation' && pending) {
        observation = [rest];
      }
      continue;
    }
    if (OUTSIDE.test(line)) {
      flush();
      continue;
    }
    observation?.push(line);
  }
  flush();
  if (pending && calls.length < MAX_STEPS) calls.push({ type: 'call', tool: pending.tool, args: pending.args });
  return calls;
}

export interface ReflexionLog {
  readonly path: string;
  readonly content: string;
}

/** The agents a Reflexion log prints, one block per `Question:`, up to the next question or banner. */
export function reflexionBlocks(log: string): string[] {
  const blocks: string[] = [];
  let current: string[] | undefined;
  for (const line of log.split('\n')) {
    if (line.startsWith('Question: ')) {
      if (current) blocks.push(current.join('\n').trim());
      current = [line];
    } else if (/^(#{5,}|-{5,})/.test(line)) {
      if (current) blocks.push(current.join('\n').trim());
      current = undefined;
    } else current?.push(line);
  }
  if (current) blocks.push(current.join('\n').trim());
  return blocks;
}

/** The question a block answers, without the reflections a later trial adds to it. */
function questionOf(block: string): string {
  const line = block.slice(0, block.indexOf('\n') === -1 ? undefined : block.indexOf('\n'));
  const reflected = line.indexOf('You have attempted to answer');
  return (reflected === -1 ? line : line.slice(0, reflected)).trim();
}

/** The distinct runs of a set of Reflexion logs, in the order of their paths. */
export function convertReflexionLogs(logs: readonly ReflexionLog[], source: Omit<RunSource, 'path'>, prefix: string): ConvertedRun[] {
  const seen = new Set<string>();
  const runs: ConvertedRun[] = [];
  for (const log of [...logs].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (log.content.length > MAX_LOG_CHARS) throw new Error(`${log.path}: longer than ${MAX_LOG_CHARS} characters; not a run log`);
    const stem = log.path.replace(/^.*\/ReAct\//, '').replace(/\.txt$/, '');
    let index = 0;
    for (const block of reflexionBlocks(log.content)) {
      const calls = reactCalls(block);
      // The same question with the same calls and answers is one run, whatever reflections led to it
      // and however a log shortened what it printed around the steps.
      const key = JSON.stringify([questionOf(block), calls]);
      if (calls.length === 0 || seen.has(key)) continue;
      seen.add(key);
      index += 1;
      const name = safeName(`${prefix}-${stem}-${String(index).padStart(3, '0')}`);
      const meta = metaEvent(name, `ReAct agent run ${index} of ${stem}`, { ...source, path: log.path }, toolList(calls));
      runs.push({ name, events: [meta, ...(calls as TraceEvent[])] });
    }
  }
  return runs;
}
