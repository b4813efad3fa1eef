/**
 * Household tasks as ReAcTree's collection of an agent's runs writes them (ALFRED's rooms, and
 * WAH-NL's houses): one text file per run, the task (`Your task is to: …`) and what the agent sees
 * first, then the agent's lines — `Think: …` answered `OK.`, `Act: go to Bed (1)` answered by one
 * line of what the simulator did and saw — until `Act: done` or `Act: failure`, the agent's own
 * verdict, which runs nothing. Each command is a call of its verb (`go to`, `pick up`, `put`, `open`,
 * `close`, `turn on`, `turn off`, `slice`, and `recall location of`, which asks the agent's memory
 * where it saw an object); what follows the verb is the argument. The simulator refuses a command
 * in words of its own: an action that `failed`, a thing `not close to you`, a receptacle `already
 * closed`, a hand already holding something.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { MAX_COMMANDS } from './convert-alfworld.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, metaEvent, result, type RunSource, safeName, toolList } from './events.js';

const VERBS = /^(go to|pick up|put|open|close|turn on|turn off|slice|recall location of)\b[ \t]*(.*)$/i;
export const REACTREE_KINDS: Readonly<Record<string, string>> = {
  recall_location_of: 'read',
  pick_up: 'mutate',
  put: 'mutate',
  open: 'mutate',
  close: 'mutate',
  turn_on: 'mutate',
  turn_off: 'mutate',
  slice: 'mutate',
};

/** How the simulator refuses a command. */
const REFUSED =
  /\bfailed\b|\bis not close to you\b|\bis already (?:open|closed)\b|^You are currently holding\b|^You do not have an empty hand\b|^You do not grab\b/;

/** A command as a call of its verb (`pick up` is `pick_up`); anything else stays one `command` call. */
export function reacTreeCall(command: string): { tool: string; args: Record<string, unknown> } {
  const input = command.trim();
  const match = VERBS.exec(input);
  if (!match) return { tool: 'command', args: { input } };
  const tool = (match[1] as string).toLowerCase().replace(/ /g, '_');
  const rest = (match[2] as string).trim();
  return { tool, args: rest ? { input: rest } : {} };
}

/** The calls of one run: each `Act:` line sent, the line after it answered; thoughts and the final verdict run nothing. */
export function reacTreeCalls(log: string, source: RunSource): CallEvent[] {
  if (log.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a run`);
  const lines = log.split(/\r?\n/);
  const calls: CallEvent[] = [];
  for (const [index, line] of lines.entries()) {
    const act = /^Act:[ \t]*(.*)$/.exec(line);
    if (!act) continue;
    const command = (act[1] as string).trim();
    if (command === '' || /^(done|failure)$/i.test(command)) continue;
    const next = lines[index + 1] ?? '';
    const answer = /^(Think|Act):/.test(next) ? '' : next.trim();
    const { tool, args } = reacTreeCall(command);
    calls.push({ type: 'call', tool, args, result: result(answer, REFUSED.test(answer)) });
    if (calls.length >= MAX_COMMANDS) break;
  }
  return calls;
}

/** One run's file (`resource/alfred/collect_llm/react_wm/<task>_trial_<id>_ann_0.txt`). */
export function convertReacTreeRun(log: string, source: RunSource, prefix: string): ConvertedRun[] {
  const calls = reacTreeCalls(log, source);
  if (calls.length === 0) return [];
  const stem = (source.path.split('/').at(-1) ?? '').replace(/\.txt$/, '');
  const task = /^Your task is to:[ \t]*(.*)$/m.exec(log)?.[1]?.trim() ?? '';
  const name = safeName(`${prefix}-${stem}`);
  const description = `${source.agent}, run ${stem}${task === '' ? '' : ` (${task})`}`;
  return [{ name, events: [metaEvent(name, description, source, toolList(calls, REACTREE_KINDS)), ...(calls as TraceEvent[])] }];
}
