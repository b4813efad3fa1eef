/**
 * The tools of an MCP server as agent tools, through the MCP client: each call goes to the server
 * and its `CallToolResult` comes back as it is, so the guard reads `isError`, the text and `_meta`.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { NarrowingError } from '../core/errors.js';
import type { AgentTool } from './tools.js';

export interface McpServer {
  readonly tools: readonly AgentTool[];
  readonly client: Client;
  /** Ends the server process. */
  close(): Promise<void>;
}

export interface McpServerCommand {
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: Record<string, string>;
}

/**
 * Starts an MCP server over stdio (`"npx -y @modelcontextprotocol/server-filesystem ."`, or the
 * command and its arguments apart) and lists its tools.
 */
export async function connectMcpServer(server: string | McpServerCommand): Promise<McpServer> {
  const {
    command,
    args = [],
    cwd,
    env,
  }: McpServerCommand = typeof server === 'string' ? parseCommand(server) : server;
  const transport = new StdioClientTransport({
    command,
    args: [...args],
    ...(cwd !== undefined && { cwd }),
    ...(env !== undefined && { env }),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'narrowing-agent', version: '1.0.0' });
  await client.connect(transport);
  try {
    return { tools: await mcpTools(client), client, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** The tools of a connected MCP client. */
export async function mcpTools(client: Client): Promise<AgentTool[]> {
  const { tools } = await client.listTools();
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description !== undefined && { description: tool.description }),
    inputSchema: tool.inputSchema as AgentTool['inputSchema'],
    ...(tool.annotations !== undefined && { annotations: tool.annotations }),
    execute: (input, { signal }) => client.callTool({ name: tool.name, arguments: input }, { signal }),
  }));
}

/** Splits a command line on spaces, keeping what is inside single or double quotes together. */
export function parseCommand(line: string): { command: string; args: string[] } {
  const words: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3] ?? '');
  const [command, ...args] = words;
  if (!command) throw new NarrowingError('USAGE', 'an MCP server command is empty');
  return { command, args };
}
