import { type Command, InvalidArgumentError } from 'commander';
import type { AgentEvent } from '../../agent/index.js';
import { type CommandIO, processIO } from './io.js';
import { parseStoreOption, storeOption } from './store-option.js';

const HELP = `
Runs the guarded agent loop on a task with a model behind an OpenAI-compatible endpoint (Ollama,
vLLM, LM Studio, OpenAI…) and the tools of MCP servers. The answer streams to stdout; each tool
call with its verdict, retries and the run's end go to stderr. The run state is kept in the state
directory: run again with the same --session and no task to resume it.

Needs the optional peer dependency @ai-sdk/openai-compatible.

Examples:
  $ narrowing-guard agent --model qwen3:8b --base-url http://localhost:11434/v1 \\
      --mcp "npx -y @modelcontextprotocol/server-filesystem ." "Summarise README.md"
  $ narrowing-guard agent --model gpt-4.1-mini --base-url https://api.openai.com/v1 --max-steps 20 "…"`;

export interface AgentCommandOptions {
  readonly model: string;
  readonly baseUrl: string;
  /** The name of the environment variable that holds the API key. */
  readonly apiKeyEnv: string;
  readonly mcp: readonly string[];
  readonly maxSteps?: number;
  readonly timeout?: number;
  readonly tokenBudget?: number;
  readonly reserveTokens?: number;
  readonly costLimit?: number;
  readonly maxTokenRecoveries?: number;
  readonly stream: boolean;
  readonly policy?: string;
  readonly stateDir?: string;
  readonly store?: string;
  readonly session?: string;
  readonly system?: string;
  readonly otel?: boolean;
}

export function register(program: Command): void {
  program
    .command('agent')
    .description('run a guarded agent loop on a task, with a model and MCP tools')
    .argument('[task]', 'what to do; leave out to resume the session')
    .requiredOption('--model <id>', 'the model id the endpoint serves')
    .requiredOption('--base-url <url>', 'the OpenAI-compatible endpoint, e.g. http://localhost:11434/v1')
    .option('--api-key-env <name>', 'the environment variable holding the API key', 'OPENAI_API_KEY')
    .option('--mcp <command>', 'an MCP server to start for tools (repeatable)', collect, [])
    .option('--max-steps <n>', 'stop after this many model steps', positive)
    .option('--timeout <seconds>', 'stop after this much wall time', positive)
    .option('--token-budget <n>', 'stop after this many tokens', positive)
    .option(
      '--reserve-tokens <n>',
      'tokens kept for the answer (default 512, at least two requests)',
      positive,
    )
    .option('--cost-limit <usd>', 'stop after this much money, in US dollars', positive)
    .option('--max-token-recoveries <n>', 'cut-off responses continued in a run (default 3)', count)
    .option('--no-stream', 'wait for whole responses instead of streaming')
    .option('--policy <file>', 'a policy file (JSON or YAML)')
    .option('--state-dir <dir>', 'where learned constraints and the run state are kept')
    .addOption(storeOption())
    .option('--session <id>', 'the session id, to resume a run')
    .option('--system <text>', 'the system prompt')
    .option(
      '--otel',
      'emit OpenTelemetry spans: one per tool call, with its verdicts inside (see docs/visibility.md)',
    )
    .addHelpText('after', HELP)
    .action(async (task: string | undefined, options: AgentCommandOptions) => {
      process.exitCode = await runAgentCommand(task, options);
    });
}

/** Runs the agent; 0 when the run completed, 1 otherwise, 2 for an option it cannot take. */
export async function runAgentCommand(
  task: string | undefined,
  options: AgentCommandOptions,
  io: CommandIO = processIO(),
): Promise<number> {
  let store: ReturnType<typeof parseStoreOption> | undefined;
  try {
    store = options.store === undefined ? undefined : parseStoreOption(options.store);
  } catch (error) {
    io.stderr.write(`narrowing-guard agent: ${(error as Error).message}\n`);
    return 2;
  }
  const { connectMcpServer, createAgent } = await import('../../agent/index.js');
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible').catch(() => {
    throw new Error(
      'narrowing-guard agent needs @ai-sdk/openai-compatible: npm install @ai-sdk/openai-compatible',
    );
  });
  const apiKey = io.env[options.apiKeyEnv];
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: options.baseUrl,
    includeUsage: true,
    ...(apiKey && { apiKey }),
  });
  const servers = [];
  try {
    for (const command of options.mcp) servers.push(await connectMcpServer(command));
    const agent = await createAgent({
      model: provider.chatModel(options.model),
      tools: servers.flatMap((server) => server.tools),
      guard: {
        ...(options.policy !== undefined && { policy: options.policy }),
        ...(options.stateDir !== undefined && { stateDir: options.stateDir }),
        ...(store !== undefined && { store }),
        ...(options.session !== undefined && { sessionId: options.session }),
        ...(options.otel && { otel: true }),
      },
      stream: options.stream,
      ...(options.system !== undefined && { system: options.system }),
      // Without a budget flag the policy's budget (its reserve included) applies as it is.
      ...(budgetFlags(options) && {
        budget: {
          ...(options.maxSteps !== undefined && { maxSteps: options.maxSteps }),
          ...(options.timeout !== undefined && { timeoutMs: options.timeout * 1000 }),
          ...(options.tokenBudget !== undefined && { tokenBudget: options.tokenBudget }),
          ...(options.reserveTokens !== undefined && { reserveTokens: options.reserveTokens }),
          ...(options.costLimit !== undefined && { costLimit: options.costLimit }),
        },
      }),
      ...(options.maxTokenRecoveries !== undefined && { maxTokensRecoveries: options.maxTokenRecoveries }),
      onEvent: (event) => report(event, io),
    });
    const stop = new AbortController();
    const onSignal = () => stop.abort('interrupted');
    process.once('SIGINT', onSignal);
    try {
      const result =
        task === undefined
          ? await agent.resume({ signal: stop.signal })
          : await agent.run(task, { signal: stop.signal });
      if (!options.stream && result.text) io.stdout.write(result.text);
      io.stdout.write('\n');
      const { steps, tokens } = result.totals;
      // A reason may already start with the state ("cancelled: interrupted"): it is said once.
      const said = result.reason.startsWith(`${result.state}:`)
        ? result.reason
        : `${result.state}: ${result.reason}`;
      io.stderr.write(`${said} (${steps} step${steps === 1 ? '' : 's'}, ${tokens} tokens)\n`);
      return result.state === 'completed' ? 0 : 1;
    } finally {
      process.off('SIGINT', onSignal);
      await agent.close();
    }
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

function report(event: AgentEvent, io: CommandIO): void {
  switch (event.type) {
    case 'text-delta':
      io.stdout.write(event.delta);
      break;
    case 'tool-call':
      io.stderr.write(
        `${event.verdict ?? 'unchecked'} ${event.toolName} ${oneLine(JSON.stringify(event.input))}\n`,
      );
      break;
    case 'tool-result':
      if (event.status === 'refused' || event.status === 'failed') {
        io.stderr.write(`  ${event.status}: ${oneLine(event.output)}\n`);
      }
      break;
    case 'retry':
      io.stderr.write(`retrying in ${event.delayMs} ms: ${oneLine(event.reason)}\n`);
      break;
    case 'recovery':
      io.stderr.write(`continuing a cut-off response (${event.count}/${event.max})\n`);
      break;
    case 'compaction':
      io.stderr.write(`context compacted: ${event.removed} messages removed\n`);
      break;
    case 'budget-warning':
    case 'alternatives':
      io.stderr.write(`${event.text}\n`);
      break;
    default:
      break;
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function budgetFlags(options: AgentCommandOptions): boolean {
  return (
    options.maxSteps !== undefined ||
    options.timeout !== undefined ||
    options.tokenBudget !== undefined ||
    options.reserveTokens !== undefined ||
    options.costLimit !== undefined
  );
}

function count(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new InvalidArgumentError(`expected a whole number, 0 or more (got "${value}")`);
  return number;
}

function positive(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new InvalidArgumentError(`expected a positive number (got "${value}")`);
  return number;
}
