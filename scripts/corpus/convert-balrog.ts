/**
 * TextWorld episodes as BALROG's evaluation writes them: one CSV file per episode, a row per step
 * with the step's number, the command the agent sent (`Action`), its reasoning when it wrote any,
 * what the game printed after the command (`Observation`), the reward and whether the game ended.
 * Each command is a call of its verb (`go south` is `go {input: south}`); a command the game's
 * parser does not know stays one `command` call, as the game received it. The game ends what it
 * prints with its prompt and status line (`>  -= Kitchen =-1/24`: the room, the score and the
 * number of moves), which counts up at every move: it is the game's prompt, not the answer, and is
 * left out.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, metaEvent, type RunSource, result, safeName, toolList } from './events.js';

/** Steps kept from one episode; BALROG stops TextWorld episodes after eighty. */
const MAX_STEPS = 1_000;

/** The game's verbs (`i` is its short form of `inventory`); what follows the verb is the argument. */
const VERBS =
  /^(go|look|examine|inventory|i|goal|take|drop|put|insert|open|close|unlock|lock|eat|cook|chop|slice|dice|prepare)\b[ \t]*([^\n]*)$/i;
export const TEXTWORLD_KINDS: Readonly<Record<string, string>> = {
  look: 'read',
  examine: 'read',
  inventory: 'read',
  goal: 'read',
  // Moving takes the player to another room: everything it sees afterwards may differ.
  go: 'mutate',
  take: 'mutate',
  drop: 'mutate',
  put: 'mutate',
  insert: 'mutate',
  open: 'mutate',
  close: 'mutate',
  unlock: 'mutate',
  lock: 'mutate',
  eat: 'mutate',
  cook: 'mutate',
  chop: 'mutate',
  slice: 'mutate',
  dice: 'mutate',
  prepare: 'mutate',
};

/**
 * How the game refuses a command: its parser not knowing a word or a thing (`That's not a verb I
 * recognise.`, `You can't see any such thing.`), asking what was meant, or the world refusing it
 * (`You can't go that way.`, `You have to open the door first.`, `That's fixed in place.`).
 */
export const TEXTWORLD_REFUSED = new RegExp(
  [
    "^You can't\\b",
    "^That's not a verb I recognise",
    '^I only understood you as far as\\b',
    "^I didn't understand\\b",
    '^I beg your pardon\\?',
    "^You'll have to say\\b",
    '^What do you want to\\b',
    '^Which do you mean\\b',
    '^You must name\\b',
    '^You seem to want to\\b',
    "^That's fixed in place",
    "^That's already\\b",
    '^You already have that',
    "^That doesn't seem to\\b",
    '^(\\([^)\\n]*\\) )?You have to .* first\\.',
    '^You need to\\b',
    "^You're not\\b",
    "^You aren't\\b",
    "^You don't\\b",
    '^Can only\\b',
    '^The [^\\n.]* is already here\\.',
  ].join('|'),
);

/** The game's prompt and status line at the end of what it printed: `>`, then the room, the score and the moves. */
const STATUS_LINE = /\n*[ \t]*>[ \t]*(-= [^\n]*? =-[ \t]*-?\d+\/\d+)?[ \t]*$/;

/** The rows of a CSV text (RFC 4180: quoted fields may hold commas, newlines and doubled quotes). */
export function csvRows(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < csv.length; index++) {
    const char = csv[index] as string;
    if (quoted) {
      if (char !== '"') field += char;
      else if (csv[index + 1] === '"') {
        field += '"';
        index++;
      } else quoted = false;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && csv[index + 1] === '\n') index++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** A command as a call of its verb; anything else stays one `command` call. */
export function textWorldCall(command: string): { tool: string; args: Record<string, unknown> } {
  const input = command.trim();
  const match = VERBS.exec(input);
  if (!match) return { tool: 'command', args: { input } };
  const verb = (match[1] as string).toLowerCase();
  const rest = (match[2] as string).trim();
  return { tool: verb === 'i' ? 'inventory' : verb, args: rest ? { input: rest } : {} };
}

/** What the game printed after a command, without its prompt and status line. */
export function textWorldAnswer(observation: string): string {
  return observation.replace(STATUS_LINE, '').trim();
}

/** The calls of one episode's CSV: its `Action` column sent, its `Observation` column answered. */
export function balrogCalls(csv: string, source: RunSource): CallEvent[] {
  if (csv.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not an episode`);
  const [header, ...rows] = csvRows(csv);
  const actionAt = header?.indexOf('Action') ?? -1;
  const observationAt = header?.indexOf('Observation') ?? -1;
  if (actionAt < 0 || observationAt < 0) throw new Error(`${source.path}: no Action and Observation columns; not a BALROG episode`);
  const calls: CallEvent[] = [];
  for (const row of rows.slice(0, MAX_STEPS)) {
    if (row.length <= Math.max(actionAt, observationAt)) continue;
    const command = row[actionAt] as string;
    if (command.trim() === '') continue;
    const { tool, args } = textWorldCall(command);
    const answer = textWorldAnswer(row[observationAt] as string);
    calls.push({ type: 'call', tool, args, result: result(answer, TEXTWORLD_REFUSED.test(answer)) });
  }
  return calls;
}

/**
 * One episode's run, named by the submission and the episode file
 * (`submissions/LLM/20241103_Claude-3.5-Sonnet/textworld/coin_collector/coin_collector_run_00.csv`).
 */
export function convertBalrogEpisode(csv: string, source: RunSource, prefix: string): ConvertedRun[] {
  const calls = balrogCalls(csv, source);
  if (calls.length === 0) return [];
  const parts = source.path.split('/');
  const submission = parts.at(-4) ?? '';
  const episode = (parts.at(-1) ?? '').replace(/\.csv$/, '');
  const name = safeName(`${prefix}-${submission}-${episode}`);
  const description = `BALROG agent (submission ${submission}) on TextWorld episode ${episode}`;
  return [{ name, events: [metaEvent(name, description, source, toolList(calls, TEXTWORLD_KINDS)), ...(calls as TraceEvent[])] }];
}
