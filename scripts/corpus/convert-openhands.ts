/**
 * OpenHands evaluation output (`output.jsonl`): one run per line, its `history` a list of events in
 * which an action (`source: agent`, with the model's tool call) is answered by an observation whose
 * `cause` is the action's id. A command's exit code is in the observation's metadata.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import {
  type ConvertedRun,
  isObject,
  type JsonObject,
  metaEvent,
  parseArguments,
  type RunSource,
  result,
  safeName,
  secondsSince,
  text,
  toolList,
} from './events.js';

// The editor is left to the guard: its `command` argument says whether a call views, creates or edits.
const KINDS: Readonly<Record<string, string>> = { execute_bash: 'exec', think: 'other' };
const NOT_TOOLS = new Set(['system', 'message', 'recall', 'finish', 'agent_state_changed', 'condensation']);

/** The tools of older runs, which name the action instead of the model's tool call. */
const LEGACY_TOOLS: Readonly<Record<string, { tool: string; arg: string }>> = {
  run: { tool: 'execute_bash', arg: 'command' },
  run_ipython: { tool: 'execute_ipython_cell', arg: 'code' },
  browse: { tool: 'browser', arg: 'url' },
};

function modelCall(event: JsonObject): { tool: string; args: Record<string, unknown> } | undefined {
  const meta = isObject(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
  if (!meta) return undefined;
  const tool = text(meta.function_name);
  const response = isObject(meta.model_response) ? meta.model_response : undefined;
  const choices = Array.isArray(response?.choices) ? response.choices : [];
  for (const choice of choices) {
    const message = isObject(choice) && isObject(choice.message) ? choice.message : undefined;
    for (const call of Array.isArray(message?.tool_calls) ? message.tool_calls : []) {
      if (isObject(call) && call.id === meta.tool_call_id && isObject(call.function)) {
        return { tool, args: parseArguments(call.function.arguments) };
      }
    }
  }
  const args = isObject(event.args) ? { ...event.args } : {};
  for (const key of ['thought', 'is_input', 'blocking', 'hidden', 'confirmation_state', 'security_risk']) delete args[key];
  return { tool, args };
}

function failed(observation: JsonObject): boolean {
  if (observation.observation === 'error') return true;
  if (/^\s*ERROR:/.test(text(observation.content))) return true;
  const extras = isObject(observation.extras) ? observation.extras : undefined;
  const metadata = extras && isObject(extras.metadata) ? extras.metadata : undefined;
  return typeof metadata?.exit_code === 'number' && metadata.exit_code !== 0;
}

function seconds(timestamp: unknown): number | undefined {
  const at = Date.parse(text(timestamp));
  return Number.isNaN(at) ? undefined : at / 1000;
}

export function convertOpenHandsOutput(jsonl: string, source: RunSource, prefix: string): ConvertedRun[] {
  const runs: ConvertedRun[] = [];
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    const run: unknown = JSON.parse(line);
    if (!isObject(run) || !Array.isArray(run.history)) continue;
    const events: TraceEvent[] = [];
    const byId = new Map<string, number>();
    let start: number | undefined;
    let waiting: number | undefined;
    for (const event of run.history) {
      if (!isObject(event)) continue;
      // Older runs list bare actions and observations, each observation answering the action before it.
      if (event.source === undefined && !isObject(event.tool_call_metadata)) {
        const legacy = LEGACY_TOOLS[text(event.action)];
        if (legacy) {
          waiting = events.length;
          events.push({ type: 'call', tool: legacy.tool, args: { [legacy.arg]: text(event[legacy.arg]) } });
        } else if (typeof event.observation === 'string' && waiting !== undefined) {
          const call = events[waiting];
          if (call?.type === 'call') {
            const exit = Number(text(event.exit_code) || '0');
            events[waiting] = { ...call, result: result(text(event.content), event.observation === 'error' || exit !== 0) };
          }
          waiting = undefined;
        }
        continue;
      }
      const at = seconds(event.timestamp);
      start ??= at;
      if (event.source === 'agent' && typeof event.action === 'string' && !NOT_TOOLS.has(event.action)) {
        const call = modelCall(event);
        if (!call?.tool) continue;
        const t = secondsSince(start, at);
        byId.set(text(event.id), events.length);
        events.push({ type: 'call', tool: call.tool, args: call.args, ...(t !== undefined && { t }) });
      } else if (typeof event.observation === 'string' && event.cause !== undefined) {
        const index = byId.get(text(event.cause));
        const call = index === undefined ? undefined : events[index];
        if (!call || call.type !== 'call') continue;
        byId.delete(text(event.cause));
        events[index as number] = { ...call, result: result(text(event.content), failed(event)) };
      }
    }
    const calls = events.filter((event): event is CallEvent => event.type === 'call');
    const issue = isObject(run.issue) ? `issue-${text(run.issue.number)}` : `run-${runs.length + 1}`;
    const id = text(run.instance_id) || issue;
    const name = safeName(`${prefix}-${id}`);
    runs.push({ name, events: [metaEvent(name, `OpenHands run ${id}`, source, toolList(calls, KINDS)), ...events] });
  }
  return runs;
}
