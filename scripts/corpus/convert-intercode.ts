/**
 * InterCode results: one JSON object per file, `{index: {environment, task_id, query, turn_history,
 * summary}}`, whose `turn_history` lists the agent's `actions` (a shell command, an SQL query, or
 * `execute[…]` in the ReAct prompting), the environment's `observations` and whether each action
 * ran validly (`valid_action`). An action that did not run validly failed; `submit` ends the task.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, isObject, metaEvent, type RunSource, result, safeName, text, toolList } from './events.js';

/** Tasks kept from one file; the files hold a few hundred to a thousand. */
export const MAX_TASKS_PER_FILE = 5_000;
/** Turns kept from one task; the runs recorded stop after ten or twenty-five. */
export const MAX_TURNS = 200;

/** The tool each environment gives the agent, and the argument its action goes in. */
const TOOLS: Readonly<Record<string, { tool: string; arg: string }>> = {
  ic_bash: { tool: 'bash', arg: 'command' },
  ic_ctf: { tool: 'bash', arg: 'command' },
  ic_sql: { tool: 'execute_sql', arg: 'query' },
  ic_python: { tool: 'python', arg: 'code' },
};
// A query's verb says whether it reads or writes: the SQL tool is left to the guard.
const KINDS: Readonly<Record<string, string>> = { bash: 'exec', python: 'exec' };

/** The model and setting a results file's name gives (`ic_bash_multiturn_gpt-4_10_turns_fs_1.json`). */
export function interCodeSetting(path: string): string {
  return path.replace(/^.*\//, '').replace(/\.json$/, '').replace(/^ic_/, '');
}

/** One action as a call: the environment's tool, or `submit` with whatever the agent submitted. */
export function interCodeCall(environment: string, action: string): { tool: string; args: Record<string, unknown> } {
  const trimmed = action.trim();
  const submitted = /^submit\b\s*(.*)$/s.exec(trimmed);
  if (submitted) return { tool: 'submit', args: submitted[1] ? { answer: submitted[1] } : {} };
  const wrapped = /^execute\[([\s\S]*)\]$/.exec(trimmed);
  const tool = TOOLS[environment] ?? { tool: environment || 'action', arg: 'input' };
  return { tool: tool.tool, args: { [tool.arg]: wrapped ? (wrapped[1] as string) : action } };
}

export function convertInterCodeResults(json: string, source: RunSource, prefix: string): ConvertedRun[] {
  if (json.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a results file`);
  const parsed: unknown = JSON.parse(json);
  if (!isObject(parsed) && !Array.isArray(parsed)) throw new Error(`${source.path}: not an InterCode results file`);
  const setting = interCodeSetting(source.path);
  const tasks = (Array.isArray(parsed) ? parsed : Object.values(parsed)).slice(0, MAX_TASKS_PER_FILE);
  const runs: ConvertedRun[] = [];
  for (const task of tasks) {
    if (!isObject(task) || !isObject(task.turn_history)) continue;
    const history = task.turn_history;
    const actions = Array.isArray(history.actions) ? history.actions.slice(0, MAX_TURNS) : [];
    const observations = Array.isArray(history.observations) ? history.observations : [];
    const valid = Array.isArray(history.valid_action) ? history.valid_action : [];
    const environment = text(task.environment);
    const calls: CallEvent[] = [];
    actions.forEach((action, index) => {
      const { tool, args } = interCodeCall(environment, text(action));
      const call: CallEvent = { type: 'call', tool, args };
      if (index < observations.length) calls.push({ ...call, result: result(text(observations[index]), valid[index] === false) });
      else calls.push(call);
    });
    if (calls.length === 0) continue;
    const id = text(task.task_id) || String(runs.length);
    const name = safeName(`${prefix}-${setting}-task${id}`);
    const description = `InterCode ${environment} agent (${setting}), task ${id}: ${text(task.query).slice(0, 200)}`;
    runs.push({ name, events: [metaEvent(name, description, source, toolList(calls, KINDS)), ...(calls as TraceEvent[])] });
  }
  return runs;
}
