/**
 * HyperAgent records (`{system_prompt, human_message, system_response}`): one model step of one of
 * its agents (navigator, editor, executor…), whose prompt carries the agent's scratchpad so far as
 * ReAct text — `Action:` with a fenced JSON blob `{"action", "action_input"}`, then `Observation:`.
 * A later step of the same agent on the same objective repeats the earlier scratchpad, so a record
 * whose scratchpad another record of the same agent and objective extends is left out: each run is
 * the longest scratchpad of its chain, read once.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { type ConvertedRun, isObject, metaEvent, type RunSource, result, safeName, text, toolList } from './events.js';

const SCRATCHPAD = /\nAgent scratchpad:\n/;
const STEP = /Action:\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*Observation:([\s\S]*?)(?=\nThought:|$)/g;
/** How the tools of these runs report a failure: the observation opens with an error. */
const FAILED = /^(error\b|execution failed|invalid\b|[A-Za-z]*(error|exception):|traceback\b|the tool cannot\b|please specify\b)/i;
const SHELL_TOOLS = /^terminal$/i;

export interface HyperAgentRecord {
  readonly path: string;
  readonly content: string;
}

interface Parsed {
  readonly path: string;
  readonly agent: string;
  readonly objective: string;
  readonly scratchpad: string;
}

function parseRecord(record: HyperAgentRecord): Parsed | undefined {
  const json: unknown = JSON.parse(record.content);
  if (!isObject(json)) throw new Error(`${record.path}: not a HyperAgent record`);
  const human = text(json.human_message);
  const at = SCRATCHPAD.exec(human);
  if (!at) return undefined;
  const rest = human.slice(at.index + at[0].length);
  // The scratchpad opens with one line telling the model it is its own earlier work.
  const scratchpad = rest.slice(rest.indexOf('\n') + 1);
  return { path: record.path, agent: text(json.system_prompt), objective: human.slice(0, at.index), scratchpad };
}

function argsOf(tool: string, input: unknown): Record<string, unknown> {
  if (isObject(input)) return input;
  if (SHELL_TOOLS.test(tool)) return { command: text(input) };
  return { input: text(input) };
}

/** The calls of one scratchpad, each answered by the observation that follows it. */
export function scratchpadCalls(scratchpad: string): CallEvent[] {
  const events: CallEvent[] = [];
  for (const step of scratchpad.matchAll(STEP)) {
    let blob: unknown;
    try {
      blob = JSON.parse(step[1] as string);
    } catch {
      continue;
    }
    if (!isObject(blob) || typeof blob.action !== 'string' || blob.action === 'Final Answer') continue;
    const output = (step[2] as string).trim();
    events.push({ type: 'call', tool: blob.action, args: argsOf(blob.action, blob.action_input), result: result(output, FAILED.test(output)) });
  }
  return events;
}

/** The runs of a set of records: the longest scratchpad of each agent's chain on one objective. */
export function convertHyperAgentRecords(records: readonly HyperAgentRecord[], source: Omit<RunSource, 'path'>, prefix: string): ConvertedRun[] {
  const parsed = records.map(parseRecord).filter((record): record is Parsed => record !== undefined);
  const chains = new Map<string, Parsed[]>();
  for (const record of parsed) {
    const key = `${record.agent}\u0000${record.objective}`;
    chains.set(key, [...(chains.get(key) ?? []), record]);
  }
  const runs: ConvertedRun[] = [];
  for (const record of [...parsed].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const chain = chains.get(`${record.agent}\u0000${record.objective}`) ?? [];
    const extended = chain.some(
      (other) => other !== record && other.scratchpad.startsWith(record.scratchpad) && (other.scratchpad.length > record.scratchpad.length || other.path < record.path),
    );
    if (extended) continue;
    const calls = scratchpadCalls(record.scratchpad);
    const stem = record.path.replace(/^.*agent_trajectories\//, '').replace(/\.json$/, '');
    const name = safeName(`${prefix}-${stem}`);
    const meta = metaEvent(name, `HyperAgent run ${stem}`, { ...source, path: record.path }, toolList(calls));
    runs.push({ name, events: [meta, ...(calls as TraceEvent[])] });
  }
  return runs;
}
