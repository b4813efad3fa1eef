/**
 * Agent sessions that the Entire CLI keeps on a repository's `entire/checkpoints/v1` branch: each
 * checkpoint `AB/CDEF…/N/` holds, for its N-th session, a `metadata.json` (`session_id`, `agent`,
 * `created_at`) and `full.jsonl`, the agent's own transcript as it stood when the checkpoint was
 * made. A session that made several commits is in several checkpoints, each copy longer than the one
 * before, so a session is one run: its latest copy (the latest `created_at`, then the longest). A
 * transcript is its agent's own recording: Claude Code's JSONL (`convert-claude.ts` reads it) or
 * Codex's rollout (`convert-codex.ts`) or Gemini CLI's chat record (`convert-gemini.ts`, when the
 * transcript is one: a session the metadata says is Gemini CLI's may hold a Claude Code transcript)
 * or OpenCode's exported session (`convert-opencode.ts`, likewise); a session of another agent is read as Claude Code's, holds no call that converter reads, and is
 * left out.
 */
import { convertClaudeTranscript } from './convert-claude.js';
import { convertCodexRun } from './convert-codex.js';
import { convertGeminiChat, isGeminiChat } from './convert-gemini.js';
import { convertOpenCodeSession, isOpenCodeSession } from './convert-opencode.js';
import { type ConvertedRun, isObject, type RunSource } from './events.js';

export interface CheckpointSession {
  /** The checkpoint session's directory, `AB/CDEF…/N`. */
  readonly dir: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly createdAt: string;
  /** Bytes of its transcript; 0 when the snapshot lacks it. */
  readonly transcriptSize: number;
}

const SESSION_DIR = /^(.*\/[0-9]+)\/metadata\.json$/;

/** A checkpoint session's metadata, or undefined when the file is not one. */
export function checkpointSession(path: string, json: string, transcriptSize: number): CheckpointSession | undefined {
  const dir = SESSION_DIR.exec(path)?.[1];
  if (!dir) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || typeof parsed.session_id !== 'string' || parsed.session_id === '') return undefined;
  return {
    dir,
    sessionId: parsed.session_id,
    agent: typeof parsed.agent === 'string' ? parsed.agent : '',
    createdAt: typeof parsed.created_at === 'string' ? parsed.created_at : '',
    transcriptSize,
  };
}

/** Which converter reads a checkpoint session's transcript, by the agent its metadata names and the transcript's form. */
export function transcriptFormat(agent: string, transcript: string): 'claude' | 'codex' | 'gemini' | 'opencode' {
  if (/^codex\b/i.test(agent.trim())) return 'codex';
  if (/^opencode\b/i.test(agent.trim()) && isOpenCodeSession(transcript)) return 'opencode';
  return /^gemini\b/i.test(agent.trim()) && isGeminiChat(transcript) ? 'gemini' : 'claude';
}

/** A checkpoint session's run, its transcript read as its own agent recorded it. */
export function convertCheckpointSession(
  session: CheckpointSession,
  transcript: string,
  from: RunSource,
  name: string,
): ConvertedRun {
  const description = `${session.agent} run ${session.sessionId.slice(0, 8)}`;
  switch (transcriptFormat(session.agent, transcript)) {
    case 'codex':
      return convertCodexRun(transcript, from, name, description);
    case 'gemini':
      return convertGeminiChat(transcript, from, name, description);
    case 'opencode':
      return convertOpenCodeSession(transcript, from, name, description);
    case 'claude':
      return convertClaudeTranscript(transcript, from, name);
  }
}

/** One copy per session, the latest (then the longest), among those whose transcript is present. */
export function latestCopies(sessions: readonly CheckpointSession[]): CheckpointSession[] {
  const latest = new Map<string, CheckpointSession>();
  for (const session of sessions) {
    if (session.transcriptSize <= 0) continue;
    const kept = latest.get(session.sessionId);
    const later =
      !kept ||
      session.createdAt > kept.createdAt ||
      (session.createdAt === kept.createdAt && session.transcriptSize > kept.transcriptSize) ||
      (session.createdAt === kept.createdAt && session.transcriptSize === kept.transcriptSize && session.dir < kept.dir);
    if (later) latest.set(session.sessionId, session);
  }
  return [...latest.values()].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}
