/**
 * narrowing for the OpenAI Agents SDK (`@openai/agents`): a tool input guardrail, an error function
 * that keeps the real error text, and the `agent_tool_end` recorder, composed with a tool's own
 * options (`guard.tool`) or an agent's tools (`guard.agent`).
 */
export {
  type AgentsAgent,
  type AgentsErrorFunction,
  type AgentsFunctionTool,
  type AgentsGuard,
  type AgentsGuardOptions,
  type AgentsGuardrailOutput,
  type AgentsIsEnabled,
  type AgentsToolCall,
  type AgentsToolInputGuardrail,
  type AgentsToolOptions,
  type AgentsToolOutputGuardrail,
  NARROWING_GUARDRAIL,
  narrowingForAgents,
} from './guard.js';
