/**
 * The NYU CTF baseline agent's conversation logs (`conversation.<model>.<n>.json`): one attempt at one
 * capture-the-flag challenge per file, `{args, messages, …}`, whose `messages` are `[time, message]`
 * pairs in chat-completion form. The agent's turns list `tool_calls` (`run_command`, `createfile`,
 * `disassemble_function`, `decompile_function`, `check_flag`, `give_up`), and each `tool` message
 * answers one by its `tool_call_id` with a JSON object: a command's `stdout`, `stderr`, `returncode`
 * and `timed_out`; a tool's `error`; a flag's `correct`. The log writes many messages twice (once as
 * the model sent them, once as the conversation kept them) and the model may reuse an id after its
 * call was answered, so a call is new unless the same call under its id still awaits its answer,
 * and a second answer to an answered call is left out.
 */
import type { CallEvent, TraceEvent, TraceResult } from '../../src/trace/types.js';
import { MAX_LOG_CHARS } from './convert-react.js';
import { clip, type ConvertedRun, convertedRun, isObject, parseArguments, type RunSource, text } from './events.js';

const KINDS: Readonly<Record<string, string>> = { run_command: 'exec' };

/** The run's name from its path: `transcripts/<submission>/<year>/<event>/<category>/<challenge>/conversation.<model>.<n>.json`. */
export function nyuCtfRunName(path: string): string {
  const parts = path.split('/');
  const attempt = /\.(\d+)\.json$/.exec(parts.at(-1) ?? '')?.[1] ?? '1';
  return [...parts.slice(1, -1), attempt].join('-');
}

function parsed(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return undefined;
  }
}

/**
 * What a tool answered. A command failed when its return code is not 0 or it timed out (said in
 * words, as the agent's harness means it); a tool failed when it answered an error, and a flag when
 * it was not correct. An answer that is not JSON (a command's output cut short) stays text.
 */
export function nyuCtfResult(content: string): TraceResult {
  const answer = parsed(content);
  if (!isObject(answer)) return { content: clip(content) };
  if ('stdout' in answer || 'returncode' in answer) {
    const output = [text(answer.stdout), text(answer.stderr)].filter((part) => part !== '').join('\n');
    const code = typeof answer.returncode === 'number' ? answer.returncode : 0;
    const timedOut = answer.timed_out === true;
    const failed = code !== 0 || timedOut;
    const body = timedOut ? `${output}${output === '' ? '' : '\n'}Command timed out` : output;
    if (!failed) return { content: clip(body) };
    return { isError: true, content: clip(body.trim() === '' ? `Exit code: ${code}` : body) };
  }
  if (typeof answer.error === 'string') return { isError: true, content: clip(answer.error) };
  if (answer.correct === false) return { isError: true, content: 'Incorrect flag' };
  if (answer.correct === true) return { content: 'Correct flag' };
  const values = Object.values(answer);
  const only = values.length === 1 ? values[0] : undefined;
  return { content: clip(typeof only === 'string' ? only : content) };
}

export function convertNyuCtfConversation(json: string, source: RunSource, prefix: string): ConvertedRun[] {
  if (json.length > MAX_LOG_CHARS) throw new Error(`${source.path}: longer than ${MAX_LOG_CHARS} characters; not a conversation log`);
  const log = parsed(json);
  if (!isObject(log) || !Array.isArray(log.messages)) return [];
  const calls: CallEvent[] = [];
  const waiting = new Map<string, { index: number; key: string }>();
  for (const entry of log.messages) {
    const message = Array.isArray(entry) ? entry[1] : entry;
    if (!isObject(message)) continue;
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const toolCall of message.tool_calls) {
        if (!isObject(toolCall) || !isObject(toolCall.function)) continue;
        const id = text(toolCall.id);
        const tool = text(toolCall.function.name) || 'tool';
        const key = `${tool}\u0000${text(toolCall.function.arguments)}`;
        if (waiting.get(id)?.key === key) continue;
        waiting.set(id, { index: calls.length, key });
        calls.push({ type: 'call', tool, args: parseArguments(toolCall.function.arguments) });
      }
    } else if (message.role === 'tool') {
      const id = text(message.tool_call_id);
      const pending = waiting.get(id);
      if (!pending) continue;
      waiting.delete(id);
      const call = calls[pending.index] as CallEvent;
      calls[pending.index] = { ...call, result: nyuCtfResult(text(message.content)) };
    }
  }
  const name = `${prefix}-${nyuCtfRunName(source.path)}`;
  return [convertedRun(name, `${source.agent} run ${nyuCtfRunName(source.path)}`, source, calls as TraceEvent[], KINDS)];
}
