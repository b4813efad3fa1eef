/**
 * MINT results (`results.jsonl`): one task per line, `{task, state}`, whose `state.history` is the
 * conversation: the agent's turns put Python in `<execute>…</execute>` (run in a stateful
 * interpreter) or an answer in `<solution>…</solution>`, and the next user turn starts
 * `Observation:` with what the interpreter printed or whether the answer was right. The lines the
 * harness adds about the steps left are its own, not the tool's, and are left out.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, isObject, metaEvent, type RunSource, result, safeName, text, toolList } from './events.js';

/** Tasks kept from one file; the files hold up to a few hundred. */
export const MAX_TASKS_PER_FILE = 5_000;

const EXECUTE = /<execute>([\s\S]*?)<\/execute>/;
const SOLUTION = /<solution>([\s\S]*?)<\/solution>/;
const HARNESS_LINE = /^(You have \d+ steps? left.*|You should take the last step to propose a solution\.)\s*$/;
const PYTHON_ERROR = /Traceback \(most recent call last\)|^\s*[A-Za-z_]*(Error|Exception)\b.*$/m;

/** The model and task a results path names (`data/outputs/<model>/…/<domain>/<task>/results.jsonl`). */
export function mintSetting(path: string): { model: string; task: string } {
  const parts = path.split('/');
  return { model: parts[2] ?? 'model', task: parts.at(-2) ?? 'task' };
}

/**
 * The tool call an agent turn makes: an answer to check, else code to run (a turn that writes both
 * proposes its answer, as the harness reads it); nothing when it wrote neither.
 */
export function mintCall(turn: string): { tool: string; args: Record<string, unknown> } | undefined {
  const answer = SOLUTION.exec(turn);
  if (answer) return { tool: 'propose_solution', args: { answer: (answer[1] as string).trim() } };
  const code = EXECUTE.exec(turn);
  if (code) return { tool: 'python', args: { code: (code[1] as string).trim() } };
  return undefined;
}

/** What the tool answered: the observation without its prefix and without the harness's lines. */
export function mintObservation(turn: string): string | undefined {
  const match = /^\s*Observation:\s*\n?/.exec(turn);
  if (!match) return undefined;
  return turn
    .slice(match[0].length)
    .split('\n')
    .filter((line) => !HARNESS_LINE.test(line.trim()))
    .join('\n')
    .trim();
}

export function convertMintResults(jsonl: string, source: RunSource, prefix: string): ConvertedRun[] {
  if (jsonl.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a results file`);
  const { model, task } = mintSetting(source.path);
  const runs: ConvertedRun[] = [];
  const names = new Set<string>();
  for (const line of jsonl.split('\n').slice(0, MAX_TASKS_PER_FILE)) {
    if (!line.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new Error(`${source.path}: a line is not JSON; not a MINT results file`);
    }
    if (!isObject(record) || !isObject(record.state) || !Array.isArray(record.state.history)) continue;
    const history = record.state.history;
    const calls: CallEvent[] = [];
    // The first turn is the instructions and the task, with examples of both tags: not the agent's.
    for (let index = 1; index < history.length; index++) {
      const turn = history[index];
      if (!isObject(turn) || turn.role !== 'assistant') continue;
      const call = mintCall(text(turn.content));
      if (!call) continue;
      const next = history[index + 1];
      const output = isObject(next) && next.role === 'user' ? mintObservation(text(next.content)) : undefined;
      if (output === undefined) {
        calls.push({ type: 'call', ...call });
        continue;
      }
      const failed = call.tool === 'python' ? PYTHON_ERROR.test(output) : /^Your answer is wrong/i.test(output);
      calls.push({ type: 'call', ...call, result: result(output, failed) });
    }
    // An answer that ends the task is never answered in the conversation: its call keeps no result.
    if (calls.length === 0) continue;
    const info = isObject(record.task) ? record.task : {};
    const id = text(info.task_id) || String(runs.length);
    const base = safeName(`${prefix}-${model}-${task}-${id}`);
    let name = base;
    for (let copy = 2; names.has(name); copy++) name = `${base}-${copy}`;
    names.add(name);
    const description = `MINT agent (${model}) on ${task} task ${id}`;
    runs.push({ name, events: [metaEvent(name, description, source, toolList(calls, { python: 'exec' })), ...(calls as TraceEvent[])] });
  }
  return runs;
}
