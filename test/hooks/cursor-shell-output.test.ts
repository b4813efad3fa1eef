/**
 * Cursor's `afterShellExecution` gives a command's output and no exit status: a failure is read from
 * the lines only a failing command prints, and the command it carries tells a program it runs from
 * one a shell hook runs around it.
 */
import { describe, expect, it } from 'vitest';
import { cursorHooks } from '../../src/hooks/cursor.js';
import type { HookEvent, HookToolResult } from '../../src/hooks/event.js';

function afterShell(command: string, output: string): HookToolResult {
  const event: HookEvent = cursorHooks.parse({
    conversation_id: '668320d2-2fd8-4888-b33c-2a466fec86e7',
    generation_id: '490b90b7-a2ce-4c2c-bb76-cb77b125df2f',
    hook_event_name: 'afterShellExecution',
    workspace_roots: ['/Users/dev/planetfall'],
    command,
    cwd: '/Users/dev/planetfall',
    output,
    duration: 212,
  });
  if (event.action.type !== 'after-call') throw new Error(`not a finished call: ${event.action.type}`);
  return event.action.result;
}

describe("Cursor's shell output without an exit status", () => {
  it('reads zsh’s missing program as a failure when the command runs it', () => {
    expect(afterShell('vercel --version', 'zsh:1: command not found: vercel\n').ok).toBe(false);
  });

  it('reads a shell hook’s missing function under a commit as a success', () => {
    const output =
      '[main 8dd8711] fix: update agent tests\n 2 files changed, 121 insertions(+), 288 deletions(-)\nzsh:1: command not found: dump_zsh_state\n';
    expect(afterShell('git commit -m "fix: update agent tests"', output).ok).toBe(true);
  });
});
