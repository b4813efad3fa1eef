/**
 * The tools an agent can call: plain functions with a JSON schema, or the tools of MCP servers
 * (`connectMcpServer`). The loop checks every call with the guard before it runs it.
 */
import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import type { ToolAnnotations } from '../core/types.js';

export interface ToolContext {
  /** Aborted when the run is cancelled or runs out of time. */
  readonly signal: AbortSignal;
  readonly toolCallId: string;
}

export interface AgentTool {
  readonly name: string;
  readonly description?: string;
  /** A JSON schema for the arguments, as the model will see it. */
  readonly inputSchema: LanguageModelV3FunctionTool['inputSchema'];
  /** MCP-style hints (`readOnlyHint`, `destructiveHint`…) that tell the guard what the tool does. */
  readonly annotations?: ToolAnnotations;
  /**
   * Runs the call. Return a string, an MCP `CallToolResult` (`isError: true` is a failure),
   * `{ error }` for a failure, or any JSON value; a throw is a failure too.
   */
  execute(input: Record<string, unknown>, context: ToolContext): unknown;
}

/** Types a tool's definition; nothing more. */
export function defineTool(tool: AgentTool): AgentTool {
  return tool;
}

/** The tools as the model is told about them. */
export function modelTools(tools: readonly AgentTool[]): LanguageModelV3FunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    ...(tool.description !== undefined && { description: tool.description }),
    inputSchema: tool.inputSchema,
  }));
}
