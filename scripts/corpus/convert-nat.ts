/**
 * NAT's collected trajectories (negative-aware training): one JSON array per task and per outcome
 * (`…_positive.json`, `…_negative.json`), each entry one run of a ReAct agent, `{conversations,
 * info, id, source}`, whose `conversations` are chat messages — assistant turns holding `Thought:` and
 * `Action: search[…]` / `finish[…]`, user turns holding `Observation: …` — and whose `source` is the
 * sampling temperature the run was made at. The calls are read with the ReAct transcript reader, as
 * FireAct's chat transcripts are.
 */
import type { TraceEvent } from '../../src/trace/types.js';
import { MAX_LOG_CHARS, reactCalls } from './convert-react.js';
import { fireActTranscript } from './convert-fireact.js';
import { type ConvertedRun, isObject, metaEvent, type RunSource, safeName, text, toolList } from './events.js';

/** Runs kept from one file; the files hold about a thousand. */
export const MAX_RUNS_PER_FILE = 20_000;

/** The file's task and outcome, `strategyqa-negative` for `…/strategyqa_gpt-3.5_negative.json`. */
export function natRunSet(path: string): string {
  const stem = path.replace(/^.*\//, '').replace(/\.json$/, '');
  const match = /^(.+?)_(?:gpt-[\d.]+(?:-turbo)?)_(.+)$/.exec(stem);
  return match ? `${match[1]}-${match[2]}` : stem;
}

export function convertNatTrajectories(json: string, source: RunSource, prefix: string): ConvertedRun[] {
  if (json.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a run file`);
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw new Error(`${source.path}: not a NAT trajectory file`);
  const set = natRunSet(source.path);
  const runs: ConvertedRun[] = [];
  for (const [index, entry] of parsed.slice(0, MAX_RUNS_PER_FILE).entries()) {
    if (!isObject(entry)) continue;
    const calls = reactCalls(fireActTranscript(entry.conversations));
    if (calls.length === 0) continue;
    const name = safeName(`${prefix}-${set}-${String(index + 1).padStart(4, '0')}`);
    const info = isObject(entry.info) ? entry.info : {};
    const outcome = info.acc === true ? 'correct' : 'incorrect';
    const temperature = text(entry.source).trim();
    const at = temperature === '' ? '' : ` at temperature ${temperature}`;
    const description = `${source.agent}, run ${index + 1} of ${set}, question ${text(entry.id).trim()}${at} (${outcome})`;
    runs.push({ name, events: [metaEvent(name, description, source, toolList(calls)), ...(calls as TraceEvent[])] });
  }
  return runs;
}
