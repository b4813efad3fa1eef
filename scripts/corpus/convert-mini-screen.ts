/**
 * mini-swe-agent's conversation as a terminal recorded it (the `sessions/agent.log` a Terminal-Bench
 * trial keeps of the pane the agent ran in). mini-swe-agent prints every message it adds: a model turn
 * under `mini-swe-agent (step N, $cost):` with its THOUGHT and one fenced bash block, the answer under
 * `User:` with `<returncode>N</returncode>` and the output, a rule of `─` after each answer. This
 * module undoes the screen (escape sequences, carriage-return overwrites, the waiting spinner), reads
 * the turns back into a trajectory's messages and hands them to the trajectory reader, so a screen and
 * a trajectory file of the same run give the same calls.
 */
import { convertMiniSweAgent } from './convert-mini.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import type { ConvertedRun, RunSource } from './events.js';

export interface ScreenMessage {
  readonly role: 'assistant' | 'user';
  readonly content: string;
}

/** Turns kept from one screen; the runs recorded stop after a few hundred steps. */
export const MAX_SCREEN_TURNS = 2_000;

// Control sequences (colour, cursor moves, line clears), operating-system commands and charset picks.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]/g;
const SPINNER = /[\u2800-\u28ff] Waiting for the LM to respond\.\.\./g;
const STEP = /^mini-swe-agent \(step \d+[^)]*\):\s*$/;
const ANSWER = /^User:\s*$/;
const RULE = /^\u2500{10,}/;
const RETURN_CODE = /^<returncode>-?\d+<\/returncode>/;

/** One recorded line as it was left on the screen: what the last carriage return wrote over it. */
function shownLine(line: string): string {
  const overwrites = line.replace(/\r+$/, '').split('\r');
  return (overwrites[overwrites.length - 1] as string).replace(ESCAPES, '').replace(SPINNER, '').trimEnd();
}

/**
 * An answer opens with its return code; what a process beside the agent wrote to the pane before it
 * (a library's log lines) is not part of the answer.
 */
function answerBody(lines: readonly string[]): readonly string[] {
  const code = lines.findIndex((line) => RETURN_CODE.test(line));
  return code > 0 ? lines.slice(code) : lines;
}

/** The messages of the agent's steps, in order: each model turn, then the answer it got, if any. */
export function miniScreenMessages(screen: string): ScreenMessage[] {
  if (screen.length > MAX_LOG_CHARS) throw new Error(`longer than ${MAX_LOG_CHARS} characters; not a terminal recording`);
  const messages: ScreenMessage[] = [];
  let current: { role: ScreenMessage['role']; lines: string[] } | undefined;
  const close = () => {
    if (current) messages.push({ role: current.role, content: (current.role === 'user' ? answerBody(current.lines) : current.lines).join('\n').trim() });
    current = undefined;
  };
  for (const raw of screen.split('\n')) {
    const line = shownLine(raw);
    if (STEP.test(line)) {
      close();
      if (messages.length >= MAX_SCREEN_TURNS * 2) break;
      current = { role: 'assistant', lines: [] };
    } else if (ANSWER.test(line) && current?.role === 'assistant') {
      close();
      current = { role: 'user', lines: [] };
    } else if (RULE.test(line)) {
      // What the screen shows between an answer's rule and the next step is not the agent's.
      close();
    } else {
      current?.lines.push(line);
    }
  }
  close();
  return messages;
}

export function convertMiniScreen(screen: string, source: RunSource, name: string, description: string): ConvertedRun {
  const messages = miniScreenMessages(screen);
  return convertMiniSweAgent(JSON.stringify({ messages }), source, name, description);
}
