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
const RULE_LINE = /^The SEARCH section must exactly match an existing block of lines/;
const OTHERS_APPLIED = /^# The other (\d+) SEARCH\/REPLACE blocks? (?:were|was) applied successfully\./;

export interface FailureReport {
  readonly path: string;
  readonly search: string;
  readonly report: string;
}

/**
 * What aider said about each failing block: its file, its SEARCH text and its part of the report.
 * Aider reports every failing block of a reply in one message: each block's own section (its echo,
 * the lines it may have meant, whether its REPLACE text is already there), then once for all the rule
 * their SEARCH text broke, then, when other blocks of the reply were applied, how many. Each block's
 * answer is its own section with the rule after it; what aider printed after the message (a commit,
 * a test run, its stop after three reflections) answers none of them.
 */
export function failuresOf(lines: readonly string[]): FailureReport[] {
  const sections: { path: string; lines: readonly string[] }[] = [];
  let rule: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const match = NO_MATCH.exec(lines[index] as string);
    if (!match) continue;
    let end = index + 1;
    const ends = (line: string) => NO_MATCH.test(line) || RULE_LINE.test(line) || OTHERS_APPLIED.test(line);
    while (end < lines.length && !ends(lines[end] as string)) end++;
    sections.push({ path: (match[1] as string).trim(), lines: lines.slice(index, end) });
    if (RULE_LINE.test(lines[end] ?? '')) rule = lines[end];
    index = end - 1;
  }
  return sections.map(({ path, lines: section }) => {
    const [echo] = editsOf(section, false);
    const report = [section.join('\n').trim(), ...(rule ? [rule] : [])].join('\n\n');
    return { path, search: echo?.search ?? '', report };
  });
}

/** How many other blocks of the reply aider says it applied beside the failing ones (0 when it says none). */
export function othersAppliedOf(lines: readonly string[]): number {
  for (const line of lines) {
    const match = OTHERS_APPLIED.exec(line);
    if (match) return Number(match[1]);
  }
  return 0;
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

/**
 * A reply's first calls, as both kinds of aider log hold them: the files aider added to the chat
 * (`added`, as each log says it), then the reply's SEARCH/REPLACE edits with aider's answers.
 */
export function addedAndEditCallsOf(
  added: readonly string[],
  model: Block | undefined,
  said: readonly string[],
  reply?: string,
): CallEvent[] {
  const calls: CallEvent[] = added.map((path) => ({
    type: 'call',
    tool: 'add_file',
    args: { path },
    result: result(`Added ${path} to the chat.`, false),
  }));
  calls.push(...editCallsOf(model, said, reply));
  return calls;
}

function callsOf(model: Block | undefined, aider: Block | undefined, reply: string): CallEvent[] {
  const said = aider?.lines ?? [];
  const calls = addedAndEditCallsOf(addedFilesOf(said), model, said, reply);
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
 * its failure report, "Applied edit to …", or nothing when aider said neither. The blocks of one
 * reply were written together, before any of them was applied: they share a `turn` (named by
 * `reply`). Aider applies them in order and reports the failing ones in that order; a block sent
 * twice in one reply fails the second time when the first was applied (the file no longer holds its
 * SEARCH text), so the reports go to the last of identical blocks. When some blocks failed aider
 * prints no "Applied edit" line for the others: its report says how many it applied, and when that
 * is the number of blocks left, each of them was applied.
 */
export function editCallsOf(model: Block | undefined, said: readonly string[], reply?: string): CallEvent[] {
  if (!model) return [];
  const edits = editsOf(model.lines);
  const failed: (FailureReport | undefined)[] = edits.map(() => undefined);
  for (const failure of failuresOf(said).reverse()) {
    const index = edits.findLastIndex(
      (edit, at) => failed[at] === undefined && samePath(failure.path, edit.path) && sameText(failure.search, edit.search),
    );
    if (index >= 0) failed[index] = failure;
  }
  const applied = said.flatMap((line) => /^Applied edit to (.+)$/.exec(line)?.[1]?.trim() ?? []);
  const others = othersAppliedOf(said);
  const othersApplied = others > 0 && failed.filter((failure) => failure === undefined).length === others;
  const turn = reply !== undefined && edits.length > 1 ? { turn: reply } : {};
  return edits.map((edit, index) => {
    const failure = failed[index];
    const appliedTo = applied.find((path) => samePath(path, edit.path)) ?? (othersApplied ? edit.path : undefined);
    const outcome = failure
      ? result(failure.report, true)
      : appliedTo !== undefined
        ? result(`Applied edit to ${appliedTo}`, false)
        : undefined;
    const args = { path: edit.path, search: edit.search, replace: edit.replace };
    return { type: 'call', tool: 'edit_file', args, ...turn, ...(outcome && { result: outcome }) };
  });
}

/** One chat session of a log: its blocks, read as calls and user turns. */
function convertSession(chat: string): TraceEvent[] {
  return sessionEvents(blocksOf(chat), callsOf);
}

/**
 * The events of one session's blocks: a user's block is a user turn, and each model reply becomes
 * the calls `callsOf` reads from it with aider's answer after it (none when a user or another reply
 * came first), given the reply's number in the session to name the turn its calls share.
 */
export function sessionEvents(
  blocks: Iterable<Block>,
  callsOf: (model: Block | undefined, aider: Block | undefined, reply: string) => CallEvent[],
): TraceEvent[] {
  const events: TraceEvent[] = [];
  let model: Block | undefined;
  let replies = 0;
  const reply = () => `reply-${++replies}`;
  for (const block of blocks) {
    if (block.kind === 'user') {
      if (model) events.push(...callsOf(model, undefined, reply()));
      model = undefined;
      events.push({ type: 'user' });
    } else if (block.kind === 'model') {
      if (model) events.push(...callsOf(model, undefined, reply()));
      model = block;
    } else {
      events.push(...callsOf(model, block, reply()));
      model = undefined;
    }
  }
  if (model) events.push(...callsOf(model, undefined, reply()));
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
