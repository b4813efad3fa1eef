/**
 * KnowAgent's ALFWorld trajectory files: one JSON object per line and per game, `{name, result,
 * traj}`, whose `traj` is the room's description and the task, then the game as played — `> go to
 * shelf 8` answered by what the game printed, `Nothing happens.` when the command did nothing — as
 * ADaPT's ALFWorld traces are. KnowAgent's `> Think: …` and `> ActionPath: …` lines are the agent's
 * own notes (its thought, the path through its action graph so far), answered by nothing the game
 * did: they are left out.
 */
import { adaptCalls, adaptRun, alfworldCall, ALFWORLD_KINDS, NOTHING_HAPPENS } from './convert-alfworld.js';
import { type ConvertedRun, type RunSource, safeName, text } from './events.js';
import { knowAgentRecords } from './convert-knowagent.js';

/** The commands of a trajectory: from its first `> ` line on, without the agent's notes. */
export function knowAgentAlfworldTrace(traj: string): string {
  const first = traj.indexOf('\n> ');
  if (first === -1) return '';
  // The game reader takes the trace's first line for a command without its `> `.
  return traj
    .slice(first + 1)
    .split('\n')
    .filter((line) => !/^>\s*(?:think|actionpath)\s*:/i.test(line))
    .join('\n')
    .replace(/^>\s*/, '');
}

export function convertKnowAgentAlfworld(jsonl: string, source: RunSource, prefix: string): ConvertedRun[] {
  const stem = source.path.replace(/^.*\//, '').replace(/\.jsonl$/, '');
  const round = /_(D\d+)$/.exec(stem)?.[1] ?? stem;
  const runs: ConvertedRun[] = [];
  const names = new Set<string>();
  for (const [index, record] of knowAgentRecords(jsonl, source)) {
    if (typeof record.traj !== 'string') continue;
    const calls = adaptCalls(knowAgentAlfworldTrace(record.traj), alfworldCall, NOTHING_HAPPENS);
    if (calls.length === 0) continue;
    const game = text(record.name).trim();
    const outcome = record.result === true ? 'solved' : 'not solved';
    const description = `${source.agent}, ${round}, game ${index + 1}${game === '' ? '' : ` (${game})`}, ${outcome}`;
    const base = safeName(`${prefix}-${round}-${String(index + 1).padStart(3, '0')}`);
    runs.push(adaptRun(names, base, description, source, calls, ALFWORLD_KINDS));
  }
  return runs;
}
