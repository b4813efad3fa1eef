/**
 * narrowing for the OpenAI Agents SDK (`@openai/agents`): a tool input guardrail, an error function
 * that keeps the real error text, and the `agent_tool_end` recorder.
 */
export {
  type AgentsGuard,
  type AgentsGuardOptions,
  type AgentsGuardrailOutput,
  type AgentsToolCall,
  type AgentsToolInputGuardrail,
  NARROWING_GUARDRAIL,
  narrowingForAgents,
} from './guard.js';
