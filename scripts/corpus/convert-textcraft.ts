/**
 * TextCraft runs as ADaPT's results record them: `{env: {problem, commands, trace, plans, reward}}`,
 * whose `trace` is the crafting game as played, read as ALFWorld's traces are read — `> get 4 stone`
 * answered by what the game printed, the executors of one task playing on with the same inventory,
 * so a task is one run. `think:` commands run nothing and are left out.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { alfworldSteps } from './convert-alfworld.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, isObject, metaEvent, type RunSource, result, safeName, text, toolList } from './events.js';

/** The game's verbs: looking at the inventory, taking an item from the world, crafting one. */
const VERBS = /^(inventory|get|craft)\b\s*(.*)$/s;
const KINDS: Readonly<Record<string, string>> = { inventory: 'read', get: 'mutate', craft: 'mutate' };
/** How the game says a command did nothing: no such item, not enough of it, no such recipe. */
const FAILED = /^Could not\b/;

/** A command as a call of its verb; anything else stays one `command` call. */
export function textCraftCall(command: string): { tool: string; args: Record<string, unknown> } {
  const match = VERBS.exec(command.trim());
  if (!match) return { tool: 'command', args: { input: command.trim() } };
  const rest = (match[2] as string).trim();
  return { tool: match[1] as string, args: rest ? { input: rest } : {} };
}

export function convertAdaptTextCraft(json: string, source: RunSource, prefix: string): ConvertedRun[] {
  if (json.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a results file`);
  const parsed: unknown = JSON.parse(json);
  if (!isObject(parsed)) throw new Error(`${source.path}: not an ADaPT results file`);
  const runs: ConvertedRun[] = [];
  const names = new Set<string>();
  for (const [task, record] of Object.entries(parsed)) {
    if (!isObject(record) || typeof record.trace !== 'string') continue;
    const calls: CallEvent[] = [];
    for (const { command, output } of alfworldSteps(record.trace)) {
      if (/^think\b/i.test(command)) continue;
      const { tool, args } = textCraftCall(command);
      calls.push({ type: 'call', tool, args, result: result(output, FAILED.test(output)) });
    }
    if (calls.length === 0) continue;
    const base = safeName(`${prefix}-${task}`);
    let name = base;
    for (let copy = 2; names.has(name); copy++) name = `${base}-${copy}`;
    names.add(name);
    const description = `ADaPT executor on TextCraft task ${task} (${text(record.problem).trim()}), reward ${text(record.reward)}`;
    runs.push({ name, events: [metaEvent(name, description, source, toolList(calls, KINDS)), ...(calls as TraceEvent[])] });
  }
  return runs;
}
