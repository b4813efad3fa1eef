import type { HostAgent } from '../adapters/tool-call/host-tools.js';
import { claudeCodeHooks } from './claude-code.js';
import { codexHooks } from './codex.js';
import { cursorHooks } from './cursor.js';
import type { HookProtocol } from './event.js';
import { geminiCliHooks } from './gemini-cli.js';

/** Each agent's hook protocol, by the name `narrowing-guard hook <agent>` takes. */
export const HOOK_PROTOCOLS: Readonly<Record<HostAgent, HookProtocol>> = {
  'claude-code': claudeCodeHooks,
  'gemini-cli': geminiCliHooks,
  codex: codexHooks,
  cursor: cursorHooks,
};
