import { join } from 'node:path';

/**
 * Claude Code's events for a `Read` of `file` in `dir` that finds no file: the call before it runs,
 * and its failure as Claude Code reports it.
 */
export function claudeMissingRead(session: string, dir: string, file: string, id: string) {
  const call = {
    session_id: session,
    cwd: dir,
    tool_name: 'Read',
    tool_input: { file_path: join(dir, file) },
    tool_use_id: id,
  };
  return {
    call,
    before: { ...call, hook_event_name: 'PreToolUse' },
    failed: {
      ...call,
      hook_event_name: 'PostToolUseFailure',
      error: `File does not exist: ${call.tool_input.file_path}`,
    },
  };
}
