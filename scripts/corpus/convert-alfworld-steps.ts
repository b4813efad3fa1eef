/**
 * ALFWorld games as a results viewer keeps them: one JSON array of games, each `{game_id,
 * task_type, initial_obs, result, total_steps, steps}`, each step the command the agent sent
 * (`action_taken`), the agent's reply that held it (`model_response`, its thought and its command)
 * and what the game printed after the command (`next_observation`), `Nothing happens.` when the
 * command did nothing. Each command is a call of its verb, as in ADaPT's ALFWorld runs; a `think:`
 * command runs nothing and is left out.
 */
import type { CallEvent } from '../../src/trace/types.js';
import { adaptRun, alfworldCall, ALFWORLD_KINDS, MAX_COMMANDS, NOTHING_HAPPENS } from './convert-alfworld.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, isObject, type JsonObject, result, type RunSource, safeName, text } from './events.js';

/** The games of a file: a JSON array of objects, anything else refused. */
export function alfworldStepGames(json: string, source: RunSource): JsonObject[] {
  if (json.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a file of games`);
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw new Error(`${source.path}: not an array of ALFWorld games`);
  return parsed.filter(isObject);
}

/** The calls of one game: each step's command sent, what the game printed after it answered. */
export function alfworldStepCalls(game: JsonObject): CallEvent[] {
  const steps = Array.isArray(game.steps) ? game.steps.filter(isObject) : [];
  const calls: CallEvent[] = [];
  for (const step of steps.slice(0, MAX_COMMANDS)) {
    const command = text(step.action_taken).trim();
    if (command === '' || /^think\b/i.test(command)) continue;
    const output = text(step.next_observation).trim();
    const { tool, args } = alfworldCall(command);
    calls.push({ type: 'call', tool, args, result: result(output, NOTHING_HAPPENS.test(output)) });
  }
  return calls;
}

export function convertAlfworldSteps(json: string, source: RunSource, prefix: string): ConvertedRun[] {
  const runs: ConvertedRun[] = [];
  const names = new Set<string>();
  for (const [index, game] of alfworldStepGames(json, source).entries()) {
    const calls = alfworldStepCalls(game);
    if (calls.length === 0) continue;
    const id = text(game.game_id).trim() || String(index + 1);
    const task = text(game.task_type).trim();
    const outcome = text(game.result).trim();
    const description = `${source.agent}, game ${id}${task === '' ? '' : ` (${task})`}${outcome === '' ? '' : `, ${outcome}`}`;
    runs.push(adaptRun(names, safeName(`${prefix}-game-${id.padStart(3, '0')}`), description, source, calls, ALFWORLD_KINDS));
  }
  return runs;
}
