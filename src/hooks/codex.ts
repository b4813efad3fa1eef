/**
 * Codex's hooks take Claude Code's shape: `PreToolUse` denies with `permissionDecision: "deny"` and a
 * non-empty reason (`ask` and a bare `allow` are refused by Codex, so narrowing never sends them),
 * `PostToolUse` reports every finished call (there is no failure event: the response says it),
 * `UserPromptSubmit`, `SessionStart` and `PreCompact` mark runs. JSON is read only on exit 0.
 */
import { NarrowingError } from '../core/errors.js';
import { claudeStyleToolCall, replyAsClaudeCode, sessionStart } from './claude-code.js';
import type { HookAction, HookProtocol } from './event.js';
import { type Payload, payloadObject, sessionIdField, stringField } from './payload.js';
import { responseResult } from './results.js';

const AGENT = 'codex';

export const codexHooks: HookProtocol = {
  agent: AGENT,
  parse(value) {
    const payload = payloadObject(value, AGENT);
    const name = stringField(payload, 'hook_event_name', 64) ?? '';
    const session = sessionIdField(payload, ['session_id'], AGENT);
    const agentId = stringField(payload, 'agent_id', 128);
    return {
      agent: AGENT,
      name,
      sessionId: agentId ? `${session}/${agentId}` : session,
      workspace: stringField(payload, 'cwd', 4096),
      action: codexAction(name, payload),
    };
  },
  reply: replyAsClaudeCode,
};

function codexAction(name: string, payload: Payload): HookAction {
  switch (name) {
    case 'PreToolUse':
      return { type: 'before-call', call: claudeStyleToolCall(payload) };
    case 'PostToolUse':
      return {
        type: 'after-call',
        call: claudeStyleToolCall(payload),
        result: responseResult(payload.tool_response),
      };
    case 'UserPromptSubmit':
      return { type: 'prompt' };
    case 'SessionStart':
      return sessionStart(stringField(payload, 'source', 32));
    case 'PreCompact':
    case 'PostCompact':
      return { type: 'compact' };
    case 'Stop':
      return { type: 'stop' };
    case '':
      throw new NarrowingError('USAGE', 'the codex hook payload has no hook_event_name');
    default:
      return { type: 'ignored' };
  }
}
