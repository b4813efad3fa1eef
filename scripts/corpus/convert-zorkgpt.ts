/**
 * Zork played by an agent whose harness prints each turn as a block of text: `--- Turn N ---`, the
 * command the agent proposed (`Agent proposes: open mailbox`), a critic's score of it, then what the
 * game printed, under `Zork response:` or `ZORK RESPONSE for 'open mailbox':`, each answer starting
 * with the game's `>` prompt, and after it the harness's own notes (`Extracted Info:`, `Turn reward:`).
 * The game is Dungeon, the C port of Zork: a command is a call of its verb as in the other Zork logs,
 * and besides their refusals the port has its own (`I don't understand that.`, `I can't see one
 * here.`, `You must supply an indirect object.`). A turn whose proposal is empty sent nothing.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { MAX_COMMANDS } from './convert-alfworld.js';
import { TEXTWORLD_KINDS, TEXTWORLD_REFUSED } from './convert-balrog.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { ZORK_REFUSED, zorkCall } from './convert-zork.js';
import { type ConvertedRun, metaEvent, result, type RunSource, safeName, toolList } from './events.js';

/** Dungeon's parser not reading the command, or the world refusing it. */
const DUNGEON_REFUSED =
  /^(?:I don't understand that|I can't see one here|I can't do that|You must supply an? (?:indirect )?object|There is a wall there|There is no way\b|Huh\?|Which one do you mean|Too many objects|I could not find\b)/;

const PROPOSAL = /^Agent proposes:[ \t]?(.*)$/;
const ANSWER_HEADING = /^(?:Zork response:|ZORK RESPONSE for '.*':)\s*$/;
/** Where the game's answer ends: the harness's next note or the next turn. */
const ANSWER_END = /^(?:Extracted Info:|Turn reward:|--- Turn \d+ ---|Episode finished\b|Critic evaluation:|Agent proposes:)/;

/** Each proposed command with what the game printed after it, the `>` prompt taken off. */
export function zorkGptTurns(log: string): { command: string; answer: string }[] {
  const turns: { command: string; answer: string }[] = [];
  let command: string | undefined;
  let answer: string[] | undefined;
  const close = (): void => {
    if (command !== undefined && command !== '' && answer !== undefined) {
      turns.push({ command, answer: answer.join('\n').trim().replace(/^>\s*/, '') });
    }
    answer = undefined;
  };
  for (const line of log.split(/\r?\n/)) {
    if (answer !== undefined && !ANSWER_END.test(line)) {
      answer.push(line);
      continue;
    }
    const proposal = PROPOSAL.exec(line);
    if (proposal) {
      close();
      command = (proposal[1] ?? '').trim();
    } else if (ANSWER_HEADING.test(line)) {
      answer = [];
    } else if (answer !== undefined) {
      close();
      command = undefined;
    }
  }
  close();
  return turns;
}

/** The calls of one episode: a call of each command's verb, answered by the game. */
export function zorkGptCalls(log: string, source: RunSource): CallEvent[] {
  if (log.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not an episode`);
  return zorkGptTurns(log)
    .slice(0, MAX_COMMANDS)
    .map(({ command, answer }) => {
      const { tool, args } = zorkCall(command);
      const refused = TEXTWORLD_REFUSED.test(answer) || ZORK_REFUSED.test(answer) || DUNGEON_REFUSED.test(answer);
      return { type: 'call', tool, args, result: result(answer, refused) };
    });
}

/** One episode, named by the time the harness started it, or by its file when it gives none. */
export function convertZorkGptEpisode(log: string, source: RunSource, prefix: string): ConvertedRun[] {
  const calls = zorkGptCalls(log, source);
  if (calls.length === 0) return [];
  const started = /^--- NEW EPISODE: (\S+)/m.exec(log)?.[1];
  const stem = source.path.split('/').at(-1)?.replace(/\.txt$/, '') ?? 'episode';
  const model = /^Using agent model:[ \t]*(.*)$/m.exec(log)?.[1]?.trim() ?? '';
  const name = safeName(`${prefix}-${started ?? stem}`);
  const description = `${source.agent}, episode ${started ?? stem}${model === '' ? '' : ` (${model})`}`;
  return [{ name, events: [metaEvent(name, description, source, toolList(calls, TEXTWORLD_KINDS)), ...(calls as TraceEvent[])] }];
}
