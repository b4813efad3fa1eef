/**
 * mini-swe-agent trajectories (`.traj.json`): every action is one shell command, answered by a
 * message that starts with `<returncode>N</returncode>`. Tool-calling runs list the commands under
 * the assistant message's `extra.actions`; text runs put one in a fenced bash block.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import {
  type ConvertedRun,
  isObject,
  type JsonObject,
  metaEvent,
  type RunSource,
  result,
  safeName,
  secondsSince,
  text,
  toolList,
} from './events.js';

const RETURN_CODE = /^\s*<returncode>(-?\d+)<\/returncode>/;

function commandsOf(message: JsonObject): string[] {
  const extra = isObject(message.extra) ? message.extra : undefined;
  if (extra && Array.isArray(extra.actions)) {
    return extra.actions.map((action) => (isObject(action) ? text(action.command) : text(action))).filter(Boolean);
  }
  const fenced = /```(?:bash|sh)\s*\n([\s\S]*?)\n```/.exec(text(message.content));
  return fenced?.[1] ? [fenced[1].trim()] : [];
}

function outputOf(content: string): { output: string; failed: boolean } | undefined {
  const code = RETURN_CODE.exec(content);
  if (!code) return undefined;
  const body = content.slice(code[0].length).replace(/^\s*<output>\n?/, '').replace(/<\/output>\s*$/, '');
  return { output: body, failed: Number(code[1]) !== 0 };
}

export function convertMiniSweAgent(json: string, source: RunSource, name: string, description: string): ConvertedRun {
  const traj: unknown = JSON.parse(json);
  if (!isObject(traj) || !Array.isArray(traj.messages)) throw new Error(`${source.path}: not a trajectory`);
  const events: TraceEvent[] = [];
  let queue: string[] = [];
  let start: number | undefined;
  for (const message of traj.messages) {
    if (!isObject(message)) continue;
    if (message.role === 'assistant') {
      for (const command of queue) events.push({ type: 'call', tool: 'bash', args: { command } });
      queue = commandsOf(message);
      continue;
    }
    if ((message.role === 'tool' || message.role === 'user') && queue.length > 0) {
      const answered = outputOf(text(message.content));
      if (!answered) continue;
      const command = queue.shift() as string;
      const extra = isObject(message.extra) ? message.extra : undefined;
      const at = typeof extra?.timestamp === 'number' ? extra.timestamp : undefined;
      start ??= at;
      const t = secondsSince(start, at);
      events.push({
        type: 'call',
        tool: 'bash',
        args: { command },
        result: result(answered.output, answered.failed),
        ...(t !== undefined && { t }),
      });
    }
  }
  for (const command of queue) events.push({ type: 'call', tool: 'bash', args: { command } });
  const calls = events.filter((event): event is CallEvent => event.type === 'call');
  const runName = safeName(name);
  return { name: runName, events: [metaEvent(runName, description, source, toolList(calls, { bash: 'exec' })), ...events] };
}
