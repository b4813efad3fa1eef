/**
 * tau-bench historical trajectories: one JSON array of runs, each an OpenAI-style conversation in
 * which the customer's messages are `user` turns and the tools answer `Error: …` when they refuse.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import {
  type ConvertedRun,
  isObject,
  metaEvent,
  parseArguments,
  type RunSource,
  result,
  safeName,
  text,
  toolList,
} from './events.js';

/** What the airline and retail tools do, by the verb their names start with. */
function kindOf(tool: string): string | undefined {
  if (/^(get|list|search|calculate|find)_/.test(tool)) return 'read';
  if (/^(book|create|send)_/.test(tool)) return 'create';
  if (/^(cancel|update|modify|exchange|return)_/.test(tool)) return 'mutate';
  return undefined;
}

export function convertTauBench(json: string, source: RunSource, prefix: string): ConvertedRun[] {
  const runs: unknown = JSON.parse(json);
  if (!Array.isArray(runs)) throw new Error(`${source.path}: expected an array of runs`);
  const converted: ConvertedRun[] = [];
  for (const run of runs) {
    if (!isObject(run) || !Array.isArray(run.traj)) continue;
    const name = safeName(`${prefix}-task${text(run.task_id)}-trial${text(run.trial)}`);
    const events: TraceEvent[] = [];
    const calls: CallEvent[] = [];
    const pending = new Map<string, { tool: string; args: Record<string, unknown>; index: number }>();
    for (const message of run.traj) {
      if (!isObject(message)) continue;
      if (message.role === 'user') {
        events.push({ type: 'user', text: text(message.content).slice(0, 500) });
      } else if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
        for (const call of message.tool_calls) {
          if (!isObject(call) || !isObject(call.function)) continue;
          const tool = text(call.function.name);
          const args = parseArguments(call.function.arguments);
          pending.set(text(call.id), { tool, args, index: events.length });
          events.push({ type: 'call', tool, args, id: text(call.id) });
        }
      } else if (message.role === 'tool') {
        const call = pending.get(text(message.tool_call_id));
        if (!call) continue;
        pending.delete(text(message.tool_call_id));
        const output = text(message.content);
        const event: CallEvent = {
          type: 'call',
          tool: call.tool,
          args: call.args,
          id: text(message.tool_call_id),
          result: result(output, /^Error\b/.test(output)),
        };
        events[call.index] = event;
      }
    }
    for (const event of events) if (event.type === 'call') calls.push(event);
    const kinds: Record<string, string> = {};
    for (const call of calls) {
      const kind = kindOf(call.tool);
      if (kind) kinds[call.tool] = kind;
    }
    const description = `tau-bench ${prefix}, task ${text(run.task_id)} trial ${text(run.trial)}, reward ${text(run.reward)}`;
    converted.push({ name, events: [metaEvent(name, description, source, toolList(calls, kinds)), ...events] });
  }
  return converted;
}
