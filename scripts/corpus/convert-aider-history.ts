/**
 * Aider's own chat history (`.aider.chat.history.md`, which aider writes beside every workspace it
 * runs in): what a developer said (`#### ` lines), what aider printed (`> ` lines) and the model's
 * replies (everything else), one `# aider chat started` header per session. It differs from the logs
 * a benchmark's harness keeps: aider prints a failing SEARCH/REPLACE block's report as a `> ` line
 * followed by unprefixed lines, up to the line that asks for fixed versions of the blocks; it checks
 * edited files with its linter and prints the linter's report when it finds errors; and it runs the
 * shell commands the model suggests once the developer agrees, keeping none of their output (only
 * how many lines of it went back to the model).
 *
 * The model's calls: each file it asks to add to the chat (`add_file`), each SEARCH/REPLACE block
 * (`edit_file`, failed when aider reports that block's SEARCH text did not match, applied when aider
 * says it edited the file, without a result otherwise), each shell command it suggested and aider ran
 * (`run_command`, without a result: the history keeps none). After the edits aider's linter reports
 * errors (`lint`, failed, with the report). Commands the developer typed (`/run`, `/test`, `/add`)
 * are the developer's, not the model's: they are user turns.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { addedAndEditCallsOf, type Block, blocksOf, sessionEvents } from './convert-aider.js';
import { type ConvertedRun, metaEvent, result, type RunSource, safeName, toolList } from './events.js';

const KINDS: Readonly<Record<string, string>> = { add_file: 'read', edit_file: 'mutate', run_command: 'exec', lint: 'exec' };

const REPORT_START = /^> # \d+ SEARCH\/REPLACE blocks? failed to match!/;
const RULE_LINE = /^The SEARCH section must exactly match an existing block of lines/;
const OTHERS_APPLIED = /^# The other \d+ SEARCH\/REPLACE blocks? (were|was) applied successfully\./;
const REPORT_END = /^Just reply with fixed versions of the blocks? above that failed to match\./;

/**
 * Gives the unprefixed lines of a failing block's report the `> ` of the rest of aider's output. The
 * report ends with the rule its SEARCH text broke, or, when other blocks of the reply were applied,
 * with the request for fixed versions of the failing ones.
 */
function withReportsPrefixed(chat: string): string {
  const lines = chat.split('\n');
  const out: string[] = [];
  let inReport = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (REPORT_START.test(line)) {
      inReport = true;
      out.push(line);
      continue;
    }
    if (!inReport || line.startsWith('> ') || line === '>') {
      out.push(line);
      continue;
    }
    out.push(line.trim() === '' ? '>' : `> ${line}`);
    if (REPORT_END.test(line)) inReport = false;
    else if (RULE_LINE.test(line)) {
      const next = lines.slice(index + 1).find((later) => later.trim() !== '') ?? '';
      if (!OTHERS_APPLIED.test(next)) inReport = false;
    }
  }
  return out.join('\n');
}

/** Files the model asked for and the developer let aider add (`> path` before the question, answered yes or all). */
function addedFilesOf(lines: readonly string[]): string[] {
  const added: string[] = [];
  lines.forEach((line, index) => {
    if (/^Add file to the chat\? .*: [yYaA]\w*$/.test(line)) {
      const path = (lines[index - 1] ?? '').trim();
      if (path && !/\s/.test(path)) added.push(path);
      return;
    }
    if (!/^Add these files to the chat\? .*\b(y|yes)$/i.test(line)) return;
    const batch: string[] = [];
    for (let back = index - 1; back >= 0; back--) {
      const candidate = (lines[back] as string).trim();
      if (!candidate || /\s/.test(candidate) || /[?!:]$/.test(candidate)) break;
      batch.unshift(candidate);
    }
    added.push(...batch);
  });
  return added;
}

/** The shell commands aider ran for the model (`Running …` after the developer agreed). */
function commandsOf(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    const match = /^Running (.+)$/.exec(line);
    return match ? [(match[1] as string).trim()] : [];
  });
}

/** The linter's reports: one per command aider ran, or one for its own syntax check of the files it names. */
function lintRunsOf(lines: readonly string[]): { args: Record<string, unknown>; report: string }[] {
  const runs: { args: Record<string, unknown>; report: string }[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!/^# Fix any errors below, if possible\.$/.test(lines[index] as string)) continue;
    let end = index + 1;
    while (end < lines.length && !/^Attempt to fix lint errors\?/.test(lines[end] as string) && !/^# Fix any errors below/.test(lines[end] as string)) end++;
    const section = lines.slice(index + 1, end);
    const commands = section.flatMap((line) => /^## Running: (.+)$/.exec(line)?.[1]?.trim() ?? []);
    const report = section.join('\n').trim();
    if (commands.length > 0) {
      for (const command of commands) runs.push({ args: { command }, report });
    } else {
      const files = section.flatMap((line) => (/^\S.*:$/.test(line) && !line.startsWith('#') ? [line.slice(0, -1)] : []));
      runs.push({ args: { files }, report });
    }
    index = end - 1;
  }
  return runs;
}

function callsOf(model: Block | undefined, aider: Block | undefined, reply: string): CallEvent[] {
  const said = aider?.lines ?? [];
  const calls = addedAndEditCallsOf(addedFilesOf(said), model, said, reply);
  for (const run of lintRunsOf(said)) calls.push({ type: 'call', tool: 'lint', args: run.args, result: result(run.report, true) });
  for (const command of commandsOf(said)) calls.push({ type: 'call', tool: 'run_command', args: { command } });
  return calls;
}

/** One session of a history: its blocks, read as calls and user turns. */
function convertSession(chat: string): TraceEvent[] {
  return sessionEvents(blocksOf(withReportsPrefixed(chat)), callsOf);
}

/** Every session of one chat history with at least one call, as runs named by their order in the file. */
export function convertAiderHistory(markdown: string, source: RunSource, name: string, description: string): ConvertedRun[] {
  const sessions = markdown.split(/^# aider chat started at .*$/m).slice(1);
  const runs: ConvertedRun[] = [];
  sessions.forEach((chat, index) => {
    const events = convertSession(chat);
    const calls = events.filter((event): event is CallEvent => event.type === 'call');
    if (calls.length === 0) return;
    const runName = safeName(`${name}-${index + 1}`);
    runs.push({ name: runName, events: [metaEvent(runName, description, source, toolList(calls, KINDS)), ...events] });
  });
  return runs;
}
