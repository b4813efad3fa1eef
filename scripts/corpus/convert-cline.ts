/**
 * Cline and Roo Code tasks, as the extension keeps each one: `tasks/<id>/api_conversation_history.json`,
 * the messages sent to the model (Anthropic's shape: `role` and `content`, a string or blocks).
 *
 * The model calls a tool by writing it in its reply as XML, `<read_file><path>src/a.ts</path></read_file>`
 * (later versions also send native `tool_use` blocks), and the extension runs only the first tool of a
 * reply: the next user message opens with `[read_file for 'src/a.ts'] Result:` and the tool's output,
 * and says of every other tool of that reply that it was not executed, so those are left out. A call
 * is failed when its output says the tool execution failed (an error, a missing parameter, a search
 * block that did not match), and has no result when the user denied it (their feedback is a user
 * turn). Cline's command output says it ran (`Command executed.`) but not with which exit status, so a
 * command that failed without the tool reporting it counts as a success; Roo Code's later output says
 * when a command was not successful and gives its exit code, and such a command failed, as does a diff
 * or read answered by an error element (`<error_details>`, `<error>`). What the extension appends
 * about the editor (`<environment_details>`) is no part of a result. The task (`<task>`), the user's
 * feedback and the messages of a resumed task are user turns. A `<thinking>` block is the model's
 * reasoning, and a tool written inside it is not a call.
 */
import type { CallEvent, TraceEvent, TraceResult } from '../../src/trace/types.js';
import {
  clip,
  type ConvertedRun,
  convertedRun,
  isObject,
  type JsonObject,
  parseArguments,
  type RunSource,
  text,
} from './events.js';

/** The tools of Cline and Roo Code that the model writes as XML. */
const TOOLS = new Set([
  'execute_command',
  'read_file',
  'write_to_file',
  'replace_in_file',
  'apply_diff',
  'insert_content',
  'search_and_replace',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'codebase_search',
  'browser_action',
  'use_mcp_tool',
  'access_mcp_resource',
  'ask_followup_question',
  'attempt_completion',
  'plan_mode_respond',
  'new_task',
  'switch_mode',
  'fetch_instructions',
  'web_fetch',
  'load_mcp_documentation',
  'new_rule',
  'condense',
  'summarize_task',
  'report_bug',
  'update_todo_list',
]);
/** Parameters whose value may hold anything, tags included: they end at their last closing tag. */
const WHOLE_PARAMS = new Set(['content', 'diff']);
const OPEN_TAG = /<([a-z_]+)>/g;
const PARAM_TAG = /<([a-z_]+)>/g;
const THINKING = /<thinking>[\s\S]*?(?:<\/thinking>|$)/g;
/** A result's header names its tool and what it acted on (`[read_file for 'a.ts'] Result:`), in Roo Code with more words after it (`[switch_mode to 'code' because: …] Result:`). */
const HEADER = /^\[([a-z_]+)(?:\s[\s\S]*?)?\] (?:Result|Error):?[ \t]*\n?/;
const NOT_EXECUTED = /^Tool \[[a-z_]+\] was not executed because/;
const ENVIRONMENT = /<environment_details>[\s\S]*?(?:<\/environment_details>|$)/g;
const DENIED = /^The user denied this operation/;
const FAILED =
  /^(?:The tool execution failed with the following error:|Missing value for required parameter|Error (?:executing|reading|writing|listing|searching)|\[ERROR\]|<error_details>|<error>|<files>\s*<file>\s*<path>[^<]*<\/path>\s*<error>)/;
/** Roo Code's command result: the first line says the command was not successful, or a line gives its non-zero exit code. */
const COMMAND_FAILED =
  /^Command executed in terminal[^\n]*(?:Command execution was not successful|Exit code: [1-9])|^Exit code: [1-9]\d*$/m;
const USER_TEXT = /<(task|feedback|user_message)>\n?([\s\S]*?)\n?<\/\1>/g;

export interface ToolUse {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly id?: string;
}

/** The tools a reply written as text calls, in order, with their parameters. */
export function xmlToolUses(reply: string): ToolUse[] {
  const body = reply.replace(THINKING, '');
  const uses: ToolUse[] = [];
  let from = 0;
  while (from < body.length) {
    OPEN_TAG.lastIndex = from;
    let open: RegExpExecArray | null = OPEN_TAG.exec(body);
    while (open && !TOOLS.has(open[1] ?? '')) open = OPEN_TAG.exec(body);
    if (!open) break;
    const tool = open[1] as string;
    const start = open.index + open[0].length;
    const close = `</${tool}>`;
    let end = body.indexOf(close, start);
    for (const param of WHOLE_PARAMS) {
      // A file's text may hold any tag, its tool's closing tag too: it ends at its last closing tag.
      const opened = body.indexOf(`<${param}>`, start);
      if (opened < 0 || (end >= 0 && opened > end)) continue;
      const closed = body.lastIndexOf(`</${param}>`);
      if (closed > opened) end = body.indexOf(close, closed);
    }
    const inner = end < 0 ? body.slice(start) : body.slice(start, end);
    uses.push({ tool, args: toolParams(tool, inner) });
    from = end < 0 ? body.length : end + close.length;
  }
  return uses;
}

function toolParams(tool: string, inner: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  let from = 0;
  while (from < inner.length) {
    PARAM_TAG.lastIndex = from;
    const open = PARAM_TAG.exec(inner);
    if (!open) break;
    const name = open[1] as string;
    const start = open.index + open[0].length;
    const close = `</${name}>`;
    const end = WHOLE_PARAMS.has(name) ? inner.lastIndexOf(close) : inner.indexOf(close, start);
    const value = end < start ? inner.slice(start) : inner.slice(start, end);
    if (!(name in args)) args[name] = trimParam(name, value);
    from = end < start ? inner.length : end + close.length;
  }
  if (tool === 'use_mcp_tool' && typeof args.arguments === 'string') args.arguments = parseArguments(args.arguments);
  return args;
}

/** A parameter's value without the line breaks around it; a file's content keeps all but the first and last. */
function trimParam(name: string, value: string): string {
  return WHOLE_PARAMS.has(name) ? value.replace(/^\n/, '').replace(/\n$/, '') : value.trim();
}

function blocksOf(content: unknown): JsonObject[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/** The tools an assistant message calls: its native `tool_use` blocks, or else the tools its text writes. */
export function toolUses(content: unknown): ToolUse[] {
  const blocks = blocksOf(content);
  const native = blocks.filter((block) => block.type === 'tool_use' && typeof block.name === 'string');
  if (native.length > 0) {
    return native.map((block) => ({
      tool: block.name as string,
      args: isObject(block.input) ? block.input : parseArguments(block.input),
      ...(typeof block.id === 'string' && { id: block.id }),
    }));
  }
  return xmlToolUses(
    blocks
      .filter((block) => block.type === 'text')
      .map((block) => text(block.text))
      .join('\n'),
  );
}

interface Answer {
  readonly tool: string;
  readonly output: string;
  readonly id?: string;
  readonly failed?: boolean;
}

/** What a user message answers: the tool whose result it opens with, and that output without the editor's details. */
export function answersOf(content: unknown): Answer[] {
  const answers: Answer[] = [];
  let current: { tool: string; parts: string[] } | undefined;
  const finish = () => {
    if (current) answers.push({ tool: current.tool, output: current.parts.join('\n').trim() });
    current = undefined;
  };
  for (const block of blocksOf(content)) {
    if (block.type === 'tool_result') {
      finish();
      answers.push({
        tool: '',
        output: text(block.content).replace(ENVIRONMENT, '').trim(),
        ...(typeof block.tool_use_id === 'string' && { id: block.tool_use_id }),
        ...(block.is_error === true && { failed: true }),
      });
      continue;
    }
    if (block.type !== 'text') continue;
    const body = text(block.text);
    const header = HEADER.exec(body);
    if (header) {
      finish();
      current = { tool: header[1] as string, parts: [body.slice(header[0].length).replace(ENVIRONMENT, '')] };
      continue;
    }
    if (NOT_EXECUTED.test(body) || body.trimStart().startsWith('<environment_details>')) {
      finish();
      continue;
    }
    current?.parts.push(body.replace(ENVIRONMENT, ''));
  }
  finish();
  return answers;
}

function resultOf(output: string, failed: boolean | undefined): TraceResult | undefined {
  if (DENIED.test(output)) return undefined;
  const commandFailed = COMMAND_FAILED.test(output.slice(0, output.indexOf('\nOutput:') + 1 || undefined));
  return failed || FAILED.test(output) || commandFailed
    ? { isError: true, content: clip(output) }
    : { content: clip(output) };
}

/** The user's own words in a message: the task, feedback, and the messages of a resumed task. */
function userTexts(content: unknown): string[] {
  const texts: string[] = [];
  for (const block of blocksOf(content)) {
    if (block.type !== 'text') continue;
    for (const match of text(block.text).matchAll(USER_TEXT)) {
      const said = (match[2] ?? '').trim();
      if (said !== '') texts.push(said);
    }
  }
  return texts;
}

/** Converts one task's `api_conversation_history.json` to the trace format. */
export function convertClineTask(json: string, source: RunSource, name: string, description: string): ConvertedRun {
  let messages: unknown;
  try {
    messages = JSON.parse(json);
  } catch {
    messages = [];
  }
  return convertClineMessages(Array.isArray(messages) ? messages : [], source, name, description);
}

/** Converts the messages of one task, as the extension sent them to the model, to the trace format. */
export function convertClineMessages(
  messages: readonly unknown[],
  source: RunSource,
  name: string,
  description: string,
): ConvertedRun {
  const events: TraceEvent[] = [];
  let pending: ToolUse[] = [];
  let asked: CallEvent | undefined;
  for (const message of messages.filter(isObject)) {
    if (message.role === 'assistant') {
      if (asked) events.push(asked);
      asked = undefined;
      pending = toolUses(message.content);
      // The extension runs a reply's first tool; if no answer names it, it ran without one.
      const first = pending[0];
      if (first) asked = { type: 'call', tool: first.tool, args: first.args };
      continue;
    }
    if (message.role !== 'user') continue;
    const answers = answersOf(message.content);
    for (const answer of answers) {
      const use = answer.id ? pending.find((u) => u.id === answer.id) : pending.find((u) => u.tool === answer.tool);
      if (!use) continue;
      pending = pending.filter((u) => u !== use);
      if (asked && asked.tool === use.tool && asked.args === use.args) asked = undefined;
      const outcome = resultOf(answer.output, answer.failed);
      events.push({ type: 'call', tool: use.tool, args: use.args, ...(outcome !== undefined && { result: outcome }) });
    }
    if (asked) events.push(asked);
    asked = undefined;
    pending = [];
    for (const said of userTexts(message.content)) events.push({ type: 'user', text: clip(said) });
  }
  if (asked) events.push(asked);
  return convertedRun(name, description, source, events, { execute_command: 'exec' });
}
