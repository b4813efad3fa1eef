/**
 * Tool protocols and agent harnesses: MCP and JSON-RPC errors, schemas, cancellation, harness state.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const TOOL_PROTOCOLS: FamilyTable = {
  schema: {
    patterns: [
      'mcp error -32602: (?:input validation error|invalid arguments|invalid params)\\b',
      '\\binput ?validation ?error\\b',
      '\\binvalid arguments for tool\\b',
    ],
    hints: ['-32602', 'validation', 'invalid arguments'],
  },
  unavailable: {
    patterns: [
      '\\bmcp server\\b[^\\n]{0,80}\\b(?:not connected|disconnected|closed|failed to start|crashed|not running|exited|not available|unavailable)\\b',
      '^(?:error: )?not connected\\b',
      '\\b(?:client|server|transport|session) (?:is )?(?:closed|disconnected)\\b',
      '\\btransport error\\b',
      'mcp error -32000\\b',
    ],
    hints: [
      'not running',
      'not available',
      'server',
      'mcp server',
      'not connected',
      'closed',
      'disconnected',
      'transport error',
      '-32000',
      'crashed',
    ],
  },
  harnessState: {
    patterns: [
      '\\btool_use(?:_id)?\\b[^\\n]{0,200}\\btool_result\\b',
      '\\btool_result\\b[^\\n]{0,200}\\btool_use\\b',
    ],
    hints: ['tool_use', 'tool_result'],
  },
  cancelled: {
    patterns: [
      '\\brequest (?:was |has been )?cancel+ed\\b',
      '\\b(?:operation|request|call|task|tool call) was (?:aborted|cancel+ed)\\b',
      '\\bcancel+ed by (?:the )?(?:user|client|caller)\\b',
      '\\b(?:AbortError|CancelledError|CanceledError|OperationCanceledException|TaskCanceledException)\\b',
      '\\bMCP error -32800\\b',
    ],
    hints: ['cancel', 'abort', '-32800'],
  },
  toolMissing: {
    patterns: [
      '\\b(?:unknown|unrecognized|unsupported|invalid) tool\\b',
      '\\bno such tool\\b',
      '\\btool\\s*[\'"`]?[\\w.:/-]{0,100}[\'"`]?\\s+(?:was |is )?not (?:found|available|registered)\\b',
      '\\bmethod not found\\b',
      'mcp error -32601\\b',
    ],
    hints: ['tool', 'method not found', '-32601'],
  },
  validation: {
    patterns: [
      '\\bvalidation (?:error|failed)\\b',
      '\\bValidationError\\b',
      '\\bZodError\\b',
      '\\binvalid_type\\b',
      'MCP error -32602\\b',
    ],
    hints: ['validation', 'zoderror', 'invalid_type', 'invalid', '-32602'],
  },
  apiOther: {
    patterns: [
      '\\bAPI error\\b',
      'MCP error -32603\\b',
      '\\binternal error\\b',
      '\\bunexpected server response\\b',
      '\\bthis is an error with \\S+ itself\\b',
      '\\bexit handler never called\\b',
      '\\bunexpected error: (?:none|null|undefined)\\b',
    ],
    hints: [
      'api error',
      '-32603',
      'internal error',
      'unexpected server response',
      'itself',
      'exit handler',
      'unexpected error',
    ],
  },
  crashedServer: {
    patterns: ['\\bcrashed the mcp server\\b'],
    hints: ['crashed the mcp server'],
  },
};
