/** Agent hooks: each agent's protocol, one normalised event, the guard seam. */
export { claudeCodeHooks } from './claude-code.js';
export { codexHooks } from './codex.js';
export { cursorHooks } from './cursor.js';
export type {
  HookAction,
  HookEvent,
  HookProtocol,
  HookReply,
  HookToolCall,
  HookToolResult,
  HookVerdict,
} from './event.js';
export { geminiCliHooks } from './gemini-cli.js';
export { type HookOptions, handleHookEvent } from './handle.js';
export { HOOK_PROTOCOLS } from './protocols.js';
export { type HookStreams, type RunHookOptions, runHook } from './run.js';
