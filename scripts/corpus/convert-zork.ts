/**
 * Zork I played by a language model through a small harness that writes each game as a log: one
 * entry per line, tagged (`START`, `AI` with the model's settings, `CMD` for a command sent, `GAME`
 * for what the game printed after it, `ROOM` and `WARN` for the harness's own notes), an entry's
 * further lines indented under it. Each command is a call of its verb, as in the TextWorld episodes
 * (`take egg` is `take {input: egg}`); a bare direction (`north`, `n`, `up`) is a move, `go` with
 * the direction. The game refuses a command as TextWorld's games do (`You can't go that way.`) or in
 * its own parser's words (`That sentence isn't one I recognize.`, `I don't know the word "x".`).
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { TEXTWORLD_KINDS, TEXTWORLD_REFUSED, textWorldCall } from './convert-balrog.js';
import { MAX_COMMANDS } from './convert-alfworld.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { type ConvertedRun, metaEvent, result, type RunSource, safeName, toolList } from './events.js';

const DIRECTIONS: Readonly<Record<string, string>> = {
  n: 'north', s: 'south', e: 'east', w: 'west', ne: 'northeast', nw: 'northwest', se: 'southeast', sw: 'southwest',
  u: 'up', d: 'down', north: 'north', south: 'south', east: 'east', west: 'west', northeast: 'northeast',
  northwest: 'northwest', southeast: 'southeast', southwest: 'southwest', up: 'up', down: 'down',
};

/** Zork's parser refusing what it read, and the world refusing what the player asked. */
export const ZORK_REFUSED =
  /^(?:That sentence isn't one I recognize|I don't know the word\b|There was no verb in that sentence|I beg your pardon|Your load is too heavy|It is already\b|It's already\b|You can't see any\b)/;

/** One entry of the log: its tag and its lines, the first after the tag, the others indented under it. */
export function zorkLogEntries(log: string): { tag: string; text: string }[] {
  const entries: { tag: string; lines: string[] }[] = [];
  for (const line of log.split(/\r?\n/)) {
    const tagged = /^([A-Z]+)(?: +(.*))?$/.exec(line);
    if (tagged) entries.push({ tag: tagged[1] as string, lines: [tagged[2] ?? ''] });
    else if (/^\s/.test(line)) entries.at(-1)?.lines.push(line.trim());
  }
  return entries.map((entry) => ({ tag: entry.tag, text: entry.lines.join('\n').trim() }));
}

/** A command as a call of its verb; a bare direction is a move. */
export function zorkCall(command: string): { tool: string; args: Record<string, unknown> } {
  const direction = DIRECTIONS[command.trim().toLowerCase()];
  if (direction !== undefined) return { tool: 'go', args: { input: direction } };
  return textWorldCall(command);
}

/** The calls of one game: each `CMD` sent, the `GAME` entry after it answered. */
export function zorkCalls(log: string, source: RunSource): CallEvent[] {
  if (log.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a game's log`);
  const calls: { command: string; answer: string }[] = [];
  for (const entry of zorkLogEntries(log)) {
    if (entry.tag === 'CMD' && entry.text !== '') calls.push({ command: entry.text, answer: '' });
    else if (entry.tag === 'GAME') {
      const last = calls.at(-1);
      if (last && last.answer === '') last.answer = entry.text;
    }
  }
  return calls.slice(0, MAX_COMMANDS).map(({ command, answer }) => {
    const { tool, args } = zorkCall(command);
    const refused = TEXTWORLD_REFUSED.test(answer) || ZORK_REFUSED.test(answer);
    return { type: 'call', tool, args, result: result(answer, refused) };
  });
}

/** One game's log, named by its folder (`runs-archive/openai-in-loop_first_20251024/nice_log.txt`). */
export function convertZorkLog(log: string, source: RunSource, prefix: string): ConvertedRun[] {
  const calls = zorkCalls(log, source);
  if (calls.length === 0) return [];
  const game = source.path.split('/').at(-2) ?? 'game';
  const settings = zorkLogEntries(log).find((entry) => entry.tag === 'AI')?.text ?? '';
  const model = /^model:[ \t]*(.*)$/m.exec(settings)?.[1]?.trim() ?? /^configuration:[ \t]*(.*)$/m.exec(settings)?.[1]?.trim() ?? '';
  const name = safeName(`${prefix}-${game}`);
  const description = `${source.agent}, game ${game}${model === '' ? '' : ` (${model})`}`;
  return [{ name, events: [metaEvent(name, description, source, toolList(calls, TEXTWORLD_KINDS)), ...(calls as TraceEvent[])] }];
}
