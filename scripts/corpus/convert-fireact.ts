/**
 * FireAct trajectories: one JSON object per model run on HotpotQA questions, `{id: {traj, …}}`,
 * whose `traj` is the ReAct transcript — a string, or chat messages whose assistant turns hold
 * `Thought:`/`Action:` and whose user turns hold `Observation:`. The calls are read with the ReAct
 * transcript reader.
 */
import type { TraceEvent } from '../../src/trace/types.js';
import { MAX_LOG_CHARS, reactCalls } from './convert-react.js';
import { type ConvertedRun, isObject, metaEvent, type RunSource, safeName, text, toolList } from './events.js';

/** Runs kept from one file; the files these runs come in hold 500. */
export const MAX_RUNS_PER_FILE = 10_000;

/**
 * The transcript of one run: a string as written, or its chat messages one after another. The
 * environment runs the first action of an assistant turn only, so what a turn wrote after it is
 * left out: those actions never ran.
 */
export function fireActTranscript(traj: unknown): string {
  if (typeof traj === 'string') return traj;
  if (!Array.isArray(traj)) return '';
  return traj
    .map((message) => {
      if (!isObject(message)) return '';
      const content = text(message.content);
      if (message.role !== 'assistant') return content;
      const action = /^Action(?: \d+)?:.*$/m.exec(content);
      return action ? content.slice(0, action.index + action[0].length) : content;
    })
    .join('\n');
}

/** The model a FireAct file's name gives (`…_llama-2-7b-…`, `…_gpt-3.5-turbo-0613_…`), else the name. */
export function fireActModel(path: string): string {
  const stem = path.replace(/^.*\//, '').replace(/\.json$/, '');
  return /(gpt-[\d.]+-turbo|llama-2-\d+b|codellama-\d+b)/i.exec(stem)?.[1] ?? stem;
}

export function convertFireActTrajectories(json: string, source: RunSource, prefix: string): ConvertedRun[] {
  if (json.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a run file`);
  const parsed: unknown = JSON.parse(json);
  if (!isObject(parsed)) throw new Error(`${source.path}: not a FireAct trajectory file`);
  const model = fireActModel(source.path);
  const runs: ConvertedRun[] = [];
  for (const [id, run] of Object.entries(parsed).slice(0, MAX_RUNS_PER_FILE)) {
    if (!isObject(run)) continue;
    const calls = reactCalls(fireActTranscript(run.traj));
    if (calls.length === 0) continue;
    const name = safeName(`${prefix}-${model}-${id}`);
    const meta = metaEvent(name, `FireAct agent (${model}) on HotpotQA question ${id}`, source, toolList(calls));
    runs.push({ name, events: [meta, ...(calls as TraceEvent[])] });
  }
  return runs;
}
