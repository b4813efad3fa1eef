/**
 * Interactive fiction played by a language model through a Z-machine interpreter that dumps each
 * story as one JSON object: the prompt pattern, the model, the game file (`name`) and the chat
 * (`messages`), in which the user's turns are what the game printed, ending at its `>` prompt, and
 * the assistant's turns are the commands the model typed. Each command is a call of its verb as in
 * the other text games (`take keys` is `take {input: keys}`, a bare direction a move), answered by
 * the user's turn after it. The games are Inform ones: besides the refusals of TextWorld's Inform
 * games (`You can't see any such thing.`, `I only understood you as far as …`) they refuse in their
 * library's American spelling (`That's not a verb I recognize.`), in their own words (9:05's
 * bracketed `[!: Noun error.]`, `[!: Command not understood past "…"]`, and `You're going to have to
 * use a different verb …`) or by asking what was meant (`[Which do you mean, …?]`).
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { MAX_COMMANDS } from './convert-alfworld.js';
import { TEXTWORLD_KINDS, TEXTWORLD_REFUSED } from './convert-balrog.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { zorkCall } from './convert-zork.js';
import {
  type ConvertedRun,
  isObject,
  type JsonObject,
  metaEvent,
  result,
  type RunSource,
  safeName,
  text,
  toolList,
} from './events.js';

/** An Inform game's parser not reading the command (9:05's in brackets: `[!: …]`), or asking what was meant. */
const INFORM_REFUSED =
  /^(?:\[!:|\[?(?:What|Which) do you (?:want|mean)\b|You're going to have to use a different verb\b|That's not a verb I recogni[sz]e|I don't see what you are talking about|I beg your pardon)/;

/** The game's prompt at the end of what it printed. */
const PROMPT = /\n*>\s*$/;

/** A story dump: a JSON object with a `messages` array; anything else refused. */
export function storyDump(json: string, source: RunSource): JsonObject {
  if (json.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a story dump`);
  const parsed: unknown = JSON.parse(json);
  if (!isObject(parsed) || !Array.isArray(parsed.messages)) throw new Error(`${source.path}: no messages; not a story dump`);
  return parsed;
}

/** What the game printed, without its prompt. */
export function storyAnswer(printed: string): string {
  return printed.replace(PROMPT, '').trim();
}

/** The calls of one story: each command the assistant typed, the game's next turn answering it. */
export function storyCalls(dump: JsonObject): CallEvent[] {
  const messages = (Array.isArray(dump.messages) ? dump.messages : []).filter(isObject);
  const calls: CallEvent[] = [];
  for (const [at, message] of messages.entries()) {
    if (calls.length >= MAX_COMMANDS) break;
    if (message.role !== 'assistant') continue;
    const command = text(message.content).trim();
    const next = messages[at + 1];
    if (command === '' || next?.role !== 'user') continue;
    const answer = storyAnswer(text(next.content));
    const { tool, args } = zorkCall(command);
    const refused = TEXTWORLD_REFUSED.test(answer) || INFORM_REFUSED.test(answer);
    calls.push({ type: 'call', tool, args, result: result(answer, refused) });
  }
  return calls;
}

/** One story, named by its file (`storydump/905.z5_2024-07-22_18-44-09.json`). */
export function convertStoryDump(json: string, source: RunSource, prefix: string): ConvertedRun[] {
  const dump = storyDump(json, source);
  const calls = storyCalls(dump);
  if (calls.length === 0) return [];
  const stem = (source.path.split('/').at(-1) ?? 'story').replace(/\.json$/, '');
  const name = safeName(`${prefix}-${stem}`);
  const game = text(dump.name).trim() || stem;
  const model = text(dump.model).trim();
  const pattern = text(dump.promptPattern).trim();
  const settings = [model, pattern === '' ? '' : `prompt ${pattern}`].filter((part) => part !== '').join(', ');
  const description = `${source.agent}, game ${game}${settings === '' ? '' : ` (${settings})`}`;
  return [{ name, events: [metaEvent(name, description, source, toolList(calls, TEXTWORLD_KINDS)), ...(calls as TraceEvent[])] }];
}
