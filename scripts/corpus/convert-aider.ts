/**
 * Aider chat logs (`.md`, as `aider --chat-history-file` writes them): `#### ` lines are what the user
 * (or the benchmark's harness) said, `> ` lines are what aider printed, and everything else is the
 * model's reply. The model acts through the reply: it asks for files to be added to the chat, and it
 * writes SEARCH/REPLACE blocks that aider applies to a file or reports as failing to match. After
 * the edits the harness runs the tests. Each of these is one call; a new `# aider chat started`
 * header starts a new run.
 */
import type { CallEvent, TraceEvent } from '../../src/trace/types.js';
import { type ConvertedRun, metaEvent, type RunSource, result, safeName, toolList } from './events.js';

const KINDS: Readonly<Record<string, string>> = { add_file: 'read', edit_file: 'mutate', run_tests: 'exec' };

export interface Block {
  readonly kind: 'user' | 'aider' | 'model';
  readonly lines: string[];
}

/** Aider ends every line it prints with two spaces (markdown line breaks); they are not content. */
function clean(line: string): string {
  return line.replace(/\s+$/, '');
}

export function blocksOf(chat: string): Block[] {
  const blocks: Block[] = [];
  for (const raw of chat.split('\n')) {
    const kind: Block['kind'] = raw.startsWith('#### ') ? 'user' : raw === '>' || raw.startsWith('> ') ? 'aider' : 'model';
    const line = kind === 'user' ? raw.slice(5) : kind === 'aider' ? raw.slice(2) : raw;
    const last = blocks.at(-1);
    if (last && last.kind === kind) last.lines.push(clean(line));
    else if (kind !== 'model' || raw.trim() !== '' || (last && last.kind === 'model')) blocks.push({ kind, lines: [clean(line)] });
  }
  return blocks;
}

interface Edit {
  readonly path: string;
  readonly search: string;
  readonly replace: string;
}

const FENCE = /^(```|<source>)/;

/** The SEARCH/REPLACE blocks of one reply (or of aider's echo of the failing ones), each with its file. */
export function editsOf(lines: readonly string[], pathBefore = true): Edit[] {
  const edits: Edit[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!/^<{5,9} SEARCH$/.test(lines[index] as string)) continue;
    let path = '';
    if (pathBefore) {
      let back = index - 1;
      if (back >= 0 && FENCE.test(lines[back] as string)) back--;
      path = (lines[back] ?? '').trim().replace(/^[`*]+|[`*:]+$/g, '');
    }
    const search: string[] = [];
    const replace: string[] = [];
    let at = index + 1;
    for (; at < lines.length && !/^={5,9}$/.test(lines[at] as string); at++) search.push(lines[at] as string);
    for (at++; at < lines.length && !/^>{5,9} REPLACE$/.test(lines[at] as string); at++) replace.push(lines[at] as string);
    edits.push({ path, search: search.join('\n'), replace: replace.join('\n') });
    index = at;
  }
  return edits;
}

const NO_MATCH = /^## SearchReplaceNoExactMatch: .* in (.+)$/;

/** What aider said about each failing block: its file, its SEARCH text and the whole report. */
export function failuresOf(lines: readonly string[]): { path: string; search: string; report: string }[] {
  const failures: { path: string; search: string; report: string }[] = [];
  for (let index = 0; index < lines.length; index++) {
    const match = NO_MATCH.exec(lines[index] as string);
    if (!match) continue;
    let end = index + 1;
    while (end < lines.length && !NO_MATCH.test(lines[end] as string) && !/^# The other /.test(lines[end] as string)) end++;
    const section = lines.slice(index, end);
    const [echo] = editsOf(section, false);
    failures.push({ path: (match[1] as string).trim(), search: echo?.search ?? '', report: section.join('\n').trim() });
    index = end - 1;
  }
  return failures;
}

/** The test runs aider printed: the command, its output and whether it failed. */
function testRunsOf(lines: readonly string[]): { command: string; output: string; failed: boolean }[] {
  const runs: { command: string; output: string; failed: boolean }[] = [];
  for (let index = 0; index < lines.length; index++) {
    const script = /^Test Script: (.+)$/.exec(lines[index] as string);
    if (!script) continue;
    let end = index + 1;
    while (end < lines.length && !/^Test Script: /.test(lines[end] as string) && !/^>>>>> /.test(lines[end] as string)) end++;
    const status = lines[end] ?? '';
    const body = lines
      .slice(index + 1, end)
      .filter((line) => !/^\[[^\]]+\] \[[^\]]+\] (Command|Subprocess args|Std\. Output):/.test(line))
      .join('\n');
    const code = /Return Code: (-?\d+)/.exec(body);
    const output = `${body.replace(/^\[[^\]]+\] \[[^\]]+\] /gm, '')}\n${status}`.trim();
    runs.push({ command: (script[1] as string).trim(), output, failed: /Failed|Timed Out|Error/i.test(status) || (code ? code[1] !== '0' : false) });
    index = end;
  }
  return runs;
}

/** Files the model asked for and aider added (the `> path` lines before "Add these files to the chat? yes"). */
function addedFilesOf(lines: readonly string[]): string[] {
  const added: string[] = [];
  lines.forEach((line, index) => {
    if (!/^Add these files to the chat\? yes$/.test(line)) return;
    for (let back = index - 1; back >= 0; back--) {
      const candidate = (lines[back] as string).trim();
      if (!candidate || /\s/.test(candidate) || /[?!]$/.test(candidate)) break;
      added.unshift(candidate);
    }
  });
  return added;
}

export function sameText(a: string, b: string): boolean {
  const norm = (value: string) => value.split('\n').map((line) => line.trimEnd()).join('\n').trim();
  return norm(a) === norm(b);
}

function callsOf(model: Block | undefined, aider: Block | undefined): CallEvent[] {
  const calls: CallEvent[] = [];
  const said = aider?.lines ?? [];
  for (const path of addedFilesOf(said)) {
    calls.push({ type: 'call', tool: 'add_file', args: { path }, result: result(`Added ${path} to the chat.`, false) });
  }
  calls.push(...editCallsOf(model, said));
  for (const run of testRunsOf(said)) {
    calls.push({ type: 'call', tool: 'run_tests', args: { command: run.command }, result: result(run.output, run.failed) });
  }
  return calls;
}

/** Aider prints a path as the system writes it (backslashes on Windows), the model as it pleases. */
function samePath(a: string, b: string): boolean {
  return a.replace(/\\/g, '/') === b.replace(/\\/g, '/');
}

/**
 * The model's SEARCH/REPLACE blocks as `edit_file` calls, each answered by what aider `said` of it:
 * its failure report, "Applied edit to …", or nothing when aider said neither.
 */
export function editCallsOf(model: Block | undefined, said: readonly string[]): CallEvent[] {
  if (!model) return [];
  const failures = failuresOf(said);
  const applied = said.flatMap((line) => /^Applied edit to (.+)$/.exec(line)?.[1]?.trim() ?? []);
  return editsOf(model.lines).map((edit) => {
    const failure = failures.find((candidate) => samePath(candidate.path, edit.path) && sameText(candidate.search, edit.search));
    const appliedTo = applied.find((path) => samePath(path, edit.path));
    const outcome = failure
      ? result(failure.report, true)
      : appliedTo !== undefined
        ? result(`Applied edit to ${appliedTo}`, false)
        : undefined;
    return { type: 'call', tool: 'edit_file', args: { path: edit.path, search: edit.search, replace: edit.replace }, ...(outcome && { result: outcome }) };
  });
}

/** One chat session of a log: its blocks, read as calls and user turns. */
function convertSession(chat: string): TraceEvent[] {
  return sessionEvents(blocksOf(chat), callsOf);
}

/**
 * The events of one session's blocks: a user's block is a user turn, and each model reply becomes
 * the calls `callsOf` reads from it with aider's answer after it (none when a user or another reply
 * came first).
 */
export function sessionEvents(
  blocks: Iterable<Block>,
  callsOf: (model: Block | undefined, aider: Block | undefined) => CallEvent[],
): TraceEvent[] {
  const events: TraceEvent[] = [];
  let model: Block | undefined;
  for (const block of blocks) {
    if (block.kind === 'user') {
      if (model) events.push(...callsOf(model, undefined));
      model = undefined;
      events.push({ type: 'user' });
    } else if (block.kind === 'model') {
      if (model) events.push(...callsOf(model, undefined));
      model = block;
    } else {
      events.push(...callsOf(model, block));
      model = undefined;
    }
  }
  if (model) events.push(...callsOf(model, undefined));
  return events;
}

/** Every chat session of one log file, as runs. */
export function convertAiderChat(markdown: string, source: RunSource, name: string, description: string): ConvertedRun[] {
  const sessions = markdown.split(/^# aider chat started at .*$/m).slice(1);
  return sessions.map((chat, index) => {
    const events = convertSession(chat);
    const calls = events.filter((event): event is CallEvent => event.type === 'call');
    const runName = safeName(sessions.length > 1 ? `${name}-${index + 1}` : name);
    return { name: runName, events: [metaEvent(runName, description, source, toolList(calls, KINDS)), ...events] };
  });
}
