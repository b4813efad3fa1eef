/**
 * Each agent's real hook payloads for the conformance scenarios, built the way the agent builds them.
 * Every shape cites where it comes from: the agent's source (file and commit) or, where only the
 * vendor's documentation describes it, the doc page, marked docs-only.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostAgent } from '../../../src/adapters/tool-call/host-tools.js';

/** A shell command as the model proposes it. `description`: the free text some agents let it add. */
export interface ShellCall {
  readonly id: string;
  readonly command: string;
  readonly description?: string;
}

/** How a command ran: what it printed (stdout and stderr as a terminal shows them) and its exit status. */
export interface CommandRun {
  readonly output: string;
  readonly exitCode: number;
}

/** An MCP tool call as the model proposes it: the server's name as the agent's config gives it, the tool's own name. */
export interface McpCall {
  readonly id: string;
  readonly server: string;
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** What the MCP server answered (`CallToolResult`): its content blocks, and `isError` when the tool failed. */
export interface McpToolResult {
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly isError?: boolean;
}

export interface Session {
  readonly id: string;
  /** The project folder the agent works in. */
  readonly cwd: string;
}

export interface HostFixture {
  readonly agent: HostAgent;
  /** Where each payload shape below comes from. */
  readonly sources: readonly string[];
  /** The payload of a new user prompt. */
  prompt(session: Session, text: string): unknown;
  /** The payload before a shell command runs. */
  beforeShell(session: Session, call: ShellCall): unknown;
  /**
   * The payloads after it ran (most agents send one). A function in the list is what the agent
   * writes once the hooks have answered (Codex's rollout line of the call's output).
   */
  afterShell(session: Session, call: ShellCall, run: CommandRun): unknown[];
  /** The payload before an MCP tool runs. */
  beforeMcp(session: Session, call: McpCall): unknown;
  /** The payloads after it answered (a function: what the agent writes once the hooks have answered). */
  afterMcp(session: Session, call: McpCall, result: McpToolResult): unknown[];
}

const CLAUDE_SOURCES = [
  'stdin fields: @anthropic-ai/claude-agent-sdk 0.3.329 sdk.d.ts (PreToolUseHookInput, PostToolUseHookInput, PostToolUseFailureHookInput, UserPromptSubmitHookInput)',
  "Bash input { command, description, timeout? } and a failed command's error `Exit code N\\n<output>`: Claude Code 2.1 transcripts (tool_use input, tool_result of a failed Bash call)",
  'MCP tools: tool_name `mcp__<server>__<tool>` with the JSON arguments as tool_input and `mcp_server { name, source }`: @anthropic-ai/claude-agent-sdk 0.3.332 sdk.d.ts (PreToolUseHookInput, PostToolUseHookInput, McpServerProvenance)',
  "an MCP tool's result as PostToolUse tool_response: `McpOutput = string | { type, … }[] | { [k]: unknown }` (the text, the content blocks, or a structured object; no error flag): @anthropic-ai/claude-agent-sdk 0.3.332 sdk-tools.d.ts (McpOutput); a result with `isError` comes as PostToolUseFailure `error: string` holding the tool's text (sdk.d.ts PostToolUseFailureHookInput)",
  "Edit / Write tool_response (FileEditOutput, FileWriteOutput) with `staged: true` when the edit was held for the owner's review instead of written, the file unchanged: @anthropic-ai/claude-agent-sdk 0.3.332 sdk-tools.d.ts; every event's base fields (session_id, transcript_path, cwd, prompt_id?, permission_mode?, agent_id?, agent_type?, effort?) and SessionStart source startup | resume | clear | compact | fork: sdk.d.ts (BaseHookInput, SessionStartHookInput)",
  "older versions that passed a failed result through PostToolUse: the CallToolResult's JSON text, or a tool_result block flagged `is_error` (Claude Code 2.0 transcripts' tool_result of a failed MCP call)",
];

/**
 * Claude Code: a failed shell call fires PostToolUseFailure with `Exit code N\n<output>`; a success
 * PostToolUse. `shellTool`: `Bash`, or `PowerShell` where Claude Code runs commands through PowerShell
 * (Windows).
 */
function claudeCodeWith(shellTool: 'Bash' | 'PowerShell', sources: readonly string[]): HostFixture {
  return {
    agent: 'claude-code',
    sources,
    prompt: (session, text) => ({
      ...claudeBase(session),
      hook_event_name: 'UserPromptSubmit',
      prompt: text,
    }),
    beforeShell: (session, call) => ({
      ...claudeBase(session),
      hook_event_name: 'PreToolUse',
      tool_name: shellTool,
      tool_input: bashInput(call),
      tool_use_id: call.id,
    }),
    afterShell: (session, call, run) => [
      run.exitCode === 0
        ? {
            ...claudeBase(session),
            hook_event_name: 'PostToolUse',
            tool_name: shellTool,
            tool_input: bashInput(call),
            tool_use_id: call.id,
            tool_response: { stdout: run.output, stderr: '', interrupted: false, isImage: false },
          }
        : {
            ...claudeBase(session),
            hook_event_name: 'PostToolUseFailure',
            tool_name: shellTool,
            tool_input: bashInput(call),
            tool_use_id: call.id,
            error: `Exit code ${run.exitCode}\n${run.output}`,
            is_interrupt: false,
          },
    ],
    beforeMcp: (session, call) => claudeMcp(session, 'PreToolUse', call),
    afterMcp: (session, call, result) => [
      result.isError
        ? { ...claudeMcp(session, 'PostToolUseFailure', call), error: textOf(result), is_interrupt: false }
        : { ...claudeMcp(session, 'PostToolUse', call), tool_response: result.content },
    ],
  };
}

export const claudeCode: HostFixture = claudeCodeWith('Bash', CLAUDE_SOURCES);

/**
 * Claude Code on Windows running commands through its PowerShell tool: the same input (`command`,
 * `description`) and the same events as Bash, under another tool name.
 */
export const claudeCodePowerShell: HostFixture = claudeCodeWith('PowerShell', [
  ...CLAUDE_SOURCES,
  "the PowerShell tool: @anthropic-ai/claude-agent-sdk 0.3.333 sdk.d.ts (BUILTIN_TOOL_NAMES lists `PowerShell`; PreSkillShellCommandHookInput: `tool_name` is 'the shell tool that runs the command: Bash or PowerShell')",
]);

function claudeMcp(session: Session, event: string, call: McpCall) {
  return {
    ...claudeBase(session),
    hook_event_name: event,
    tool_name: `mcp__${call.server}__${call.tool}`,
    tool_input: call.arguments,
    tool_use_id: call.id,
    mcp_server: { name: call.server, source: 'project' },
  };
}

/** The text of a result's content blocks, as an agent shows it to the model. */
const textOf = (result: McpToolResult) => result.content.map((block) => block.text).join('\n');

/**
 * Claude Code passing an MCP tool's result through to `PostToolUse`, failure included: as the JSON
 * text of the result, or as the tool_result block flagged `is_error`.
 */
export function claudeCodeMcpResponse(shape: 'json-text' | 'blocks'): HostFixture {
  return {
    ...claudeCode,
    afterMcp: (session, call, result) => [
      {
        ...claudeMcp(session, 'PostToolUse', call),
        tool_response:
          shape === 'json-text'
            ? JSON.stringify(result)
            : [
                {
                  type: 'tool_result',
                  tool_use_id: call.id,
                  content: result.content,
                  is_error: result.isError === true,
                },
              ],
      },
    ],
  };
}

/** Claude Code's PostToolUse of an MCP tool that answered, in each shape of its SDK's `McpOutput`. */
export function claudeCodeMcpSuccess(shape: 'text' | 'blocks' | 'structured'): HostFixture {
  return {
    ...claudeCode,
    afterMcp: (session, call, result) =>
      result.isError
        ? claudeCode.afterMcp(session, call, result)
        : [
            {
              ...claudeMcp(session, 'PostToolUse', call),
              tool_response:
                shape === 'text'
                  ? textOf(result)
                  : shape === 'blocks'
                    ? result.content
                    : { path: call.arguments.path, lines: textOf(result).split('\n') },
            },
          ],
  };
}

function claudeBase(session: Session) {
  return {
    session_id: session.id,
    transcript_path: join(session.cwd, '.claude-transcript.jsonl'),
    cwd: session.cwd,
    permission_mode: 'default',
  };
}

function bashInput(call: ShellCall) {
  return { command: call.command, ...(call.description !== undefined && { description: call.description }) };
}

const GEMINI_OLDER_COMMIT = '002a57efeb64405020e8b1c6748883ee7426dd1d';
const GEMINI_COMMIT = '5411f113cafae26161b4969b0237b8e1e024e2c2';
const GEMINI_SOURCES = [
  `stdin fields: google-gemini/gemini-cli packages/core/src/hooks/types.ts and docs/hooks/reference.md @ ${GEMINI_COMMIT}`,
  `MCP tools: tool_name \`mcp_<server>_<tool>\` with mcp_context { server_name, tool_name, command, args }, AfterTool tool_response { llmContent, returnDisplay, error } as the tool returned it: packages/core/src/core/coreToolHookTriggers.ts @ ${GEMINI_COMMIT}; an MCP result with isError: llmContent and error.message "MCP tool '<tool>' reported tool error for function call: <JSON> with response: <JSON of the parts>", error.type mcp_tool_error; a success: llmContent the content as parts [{ text }], each text wrapped as \`<untrusted_context>\\n…\\n</untrusted_context>\`: packages/core/src/tools/mcp-tool.ts (transformTextBlock) and mcp-client.ts (McpCallableTool.callTool) @ ${GEMINI_COMMIT}`,
  `run_shell_command input { command, description?, dir_path? } and its result: llmContent \`Output: …\` then \`Exit Code: N\` only when not 0, then \`Process Group PGID: N\`, the whole wrapped as \`<untrusted_context>\\n…\\n</untrusted_context>\` (its closing tag inside escaped as \`&lt;/untrusted_context&gt;\`); \`error\` only when the process could not start: google-gemini/gemini-cli packages/core/src/tools/shell.ts and packages/core/src/utils/textUtils.ts (wrapUntrusted) @ ${GEMINI_COMMIT}`,
];
const GEMINI_OLDER_SOURCES = [
  `run_shell_command llmContent \`Output: …\` then \`Exit Code: N\` only when not 0, then \`Process Group PGID: N\`, unwrapped (before wrapUntrusted, 1eb8bd418c5e6e8e156ac839d6e4d3101123c174); MCP text parts unwrapped: google-gemini/gemini-cli packages/core/src/tools/shell.ts and mcp-tool.ts @ ${GEMINI_OLDER_COMMIT}`,
];

/** A process group id, new on every run as the real one is. */
let pgid = 41_000;

/** Gemini CLI's `wrapUntrusted` (packages/core/src/utils/textUtils.ts): a tool's text marked as untrusted. */
const untrusted = (text: string) =>
  `<untrusted_context>\n${text.replaceAll('</untrusted_context>', '&lt;/untrusted_context&gt;')}\n</untrusted_context>`;

/**
 * Gemini CLI: AfterTool carries `{ llmContent, returnDisplay }`; a non-zero exit only inside
 * llmContent. Versions since June 2026 wrap a command's llmContent and an MCP tool's text parts in
 * `<untrusted_context>`; `{ wrapped: false }` is the version before.
 */
export function gemini(options: { readonly wrapped?: boolean } = {}): HostFixture {
  const wrapped = options.wrapped ?? true;
  const wrap = (text: string) => (wrapped ? untrusted(text) : text);
  return {
    agent: 'gemini-cli',
    sources: wrapped ? GEMINI_SOURCES : GEMINI_OLDER_SOURCES,
    prompt: (session, text) => ({ ...geminiBase(session, 'BeforeAgent'), prompt: text }),
    beforeShell: (session, call) => ({
      ...geminiBase(session, 'BeforeTool'),
      tool_name: 'run_shell_command',
      tool_input: bashInput(call),
    }),
    afterShell: (session, call, run) => {
      const lines = [`Output: ${run.output === '' ? '(empty)' : run.output}`];
      if (run.exitCode !== 0) lines.push(`Exit Code: ${run.exitCode}`);
      lines.push(`Process Group PGID: ${pgid++}`);
      return [
        {
          ...geminiBase(session, 'AfterTool'),
          tool_name: 'run_shell_command',
          tool_input: bashInput(call),
          tool_response: { llmContent: wrap(lines.join('\n')), returnDisplay: run.output },
        },
      ];
    },
    beforeMcp: (session, call) => geminiMcp(session, 'BeforeTool', call),
    afterMcp: (session, call, result) => {
      if (!result.isError) {
        const parts = result.content.map((block) => ({ text: wrap(block.text) }));
        return [
          {
            ...geminiMcp(session, 'AfterTool', call),
            tool_response: { llmContent: parts, returnDisplay: textOf(result) },
          },
        ];
      }
      const functionCall = { name: call.tool, args: call.arguments };
      const parts = [{ functionResponse: { name: call.tool, response: result } }];
      const message = `MCP tool '${call.tool}' reported tool error for function call: ${JSON.stringify(functionCall)} with response: ${JSON.stringify(parts)}`;
      return [
        {
          ...geminiMcp(session, 'AfterTool', call),
          tool_response: {
            llmContent: message,
            returnDisplay: `Error: MCP tool '${call.tool}' reported an error.`,
            error: { message, type: 'mcp_tool_error' },
          },
        },
      ];
    },
  };
}

/** Gemini CLI as its current source has it. */
export const geminiCli = gemini();

function geminiMcp(session: Session, event: string, call: McpCall) {
  return {
    ...geminiBase(session, event),
    tool_name: `mcp_${call.server}_${call.tool}`,
    tool_input: call.arguments,
    mcp_context: {
      server_name: call.server,
      tool_name: call.tool,
      command: 'npx',
      args: ['-y', `@modelcontextprotocol/server-${call.server}`, session.cwd],
    },
  };
}

function geminiBase(session: Session, event: string) {
  return {
    session_id: session.id,
    transcript_path: join(session.cwd, '.gemini-chat.json'),
    cwd: session.cwd,
    hook_event_name: event,
    timestamp: '2026-11-28T21:00:00.000Z',
  };
}

const CODEX_SOURCES = [
  'PostToolUse stdin { session_id, turn_id, transcript_path, cwd, hook_event_name, model, permission_mode, tool_name, tool_input, tool_response, tool_use_id }: openai/codex codex-rs/hooks/src/events/post_tool_use.rs @ 0082977cebb9fbd524046914dbc4305e5b8e0b95 (command_input_json), and the post-tool-use.command.input schema embedded in codex-cli 0.171.0',
  "exec_command: tool_name `Bash`, tool_input { command } (the model's `justification` left out), tool_response the command's output as a bare string, no exit status; a command still running when exec_command returns gets its PostToolUse when it ends, with the call id of exec_command; a command run from code mode's `exec` script fires its own PreToolUse and PostToolUse with tool_use_id `exec-<uuid>`, the id its item_completed carries: recorded from a run of codex-cli 0.171.0 (npm @openai/codex 0.171.0-linux-x64) against a scripted model",
  'MCP tools: tool_name `mcp__<server>__<tool>`, tool_input the JSON arguments, tool_response the CallToolResult serialised { content, structuredContent?, isError? }: openai/codex codex-rs/core/src/tools/context.rs (McpToolOutput::post_tool_use_response) and codex-rs/protocol/src/mcp.rs @ 38519acda4bc34096a149d680363643d792d3a47 (CallToolResult, camelCase)',
  'MCP tools in codex-cli 0.171.0: PostToolUse only for a result that is not an error; a result with isError runs no PostToolUse, and the rollout gets event_msg item_completed { item: { type: McpToolCall, id: <call id>, server, tool, arguments, status: "failed", result } } and the function_call_output: recorded from a run of codex-cli 0.171.0 with @modelcontextprotocol/server-filesystem',
  "rollout lines when PostToolUse fires: event_msg item_completed { item: { type: CommandExecution, id: <call id>, status, exit_code, aggregated_output } } written before the hooks run, function_call_output ('Chunk ID: …\\nWall time: …\\nProcess exited with code N\\nOriginal token count: N\\nOutput:\\n…') after them: recorded from a run of codex-cli 0.171.0",
  'older rollouts: exec_command_end (exit_code) only in the extended persistence mode, and no item_completed: openai/codex codex-rs/rollout/src/policy.rs @ 851c9d5ef023ef39288bd3cb9bde3bdee8812d93',
];

/** What a Codex version's rollout holds about a command by the time `PostToolUse` fires. */
export type CodexRollout =
  /** codex-cli 0.171: `item_completed` with the command's status and exit code, in any persistence mode. */
  | 'item-completed'
  /** Older versions keeping extended history: `exec_command_end` with the exit code. */
  | 'extended-history'
  /** Older versions by default: nothing about the call until its output, written after the hooks. */
  | 'none';

/**
 * Where Codex runs `shell_command` rather than `exec_command` (unified exec off, as on Windows by
 * default): a command that exits non-zero is an error of the tool's handler, so no `PostToolUse`
 * runs for it; the rollout records the call, its `CommandExecution` item and its output.
 */
const CODEX_SHELL_COMMAND_SOURCES = [
  'shell_command: PreToolUse tool_name `Bash`, tool_input { command } (the command of its arguments); a non-zero exit returned as Err(FunctionCallError::RespondToModel(output)) by ToolEmitter::finish (openai/codex codex-rs/core/src/tools/events.rs), and PostToolUse run only for a call whose handler succeeded (codex-rs/core/src/tools/registry.rs)',
  "shell_command's rollout: response_item function_call { name: shell_command, arguments: { command, workdir, timeout_ms } }, event_msg item_completed { item: { type: CommandExecution, source: agent, status, exit_code, aggregated_output } }, response_item function_call_output ('Exit code: N\\nWall time: …\\nOutput:\\n…'): codex-rs/protocol (CommandExecutionItem, ExecCommandSource::Agent), codex-rs/core/src/tools/mod.rs (format_exec_output_for_model_freeform); unified_exec on by default except on Windows (codex-rs/features, default_enabled: !cfg!(windows))",
];

/**
 * Codex: `tool_response` is the bare output. What its rollout holds about the call when
 * `PostToolUse` fires depends on the version (`CodexRollout`); the call's `function_call_output`
 * is written after the hooks ran. `shellTool: 'shell_command'`: the shell tool where unified exec
 * is off, whose failures Codex reports to no hook.
 */
export function codex(
  options: { readonly rollout?: CodexRollout; readonly shellTool?: 'exec_command' | 'shell_command' } = {},
): HostFixture {
  const kept = options.rollout ?? 'item-completed';
  const shellCommand = options.shellTool === 'shell_command';
  const rollout = (session: Session) => join(session.cwd, '.codex-rollout.jsonl');
  const line = (session: Session, type: string, payload: unknown) =>
    appendFileSync(
      rollout(session),
      `${JSON.stringify({ timestamp: '2026-11-28T21:00:00.000Z', type, payload })}\n`,
    );
  /** A `shell_command` call: its lines in the rollout, and a PostToolUse only when it succeeded. */
  const afterShellCommand = (session: Session, call: ShellCall, run: CommandRun) => {
    line(session, 'response_item', {
      type: 'function_call',
      name: 'shell_command',
      arguments: JSON.stringify({ command: call.command, workdir: session.cwd }),
      call_id: call.id,
    });
    line(session, 'event_msg', {
      type: 'item_completed',
      thread_id: session.id,
      turn_id: 'turn-1',
      item: {
        type: 'CommandExecution',
        id: call.id,
        command: ['/bin/bash', '-lc', call.command],
        cwd: `file://${session.cwd}`,
        source: 'agent',
        status: run.exitCode === 0 ? 'completed' : 'failed',
        aggregated_output: run.output,
        exit_code: run.exitCode,
      },
    });
    const output = () =>
      line(session, 'response_item', {
        type: 'function_call_output',
        call_id: call.id,
        output: `Exit code: ${run.exitCode}\nWall time: 0.4 seconds\nOutput:\n${run.output}`,
      });
    if (run.exitCode !== 0) {
      output();
      return [];
    }
    return [
      {
        ...codexBase(session, rollout(session), 'PostToolUse'),
        tool_name: 'Bash',
        tool_input: { command: call.command },
        tool_response: run.output,
        tool_use_id: call.id,
      },
      output,
    ];
  };
  return {
    agent: 'codex',
    sources: shellCommand ? [...CODEX_SOURCES, ...CODEX_SHELL_COMMAND_SOURCES] : CODEX_SOURCES,
    prompt: (session, text) => {
      writeFileSync(rollout(session), '', { flag: 'a' });
      return { ...codexBase(session, rollout(session), 'UserPromptSubmit'), prompt: text };
    },
    beforeShell: (session, call) => ({
      ...codexBase(session, rollout(session), 'PreToolUse'),
      tool_name: 'Bash',
      tool_input: { command: call.command },
      tool_use_id: call.id,
    }),
    afterShell: (session, call, run) => {
      if (shellCommand) return afterShellCommand(session, call, run);
      if (kept === 'item-completed') {
        line(session, 'event_msg', {
          type: 'item_completed',
          thread_id: session.id,
          turn_id: 'turn-1',
          item: {
            type: 'CommandExecution',
            id: call.id,
            process_id: '87673',
            command: ['/bin/bash', '-lc', call.command],
            cwd: `file://${session.cwd}`,
            parsed_cmd: [{ type: 'unknown', cmd: call.command }],
            source: 'unified_exec_startup',
            status: run.exitCode === 0 ? 'completed' : 'failed',
            aggregated_output: run.output,
            exit_code: run.exitCode,
            duration: { secs: 0, nanos: 16_875 },
          },
        });
      }
      if (kept === 'extended-history') {
        line(session, 'event_msg', {
          type: 'exec_command_end',
          call_id: call.id,
          stdout: run.output,
          stderr: '',
          aggregated_output: run.output,
          exit_code: run.exitCode,
          duration: { secs: 0, nanos: 200_000_000 },
          formatted_output: run.output,
        });
      }
      const payload = {
        ...codexBase(session, rollout(session), 'PostToolUse'),
        tool_name: 'Bash',
        tool_input: { command: call.command },
        tool_response: run.output,
        tool_use_id: call.id,
      };
      return [
        payload,
        // Written once the hooks have answered: seen by later events only.
        () =>
          line(session, 'response_item', {
            type: 'function_call_output',
            call_id: call.id,
            output: `Chunk ID: 756b46\nWall time: 0.0000 seconds\nProcess exited with code ${run.exitCode}\nOriginal token count: 0\nOutput:\n${run.output}`,
          }),
      ];
    },
    beforeMcp: (session, call) => ({
      ...codexBase(session, rollout(session), 'PreToolUse'),
      tool_name: `mcp__${call.server}__${call.tool}`,
      tool_input: call.arguments,
      tool_use_id: call.id,
    }),
    afterMcp: (session, call, result) => {
      const failed = result.isError === true;
      line(session, 'response_item', {
        type: 'function_call',
        name: call.tool,
        namespace: `mcp__${call.server}`,
        arguments: JSON.stringify(call.arguments),
        call_id: call.id,
      });
      if (kept === 'item-completed') {
        line(session, 'event_msg', {
          type: 'item_completed',
          thread_id: session.id,
          turn_id: 'turn-1',
          item: {
            type: 'McpToolCall',
            id: call.id,
            server: call.server,
            tool: call.tool,
            arguments: call.arguments,
            readOnlyHint: true,
            status: failed ? 'failed' : 'completed',
            result,
            duration: { secs: 0, nanos: 2_499_044 },
          },
        });
      }
      const output = () =>
        line(session, 'response_item', {
          type: 'function_call_output',
          call_id: call.id,
          output: [
            { type: 'input_text', text: 'Wall time: 0.0188 seconds\nOutput:' },
            ...result.content.map((block) => ({ type: 'input_text', text: block.text })),
          ],
        });
      // codex-cli 0.171 runs no PostToolUse for a result that is an error (older versions did).
      if (failed && kept === 'item-completed') return [output];
      return [
        {
          ...codexBase(session, rollout(session), 'PostToolUse'),
          tool_name: `mcp__${call.server}__${call.tool}`,
          tool_input: call.arguments,
          tool_response: result,
          tool_use_id: call.id,
        },
        output,
      ];
    },
  };
}

function codexBase(session: Session, rollout: string, event: string) {
  return {
    session_id: session.id,
    turn_id: 'turn-1',
    transcript_path: rollout,
    cwd: session.cwd,
    hook_event_name: event,
    model: 'gpt-5.1-codex',
    permission_mode: 'default',
  };
}

const CURSOR_SOURCES = [
  'docs-only: https://cursor.com/docs/agent/hooks — common fields { conversation_id, generation_id, hook_event_name, workspace_roots }, preToolUse / postToolUse / postToolUseFailure { tool_name, tool_input, tool_use_id, error_message, failure_type, is_interrupt }, beforeShellExecution { command, cwd }, afterShellExecution { command, output, duration }, beforeMCPExecution { tool_name, tool_input (a JSON string in older versions), command | url }, afterMCPExecution { tool_name, tool_input, result_json, duration }',
];

/** Cursor's MCP events (docs-only): `result_json` is the tool's CallToolResult as JSON text. */
const cursorMcp = {
  beforeMcp: (session: Session, call: McpCall) => ({
    ...cursorBase(session, 'beforeMCPExecution'),
    tool_name: call.tool,
    tool_input: JSON.stringify(call.arguments),
    command: 'npx',
  }),
  afterMcp: (session: Session, call: McpCall, result: McpToolResult) => [
    {
      ...cursorBase(session, 'afterMCPExecution'),
      tool_name: call.tool,
      tool_input: JSON.stringify(call.arguments),
      result_json: JSON.stringify(result),
      duration: 40,
    },
  ],
};

/** Cursor (docs-only): the generic tool events; a failed command fires postToolUseFailure. */
export const cursor: HostFixture = {
  agent: 'cursor',
  sources: CURSOR_SOURCES,
  prompt: (session, text) => ({ ...cursorBase(session, 'beforeSubmitPrompt'), prompt: text }),
  beforeShell: (session, call) => ({
    ...cursorBase(session, 'preToolUse'),
    tool_name: 'Shell',
    tool_input: { command: call.command, cwd: session.cwd },
    tool_use_id: call.id,
  }),
  afterShell: (session, call, run) => [
    run.exitCode === 0
      ? {
          ...cursorBase(session, 'postToolUse'),
          tool_name: 'Shell',
          tool_input: { command: call.command, cwd: session.cwd },
          tool_use_id: call.id,
          tool_output: run.output,
        }
      : {
          ...cursorBase(session, 'postToolUseFailure'),
          tool_name: 'Shell',
          tool_input: { command: call.command, cwd: session.cwd },
          tool_use_id: call.id,
          error_message: run.output === '' ? `Command exited with code ${run.exitCode}` : run.output,
          failure_type: 'error',
          is_interrupt: false,
        },
  ],
  ...cursorMcp,
};

const CURSOR_GENERIC_MCP_SOURCES = [
  'docs-only: https://cursor.com/docs/agent/hooks — preToolUse / postToolUse / postToolUseFailure name an MCP tool `MCP:<tool>` (the tool types the matcher takes: Shell, Read, Write, …, MCP:<tool>), tool_input the arguments as an object, postToolUse tool_output the JSON text of the result, postToolUseFailure error_message and failure_type "error" | "timeout" | "permission_denied"',
];

/**
 * Cursor's MCP tools through the generic tool events (docs-only), without the older MCP events:
 * a failed result reported by `postToolUse` (its `tool_output` the result's JSON, `isError` set) or
 * by `postToolUseFailure` (`error_message` the tool's text).
 */
export function cursorGenericMcp(report: 'post-tool-use' | 'failure-event'): HostFixture {
  const mcpCall = (session: Session, event: string, call: McpCall) => ({
    ...cursorBase(session, event),
    tool_name: `MCP:${call.tool}`,
    tool_input: call.arguments,
    tool_use_id: call.id,
  });
  return {
    ...cursor,
    sources: CURSOR_GENERIC_MCP_SOURCES,
    beforeMcp: (session, call) => mcpCall(session, 'preToolUse', call),
    afterMcp: (session, call, result) => [
      result.isError && report === 'failure-event'
        ? {
            ...mcpCall(session, 'postToolUseFailure', call),
            error_message: textOf(result),
            failure_type: 'error',
          }
        : { ...mcpCall(session, 'postToolUse', call), tool_output: JSON.stringify(result), duration: 40 },
    ],
  };
}

/** Cursor's older shell hooks (docs-only): `afterShellExecution` gives the output and no exit status. */
export const cursorShellHooks: HostFixture = {
  agent: 'cursor',
  sources: CURSOR_SOURCES,
  prompt: cursor.prompt,
  beforeShell: (session, call) => ({
    ...cursorBase(session, 'beforeShellExecution'),
    command: call.command,
    cwd: session.cwd,
  }),
  afterShell: (session, call, run) => [
    {
      ...cursorBase(session, 'afterShellExecution'),
      command: call.command,
      cwd: session.cwd,
      output: run.output,
      duration: 180,
    },
  ],
  ...cursorMcp,
};

function cursorBase(session: Session, event: string) {
  return {
    conversation_id: session.id,
    generation_id: 'gen-1',
    hook_event_name: event,
    workspace_roots: [session.cwd],
    cursor_version: '2.1.0',
  };
}

/** The four agents with the payloads of their current hooks. */
export const HOSTS: readonly HostFixture[] = [claudeCode, geminiCli, codex(), cursor];
