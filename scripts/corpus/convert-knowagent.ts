/**
 * The trajectory files of zjunlp's question-answering agents (KnowAgent's self-learning runs,
 * AutoAct's evaluation outputs): one JSON object per line and per question, `{question, answer,
 * correct, reward, halted, error, prompt}`, whose `prompt` is the agent's prompt followed by the run
 * itself — after `(END OF EXAMPLES)` where the prompt holds examples. The run is a ReAct transcript
 * (`Action 2: Retrieve[…]`, `Observation 2: …`); KnowAgent writes an `ActionPath N:` line before each
 * thought, the path taken so far, which is the agent's own bookkeeping, not what the tool answered:
 * it is left out, and the calls are read with the ReAct transcript reader.
 */
import type { TraceEvent } from '../../src/trace/types.js';
import { MAX_LOG_CHARS, reactCalls } from './convert-react.js';
import { type ConvertedRun, isObject, metaEvent, type RunSource, safeName, text, toolList } from './events.js';

/** Runs kept from one file; the files hold 500. */
export const MAX_RUNS_PER_FILE = 10_000;

/**
 * The records of one of zjunlp's trajectory files, one JSON object per line, each with the line's
 * place among the non-blank lines; at most `MAX_RUNS_PER_FILE`. A file too long, or a line that is
 * not JSON, is not such a file.
 */
export function* knowAgentRecords(jsonl: string, source: RunSource): Generator<[number, Record<string, unknown>]> {
  if (jsonl.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a trajectory file`);
  const lines = jsonl.split('\n').filter((line) => line.trim() !== '');
  for (const [index, line] of lines.slice(0, MAX_RUNS_PER_FILE).entries()) {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new Error(`${source.path}: line ${index + 1} is not JSON; not a KnowAgent trajectory file`);
    }
    if (isObject(record)) yield [index, record];
  }
}
const EXAMPLES_END = '(END OF EXAMPLES)';

/** The run a prompt ends with: what follows the examples, without the `ActionPath` lines. */
export function knowAgentTranscript(prompt: string): string {
  const end = prompt.lastIndexOf(EXAMPLES_END);
  const run = end === -1 ? prompt : prompt.slice(end + EXAMPLES_END.length);
  return run
    .split('\n')
    .filter((line) => !/^ActionPath(?: \d+)?:/.test(line))
    .join('\n');
}

export function convertKnowAgentTrajectories(jsonl: string, source: RunSource, prefix: string): ConvertedRun[] {
  // The file's folder and name: one run set's files may share a name in other folders (`tem_0.2/easy`).
  const stem = source.path.replace(/\.jsonl$/, '').split('/').slice(-2).join('-');
  const runs: ConvertedRun[] = [];
  for (const [index, record] of knowAgentRecords(jsonl, source)) {
    if (typeof record.prompt !== 'string') continue;
    const calls = reactCalls(knowAgentTranscript(record.prompt));
    if (calls.length === 0) continue;
    const name = safeName(`${prefix}-${stem}-${String(index + 1).padStart(3, '0')}`);
    const outcome = record.halted === true ? 'halted' : record.correct === true ? 'correct' : 'incorrect';
    const description = `${source.agent}, run ${index + 1} of ${stem}, on the question "${text(record.question).trim()}" (${outcome})`;
    runs.push({ name, events: [metaEvent(name, description, source, toolList(calls)), ...(calls as TraceEvent[])] });
  }
  return runs;
}
