/** The MCP clients whose configuration narrowing can edit, and where each keeps it. */

/**
 * Where a server is defined: `project` in a file of the project, `user` in the user's own file
 * (every project), `local` in the user's file under the project's path (Claude Code's default).
 */
export type ConfigScope = 'local' | 'project' | 'user';

export const CONFIG_SCOPES: readonly ConfigScope[] = ['local', 'project', 'user'];

export type ClientId = 'claude' | 'cursor' | 'vscode' | 'gemini' | 'codex';

export const CLIENT_IDS: readonly ClientId[] = ['claude', 'cursor', 'vscode', 'gemini', 'codex'];

export interface McpClient {
  readonly id: ClientId;
  readonly name: string;
  /** Relative to the project directory, with forward slashes. */
  readonly configFile: string;
  /** The user's own config, relative to the home directory, with forward slashes. */
  readonly userConfigFile: (platform: NodeJS.Platform) => string;
  /**
   * An environment variable that, when set, names the folder of the user's config in place of the
   * home directory's (Codex's `CODEX_HOME`); the file keeps its name.
   */
  readonly userConfigDirVariable?: string;
  /** The scopes the client reads, the one that wins a name clash first. */
  readonly scopes: readonly ConfigScope[];
  /** How the config is written: JSON (with comments) or TOML. */
  readonly format: 'json' | 'toml';
  /** The top-level key that maps server names to their definitions. */
  readonly serversKey: 'mcpServers' | 'servers' | 'mcp_servers';
  /** The client starts servers in the project directory, so a relative command resolves there. */
  readonly startsServersInProject: boolean;
  /** The client expands `${workspaceFolder}` in a server's command. */
  readonly expandsWorkspaceFolder: boolean;
  /** What to tell the user so that the client picks up an edited file. */
  readonly reloadHint: string;
}

/** VS Code keeps the user's `mcp.json` in its profile folder, which depends on the platform. */
function vscodeUserConfig(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Library/Application Support/Code/User/mcp.json';
  if (platform === 'win32') return 'AppData/Roaming/Code/User/mcp.json';
  return '.config/Code/User/mcp.json';
}

export const MCP_CLIENTS: Readonly<Record<ClientId, McpClient>> = {
  claude: {
    id: 'claude',
    name: 'Claude Code',
    configFile: '.mcp.json',
    userConfigFile: () => '.claude.json',
    scopes: ['local', 'project', 'user'],
    format: 'json',
    serversKey: 'mcpServers',
    startsServersInProject: true,
    expandsWorkspaceFolder: false,
    reloadHint: 'restart Claude Code (or run /mcp) to pick up the change',
  },
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    configFile: '.cursor/mcp.json',
    userConfigFile: () => '.cursor/mcp.json',
    scopes: ['project', 'user'],
    format: 'json',
    serversKey: 'mcpServers',
    startsServersInProject: true,
    expandsWorkspaceFolder: true,
    reloadHint: 'Cursor reloads the file by itself; refresh the server under Settings › MCP if it does not',
  },
  vscode: {
    id: 'vscode',
    name: 'VS Code',
    configFile: '.vscode/mcp.json',
    userConfigFile: vscodeUserConfig,
    scopes: ['project', 'user'],
    format: 'json',
    serversKey: 'servers',
    startsServersInProject: true,
    expandsWorkspaceFolder: true,
    reloadHint: 'restart the server from the MCP view (or run "MCP: List Servers") to pick up the change',
  },
  gemini: {
    id: 'gemini',
    name: 'Gemini CLI',
    configFile: '.gemini/settings.json',
    userConfigFile: () => '.gemini/settings.json',
    scopes: ['project', 'user'],
    format: 'json',
    serversKey: 'mcpServers',
    startsServersInProject: true,
    expandsWorkspaceFolder: false,
    reloadHint: 'restart Gemini CLI to pick up the change',
  },
  codex: {
    id: 'codex',
    name: 'Codex',
    // Codex reads the project's file only in a project the user marked as trusted.
    configFile: '.codex/config.toml',
    userConfigFile: () => '.codex/config.toml',
    userConfigDirVariable: 'CODEX_HOME',
    scopes: ['project', 'user'],
    format: 'toml',
    serversKey: 'mcp_servers',
    startsServersInProject: false,
    expandsWorkspaceFolder: false,
    reloadHint: 'restart Codex (or start a new session) to pick up the change',
  },
};

export function isClientId(value: string): value is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(value);
}

export function isConfigScope(value: string): value is ConfigScope {
  return (CONFIG_SCOPES as readonly string[]).includes(value);
}
