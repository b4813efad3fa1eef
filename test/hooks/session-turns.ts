import { join } from 'node:path';
import type { GuardSession } from '../../src/guard/session.js';
import type { HookEvent } from '../../src/hooks/event.js';
import { applyHookEvent, inSessionTurn } from '../../src/hooks/handle.js';
import { HOOK_PROTOCOLS } from '../../src/hooks/protocols.js';

/** Claude Code's PostToolUseFailure of a `Read` of `src/config.ts` that is not there (the shape its hooks docs give). */
export function failedRead(dir: string, id: string, sessionId: string): HookEvent {
  return HOOK_PROTOCOLS['claude-code'].parse({
    session_id: sessionId,
    transcript_path: join(dir, `${sessionId}.jsonl`),
    cwd: dir,
    hook_event_name: 'PostToolUseFailure',
    tool_name: 'Read',
    tool_input: { file_path: join(dir, 'src/config.ts') },
    tool_use_id: id,
    error: 'File does not exist.',
  });
}

const quiet = () => undefined;

/** One event handled in its session's turn, as a hook process or the helper handles it. */
export function takeTurn(guard: GuardSession, event: HookEvent) {
  return inSessionTurn(guard, event, (session) => applyHookEvent(guard, event, session, {}, quiet), quiet);
}
