/**
 * ALFWorld runs as ADaPT's results record them: `{task type: {task: {problem, trace, plans,
 * reward}}}`, whose `trace` is the text game as played — `> go to desk 1` answered by what the
 * game printed, `Nothing happens.` when the command did nothing. The executors ADaPT starts for
 * the sub-tasks of one task play on in the same room, one after another, so a task is one run.
 * `think:` commands (answered `OK.`) run nothing and are left out.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, isObject, type JsonObject, metaEvent, type RunSource, result, safeName, text, toolList } from './events.js';

/** What ALFWorld prints after a command that did nothing: the call failed. */
export const NOTHING_HAPPENS = /^Nothing happens\.?$/;

/** Commands kept from one task; the recorded runs stop after fifty at most. */
export const MAX_COMMANDS = 1_000;

/** The game's verbs, each a tool; what follows the verb is the argument. */
const VERBS = /^(go to|take|put|open|close|toggle|use|heat|cool|clean|slice|examine|inventory|look)\b\s*(.*)$/s;
export const ALFWORLD_KINDS: Readonly<Record<string, string>> = {
  examine: 'read',
  inventory: 'read',
  look: 'read',
  take: 'mutate',
  put: 'mutate',
  open: 'mutate',
  close: 'mutate',
  toggle: 'mutate',
  use: 'mutate',
  heat: 'mutate',
  cool: 'mutate',
  clean: 'mutate',
  slice: 'mutate',
};

/** A command as a call of its verb (`go to` is `go_to`); anything else stays one `command` call. */
export function alfworldCall(command: string): { tool: string; args: Record<string, unknown> } {
  const match = VERBS.exec(command.trim());
  if (!match) return { tool: 'command', args: { input: command.trim() } };
  const tool = (match[1] as string).replace(' ', '_');
  const rest = (match[2] as string).trim();
  return { tool, args: rest ? { input: rest } : {} };
}

/** The commands of a trace, each with what the game printed after it. */
export function alfworldSteps(trace: string): { command: string; output: string }[] {
  // Each executor's part starts after a bare prompt; its first command follows without `> `.
  const lines = `> ${trace.trimStart()}`.replace(/\n>[ \t]*\n\s*\n[ \t]*(?=\S)/g, '\n> ').split('\n');
  const steps: { command: string; lines: string[] }[] = [];
  for (const line of lines) {
    if (line.startsWith('> ')) steps.push({ command: line.slice(2).trim(), lines: [] });
    else if (line.trim() !== '>') steps.at(-1)?.lines.push(line);
  }
  return steps
    .filter((step) => step.command !== '')
    .slice(0, MAX_COMMANDS)
    .map((step) => ({ command: step.command, output: step.lines.join('\n').trim() }));
}

/** An ADaPT results file's top-level object; anything else is refused. */
export function adaptResults(json: string, source: RunSource): JsonObject {
  if (json.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a results file`);
  const parsed: unknown = JSON.parse(json);
  if (!isObject(parsed)) throw new Error(`${source.path}: not an ADaPT results file`);
  return parsed;
}

/** The calls of a trace: each command a call as `toCall` reads it, failed when `failed` matches what the game printed; thoughts run nothing. */
export function adaptCalls(
  trace: string,
  toCall: (command: string) => { tool: string; args: Record<string, unknown> },
  failed: RegExp,
): CallEvent[] {
  const calls: CallEvent[] = [];
  for (const { command, output } of alfworldSteps(trace)) {
    if (/^think\b/i.test(command)) continue;
    const { tool, args } = toCall(command);
    calls.push({ type: 'call', tool, args, result: result(output, failed.test(output)) });
  }
  return calls;
}

/** One task's run, named uniquely among `names` (a second run of one name gets `-2`). */
export function adaptRun(
  names: Set<string>,
  base: string,
  description: string,
  source: RunSource,
  calls: readonly CallEvent[],
  kinds: Readonly<Record<string, string>>,
): ConvertedRun {
  let name = base;
  for (let copy = 2; names.has(name); copy++) name = `${base}-${copy}`;
  names.add(name);
  return { name, events: [metaEvent(name, description, source, toolList(calls, kinds)), ...(calls as TraceEvent[])] };
}

export function convertAdaptAlfworld(json: string, source: RunSource, prefix: string): ConvertedRun[] {
  const runs: ConvertedRun[] = [];
  const names = new Set<string>();
  for (const [kind, tasks] of Object.entries(adaptResults(json, source))) {
    if (!isObject(tasks)) continue;
    for (const [task, record] of Object.entries(tasks)) {
      if (!isObject(record) || typeof record.trace !== 'string') continue;
      const calls = adaptCalls(record.trace, alfworldCall, NOTHING_HAPPENS);
      if (calls.length === 0) continue;
      const description = `ADaPT executor (text-davinci-003) on ALFWorld ${kind} task ${task}, reward ${text(record.reward)}`;
      runs.push(adaptRun(names, safeName(`${prefix}-${task.replace(/\/trial_T/, '-')}`), description, source, calls, ALFWORLD_KINDS));
    }
  }
  return runs;
}
