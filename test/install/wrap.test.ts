import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  applyChange,
  type ClientId,
  ConfigFileError,
  nodeValue,
  type PlannedChange,
  parseJsonc,
  planUnwrap,
  planWrap,
  recordPath,
} from '../../src/install/index.js';
import { CLAUDE_MCP_JSON, GEMINI_SETTINGS_JSON, SAMPLE_CONFIGS, VSCODE_MCP_JSON } from './sample-configs.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-wrap-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function target(dir: string, server: string, client: ClientId | 'all' = 'all') {
  return {
    projectDir: dir,
    server,
    client,
    stateDir: join(dir, '.narrowing'),
    homeDir: join(dir, 'home'),
    platform: 'linux' as const,
  };
}

function wrap(dir: string, server: string, client: ClientId | 'all' = 'all', extra = {}): PlannedChange[] {
  const changes = planWrap({
    ...target(dir, server, client),
    installedLocally: false,
    launcher: 'npx',
    ...extra,
  });
  for (const change of changes) applyChange(change);
  return changes;
}

function unwrap(
  dir: string,
  server: string,
  client: ClientId | 'all' = 'all',
  force = false,
): PlannedChange[] {
  const changes = planUnwrap({ ...target(dir, server, client), force });
  for (const change of changes) applyChange(change);
  return changes;
}

function read(dir: string, path: string): string {
  return readFileSync(join(dir, path), 'utf8');
}

function serverEntry(text: string, key: string, server: string): Record<string, unknown> {
  const value = nodeValue(parseJsonc(text).root) as Record<string, Record<string, Record<string, unknown>>>;
  return value[key]![server]!;
}

describe('wrap and unwrap', () => {
  for (const sample of SAMPLE_CONFIGS) {
    const serversKey = sample.client === 'vscode' ? 'servers' : 'mcpServers';
    for (const server of sample.stdioServers) {
      it(`round-trips ${server} in ${sample.path} byte for byte`, () => {
        const dir = project({ [sample.path]: sample.text });
        const [change] = wrap(dir, server, sample.client);
        expect(change?.status).toBe('change');
        expect(read(dir, sample.path)).not.toBe(sample.text);
        const [undone] = unwrap(dir, server, sample.client);
        expect(undone?.status).toBe('change');
        expect(read(dir, sample.path)).toBe(sample.text);
      });
    }

    it(`makes ${sample.path}'s first server start narrowing in front of its own command`, () => {
      const dir = project({ [sample.path]: sample.text });
      const server = sample.stdioServers[0]!;
      const before = serverEntry(sample.text, serversKey, server);
      wrap(dir, server, sample.client);
      const after = serverEntry(read(dir, sample.path), serversKey, server);
      expect(after.command).toBe('npx');
      expect(after.args).toEqual([
        '-y',
        'narrowing-guard',
        'mcp',
        '--',
        before.command,
        ...((before.args as string[] | undefined) ?? []),
      ]);
      const { command: _a, args: _b, ...restAfter } = after;
      const { command: _c, args: _d, ...restBefore } = before;
      expect(restAfter).toEqual(restBefore);
    });

    it(`leaves everything outside the wrapped entry of ${sample.path} untouched`, () => {
      const dir = project({ [sample.path]: sample.text });
      const server = sample.stdioServers[1]!;
      const root = parseJsonc(sample.text).root;
      const servers = root.kind === 'object' ? root.members.find((m) => m.key === serversKey)!.value : root;
      const entry =
        servers.kind === 'object' ? servers.members.find((m) => m.key === server)!.value : servers;
      wrap(dir, server, sample.client);
      const after = read(dir, sample.path);
      expect(after.startsWith(sample.text.slice(0, entry.start))).toBe(true);
      expect(after.endsWith(sample.text.slice(entry.end))).toBe(true);
    });

    it(`refuses the remote server in ${sample.path} and points to --upstream-url`, () => {
      const dir = project({ [sample.path]: sample.text });
      const [change] = wrap(dir, sample.remoteServer.name, sample.client);
      expect(change?.status).toBe('refused');
      expect(change?.message).toContain(`--upstream-url ${sample.remoteServer.url}`);
      expect(read(dir, sample.path)).toBe(sample.text);
    });
  }

  it('does nothing, and says so, when the server is wrapped a second time', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'github');
    const once = read(dir, '.mcp.json');
    const [again] = wrap(dir, 'github');
    expect(again?.status).toBe('unchanged');
    expect(again?.message).toContain('already runs through narrowing');
    expect(read(dir, '.mcp.json')).toBe(once);
  });

  it('still restores the original after a second wrap', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'github');
    wrap(dir, 'github');
    unwrap(dir, 'github');
    expect(read(dir, '.mcp.json')).toBe(CLAUDE_MCP_JSON);
  });

  it('puts back only the command line of an entry edited since, keeping the edit', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'github');
    const edited = read(dir, '.mcp.json').replace(`"\${GITHUB_TOKEN}"`, `"\${GH_PAT}"`);
    writeFileSync(join(dir, '.mcp.json'), edited);
    const [change] = unwrap(dir, 'github');
    expect(change?.status).toBe('change');
    expect(change?.message).toBe(
      '"github" in .mcp.json runs its own command again; the edits made to the entry after wrapping ("env") are kept.',
    );
    expect(read(dir, '.mcp.json')).toBe(CLAUDE_MCP_JSON.replace(`"\${GITHUB_TOKEN}"`, `"\${GH_PAT}"`));
    expect(existsSync(recordPath(join(dir, '.narrowing'), 'claude', 'github'))).toBe(false);
  });

  it('removes the argument list wrap added when the original had none, keeping a new env', () => {
    const original =
      '{\n  "mcpServers": {\n    "memory": {\n      "command": "mcp-server-memory"\n    }\n  }\n}\n';
    const dir = project({ '.mcp.json': original });
    wrap(dir, 'memory');
    const edited = read(dir, '.mcp.json').replace(
      '"mcp-server-memory"]',
      '"mcp-server-memory"],\n      "env": { "MEMORY_FILE_PATH": "/srv/memory.json" }',
    );
    expect(edited).not.toBe(read(dir, '.mcp.json'));
    writeFileSync(join(dir, '.mcp.json'), edited);
    const [change] = unwrap(dir, 'memory');
    expect(change?.status).toBe('change');
    expect(read(dir, '.mcp.json')).toBe(
      original.replace(
        '"mcp-server-memory"\n',
        '"mcp-server-memory",\n      "env": { "MEMORY_FILE_PATH": "/srv/memory.json" }\n',
      ),
    );
  });

  it('leaves alone, and names, an entry whose command line was edited since', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'github');
    const edited = read(dir, '.mcp.json').replace('"mcp",', '"mcp", "--preset", "strict",');
    writeFileSync(join(dir, '.mcp.json'), edited);
    const [change] = unwrap(dir, 'github');
    expect(change?.status).toBe('refused');
    expect(change?.message).toContain('"github" in .mcp.json was left alone: its command line was edited');
    expect(change?.message).toContain('"mcp", "--preset", "strict", "--"');
    expect(change?.message).toContain('--force');
    expect(read(dir, '.mcp.json')).toBe(edited);
  });

  it('restores the saved original over hand edits with force', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'github');
    writeFileSync(join(dir, '.mcp.json'), read(dir, '.mcp.json').replace('"--rm", ', ''));
    const [change] = unwrap(dir, 'github', 'all', true);
    expect(change?.status).toBe('change');
    expect(read(dir, '.mcp.json')).toBe(CLAUDE_MCP_JSON);
  });

  it('keeps edits made elsewhere in the file when unwrapping', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'filesystem');
    const withTimeout = read(dir, '.mcp.json').replace(
      '"url": "https://mcp.sentry.dev/mcp"',
      '"url": "https://mcp.sentry.dev/mcp",\n      "timeout": 30',
    );
    writeFileSync(join(dir, '.mcp.json'), withTimeout);
    unwrap(dir, 'filesystem');
    expect(read(dir, '.mcp.json')).toBe(
      CLAUDE_MCP_JSON.replace(
        '"url": "https://mcp.sentry.dev/mcp"',
        '"url": "https://mcp.sentry.dev/mcp",\n      "timeout": 30',
      ),
    );
  });

  it('accepts a wrapped entry that was only reformatted', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'filesystem');
    const reformatted = `${JSON.stringify(JSON.parse(read(dir, '.mcp.json')), null, 4)}\n`;
    writeFileSync(join(dir, '.mcp.json'), reformatted);
    const [change] = unwrap(dir, 'filesystem');
    expect(change?.status).toBe('change');
    expect(change?.message).toContain('reformatted');
    const restored = serverEntry(read(dir, '.mcp.json'), 'mcpServers', 'filesystem');
    expect(restored).toEqual(serverEntry(CLAUDE_MCP_JSON, 'mcpServers', 'filesystem'));
  });

  it('unwraps from the command line when no original was saved', () => {
    const dir = project({ '.cursor/mcp.json': SAMPLE_CONFIGS[1]!.text });
    wrap(dir, 'postgres');
    rmSync(join(dir, '.narrowing'), { recursive: true });
    const [change] = unwrap(dir, 'postgres');
    expect(change?.message).toContain('no saved original');
    expect(read(dir, '.cursor/mcp.json')).toBe(SAMPLE_CONFIGS[1]!.text);
  });

  it('keeps comments and trailing commas in a VS Code config', () => {
    const dir = project({ '.vscode/mcp.json': VSCODE_MCP_JSON });
    wrap(dir, 'playwright');
    const after = read(dir, '.vscode/mcp.json');
    expect(after).toContain('// Secrets are prompted for once and kept by VS Code.');
    expect(after).toContain(
      '"args": ["-y", "narrowing-guard", "mcp", "--", "npx", "@playwright/mcp@latest", "--headless"] /* no browser window */',
    );
    expect(after).toContain(`"PERPLEXITY_API_KEY": "\${input:perplexity-key}",\n      },\n    },`);
  });

  it('keeps the missing final newline of a Gemini settings file', () => {
    const dir = project({ '.gemini/settings.json': GEMINI_SETTINGS_JSON });
    wrap(dir, 'nodeServer');
    expect(read(dir, '.gemini/settings.json').endsWith('"usageStatisticsEnabled": false\n}')).toBe(true);
  });

  it('writes new lines with the file’s own line endings', () => {
    const crlf = CLAUDE_MCP_JSON.replace(/\n/g, '\r\n');
    const dir = project({ '.mcp.json': crlf });
    wrap(dir, 'sqlite');
    const after = read(dir, '.mcp.json');
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(after).toContain(
      '"command": "npx",\r\n      "args": ["-y", "narrowing-guard", "mcp", "--", "uvx"]',
    );
    unwrap(dir, 'sqlite');
    expect(read(dir, '.mcp.json')).toBe(crlf);
  });

  it('indents a new argument list like the rest of a four-space file', () => {
    const fourSpaces = `{
    "mcpServers": {
        "everything": {
            "command": "mcp-server-everything"
        },
        "git": {
            "command": "uvx",
            "args": [
                "mcp-server-git"
            ]
        }
    }
}
`;
    const dir = project({ '.mcp.json': fourSpaces });
    wrap(dir, 'everything');
    expect(read(dir, '.mcp.json')).toContain(`        "everything": {
            "command": "npx",
            "args": [
                "-y",
                "narrowing-guard",
                "mcp",
                "--",
                "mcp-server-everything"
            ]
        },`);
  });

  it('keeps the permissions of the config file', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    chmodSync(join(dir, '.mcp.json'), 0o600);
    wrap(dir, 'github');
    expect(statSync(join(dir, '.mcp.json')).mode & 0o777).toBe(0o600);
  });

  it('saves the original entry in the state directory and removes it after unwrapping', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'github');
    const saved = recordPath(join(dir, '.narrowing'), 'claude', 'github');
    expect(saved).toBe(join(dir, '.narrowing', 'wrapped', 'claude-github.json'));
    const record = JSON.parse(readFileSync(saved, 'utf8'));
    expect(record.originalEntry).toContain('"command": "docker"');
    unwrap(dir, 'github');
    expect(() => statSync(saved)).toThrow();
  });

  it('leaves no empty state folder behind once the last server is unwrapped', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'github');
    unwrap(dir, 'github');
    expect(() => statSync(join(dir, '.narrowing'))).toThrow();
  });

  it('keeps the state folder when narrowing has learned something there', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON, '.narrowing/state.json': '{}' });
    wrap(dir, 'github');
    unwrap(dir, 'github');
    expect(statSync(join(dir, '.narrowing', 'state.json')).isFile()).toBe(true);
  });

  it('wraps the server in every client config that defines it', () => {
    const dir = project({
      '.mcp.json': CLAUDE_MCP_JSON,
      '.cursor/mcp.json': CLAUDE_MCP_JSON,
      '.vscode/mcp.json': VSCODE_MCP_JSON,
    });
    const changes = wrap(dir, 'filesystem');
    expect(changes.map((change) => change.client.id)).toEqual(['claude', 'cursor']);
    expect(read(dir, '.vscode/mcp.json')).toBe(VSCODE_MCP_JSON);
  });

  it('puts narrowing options before the separator', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'sqlite', 'claude', {
      narrowingOptions: ['--preset', 'strict', '--state-dir', '.narrowing-db'],
    });
    expect(serverEntry(read(dir, '.mcp.json'), 'mcpServers', 'sqlite').args).toEqual([
      '-y',
      'narrowing-guard',
      'mcp',
      '--preset',
      'strict',
      '--state-dir',
      '.narrowing-db',
      '--',
      'uvx',
    ]);
  });

  it('starts a locally installed narrowing directly, by a path that holds from any folder of the project', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON, '.vscode/mcp.json': VSCODE_MCP_JSON });
    wrap(dir, 'filesystem', 'claude', { installedLocally: true, launcher: 'auto' });
    wrap(dir, 'perplexity', 'vscode', { installedLocally: true, launcher: 'auto' });
    expect(serverEntry(read(dir, '.mcp.json'), 'mcpServers', 'filesystem').command).toBe(
      join(dir, 'node_modules/.bin/narrowing'),
    );
    expect(serverEntry(read(dir, '.vscode/mcp.json'), 'servers', 'perplexity').command).toBe(
      `\${workspaceFolder}/node_modules/.bin/narrowing`,
    );
  });

  it('starts the local install by its absolute path for a server that sets its own working directory', () => {
    const dir = project({ '.gemini/settings.json': GEMINI_SETTINGS_JSON });
    wrap(dir, 'pythonTools', 'gemini', { installedLocally: true, launcher: 'auto' });
    expect(serverEntry(read(dir, '.gemini/settings.json'), 'mcpServers', 'pythonTools').command).toBe(
      join(dir, 'node_modules/.bin/narrowing'),
    );
  });

  it('starts this installation by its absolute path, never npx, when the project has no install', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    wrap(dir, 'filesystem', 'claude', { launcher: 'auto' });
    const entry = serverEntry(read(dir, '.mcp.json'), 'mcpServers', 'filesystem');
    expect(entry.command).toBe('node');
    expect((entry.args as string[])[0]).toBe(resolve(import.meta.dirname, '../../bin/narrowing.js'));
    expect((entry.args as string[])[1]).toBe('mcp');
  });

  it('names the servers it found when the server is not there', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    expect(() => planWrap(target(dir, 'filesytem'))).toThrow(
      new ConfigFileError(
        'No server named "filesytem" in .mcp.json (servers: filesystem, github, sqlite, sentry).',
      ),
    );
  });

  it('says where it looked when the project has no MCP config', () => {
    const dir = project({ 'package.json': '{}\n' });
    expect(() => planWrap(target(dir, 'filesystem'))).toThrow(/looked for \.mcp\.json, \.cursor\/mcp\.json/);
  });

  it('refuses a config that is not valid JSON, with the line of the problem', () => {
    const missingComma = `{
  "mcpServers": {
    "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] }
    "git": { "command": "uvx", "args": ["mcp-server-git"] }
  }
}
`;
    const dir = project({ '.mcp.json': missingComma });
    const [change] = planWrap(target(dir, 'fs'));
    expect(change?.status).toBe('refused');
    expect(change?.message).toBe(
      '.mcp.json is not valid JSON: expected "," or "}" after a value at line 4, column 5. Fix it, then try again.',
    );
  });

  it('refuses an entry whose arguments are not strings', () => {
    const dir = project({ '.mcp.json': '{"mcpServers": {"fs": {"command": "npx", "args": ["-y", 3]}}}\n' });
    const [change] = planWrap(target(dir, 'fs'));
    expect(change?.status).toBe('refused');
    expect(change?.message).toContain('"args" is not a list of strings');
  });

  it('reports an unwrapped server as nothing to do', () => {
    const dir = project({ '.mcp.json': CLAUDE_MCP_JSON });
    const [change] = unwrap(dir, 'github');
    expect(change?.status).toBe('unchanged');
    expect(change?.message).toContain('does not run through narrowing');
    expect(read(dir, '.mcp.json')).toBe(CLAUDE_MCP_JSON);
  });
});
