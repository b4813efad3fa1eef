/**
 * Codex's hooks take Claude Code's shape: `PreToolUse` denies with `permissionDecision: "deny"` and a
 * non-empty reason (`ask` and a bare `allow` are refused by Codex, so narrowing never sends them),
 * `PostToolUse` reports every finished call (there is no failure event), `UserPromptSubmit`,
 * `SessionStart` and `PreCompact` mark runs. JSON is read only on exit 0.
 *
 * A command's or a patch's `tool_response` is its bare output text, with no exit status (codex-rs
 * `core/src/tools/context.rs`): failure is read from the text (`shell-output.ts`) and, by the hook
 * helper, from the session's rollout file (`codex-rollout.ts`). MCP tools' responses are
 * `CallToolResult`s, read as any other agent's.
 */
import { hostToolKind } from '../adapters/tool-call/host-tools.js';
import { claudeStyleHooks } from './claude-code.js';
import type { HookProtocol, HookToolResult } from './event.js';
import { resultText } from './payload.js';
import { responseResult } from './results.js';
import { shellOutputResult } from './shell-output.js';

/** A Codex `PostToolUse` response: a command's or a patch's output text, or a structured result. */
export function codexResponseResult(tool: string, response: unknown): HookToolResult {
  const command = hostToolKind('codex', tool) === 'exec' || tool === 'apply_patch';
  if (command && typeof response === 'string') return shellOutputResult(resultText(response));
  return responseResult(response);
}

export const codexHooks: HookProtocol = claudeStyleHooks('codex', {
  failureEvent: false,
  readResponse: codexResponseResult,
});
