import { type Command, Option } from 'commander';
import type { Enforcement, PresetName } from '../../core/policy.js';
import { packageVersion } from '../version.js';
import { type CommandIO, processIO } from './io.js';
import { parseStoreOption, storeOption } from './store-option.js';

export interface McpCommandOptions {
  readonly stateDir?: string;
  readonly store?: string;
  readonly policy?: string;
  readonly preset?: PresetName;
  readonly enforcement?: Enforcement;
  readonly receipts?: boolean;
  readonly restart?: boolean;
  readonly http?: string;
  readonly token?: string;
  readonly upstreamUrl?: string;
  readonly header?: readonly string[];
  readonly callTimeout?: string;
  readonly otel?: boolean;
}

const HELP = `
Runs between an MCP client and an MCP server. Every tools/call is checked first: a call
that repeats what already failed comes back as an error the model can read (the server is
not called); everything else is forwarded unchanged, and its outcome is learned. What was
learned is kept in the state directory and applies again after a restart.

Put the server's own command after \`--\`. In .mcp.json (Claude Code, Cursor and others):

  {
    "mcpServers": {
      "filesystem": {
        "command": "narrowing-guard",
        "args": ["mcp", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "."]
      }
    }
  }

Examples:
  $ narrowing-guard mcp -- node server.js --root .
  $ narrowing-guard mcp --preset strict --restart -- npx -y @modelcontextprotocol/server-memory
  $ narrowing-guard mcp --upstream-url http://127.0.0.1:3001/mcp
  $ narrowing-guard mcp --upstream-url https://mcp.example.com/sse --header "Authorization: Bearer $API_TOKEN"
  $ NARROWING_TOKEN=s3cret narrowing-guard mcp --http 0.0.0.0:8808 -- node server.js

Over stdio, stdout carries the protocol only; messages go to stderr.
Exit status: 0 when the client disconnects or a signal stops the proxy; 1 when the server
cannot be started or exits (after the restarts --restart allows); 2 when an option or the
policy file cannot be used.`;

export function register(program: Command): void {
  program
    .command('mcp')
    .description('run an MCP server behind narrowing (stdio or Streamable HTTP proxy)')
    .argument('[command...]', 'the MCP server to run, after --')
    .option('--state-dir <dir>', 'where learned constraints and the journal live (default: ./.narrowing)')
    .addOption(storeOption())
    .option('--policy <file>', 'policy file, YAML or JSON')
    .option('--preset <name>', 'preset to start from: precise, strict or off (wins over the policy file)')
    .option('--enforcement <mode>', 'enforce (block) or advisory (only warn); wins over the policy file')
    .option('--no-receipts', 'journal without the hash-chained receipts')
    .option('--restart', 'restart the server with back-off when it crashes (up to 5 attempts)')
    .option('--http <host:port>', 'serve over Streamable HTTP at http://HOST:PORT/mcp instead of stdio')
    .addOption(
      new Option('--token <token>', 'bearer token HTTP clients must send (required off loopback)').env(
        'NARROWING_TOKEN',
      ),
    )
    .option(
      '--upstream-url <url>',
      'proxy a remote server (Streamable HTTP, or legacy HTTP+SSE) instead of running a command',
    )
    .option(
      '--header <"Name: value">',
      'send this header to the --upstream-url server (repeatable; values are never logged)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--call-timeout <seconds>',
      'answer a tool call with an error after this long without progress',
      '600',
    )
    .option(
      '--otel',
      'emit OpenTelemetry spans: one per tool call, with its verdicts inside (see docs/visibility.md)',
    )
    .passThroughOptions()
    .addHelpText('after', HELP)
    .action(async (command: string[], options: McpCommandOptions) => {
      const code = await runMcpCommand(command, options, processIO());
      process.exitCode = code;
      // Everything was closed; if a stray handle (a server that ignores its closed stdin) keeps
      // the process alive, leave anyway.
      setTimeout(() => process.exit(code), 2_000).unref();
    });
}

class UsageError extends Error {}

/** Runs `narrowing-guard mcp` until the proxy stops; returns the exit code. */
export async function runMcpCommand(command: readonly string[], options: McpCommandOptions, io: CommandIO) {
  const log = (message: string) => io.stderr.write(`narrowing: ${message}\n`);
  if (options.token !== undefined && io.env.NARROWING_TOKEN !== options.token) {
    log(
      '--token puts the token on the command line, where `ps` and /proc show it to every user of ' +
        'this machine; set NARROWING_TOKEN in the environment instead',
    );
  }
  const mcp = await import('../../mcp/index.js');
  const { openGuard } = await import('../../guard/index.js');
  let settings: ReturnType<typeof readSettings>;
  try {
    settings = readSettings(command, options, io, mcp);
  } catch (error) {
    log((error as Error).message);
    return 2;
  }
  let guard: Awaited<ReturnType<typeof openGuard>>;
  try {
    guard = await openGuard({
      ...(options.stateDir !== undefined && { stateDir: options.stateDir }),
      ...(options.store !== undefined && { store: parseStoreOption(options.store) }),
      ...(options.policy !== undefined && { policy: options.policy }),
      ...(options.preset !== undefined && { preset: options.preset }),
      ...(options.enforcement !== undefined && { enforcement: options.enforcement }),
      receipts: options.receipts ?? true,
      ...(options.otel && { otel: true }),
      onProblem: log,
    });
  } catch (error) {
    log((error as Error).message);
    return 2;
  }
  const common = {
    target: settings.target,
    guard,
    callTimeoutMs: settings.callTimeoutMs,
    proxyInfo: { name: 'narrowing', version: packageVersion() },
    log,
    ...(options.restart && { restart: mcp.DEFAULT_RESTART_POLICY }),
  };
  if (!settings.listen) return mcp.runStdioProxy(common);
  return mcp.runHttpProxy({ ...common, ...settings.listen, ...(options.token && { token: options.token }) });
}

const PRESETS: readonly string[] = ['precise', 'strict', 'off'];
const ENFORCEMENTS: readonly string[] = ['enforce', 'advisory'];

function readSettings(
  command: readonly string[],
  options: McpCommandOptions,
  io: CommandIO,
  mcp: typeof import('../../mcp/index.js'),
) {
  if (options.preset !== undefined && !PRESETS.includes(options.preset)) {
    throw new UsageError(`--preset must be one of ${PRESETS.join(', ')} (got "${options.preset}")`);
  }
  if (options.enforcement !== undefined && !ENFORCEMENTS.includes(options.enforcement)) {
    throw new UsageError(`--enforcement must be enforce or advisory (got "${options.enforcement}")`);
  }
  const target = readTarget(command, options, io, mcp);
  const seconds = Number(options.callTimeout ?? '600');
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`--call-timeout takes a number of seconds above 0 (got "${options.callTimeout}")`);
  }
  let listen: ReturnType<typeof mcp.parseListenAddress> | undefined;
  if (options.http !== undefined) {
    listen = mcp.parseListenAddress(options.http);
    mcp.checkHttpExposure(listen.host, options.token);
  } else if (options.token !== undefined && io.env.NARROWING_TOKEN === undefined) {
    throw new UsageError('--token only applies with --http');
  }
  return { target, listen, callTimeoutMs: seconds * 1000 };
}

function readTarget(
  command: readonly string[],
  options: McpCommandOptions,
  io: CommandIO,
  mcp: typeof import('../../mcp/index.js'),
): import('../../mcp/index.js').UpstreamTarget {
  if (options.upstreamUrl !== undefined) {
    if (command.length > 0) {
      throw new UsageError('give either --upstream-url or a server command after --, not both');
    }
    let url: URL;
    try {
      url = new URL(options.upstreamUrl);
    } catch {
      throw new UsageError(
        `--upstream-url "${options.upstreamUrl}" is not a URL (try http://127.0.0.1:3001/mcp)`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`--upstream-url must be an http:// or https:// URL (got ${url.protocol})`);
    }
    const headers = mcp.parseHeaders(options.header ?? []);
    return { kind: 'url', url, ...(Object.keys(headers).length > 0 && { headers }) };
  }
  if (options.header !== undefined) throw new UsageError('--header only applies with --upstream-url');
  const [program, ...args] = command;
  if (program === undefined) {
    throw new UsageError(
      'no MCP server to run: put its command after --, as in `narrowing-guard mcp -- node server.js` ' +
        '(or use --upstream-url)',
    );
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(io.env)) if (value !== undefined) env[key] = value;
  // The proxy's own secret is none of the server's business.
  delete env.NARROWING_TOKEN;
  return { kind: 'command', command: program, args, env };
}
