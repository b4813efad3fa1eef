/**
 * TextCraft runs as ADaPT's results record them: `{env: {problem, commands, trace, plans, reward}}`,
 * whose `trace` is the crafting game as played, read as ALFWorld's traces are read — `> get 4 stone`
 * answered by what the game printed, the executors of one task playing on with the same inventory,
 * so a task is one run. `think:` commands run nothing and are left out.
 */
import { adaptCalls, adaptResults, adaptRun } from './convert-alfworld.js';
import { type ConvertedRun, isObject, type RunSource, safeName, text } from './events.js';

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
  const runs: ConvertedRun[] = [];
  const names = new Set<string>();
  for (const [task, record] of Object.entries(adaptResults(json, source))) {
    if (!isObject(record) || typeof record.trace !== 'string') continue;
    const calls = adaptCalls(record.trace, textCraftCall, FAILED);
    if (calls.length === 0) continue;
    const description = `ADaPT executor on TextCraft task ${task} (${text(record.problem).trim()}), reward ${text(record.reward)}`;
    runs.push(adaptRun(names, safeName(`${prefix}-${task}`), description, source, calls, KINDS));
  }
  return runs;
}
