/**
 * Terminus runs (terminal-bench's agent): one directory per trial, whose `agent-logs/episode-N/`
 * holds the model's answer (`response.json`, a batch of keystroke commands sent to one tmux pane)
 * and the prompt it was given (`prompt.txt`). Episode N+1's prompt is the pane as it stood after
 * episode N's keystrokes, so it is the result of episode N's call. The pane has no exit status:
 * results are never marked failed.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { type ConvertedRun, isObject, metaEvent, type RunSource, result, safeName, text, toolList } from './events.js';

const EPISODE = /\/agent-logs\/episode-(\d+)\/(response\.json|prompt\.txt)$/;

export interface TerminusFile {
  readonly path: string;
  readonly content: string;
}

interface Episode {
  response?: string;
  prompt?: string;
}

/** The trial directory a file belongs to: everything before `/agent-logs/`. */
export function terminusTrialOf(path: string): string | undefined {
  const at = path.indexOf('/agent-logs/');
  return at > 0 ? path.slice(0, at) : undefined;
}

function keystrokesOf(response: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(response);
  } catch {
    return undefined;
  }
  if (!isObject(json) || !Array.isArray(json.commands)) return undefined;
  const keys = json.commands.map((command) => (isObject(command) ? text(command.keystrokes) : '')).filter(Boolean);
  return keys.length > 0 ? keys.join('') : undefined;
}

/** The pane as the model saw it, without the blank rows tmux pads it with. */
function paneOf(prompt: string): string {
  return prompt.replace(/\s+$/, '');
}

/** Converts the files of one trial (any order) into one run. */
export function convertTerminusTrial(files: readonly TerminusFile[], source: RunSource, name: string, description: string): ConvertedRun {
  const episodes = new Map<number, Episode>();
  for (const file of files) {
    const match = EPISODE.exec(file.path);
    if (!match) continue;
    const index = Number(match[1]);
    const episode = episodes.get(index) ?? {};
    if (match[2] === 'response.json') episode.response = file.content;
    else episode.prompt = file.content;
    episodes.set(index, episode);
  }
  const order = [...episodes.keys()].sort((a, b) => a - b);
  const events: TraceEvent[] = [];
  for (const index of order) {
    const keystrokes = keystrokesOf(episodes.get(index)?.response ?? '');
    if (keystrokes === undefined) continue;
    const next = episodes.get(index + 1)?.prompt;
    events.push({
      type: 'call',
      tool: 'terminal',
      args: { keystrokes },
      ...(next !== undefined && { result: result(paneOf(next), false) }),
    });
  }
  const calls = events.filter((event): event is CallEvent => event.type === 'call');
  const runName = safeName(name);
  return { name: runName, events: [metaEvent(runName, description, source, toolList(calls, { terminal: 'exec' })), ...events] };
}
