/**
 * ReAct runs printed by a Jupyter notebook: the printed text of its cells (their `stream` outputs)
 * holds one run after another, each a ReAct transcript (`Action: tool[argument]` answered by
 * `Observation: …`), the runs parted by lines of dashes. The harness's own `reset` and the agent's
 * `think` (answered `OK.`, it runs nothing) are not tool calls and are left out. A run printed twice
 * (a cell run again) is read once.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { MAX_LOG_CHARS, reactCalls } from './convert-react.js';
import { type ConvertedRun, isObject, metaEvent, type RunSource, safeName, text, toolList } from './events.js';

/** What separates two printed runs. */
const SEPARATOR = /^-{5,}\s*$/;
/** What the notebooks print after a run: its score, as a dict or as bare numbers. */
const SCORE_LINE = /^(\{'steps':.*\}|[\d.\s-]+)$/;
/** Actions that are no tool calls: the harness's reset, and a thought written as an action. */
const NOT_TOOLS = new Set(['reset', 'think']);

/** The text a notebook printed, cell after cell, output after output. */
export function notebookText(json: string): string {
  const notebook: unknown = JSON.parse(json);
  if (!isObject(notebook) || !Array.isArray(notebook.cells)) throw new Error('not a Jupyter notebook');
  const parts: string[] = [];
  for (const cell of notebook.cells) {
    if (!isObject(cell) || !Array.isArray(cell.outputs)) continue;
    for (const output of cell.outputs) {
      if (isObject(output) && output.output_type === 'stream') parts.push(Array.isArray(output.text) ? output.text.map(text).join('') : text(output.text));
    }
  }
  return parts.join('');
}

/** The printed runs: the stretches between separator lines that hold at least one action. */
export function printedRuns(printed: string): string[] {
  const runs: string[] = [];
  let current: string[] = [];
  const close = () => {
    if (current.some((line) => /^Action(?: \d+)?:/.test(line))) runs.push(current.join('\n'));
    current = [];
  };
  for (const line of printed.split('\n')) {
    if (SEPARATOR.test(line)) close();
    else current.push(line);
  }
  close();
  return runs;
}

/** The verb of an action, also of one the reader could not split (a thought cut short when printed). */
function verbOf(call: CallEvent): string {
  if (call.tool !== 'action') return call.tool.toLowerCase();
  return /^\s*([A-Za-z_]+)/.exec(text(call.args.input))?.[1]?.toLowerCase() ?? '';
}

/** The number a printed run starts with (the task's index), if it starts with one. */
function taskOf(run: string): string | undefined {
  return /^\s*(\d+)\b/.exec(run)?.[1];
}

/**
 * The prefix of a notebook's run names: the source's id, and after it the run set a notebook named
 * after its task and a run set names (`WebShop_llama`: the `llama` runs of WebShop), so that the runs
 * of one task in two notebooks of a source are told apart by name.
 */
export function notebookRunPrefix(sourceId: string, stem: string): string {
  const set = stem.split('_').slice(1).join('-');
  return set === '' ? sourceId : safeName(`${sourceId}-${set}`);
}

export function convertReActNotebook(json: string, source: RunSource, prefix: string, task: string): ConvertedRun[] {
  if (json.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a notebook of runs`);
  let printed: string;
  try {
    printed = notebookText(json);
  } catch (error) {
    throw new Error(`${source.path}: ${(error as Error).message}`);
  }
  const seen = new Set<string>();
  const runs: ConvertedRun[] = [];
  for (const run of printedRuns(printed)) {
    // The score lines after a run are the harness's, not the last observation's.
    const transcript = run
      .split('\n')
      .filter((line) => !SCORE_LINE.test(line.trim()) || line.trim() === '')
      .join('\n');
    const calls = reactCalls(transcript).filter((call) => !NOT_TOOLS.has(verbOf(call)));
    const id = taskOf(run) ?? String(runs.length + 1);
    const key = JSON.stringify([id, calls]);
    if (calls.length === 0 || seen.has(key)) continue;
    seen.add(key);
    const base = safeName(`${prefix}-${id.padStart(4, '0')}`);
    let name = base;
    for (let copy = 2; runs.some((other) => other.name === name); copy++) name = `${base}-${copy}`;
    const meta = metaEvent(name, `ReAct agent on ${task} task ${id}`, source, toolList(calls));
    runs.push({ name, events: [meta, ...(calls as TraceEvent[])] });
  }
  return runs;
}
