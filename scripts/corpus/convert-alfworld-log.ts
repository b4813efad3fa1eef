/**
 * ALFWorld games as a batch job's log prints them while a language model plays them with ReAct's
 * prompt and free-form commands: the model's name (`Model name: …`), then for each game its name
 * (`<task type>-…/trial_T…`), the room and the task, the prompt the model was given, and the game
 * as played — `Act 3: open drawer 1` answered on the next line by `Obs 3: …`, what the game printed,
 * `Nothing happens.` when the command did nothing — until a line with the game's reward (`4 r True
 * rs […] …`). `think:` commands (answered `OK.`) run nothing and are left out. A log that never
 * reached its first game (a model it could not load) holds no run.
 */
import type { CallEvent } from '../../src/trace/types.js';
import { ALFWORLD_KINDS, adaptRun, alfworldCall, MAX_COMMANDS, NOTHING_HAPPENS } from './convert-alfworld.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, type RunSource, result, safeName } from './events.js';

/** A game's name line: ALFWorld's task folder and trial. */
const GAME = /^([a-z_]+-[^\s/]+\/trial_T[0-9_]+)$/;
const ACT = /^Act ([0-9]+): ?(.*)$/;
/** The line the job prints after a game: its number, `r`, and the reward. */
const REWARD = /^[0-9]+ r (\S+) rs\b/;

interface Game {
  readonly name: string;
  readonly calls: CallEvent[];
  reward?: string;
}

/** The model's name as the log's first `Model name:` line gives it, without the job's other settings. */
export function alfworldLogModel(log: string): string {
  const line = /^\*?Model name: *([^,\n]*)/m.exec(log);
  return line?.[1]?.trim() ?? '';
}

/** The games of a log, each with its commands (thoughts left out) and what the game answered. */
export function alfworldLogGames(log: string, source: RunSource): Game[] {
  if (log.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a log`);
  const lines = log.split(/\r?\n/);
  const games: Game[] = [];
  let game: Game | undefined;
  for (const [index, line] of lines.entries()) {
    const name = GAME.exec(line);
    if (name) {
      game = { name: name[1] as string, calls: [] };
      games.push(game);
      continue;
    }
    if (!game) continue;
    const reward = REWARD.exec(line);
    if (reward) {
      game.reward = reward[1] as string;
      game = undefined;
      continue;
    }
    const act = ACT.exec(line);
    if (!act || game.calls.length >= MAX_COMMANDS) continue;
    const command = (act[2] as string).trim();
    if (command === '' || /^think\b/i.test(command)) continue;
    // The answer is the next line when it is this act's `Obs`; a game cut off before it answered nothing.
    const observed = new RegExp(`^Obs ${act[1]}: ?(.*)$`).exec(lines[index + 1] ?? '');
    const output = observed?.[1]?.trim() ?? '';
    const { tool, args } = alfworldCall(command);
    game.calls.push({ type: 'call', tool, args, result: result(output, NOTHING_HAPPENS.test(output)) });
  }
  return games;
}

/** One log (`slurm-<job>.out`): one run per game played, named by the job and the game's place in it. */
export function convertAlfworldLog(log: string, source: RunSource, prefix: string): ConvertedRun[] {
  const job = (source.path.split('/').at(-1) ?? '').replace(/^slurm-/, '').replace(/\.out$/, '');
  const model = alfworldLogModel(log);
  const names = new Set<string>();
  const runs: ConvertedRun[] = [];
  for (const [index, game] of alfworldLogGames(log, source).entries()) {
    if (game.calls.length === 0) continue;
    const outcome = game.reward === undefined ? 'cut off' : /^(True|1)$/.test(game.reward) ? 'solved' : 'not solved';
    const description = `${source.agent}${model === '' ? '' : ` (${model})`}, job ${job}, game ${index + 1} (${game.name}), ${outcome}`;
    const base = safeName(`${prefix}-${job}-${String(index + 1).padStart(3, '0')}`);
    runs.push(adaptRun(names, base, description, source, game.calls, ALFWORLD_KINDS));
  }
  return runs;
}
