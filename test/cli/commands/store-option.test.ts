import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExplain } from '../../../src/cli/commands/explain.js';
import { runForget } from '../../../src/cli/commands/forget.js';
import { commandModules } from '../../../src/cli/commands/index.js';
import { runInstall } from '../../../src/cli/commands/install.js';
import { runMcpCommand } from '../../../src/cli/commands/mcp.js';
import { runReplay } from '../../../src/cli/commands/replay.js';
import { parseStoreOption } from '../../../src/cli/commands/store-option.js';
import { runWrap } from '../../../src/cli/commands/wrap.js';
import { isNarrowingError } from '../../../src/core/errors.js';
import { openGuardSync } from '../../../src/guard/open.js';
import { spawnProxy } from '../../mcp/support/harness.js';
import { FILESYSTEM_SERVER } from '../../mcp/support/paths.js';
import { type RedisServer, redisInstalled, startRedis } from '../../stores/redis-server.js';
import { bundledScript } from '../../support/bundled-script.js';
import { captureIO } from './cli-io.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-store-option-')));
  dirs.push(dir);
  mkdirSync(join(dir, '.narrowing'));
  return dir;
}

/** Saves, in the file store of `stateDir`, the ban a failed read of a missing file teaches. */
async function learnMissingRead(stateDir: string): Promise<void> {
  const guard = openGuardSync({ stateDir, journal: false, probe: false });
  const read = { tool: 'read_file', args: { path: 'config/prod.yaml' } };
  guard.check(read);
  guard.record({
    proposal: read,
    success: false,
    content: "ENOENT: no such file or directory, open 'config/prod.yaml'",
  });
  await guard.close();
}

/** The store error a value gets, or undefined when it is taken. */
function refusal(value: string): unknown {
  try {
    parseStoreOption(value);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('--store values', () => {
  it('takes file, sqlite, memory and Redis URLs', () => {
    for (const value of [
      'file',
      'sqlite',
      'memory',
      'redis://127.0.0.1:6379',
      'rediss://cache.internal:6380/2',
    ])
      expect(refusal(value)).toBeUndefined();
  });

  it('refuses anything else with a USAGE error that lists the accepted forms', () => {
    for (const value of ['sqlite3', 'postgres://db/narrowing', 'File', '', 'redis://[::1']) {
      const error = refusal(value);
      expect(isNarrowingError(error) && error.code).toBe('USAGE');
      expect((error as Error).message).toMatch(/file, sqlite, memory or a redis:\/\//);
    }
  });

  it('answers every string with the store or a USAGE error, and never echoes a password', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.constantFrom('', 'redis://u:Pw0rd-x9@', 'rediss://:Pw0rd-x9@'),
        (text, prefix) => {
          const error = refusal(prefix + text);
          if (error === undefined) return;
          expect(isNarrowingError(error) && error.code).toBe('USAGE');
          expect((error as Error).message).not.toContain('Pw0rd-x9');
        },
      ),
    );
  });

  const takers = [
    'mcp',
    'inspect',
    'explain',
    'forget',
    'feedback',
    'replay',
    'wrap',
    'hook',
    'install',
    'agent',
  ];
  it.each(takers)('is an option of narrowing-guard %s', (name) => {
    const program = new Command().enablePositionalOptions();
    for (const register of commandModules) register(program);
    const command = program.commands.find((each) => each.name() === name);
    expect(command?.options.map((option) => option.long)).toContain('--store');
  });

  it('is no option of the commands that touch no learned state', () => {
    const program = new Command().enablePositionalOptions();
    for (const register of commandModules) register(program);
    const others = program.commands.filter((command) => !takers.includes(command.name()));
    expect(others.map((command) => command.name())).toEqual(
      expect.arrayContaining(['verify', 'policy', 'trace', 'unwrap', 'demo', 'bench', 'uninstall']),
    );
    for (const command of others)
      expect(command.options.map((option) => option.long)).not.toContain('--store');
  });
});

/** Starts the agent process of guard-holding-ban.ts; resolves with its first line and a wait for its last. */
function agentHoldingBan(store: string, dir: string) {
  const child = spawn(
    process.execPath,
    [bundledScript('test/cli/commands/support/guard-holding-ban.ts', { packages: 'external' }), store, dir],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const learned = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /^learned (\S+)\n/.exec(stdout);
      if (match) resolve(match[1] ?? '');
    });
    child.on('close', () => reject(new Error(`the agent process ended: ${stderr}`)));
  });
  const last = new Promise<string>((resolve) =>
    child.on('close', () => {
      clearTimeout(timer);
      resolve(stdout.trim().split('\n').at(-1) ?? '');
    }),
  );
  return { learned, last };
}

describe('narrowing-guard mcp --store', () => {
  it('exits 2 before starting the server, saying which stores it takes', async () => {
    const { io, stderr } = captureIO();
    const code = await runMcpCommand(
      [process.execPath, FILESYSTEM_SERVER, '.'],
      { store: 'redis:/one-slash' },
      io,
    );
    expect(code).toBe(2);
    expect(stderr()).toContain(
      '--store takes file, sqlite, memory or a redis:// (rediss://) URL (got "redis:/one-slash")',
    );
  });
});

describe('narrowing-guard forget --store', () => {
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    if (redisInstalled) redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const stores = [
    ['sqlite', () => 'sqlite'],
    ...(redisInstalled ? [['a redis:// URL', () => redis?.url ?? '']] : []),
  ] as [string, () => string][];

  it.each(stores)(
    'lifts in %s a ban that another process’s running guard then stops enforcing, and journals it',
    async (_, store) => {
      const dir = project();
      const agent = agentHoldingBan(store(), dir);
      const id = await agent.learned;
      expect(id).not.toBe('nothing');
      const { io, stdout } = captureIO();
      expect(await runForget([id.slice(0, 8)], { store: store() }, io, dir)).toBe(0);
      expect(stdout()).toMatch(/^Forgot 1 constraint in \.narrowing:/);
      expect(await agent.last).toBe('lifted allow');
      const journal = readFileSync(join(dir, '.narrowing', 'journal.jsonl'), 'utf8');
      expect(journal).toContain('forgotten by hand');
    },
    60_000,
  );

  it('says which stores it takes when given another, and exits 2', async () => {
    const { io, stderr } = captureIO();
    expect(await runForget(['3f9c2a71'], { store: 'postgres://db' }, io, project())).toBe(2);
    expect(stderr()).toContain('--store takes file, sqlite, memory or a redis://');
  });
});

describe('narrowing-guard explain --store', () => {
  it('shows a constraint a proxy run on the SQLite store learned', async () => {
    const dir = project();
    const work = join(dir, 'work');
    mkdirSync(work);
    const stateDir = join(dir, '.narrowing');
    const proxy = await spawnProxy([
      '--state-dir',
      stateDir,
      '--store',
      'sqlite',
      '--',
      process.execPath,
      FILESYSTEM_SERVER,
      work,
    ]);
    await proxy.client.callTool({ name: 'read_text_file', arguments: { path: join(work, 'missing.txt') } });
    expect(await proxy.close()).toBe(0);

    const { io, stdout } = captureIO();
    expect(await runExplain({ stateDir, store: 'sqlite' }, io, { cwd: dir })).toBe(0);
    expect(stdout()).toMatch(
      /In force now in the sqlite store: 1 constraint:\n {2}\S+ {2}blocks .*missing\.txt/,
    );
  }, 60_000);

  it('reads a SQLite store that does not exist yet as empty, without creating it', async () => {
    const dir = project();
    const { io, stdout } = captureIO();
    expect(await runExplain({ store: 'sqlite', json: true }, io, { cwd: dir })).toBe(0);
    expect(JSON.parse(stdout()).inForce).toMatchObject({ store: 'sqlite', constraints: [] });
    expect(existsSync(join(dir, '.narrowing', 'state.db'))).toBe(false);
  });

  it('shows the store alone when there is no journal to explain', async () => {
    const dir = project();
    await learnMissingRead(join(dir, '.narrowing'));
    const { io, stdout } = captureIO();
    expect(await runExplain({ store: 'file', json: true }, io, { cwd: dir })).toBe(0);
    expect(JSON.parse(stdout()).inForce).toMatchObject({
      store: 'file',
      constraints: [{ target: 'config/prod.yaml' }],
    });
  });
});

describe('narrowing-guard replay --store', () => {
  it('starts from the constraints learned in the store, and writes nothing back', async () => {
    const dir = project();
    const stateDir = join(dir, '.narrowing');
    await learnMissingRead(stateDir);
    const before = readFileSync(join(stateDir, 'state.json'), 'utf8');
    const trace = join(dir, 'trace.jsonl');
    const now = Date.now();
    writeFileSync(
      trace,
      [
        { type: 'meta', version: 1, name: 'one read' },
        {
          type: 'call',
          ts: now,
          tool: 'read_file',
          args: { path: 'config/prod.yaml' },
          result: { ok: false, error: 'ENOENT: no such file or directory' },
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const fresh = captureIO();
    expect(await runReplay(trace, { json: true }, fresh.io)).toBe(0);
    expect(JSON.parse(fresh.stdout().split('\n')[0] ?? '{}').verdict).toBe('allow');
    const stored = captureIO();
    expect(await runReplay(trace, { json: true, store: 'file', stateDir }, stored.io)).toBe(0);
    expect(JSON.parse(stored.stdout().split('\n')[0] ?? '{}').verdict).toBe('block');
    expect(readFileSync(join(stateDir, 'state.json'), 'utf8')).toBe(before);
  });
});

describe('launchers that carry --store', () => {
  const mcpConfig = (dir: string) =>
    writeFileSync(
      join(dir, '.mcp.json'),
      `${JSON.stringify({ mcpServers: { filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } }, null, 2)}\n`,
    );

  it('wrap --store sqlite writes a launcher that runs narrowing-guard mcp --store sqlite', async () => {
    const dir = project();
    mcpConfig(dir);
    const { io } = captureIO();
    expect(
      await runWrap('filesystem', { cwd: dir, client: 'claude', launcher: 'npx', store: 'sqlite' }, io),
    ).toBe(0);
    const entry = JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')).mcpServers.filesystem;
    expect(entry.args).toEqual([
      '-y',
      'narrowing-guard',
      'mcp',
      '--store',
      'sqlite',
      '--',
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '.',
    ]);
  });

  it('wrap refuses a Redis URL with a password, which the config would hold in clear', async () => {
    const dir = project();
    mcpConfig(dir);
    const before = readFileSync(join(dir, '.mcp.json'), 'utf8');
    const { io, stderr } = captureIO();
    expect(
      await runWrap(
        'filesystem',
        { cwd: dir, client: 'claude', store: 'redis://fleet:Pw0rd-x9@10.0.0.5:6379' },
        io,
      ),
    ).toBe(2);
    expect(stderr()).toContain('has a password, which would be written in clear');
    expect(stderr()).not.toContain('Pw0rd-x9');
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(before);
  });

  it('install --store writes the store into the hook command line, quoted for the shell', async () => {
    const dir = project();
    const { io } = captureIO();
    const url = 'redis://10.0.0.5:6379/0?prefix=web';
    expect(
      await runInstall(
        'install',
        'claude-code',
        { cwd: dir, command: 'narrowing-guard hook', store: url },
        io,
      ),
    ).toBe(0);
    const settings = readFileSync(join(dir, '.claude', 'settings.json'), 'utf8');
    expect(JSON.parse(settings).hooks.PreToolUse[0].hooks[0].command).toBe(
      `narrowing-guard hook claude-code --store '${url}'`,
    );
  });

  it('install says which stores it takes when given another, and writes nothing', async () => {
    const dir = project();
    const { io, stderr } = captureIO();
    expect(await runInstall('install', 'claude-code', { cwd: dir, store: 'mysql' }, io)).toBe(2);
    expect(stderr()).toContain('--store takes file, sqlite, memory or a redis://');
  });
});
