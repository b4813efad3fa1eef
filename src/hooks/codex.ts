/**
 * Codex's hooks take Claude Code's shape: `PreToolUse` denies with `permissionDecision: "deny"` and a
 * non-empty reason (`ask` and a bare `allow` are refused by Codex, so narrowing never sends them),
 * `PostToolUse` reports every finished call (there is no failure event: the response says it),
 * `UserPromptSubmit`, `SessionStart` and `PreCompact` mark runs. JSON is read only on exit 0.
 */
import { claudeStyleHooks } from './claude-code.js';
import type { HookProtocol } from './event.js';

export const codexHooks: HookProtocol = claudeStyleHooks('codex', { failureEvent: false });
