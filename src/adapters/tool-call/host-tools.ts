/**
 * The built-in tools of the coding agents (Claude Code, Gemini CLI, Codex, Cursor): what each one
 * does, where its name alone says little or nothing, and which of its arguments are free text that
 * does not change what it does (`narrowing.freeText`: a command's `description`, an `explanation`,
 * which the model rewrites on retries and the call's identity leaves out). Hooks and trace
 * converters share this table, so a call is understood the same way live and in replay. Targets
 * need no entry: the adapter finds them in the arguments (`file_path`, `path`, `absolute_path`,
 * `command`, a patch's file lines).
 */
import type { ActionKind, ToolAnnotations } from '../../core/types.js';

/** The agents whose built-in tools narrowing knows. */
export const HOST_AGENTS = ['claude-code', 'gemini-cli', 'codex', 'cursor'] as const;
export type HostAgent = (typeof HOST_AGENTS)[number];

const read: ToolAnnotations = { readOnlyHint: true, narrowing: { kind: 'read' } };
const search: ToolAnnotations = { readOnlyHint: true, narrowing: { kind: 'search' } };
const webSearch: ToolAnnotations = { readOnlyHint: true, openWorldHint: true, narrowing: { kind: 'search' } };
const webRead: ToolAnnotations = { readOnlyHint: true, openWorldHint: true, narrowing: { kind: 'read' } };
const poll: ToolAnnotations = { readOnlyHint: true, narrowing: { kind: 'poll' } };
const edit: ToolAnnotations = { destructiveHint: false, narrowing: { kind: 'mutate' } };
const write: ToolAnnotations = { destructiveHint: false, narrowing: { kind: 'create' } };
const remove: ToolAnnotations = { destructiveHint: true, narrowing: { kind: 'delete' } };
const exec: ToolAnnotations = { narrowing: { kind: 'exec' } };
const other: ToolAnnotations = { narrowing: { kind: 'other' } };

/** The same annotations, with the arguments that are free text about the call rather than part of it. */
function withFreeText(annotations: ToolAnnotations, ...freeText: string[]): ToolAnnotations {
  return { ...annotations, narrowing: { ...annotations.narrowing, freeText } };
}

const CLAUDE_CODE: Readonly<Record<string, ToolAnnotations>> = {
  Read: read,
  LS: read,
  Glob: search,
  Grep: search,
  WebSearch: webSearch,
  WebFetch: webRead,
  BashOutput: poll,
  Edit: edit,
  MultiEdit: edit,
  NotebookEdit: edit,
  Write: write,
  // "Run the tests", "Run tests again with verbose output": words for the user, not the command.
  Bash: withFreeText(exec, 'description'),
  // Windows: Claude Code's shell tool where it runs commands through PowerShell (same input as Bash).
  PowerShell: withFreeText(exec, 'description'),
  KillShell: other,
  TaskStop: other,
  // The session's own task list, which only the agent reads: no change to anything it works on.
  TaskCreate: other,
  TaskGet: other,
  TaskList: other,
  TaskUpdate: other,
  // Prompts the session schedules for itself.
  CronCreate: other,
  CronDelete: other,
  CronList: other,
  AskUserQuestion: other,
  EnterPlanMode: other,
  // Loads a skill's instructions, or looks up the definitions of deferred tools.
  Skill: other,
  ToolSearch: other,
  ListMcpResourcesTool: read,
  ReadMcpResourceTool: read,
  // Code intelligence from a language server: definitions, references, diagnostics.
  LSP: read,
  // The short title of a subagent's task; its `prompt` says what it does. `Agent` since Claude Code
  // 2.1.63, `Task` before.
  Agent: withFreeText(exec, 'description'),
  Task: withFreeText(exec, 'description'),
  TodoWrite: other,
  ExitPlanMode: other,
};

const GEMINI_CLI: Readonly<Record<string, ToolAnnotations>> = {
  read_file: read,
  read_many_files: read,
  list_directory: read,
  glob: search,
  search_file_content: search,
  grep_search: search,
  google_web_search: webSearch,
  web_fetch: webRead,
  replace: edit,
  write_file: write,
  run_shell_command: withFreeText(exec, 'description'),
  save_memory: other,
  write_todos: other,
  // What the model says it is doing (a title and a summary), shown to the user: it changes nothing.
  update_topic: other,
  // The session's task tracker, which only the agent reads.
  tracker_create_task: other,
  tracker_update_task: other,
  tracker_get_task: other,
  tracker_list_tasks: other,
  tracker_add_dependency: other,
  tracker_visualize: other,
  // A subagent hands its result back.
  complete_task: other,
  ask_user: other,
  enter_plan_mode: other,
  exit_plan_mode: other,
  activate_skill: other,
  get_internal_docs: read,
  list_mcp_resources: read,
  read_mcp_resource: read,
  // A subagent, which may change anything the agent could.
  invoke_agent: exec,
};

/** Why a command asks to run outside the sandbox: words for the user's approval, not the command. */
const codexExec = withFreeText(exec, 'justification');

const CODEX: Readonly<Record<string, ToolAnnotations>> = {
  Bash: codexExec,
  shell: codexExec,
  shell_command: codexExec,
  exec_command: codexExec,
  local_shell: codexExec,
  apply_patch: edit,
  view_image: read,
  web_search: webSearch,
  update_plan: other,
  request_user_input: other,
  // A subagent, which may change anything the agent could; waiting for one asks how it is going.
  spawn_agent: exec,
  wait_agent: poll,
};

/** Cursor's tools carry the model's `explanation` of why it calls them. */
const cursor = (annotations: ToolAnnotations) => withFreeText(annotations, 'explanation');

const CURSOR: Readonly<Record<string, ToolAnnotations>> = {
  Shell: cursor(exec),
  Read: cursor(read),
  Write: cursor(write),
  Edit: cursor(edit),
  StrReplace: cursor(edit),
  MultiEdit: cursor(edit),
  Delete: cursor(remove),
  Grep: cursor(search),
  Glob: cursor(search),
  LS: cursor(read),
  SemanticSearch: cursor(search),
  WebSearch: cursor(webSearch),
  WebFetch: cursor(webRead),
  Task: withFreeText(exec, 'explanation', 'description'),
  TodoWrite: other,
};

const TABLES: Readonly<Record<HostAgent, Readonly<Record<string, ToolAnnotations>>>> = {
  'claude-code': CLAUDE_CODE,
  'gemini-cli': GEMINI_CLI,
  codex: CODEX,
  cursor: CURSOR,
};

/** The annotations of one of `agent`'s built-in tools; undefined for MCP tools and unknown names. */
export function hostToolAnnotations(agent: HostAgent, toolName: string): ToolAnnotations | undefined {
  const table = TABLES[agent];
  return Object.hasOwn(table, toolName) ? table[toolName] : undefined;
}

/** The arguments of one of `agent`'s built-in tools that are free text about the call, not part of it. */
export function hostToolFreeText(agent: HostAgent, toolName: string): readonly string[] {
  return hostToolAnnotations(agent, toolName)?.narrowing?.freeText ?? [];
}

/** The action kind of one of `agent`'s built-in tools. */
export function hostToolKind(agent: HostAgent, toolName: string): ActionKind | undefined {
  return hostToolAnnotations(agent, toolName)?.narrowing?.kind;
}

/** The built-in tool names of `agent`, sorted. */
export function hostToolNames(agent: HostAgent): string[] {
  return Object.keys(TABLES[agent]).sort();
}

export function isHostAgent(value: string): value is HostAgent {
  return (HOST_AGENTS as readonly string[]).includes(value);
}
