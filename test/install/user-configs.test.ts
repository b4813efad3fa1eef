import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyChange,
  type ClientId,
  type ConfigScope,
  changeDiff,
  nodeValue,
  parseJsonc,
  planUnwrap,
  planWrap,
  recordPath,
} from '../../src/install/index.js';
import { tempMachine } from './machine.js';

/** A project and a home directory of its own, each with the given files. */
function machine(home: Record<string, string>, project: Record<string, string> = {}) {
  const { homeDir, projectDir } = tempMachine(home, project);
  const where = (server: string, client: ClientId | 'all' = 'all', scope: ConfigScope | 'auto' = 'auto') => ({
    projectDir,
    homeDir,
    server,
    client,
    scope,
    stateDir: join(projectDir, '.narrowing'),
    platform: 'linux' as const,
  });
  return {
    homeDir,
    projectDir,
    read: (path: string) => readFileSync(join(homeDir, path), 'utf8'),
    plan: (server: string, client?: ClientId | 'all', scope?: ConfigScope | 'auto') =>
      planWrap({
        ...where(server, client, scope),
        installedLocally: false,
        launcher: 'npx',
        now: new Date(0),
      }),
    unplan: (server: string, client?: ClientId | 'all', scope?: ConfigScope | 'auto', force = false) =>
      planUnwrap({ ...where(server, client, scope), force }),
  };
}

function applyAll<T extends Parameters<typeof applyChange>[0]>(changes: T[]): T[] {
  for (const change of changes) applyChange(change);
  return changes;
}

/** As Claude Code writes it: two-space JSON, one entry per project it was started in. */
const CLAUDE_JSON = `{
  "numStartups": 42,
  "installMethod": "global",
  "autoUpdates": true,
  "userID": "5f1c0c1b6a0e4c2f9d3b7a8e6c4d2b1a",
  "mcpServers": {
    "memory": {
      "type": "stdio",
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-memory"
      ],
      "env": {}
    }
  },
  "projects": {
    "/home/dana/code/api": {
      "allowedTools": [],
      "history": [],
      "mcpServers": {
        "playwright": {
          "type": "stdio",
          "command": "npx",
          "args": [
            "@playwright/mcp@latest"
          ],
          "env": {}
        }
      },
      "hasTrustDialogAccepted": true
    },
    "<project>": {
      "allowedTools": [],
      "history": [
        {
          "display": "run the tests",
          "pastedContents": {}
        }
      ],
      "mcpServers": {
        "playwright": {
          "type": "stdio",
          "command": "npx",
          "args": [
            "@playwright/mcp@latest"
          ],
          "env": {}
        },
        "sentry": {
          "type": "http",
          "url": "https://mcp.sentry.dev/mcp"
        }
      },
      "enabledMcpjsonServers": [],
      "hasTrustDialogAccepted": true
    },
    "/home/dana/notes": {
      "allowedTools": [],
      "mcpServers": {},
      "hasTrustDialogAccepted": false
    }
  },
  "oauthAccount": {
    "emailAddress": "dana@example.com",
    "organizationUuid": "0d9f6a52-8c1e-4f3a-b0a7-2e5c9d4f1b36"
  }
}
`;

const CURSOR_USER_JSON = `{
  "mcpServers": {
    "postgres": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/shop"]
    }
  }
}
`;

const GEMINI_USER_SETTINGS = `{
  "theme": "GitHub",
  "selectedAuthType": "oauth-personal",
  "mcpServers": {
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "$GITHUB_TOKEN" },
      "trust": false
    }
  }
}`;

const VSCODE_USER_MCP = `{
  // Servers for every workspace.
  "servers": {
    "fetch": {
      "type": "stdio",
      "command": "uvx",
      "args": ["mcp-server-fetch"],
    },
  },
}
`;

interface Shape {
  readonly name: string;
  readonly client: ClientId;
  readonly scope: ConfigScope;
  readonly file: string;
  readonly text: string;
  readonly server: string;
  readonly serversAt: (projectDir: string) => string;
  readonly upstream: readonly string[];
}

const SHAPES: readonly Shape[] = [
  {
    name: "Claude Code's local scope (claude mcp add's default)",
    client: 'claude',
    scope: 'local',
    file: '.claude.json',
    text: CLAUDE_JSON,
    server: 'playwright',
    serversAt: (dir) => `projects[${JSON.stringify(dir)}].mcpServers`,
    upstream: ['npx', '@playwright/mcp@latest'],
  },
  {
    name: "Claude Code's user scope",
    client: 'claude',
    scope: 'user',
    file: '.claude.json',
    text: CLAUDE_JSON,
    server: 'memory',
    serversAt: () => 'mcpServers',
    upstream: ['npx', '-y', '@modelcontextprotocol/server-memory'],
  },
  {
    name: "Cursor's global config",
    client: 'cursor',
    scope: 'user',
    file: '.cursor/mcp.json',
    text: CURSOR_USER_JSON,
    server: 'postgres',
    serversAt: () => 'mcpServers',
    upstream: ['npx', '-y', '@modelcontextprotocol/server-postgres', 'postgresql://localhost/shop'],
  },
  {
    name: "Gemini CLI's user settings",
    client: 'gemini',
    scope: 'user',
    file: '.gemini/settings.json',
    text: GEMINI_USER_SETTINGS,
    server: 'github',
    serversAt: () => 'mcpServers',
    upstream: [
      'docker',
      'run',
      '-i',
      '--rm',
      '-e',
      'GITHUB_PERSONAL_ACCESS_TOKEN',
      'ghcr.io/github/github-mcp-server',
    ],
  },
  {
    name: "VS Code's user mcp.json",
    client: 'vscode',
    scope: 'user',
    file: '.config/Code/User/mcp.json',
    text: VSCODE_USER_MCP,
    server: 'fetch',
    serversAt: () => 'servers',
    upstream: ['uvx', 'mcp-server-fetch'],
  },
];

function entryOf(text: string, path: readonly string[]): Record<string, unknown> {
  let value = nodeValue(parseJsonc(text).root) as Record<string, unknown>;
  for (const key of path) value = value[key] as Record<string, unknown>;
  return value;
}

describe('wrap in the user’s own config files', () => {
  for (const shape of SHAPES) {
    it(`finds the server in ${shape.name} and names the file and key`, () => {
      const m = machine({ [shape.file]: shape.text });
      const [change, ...others] = m.plan(shape.server);
      expect(others).toEqual([]);
      expect(change?.status).toBe('change');
      expect(change?.path).toBe(join(m.homeDir, ...shape.file.split('/')));
      expect(change?.serversAt).toBe(shape.serversAt(m.projectDir));
      expect(change?.message).toContain(
        `"${shape.server}" in ~/${shape.file} (${shape.scope} scope, ${shape.serversAt(m.projectDir)})`,
      );
    });

    it(`shows a dry-run diff of ${shape.name} that only adds narrowing to the command line`, () => {
      const m = machine({ [shape.file]: shape.text });
      const [change] = m.plan(shape.server);
      const diff = changeDiff(change!);
      expect(diff).toContain(`--- a/~/${shape.file}`);
      const changed = diff.split('\n').filter((line) => /^[-+][^-+]/.test(line));
      expect(changed.some((line) => line.includes('narrowing-guard'))).toBe(true);
      expect(changed.join('\n')).not.toMatch(/oauthAccount|numStartups|theme|\/home\/dana/);
      expect(m.read(shape.file)).toBe(shape.text.replaceAll('<project>', m.projectDir));
    });

    it(`makes ${shape.name} start the server through npx narrowing-guard`, () => {
      const m = machine({ [shape.file]: shape.text });
      applyAll(m.plan(shape.server));
      const text = m.read(shape.file);
      const path =
        shape.scope === 'local'
          ? ['projects', m.projectDir, 'mcpServers', shape.server]
          : [shape.client === 'vscode' ? 'servers' : 'mcpServers', shape.server];
      const entry = entryOf(text, path);
      expect([entry.command, ...(entry.args as string[])]).toEqual([
        'npx',
        '-y',
        'narrowing-guard',
        'mcp',
        '--',
        ...shape.upstream,
      ]);
    });

    it(`unwraps ${shape.name} byte for byte`, () => {
      const m = machine({ [shape.file]: shape.text });
      const original = m.read(shape.file);
      applyAll(m.plan(shape.server));
      expect(m.read(shape.file)).not.toBe(original);
      const [undone, ...others] = applyAll(m.unplan(shape.server));
      expect(others).toEqual([]);
      expect(undone?.status).toBe('change');
      expect(m.read(shape.file)).toBe(original);
    });
  }

  it('changes only the current project’s servers in a ~/.claude.json with several projects', () => {
    const m = machine({ '.claude.json': CLAUDE_JSON });
    const before = m.read('.claude.json');
    applyAll(m.plan('playwright'));
    const after = m.read('.claude.json');
    const was = nodeValue(parseJsonc(before).root) as { projects: Record<string, unknown> };
    const now = nodeValue(parseJsonc(after).root) as { projects: Record<string, unknown> };
    expect(now.projects['/home/dana/code/api']).toEqual(was.projects['/home/dana/code/api']);
    expect(now.projects['/home/dana/notes']).toEqual(was.projects['/home/dana/notes']);
    const { projects: _a, ...restBefore } = was;
    const { projects: _b, ...restAfter } = now;
    expect(restAfter).toEqual(restBefore);
    // Byte for byte outside the one entry: the text before and after it is the same.
    const entryStart = after.indexOf('"playwright"', after.indexOf(`"${m.projectDir}"`));
    expect(after.slice(0, entryStart)).toBe(before.slice(0, entryStart));
    const tail = before.slice(before.indexOf('"sentry"', before.indexOf(`"${m.projectDir}"`)));
    expect(after.endsWith(tail)).toBe(true);
  });

  it('prefers the local scope to the project file and the user scope, as Claude Code does', () => {
    const m = machine(
      { '.claude.json': CLAUDE_JSON.replace('"memory"', '"playwright"') },
      {
        '.mcp.json':
          '{ "mcpServers": { "playwright": { "command": "npx", "args": ["@playwright/mcp"] } } }\n',
      },
    );
    const [change, ...others] = m.plan('playwright', 'claude');
    expect(others).toEqual([]);
    expect(change?.scope).toBe('local');
  });

  it('wraps the project file instead when --scope project is asked for', () => {
    const m = machine(
      { '.claude.json': CLAUDE_JSON },
      {
        '.mcp.json':
          '{ "mcpServers": { "playwright": { "command": "npx", "args": ["@playwright/mcp"] } } }\n',
      },
    );
    const [change] = m.plan('playwright', 'claude', 'project');
    expect(change?.label).toBe('.mcp.json');
    expect(change?.scope).toBe('project');
  });

  it('keeps user-scope and local-scope originals apart from the project’s', () => {
    const m = machine({ '.claude.json': CLAUDE_JSON });
    const [local] = m.plan('playwright');
    const stateDir = join(m.projectDir, '.narrowing');
    expect(local?.recordPath).toBe(recordPath(stateDir, 'claude', 'playwright', 'local'));
    expect(local?.recordPath).not.toBe(recordPath(stateDir, 'claude', 'playwright'));
    expect(local?.record).toMatchObject({
      configFile: '~/.claude.json',
      scope: 'local',
      serversAt: `projects[${JSON.stringify(m.projectDir)}].mcpServers`,
    });
  });

  it('names every file and key it looked in when the server is in none', () => {
    const m = machine({ '.claude.json': CLAUDE_JSON });
    expect(() => m.plan('filesystem', 'claude')).toThrow(
      `No server named "filesystem" in ~/.claude.json projects[${JSON.stringify(m.projectDir)}].mcpServers ` +
        '(servers: playwright, sentry), ~/.claude.json mcpServers (servers: memory).',
    );
  });

  it('refuses a ~/.claude.json that is a symbolic link, and writes nothing', () => {
    const m = machine({ 'dotfiles/claude.json': CLAUDE_JSON });
    symlinkSync(join(m.homeDir, 'dotfiles/claude.json'), join(m.homeDir, '.claude.json'));
    const [change] = m.plan('playwright', 'claude', 'local');
    expect(change?.status).toBe('refused');
    expect(change?.message).toContain('symbolic link');
    applyChange(change!);
    expect(m.read('dotfiles/claude.json')).toBe(CLAUDE_JSON.replaceAll('<project>', m.projectDir));
  });

  it('still wraps the project’s .mcp.json when ~/.claude.json is a link it will not read', () => {
    const m = machine(
      { 'dotfiles/claude.json': CLAUDE_JSON },
      { '.mcp.json': '{ "mcpServers": { "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] } } }\n' },
    );
    symlinkSync(join(m.homeDir, 'dotfiles/claude.json'), join(m.homeDir, '.claude.json'));
    const [change, ...others] = m.plan('fetch', 'claude');
    expect(others).toEqual([]);
    expect(change?.status).toBe('change');
    expect(change?.label).toBe('.mcp.json');
  });

  it('writes nothing to ~/.claude.json when the client rewrote it after it was read', () => {
    const m = machine({ '.claude.json': CLAUDE_JSON });
    const [change] = m.plan('playwright');
    const rewritten = m.read('.claude.json').replace('"numStartups": 42', '"numStartups": 43');
    writeFileSync(join(m.homeDir, '.claude.json'), rewritten);
    expect(() => applyChange(change!)).toThrow('was changed by another program');
    expect(m.read('.claude.json')).toBe(rewritten);
    expect(() => readFileSync(change!.recordPath)).toThrow();
  });

  it('starts a user-scope server with this installation even where narrowing is installed in the project', () => {
    const m = machine({ '.cursor/mcp.json': CURSOR_USER_JSON });
    const [change] = planWrap({
      projectDir: m.projectDir,
      homeDir: m.homeDir,
      server: 'postgres',
      client: 'cursor',
      stateDir: join(m.projectDir, '.narrowing'),
      installedLocally: true,
      platform: 'linux',
    });
    expect(change?.message).toContain(
      `now runs through narrowing: node ${resolve(import.meta.dirname, '../../bin/narrowing.js')} mcp --`,
    );
  });

  it('unwraps every scope where the server runs through narrowing', () => {
    const m = machine(
      { '.claude.json': CLAUDE_JSON.replace('"memory"', '"playwright"') },
      {
        '.mcp.json':
          '{ "mcpServers": { "playwright": { "command": "npx", "args": ["@playwright/mcp"] } } }\n',
      },
    );
    const original = m.read('.claude.json');
    applyAll(m.plan('playwright', 'claude', 'local'));
    applyAll(m.plan('playwright', 'claude', 'user'));
    const undone = applyAll(m.unplan('playwright'));
    expect(undone.map((change) => change.scope)).toEqual(['local', 'user']);
    expect(m.read('.claude.json')).toBe(original);
  });
});
