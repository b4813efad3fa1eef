/** The MCP clients whose project configuration narrowing can edit, and where each keeps it. */

export type ClientId = 'claude' | 'cursor' | 'vscode' | 'gemini';

export const CLIENT_IDS: readonly ClientId[] = ['claude', 'cursor', 'vscode', 'gemini'];

export interface McpClient {
  readonly id: ClientId;
  readonly name: string;
  /** Relative to the project directory, with forward slashes. */
  readonly configFile: string;
  /** The top-level key that maps server names to their definitions. */
  readonly serversKey: 'mcpServers' | 'servers';
  /** The client expands `${workspaceFolder}` in a server's command. */
  readonly expandsWorkspaceFolder: boolean;
  /** What to tell the user so that the client picks up an edited file. */
  readonly reloadHint: string;
}

export const MCP_CLIENTS: Readonly<Record<ClientId, McpClient>> = {
  claude: {
    id: 'claude',
    name: 'Claude Code',
    configFile: '.mcp.json',
    serversKey: 'mcpServers',
    expandsWorkspaceFolder: false,
    reloadHint: 'restart Claude Code (or run /mcp) to pick up the change',
  },
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    configFile: '.cursor/mcp.json',
    serversKey: 'mcpServers',
    expandsWorkspaceFolder: true,
    reloadHint: 'Cursor reloads the file by itself; refresh the server under Settings › MCP if it does not',
  },
  vscode: {
    id: 'vscode',
    name: 'VS Code',
    configFile: '.vscode/mcp.json',
    serversKey: 'servers',
    expandsWorkspaceFolder: true,
    reloadHint: 'restart the server from the MCP view (or run "MCP: List Servers") to pick up the change',
  },
  gemini: {
    id: 'gemini',
    name: 'Gemini CLI',
    configFile: '.gemini/settings.json',
    serversKey: 'mcpServers',
    expandsWorkspaceFolder: false,
    reloadHint: 'restart Gemini CLI to pick up the change',
  },
};

export function isClientId(value: string): value is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(value);
}
