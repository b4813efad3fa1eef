import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import {
  applyChange,
  type ConfigScope,
  changeDiff,
  type PlannedChange,
  planUnwrap,
  planWrap,
  recordPath,
} from '../../src/install/index.js';
import { tomlEditProblem } from '../../src/install/toml-config.js';
import { tempMachine } from './machine.js';
import { CODEX_CONFIG_TOML } from './sample-configs.js';

function machine(
  home: Record<string, string>,
  project: Record<string, string> = {},
  env: Record<string, string> = {},
) {
  const { homeDir, projectDir } = tempMachine(home, project);
  const where = (server: string, scope: ConfigScope | 'auto' = 'auto') => ({
    projectDir,
    homeDir,
    env: Object.fromEntries(Object.entries(env).map(([name, value]) => [name, join(homeDir, value)])),
    server,
    client: 'codex' as const,
    scope,
    stateDir: join(projectDir, '.narrowing'),
    platform: 'linux' as const,
  });
  return {
    homeDir,
    projectDir,
    read: (path: string) => readFileSync(join(homeDir, path), 'utf8'),
    readProject: (path: string) => readFileSync(join(projectDir, path), 'utf8'),
    write: (path: string, text: string) => writeFileSync(join(homeDir, path), text),
    plan: (server: string, scope?: ConfigScope | 'auto') =>
      planWrap({
        ...where(server, scope),
        installedLocally: true,
        launcher: 'npx',
        narrowingOptions: ['--policy', 'narrowing.yaml'],
        userNarrowingOptions: ['--policy', join(projectDir, 'narrowing.yaml')],
        now: new Date(0),
      }),
    unplan: (server: string, scope?: ConfigScope | 'auto') => planUnwrap(where(server, scope)),
    where,
  };
}

function applyAll(changes: PlannedChange[]): PlannedChange[] {
  for (const change of changes) applyChange(change);
  return changes;
}

const USER_CONFIG = '.codex/config.toml';

describe("wrap and unwrap in Codex's config.toml", () => {
  it('wraps a user-scope server by editing only its command and the start of its args', () => {
    const m = machine({ [USER_CONFIG]: CODEX_CONFIG_TOML });
    const [change] = applyAll(m.plan('github'));
    expect(change?.status).toBe('change');
    expect(change?.label).toBe('~/.codex/config.toml');
    const policy = join(m.projectDir, 'narrowing.yaml');
    expect(m.read(USER_CONFIG)).toBe(
      CODEX_CONFIG_TOML.replace(`command = 'npx' # launcher`, `command = "npx" # launcher`).replace(
        'args = [\n',
        `args = [\n  "-y",\n  "narrowing-guard",\n  "mcp",\n  "--policy",\n  "${policy}",\n  "--",\n  "npx",\n`,
      ),
    );
  });

  it('finds the user config in CODEX_HOME when it is set, and names it so', () => {
    const m = machine({ 'codex-home/config.toml': CODEX_CONFIG_TOML }, {}, { CODEX_HOME: 'codex-home' });
    const [change] = applyAll(m.plan('github'));
    expect(change).toMatchObject({ status: 'change', label: '$CODEX_HOME/config.toml' });
    expect(m.read('codex-home/config.toml')).toContain('"narrowing-guard",\n  "mcp",');
    applyAll(m.unplan('github'));
    expect(m.read('codex-home/config.toml')).toBe(CODEX_CONFIG_TOML);
  });

  it('shows the edit as a diff and writes nothing on a dry run', () => {
    const m = machine({ [USER_CONFIG]: CODEX_CONFIG_TOML });
    const [change] = m.plan('memory');
    expect(changeDiff(change!)).toContain(
      ' command = "npx"\n+args = ["-y", "narrowing-guard", "mcp", "--policy", ',
    );
    expect(m.read(USER_CONFIG)).toBe(CODEX_CONFIG_TOML);
  });

  it('keeps comments, other tables and the env sub-table, and the result still parses', () => {
    const m = machine({ [USER_CONFIG]: CODEX_CONFIG_TOML });
    applyAll(m.plan('github'));
    applyAll(m.plan('memory'));
    const after = m.read(USER_CONFIG);
    for (const line of CODEX_CONFIG_TOML.split('\n').filter((line) => !line.startsWith('command'))) {
      expect(after).toContain(line);
    }
    const parsed = parseToml(after) as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(parsed.mcp_servers.github?.env).toEqual({ GITHUB_TOOLSETS: 'repos,issues' });
    expect(parsed.mcp_servers.memory?.args).toEqual([
      '-y',
      'narrowing-guard',
      'mcp',
      '--policy',
      join(m.projectDir, 'narrowing.yaml'),
      '--',
      'npx',
    ]);
  });

  it('unwraps byte for byte, also a server that had no args', () => {
    const m = machine({ [USER_CONFIG]: CODEX_CONFIG_TOML });
    applyAll(m.plan('github'));
    applyAll(m.plan('memory'));
    expect(applyAll(m.unplan('github')).map((change) => change.message)).toEqual([
      '"github" in ~/.codex/config.toml (user scope, mcp_servers) is restored as it was.',
    ]);
    applyAll(m.unplan('memory'));
    expect(m.read(USER_CONFIG)).toBe(CODEX_CONFIG_TOML);
  });

  it('saves the entry without the secrets of its env table, and still unwraps byte for byte', () => {
    const key = 'sk_live_51HqLyjWDarjtT1zdp7dc9a2b';
    const config = CODEX_CONFIG_TOML.replace('GITHUB_TOOLSETS', `STRIPE_API_KEY = '${key}'\nGITHUB_TOOLSETS`);
    const m = machine({ [USER_CONFIG]: config });
    applyAll(m.plan('github'));
    const record = readFileSync(
      recordPath(join(m.projectDir, '.narrowing'), 'codex', 'github', 'user'),
      'utf8',
    );
    expect(record).not.toContain(key);
    expect(record).toContain("STRIPE_API_KEY = '[REDACTED#1]'");
    applyAll(m.unplan('github'));
    expect(m.read(USER_CONFIG)).toBe(config);
  });

  it('after an edit elsewhere in the entry, unwrap restores only the command line and keeps the edit', () => {
    const m = machine({ [USER_CONFIG]: CODEX_CONFIG_TOML });
    applyAll(m.plan('github'));
    applyAll(m.plan('memory'));
    m.write(USER_CONFIG, m.read(USER_CONFIG).replace('tool_timeout_sec = 60', 'tool_timeout_sec = 120'));
    m.write(USER_CONFIG, m.read(USER_CONFIG).replace('enabled = true', 'enabled = false'));
    const [github] = applyAll(m.unplan('github'));
    expect(github?.message).toContain(
      'the edits made to the entry after wrapping ("tool_timeout_sec") are kept',
    );
    const [memory] = applyAll(m.unplan('memory'));
    expect(memory?.message).toContain('("enabled") are kept');
    expect(m.read(USER_CONFIG)).toBe(
      CODEX_CONFIG_TOML.replace('tool_timeout_sec = 60', 'tool_timeout_sec = 120').replace(
        'enabled = true',
        'enabled = false',
      ),
    );
  });

  it('refuses a streamable HTTP server and points at the proxy', () => {
    const m = machine({ [USER_CONFIG]: CODEX_CONFIG_TOML });
    const [change] = m.plan('figma');
    expect(change?.status).toBe('refused');
    expect(change?.message).toContain('is a remote (HTTP) server');
    expect(change?.message).toContain('--upstream-url https://mcp.figma.com/mcp');
    expect(change?.after).toBe(CODEX_CONFIG_TOML);
  });

  it('refuses a server written as an inline table and says how to rewrite it', () => {
    const text = '[mcp_servers]\ndocs = { command = "npx", args = ["-y", "@upstash/context7-mcp"] }\n';
    const m = machine({ [USER_CONFIG]: text });
    const [change] = m.plan('docs');
    expect(change?.status).toBe('refused');
    expect(change?.message).toContain('is not written as its own [mcp_servers.docs] table');
    expect(change?.message).toContain('Rewrite it as a table `[mcp_servers.docs]`');
  });

  it('refuses a server written with dotted keys at the top level', () => {
    const text =
      'mcp_servers.docs.command = "npx"\nmcp_servers.docs.args = ["-y", "@upstash/context7-mcp"]\n';
    const m = machine({ [USER_CONFIG]: text });
    expect(m.plan('docs')[0]?.status).toBe('refused');
    expect(m.read(USER_CONFIG)).toBe(text);
  });

  it('reports a file that is not TOML as such', () => {
    const m = machine({ [USER_CONFIG]: '[mcp_servers.docs]\ncommand = npx\n' });
    const [change] = m.plan('docs');
    expect(change?.status).toBe('refused');
    expect(change?.message).toMatch(
      /^~\/\.codex\/config\.toml is not valid TOML: .+ Fix it, then try again\.$/,
    );
  });

  it("wraps the project's .codex/config.toml before the user's, with absolute paths", () => {
    const project =
      '[mcp_servers.memory]\ncommand = "npx"\nargs = ["-y", "@modelcontextprotocol/server-memory"]\n';
    const m = machine({ [USER_CONFIG]: CODEX_CONFIG_TOML }, { '.codex/config.toml': project });
    const [change] = applyAll(m.plan('memory'));
    expect(change?.scope).toBe('project');
    expect(change?.message).toContain(
      `npx -y narrowing-guard mcp --policy ${join(m.projectDir, 'narrowing.yaml')} --`,
    );
    expect(m.read(USER_CONFIG)).toBe(CODEX_CONFIG_TOML);
    applyAll(m.unplan('memory'));
    expect(m.readProject('.codex/config.toml')).toBe(project);
  });

  it('unwraps from the wrapped command line when the saved original is gone', () => {
    const m = machine({ [USER_CONFIG]: CODEX_CONFIG_TOML });
    applyAll(m.plan('github'));
    rmSync(join(m.projectDir, '.narrowing'), { recursive: true });
    const [change] = applyAll(m.unplan('github'));
    expect(change?.message).toContain('is restored from its wrapped command line');
    const parsed = parseToml(m.read(USER_CONFIG)) as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(parsed).toEqual(parseToml(CODEX_CONFIG_TOML));
  });

  it('with --force, unwrap puts the saved entry back whole, dropping the edits made since', () => {
    const m = machine({ [USER_CONFIG]: CODEX_CONFIG_TOML });
    applyAll(m.plan('github'));
    m.write(USER_CONFIG, m.read(USER_CONFIG).replace('"-y", # answer', '"--yes", # answer'));
    m.write(USER_CONFIG, m.read(USER_CONFIG).replace('tool_timeout_sec = 60', 'tool_timeout_sec = 120'));
    expect(m.unplan('github')[0]?.status).toBe('refused');
    const [change] = applyAll(planUnwrap({ ...m.where('github'), force: true }));
    expect(change?.status).toBe('change');
    expect(m.read(USER_CONFIG)).toBe(CODEX_CONFIG_TOML);
  });

  it('reads a quoted server name and spaced table headers', () => {
    const text =
      '[ mcp_servers . "my docs" ] # Context7\ncommand = "npx"\nargs = ["-y", "@upstash/context7-mcp"]\n';
    const m = machine({ [USER_CONFIG]: text });
    const [change] = applyAll(m.plan('my docs'));
    expect(change?.status).toBe('change');
    expect(m.read(USER_CONFIG)).toContain('args = ["-y", "narrowing-guard", "mcp", "--policy", ');
    applyAll(m.unplan('my docs'));
    expect(m.read(USER_CONFIG)).toBe(text);
  });

  it("the check after an edit refuses any change beyond the server's command and args", () => {
    const before = CODEX_CONFIG_TOML;
    const wrappedOnly = before.replace(`command = 'npx'`, 'command = "uvx"');
    expect(tomlEditProblem(before, wrappedOnly, 'github')).toBeUndefined();
    expect(tomlEditProblem(before, wrappedOnly.replace('repos,issues', 'repos'), 'github')).toBe(
      'the edit would change more than the server\'s "command" and "args"',
    );
    expect(tomlEditProblem(before, wrappedOnly.replace('notifications = true', ''), 'github')).toContain(
      'would change more than',
    );
    expect(tomlEditProblem(before, `${wrappedOnly}[tui]\n`, 'github')).toMatch(
      /^the edited file would not be valid TOML/,
    );
  });
});
