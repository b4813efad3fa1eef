/**
 * `narrowing-guard/agent`: a small guarded agent loop over the AI SDK's language-model interface.
 * An explicit state machine, a provider runner with retries, recovery from responses cut off by the
 * output limit, narrowing as the repetition guard, budgets with a reserve, context management, and
 * a run state that persists with the guard's session.
 */
export {
  type AgentBudget,
  type BudgetSnapshot,
  type BudgetStop,
  type BudgetWarning,
  type ReserveKind,
  RunBudget,
} from './budget.js';
export {
  activePaths,
  type ContextOptions,
  type ContextStrategy,
  type ConversationEntry,
  estimateTokens,
  type FittedContext,
  fitContext,
  type InternalReason,
} from './context.js';
export type { AgentEvent, RunTotals, ToolResultStatus } from './events.js';
export {
  type Agent,
  type AgentOptions,
  type AgentResult,
  createAgent,
  type RunOptions,
} from './loop.js';
export { connectMcpServer, type McpServer, type McpServerCommand, mcpTools, parseCommand } from './mcp.js';
export { ACCEPTED_MODEL_VERSIONS, type AgentModel, asLanguageModelV3 } from './model.js';
export {
  type AgentRunState,
  loadRunState,
  RUN_STATE_VERSION,
  runStatePath,
  saveRunState,
} from './persist.js';
export {
  backoff,
  classifyProviderError,
  DEFAULT_RETRY,
  type FinishReason,
  type ModelResponse,
  type ModelToolCall,
  type ProviderEvent,
  type ProviderFailure,
  type ProviderRunnerOptions,
  type RetryOptions,
  requestModel,
  type StreamEndStatus,
  type TokenUsage,
} from './provider.js';
export {
  type AgentState,
  isTerminal,
  type StateChange,
  StateMachine,
  type TerminalState,
  TRANSITIONS,
} from './states.js';
export { type AgentTool, defineTool, modelTools, type ToolContext } from './tools.js';
