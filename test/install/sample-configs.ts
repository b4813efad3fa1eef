/** Project MCP configs as people write them: several servers, other keys, each client's quirks. */
import type { ClientId } from '../../src/install/index.js';

/** Claude Code, two-space indentation, inline argument lists. */
export const CLAUDE_MCP_JSON = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "./src", "./docs"]
    },
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": {
        "GITHUB_PERSONAL_ACCESS_TOKEN": "\${GITHUB_TOKEN}"
      }
    },
    "sqlite": {
      "command": "uvx"
    },
    "sentry": {
      "type": "http",
      "url": "https://mcp.sentry.dev/mcp"
    }
  }
}
`;

/** Cursor, four-space indentation, one argument per line. */
export const CURSOR_MCP_JSON = `{
    "mcpServers": {
        "postgres": {
            "command": "npx",
            "args": [
                "-y",
                "@modelcontextprotocol/server-postgres",
                "postgresql://localhost/shop_dev"
            ]
        },
        "memory": {
            "command": "npx",
            "args": [
                "-y",
                "@modelcontextprotocol/server-memory"
            ],
            "env": {
                "MEMORY_FILE_PATH": "\${workspaceFolder}/.cursor/memory.json"
            }
        },
        "linear": {
            "url": "https://mcp.linear.app/sse"
        }
    }
}
`;

/** VS Code: JSON with comments and trailing commas, an "inputs" list, typed servers. */
export const VSCODE_MCP_JSON = `{
  // Secrets are prompted for once and kept by VS Code.
  "inputs": [
    {
      "type": "promptString",
      "id": "perplexity-key",
      "description": "Perplexity API Key",
      "password": true
    }
  ],
  "servers": {
    "playwright": {
      "type": "stdio",
      "command": "npx",
      "args": ["@playwright/mcp@latest", "--headless"] /* no browser window */
    },
    "perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": {
        "PERPLEXITY_API_KEY": "\${input:perplexity-key}",
      },
    },
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/"
    },
  },
}
`;

/** Gemini CLI: settings beyond MCP, four-space indentation, no newline at the end. */
export const GEMINI_SETTINGS_JSON = `{
    "theme": "GitHub",
    "contextFileName": "GEMINI.md",
    "checkpointing": {
        "enabled": true
    },
    "mcpServers": {
        "pythonTools": {
            "command": "python",
            "args": ["-m", "shop_tools.mcp", "--port", "8080"],
            "cwd": "./mcp-servers/python",
            "env": {
                "DATABASE_URL": "$DB_CONNECTION_STRING"
            },
            "timeout": 15000
        },
        "nodeServer": {
            "command": "node",
            "args": ["dist/server.js", "--verbose"],
            "trust": false
        },
        "docs": {
            "httpUrl": "http://localhost:3000/mcp",
            "timeout": 5000
        }
    },
    "usageStatisticsEnabled": false
}`;

export interface SampleConfig {
  readonly client: ClientId;
  readonly path: string;
  readonly text: string;
  readonly stdioServers: readonly string[];
  readonly remoteServer: { readonly name: string; readonly url: string };
}

export const SAMPLE_CONFIGS: readonly SampleConfig[] = [
  {
    client: 'claude',
    path: '.mcp.json',
    text: CLAUDE_MCP_JSON,
    stdioServers: ['filesystem', 'github', 'sqlite'],
    remoteServer: { name: 'sentry', url: 'https://mcp.sentry.dev/mcp' },
  },
  {
    client: 'cursor',
    path: '.cursor/mcp.json',
    text: CURSOR_MCP_JSON,
    stdioServers: ['postgres', 'memory'],
    remoteServer: { name: 'linear', url: 'https://mcp.linear.app/sse' },
  },
  {
    client: 'vscode',
    path: '.vscode/mcp.json',
    text: VSCODE_MCP_JSON,
    stdioServers: ['playwright', 'perplexity'],
    remoteServer: { name: 'github', url: 'https://api.githubcopilot.com/mcp/' },
  },
  {
    client: 'gemini',
    path: '.gemini/settings.json',
    text: GEMINI_SETTINGS_JSON,
    stdioServers: ['pythonTools', 'nodeServer'],
    remoteServer: { name: 'docs', url: 'http://localhost:3000/mcp' },
  },
];

/** As `codex mcp add` and a person editing by hand leave it: comments, other settings, sub-tables. */
export const CODEX_CONFIG_TOML = `# Codex settings
model = "gpt-5-codex"
approval_policy = "on-request" # ask before running commands

[projects."/home/dana/code/web"]
trust_level = "trusted"

# GitHub, with the token from the environment
[mcp_servers.github]
command = 'npx' # launcher
args = [
  "-y", # answer yes to the install prompt
  "@modelcontextprotocol/server-github",
]
startup_timeout_sec = 20
tool_timeout_sec = 60

[mcp_servers.github.env]
GITHUB_TOOLSETS = "repos,issues"

[mcp_servers.memory]
command = "npx"
enabled = true

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
bearer_token_env_var = "FIGMA_TOKEN"

[tui]
notifications = true
`;
