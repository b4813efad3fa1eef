/**
 * Terminal copies of interactive agent sessions: what a user saved from the screen of Claude Code or
 * Gemini CLI, several sessions one after another in one file. This module only cuts such a copy into
 * sessions and says which agent each one shows; `convert-claude-screen.ts` and
 * `convert-gemini-screen.ts` read the calls of their own agent's sessions.
 */
import { MAX_LOG_CHARS } from './convert-react.js';

export type ScreenAgent = 'claude' | 'gemini';

export interface ScreenSession {
  /** The agent whose start banner opens the session; the leading part of a copy has none. */
  readonly agent: ScreenAgent | undefined;
  readonly lines: readonly string[];
}

/** Sessions kept from one copy; the copies these sessions come in hold at most a dozen. */
export const MAX_SESSIONS_PER_COPY = 1_000;

const CLAUDE_BANNER = /^\s*[│|]?\s*✻ Welcome to Claude Code/;
/** Gemini CLI prints its logo, then these tips, when it starts. */
const GEMINI_BANNER = /^Tips for getting started:\s*$/;

/** The copy's lines with the screen's decoration undone: carriage returns and trailing blanks. */
export function screenLines(copy: string): string[] {
  if (copy.length > MAX_LOG_CHARS) throw new Error(`longer than ${MAX_LOG_CHARS} characters; not a terminal copy`);
  return copy.split('\n').map((line) => line.replace(/\r$/, '').trimEnd());
}

/** Cuts a terminal copy into sessions at each agent's start banner. */
export function screenSessions(copy: string): ScreenSession[] {
  const sessions: ScreenSession[] = [];
  let agent: ScreenAgent | undefined;
  let lines: string[] = [];
  for (const line of screenLines(copy)) {
    const banner = CLAUDE_BANNER.test(line) ? 'claude' : GEMINI_BANNER.test(line) ? 'gemini' : undefined;
    if (banner) {
      if (lines.length > 0 || agent) sessions.push({ agent, lines });
      agent = banner;
      lines = [];
      if (sessions.length >= MAX_SESSIONS_PER_COPY) return sessions;
      continue;
    }
    lines.push(line);
  }
  if (lines.length > 0 || agent) sessions.push({ agent, lines });
  return sessions.slice(0, MAX_SESSIONS_PER_COPY);
}

/** The sessions of one agent: those its banner opens, and a leading part that shows its calls. */
export function sessionsOf(
  copy: string,
  agent: ScreenAgent,
  showsCalls: (lines: readonly string[]) => boolean,
): ScreenSession[] {
  return screenSessions(copy).filter(
    (session) => session.agent === agent || (session.agent === undefined && showsCalls(session.lines)),
  );
}
