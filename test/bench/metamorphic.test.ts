import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CorpusLabels } from '../../bench/corpus.js';
import {
  absolutePaths,
  addDescription,
  addExplanation,
  annotationsDropped,
  claudeCodeResult,
  codexJsonResult,
  codexResult,
  cursorResult,
  editAs,
  formatMetamorphic,
  geminiResult,
  IDE_FILE_TOOLS,
  ideFileTools,
  miniSweAgentResult,
  openHandsResult,
  renameEdit,
  renameRead,
  renameShell,
  renameWrite,
  reorderKeys,
  rooCodeResult,
  scoreMetamorphic,
  serverToolsPrefixed,
  type TraceEvent,
  type Transform,
  truncatedResult,
  verdictChanges,
  volatileValues,
  withVolatileValues,
  writeAs,
} from '../../bench/metamorphic.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const MISSING = { isError: true, content: "ENOENT: no such file or directory, open 'config/prod.yaml'" };
const FAILING_TESTS = {
  isError: true,
  content: 'FAILED tests/test_api.py::test_login - AssertionError\n1 failed',
};

/** A run that reads a missing file three times and runs a failing test four times, nothing changed. */
const EVENTS: TraceEvent[] = [
  {
    type: 'meta',
    name: 'repeats',
    tools: [
      { name: 'bash', annotations: { narrowing: { kind: 'exec' } } },
      { name: 'Read', annotations: { readOnlyHint: true, narrowing: { kind: 'read' } } },
      { name: 'Edit' },
    ],
  },
  { type: 'user', text: 'make the login test pass' },
  { type: 'call', tool: 'Read', args: { file_path: 'config/prod.yaml' }, result: MISSING },
  { type: 'call', tool: 'Read', args: { file_path: 'config/prod.yaml' }, result: MISSING },
  { type: 'call', tool: 'Read', args: { file_path: 'config/prod.yaml' }, result: MISSING },
  {
    type: 'call',
    tool: 'Edit',
    args: { file_path: 'src/api.py', old_string: 'return None', new_string: 'return user' },
    result: { content: 'The file src/api.py has been updated.' },
  },
  ...Array.from({ length: 4 }, () => ({
    type: 'call',
    tool: 'bash',
    args: { command: 'pytest tests/test_api.py -x', timeout: 120 },
    result: FAILING_TESTS,
  })),
];

const calls = (events: readonly TraceEvent[]) => events.filter((event) => event.type === 'call');

describe('transforms that keep every loop', () => {
  it('renames the shell tool in every call and in the tools list, without its annotations', () => {
    const out = renameShell.apply(EVENTS, 'a.jsonl') ?? [];
    const shell = calls(out).at(-1);
    expect(shell?.tool).not.toBe('bash');
    expect(shell?.args).toEqual({ command: 'pytest tests/test_api.py -x', timeout: 120 });
    const meta = out[0] as { tools: { name: string; annotations?: unknown }[] };
    expect(meta.tools).toContainEqual({ name: shell?.tool });
  });

  it('renames the read tool and its path argument, leaving the path as it was', () => {
    const out = renameRead.apply(EVENTS, 'a.jsonl') ?? [];
    const read = calls(out)[0] as { tool: string; args: Record<string, unknown> };
    expect(['Read', 'read_file', 'view']).toContain(read.tool);
    expect(Object.values(read.args)).toEqual(['config/prod.yaml']);
  });

  it('writes an edit in each host’s shape: old and new text, a str_replace command, a patch', () => {
    const args = { file_path: 'src/api.py', old_string: 'return None', new_string: 'return user' };
    expect(editAs('replace', 'absolutePath', args)).toEqual({
      absolutePath: 'src/api.py',
      old_string: 'return None',
      new_string: 'return user',
    });
    expect(editAs('str_replace_editor', 'path', args)).toEqual({
      command: 'str_replace',
      path: 'src/api.py',
      old_str: 'return None',
      new_str: 'return user',
    });
    expect(editAs('apply_patch', 'path', args)).toEqual({
      input: '*** Begin Patch\n*** Update File: src/api.py\n@@\n-return None\n+return user\n*** End Patch',
    });
  });

  it('writes a whole-file write in each host’s shape: content, or a create command with its text', () => {
    const args = { file_path: 'src/config.ts', content: 'export const PORT = 3000;\n' };
    expect(writeAs('write_to_file', 'path', args)).toEqual({
      path: 'src/config.ts',
      content: 'export const PORT = 3000;\n',
    });
    expect(writeAs('str_replace_editor', 'path', args)).toEqual({
      command: 'create',
      path: 'src/config.ts',
      file_text: 'export const PORT = 3000;\n',
    });
    const written = [...EVENTS, { type: 'call', tool: 'Write', args, result: { content: 'File written.' } }];
    const write = calls(renameWrite.apply(written, 'a.jsonl') ?? []).at(-1);
    expect(['Write', 'write_file', 'write_to_file', 'str_replace_editor']).toContain(write?.tool);
  });

  it('leaves a trace without the tool a transform renames as it is', () => {
    const onlyShell = EVENTS.filter((event) => event.tool !== 'Edit');
    expect(renameEdit.apply(onlyShell, 'a.jsonl')).toBeUndefined();
  });

  it('gives every call a description of its own and reverses the order of argument keys', () => {
    const described = calls(addDescription.apply(EVENTS, 'a.jsonl') ?? []).map(
      (event) => (event.args as { description: string }).description,
    );
    expect(new Set(described).size).toBe(described.length);
    const reordered = calls(reorderKeys.apply(EVENTS, 'a.jsonl') ?? []).at(-1);
    expect(Object.keys(reordered?.args as object)).toEqual(['timeout', 'command']);
  });

  it('adds an explanation beside the arguments, and none to a call that has no arguments', () => {
    const submitted = [...EVENTS, { type: 'call', tool: 'submit', args: {}, result: { content: 'ok' } }];
    const explained = calls(addExplanation.apply(submitted, 'a.jsonl') ?? []);
    expect(typeof (explained[0]?.args as { explanation?: unknown } | undefined)?.explanation).toBe('string');
    expect(explained.at(-1)?.args).toEqual({});
  });

  it('lists the tools by their names alone, and leaves a trace whose tools carry no annotations as it is', () => {
    const meta = (annotationsDropped.apply(EVENTS, 'a.jsonl') ?? [])[0] as { tools: unknown[] };
    expect(meta.tools).toEqual([{ name: 'bash' }, { name: 'Read' }, { name: 'Edit' }]);
    expect(
      annotationsDropped.apply([{ ...EVENTS[0], tools: meta.tools }, ...EVENTS.slice(1)], 'a.jsonl'),
    ).toBeUndefined();
  });

  it('names a tool no host has built in as a host names a server’s tool, with its annotations, keeping the hosts’ own tools', () => {
    const played = [
      {
        type: 'meta',
        name: 'ctf',
        tools: [{ name: 'decompile', annotations: { readOnlyHint: true } }, { name: 'bash' }],
      },
      {
        type: 'call',
        tool: 'decompile',
        args: { binary_path: 'crackme' },
        result: { content: 'int main(void) {}' },
      },
      { type: 'call', tool: 'bash', args: { command: 'ls' }, result: { content: 'crackme' } },
      { type: 'call', tool: 'TodoWrite', args: { todos: [] }, result: { content: 'ok' } },
    ];
    const out = serverToolsPrefixed.apply(played, 'a.jsonl') ?? [];
    const [decompile, bash, todo] = calls(out);
    expect(decompile?.tool).toMatch(/^mcp__?(workbench|env|local)__?decompile$/);
    expect([bash?.tool, todo?.tool]).toEqual(['bash', 'TodoWrite']);
    expect((out[0] as { tools: unknown[] }).tools).toEqual([
      { name: decompile?.tool, annotations: { readOnlyHint: true } },
      { name: 'bash' },
    ]);
    expect(serverToolsPrefixed.apply(played.slice(2), 'a.jsonl')).toBeUndefined();
  });

  it('writes a file tool’s relative paths as the absolute paths a host asks for, leaving commands as they are', () => {
    const opened = [
      ...EVENTS,
      { type: 'call', tool: 'Read', args: { file_path: './README.md' }, result: { content: '# shop' } },
    ];
    const out = calls(absolutePaths.apply(opened, 'a.jsonl') ?? []);
    const spelled = out.map((call) => {
      const args = call.args as { file_path?: string; command?: string };
      return args.file_path ?? args.command;
    });
    expect(spelled).toEqual([
      '/home/dev/project/config/prod.yaml',
      '/home/dev/project/config/prod.yaml',
      '/home/dev/project/config/prod.yaml',
      '/home/dev/project/src/api.py',
      ...Array.from({ length: 4 }, () => 'pytest tests/test_api.py -x'),
      '/home/dev/project/README.md',
    ]);
  });

  it('writes a relative path under the folder the recording shows it in, where a command names it in full', () => {
    const solved = [
      { type: 'meta', name: 'ctf', tools: [{ name: 'createfile' }, { name: 'run_command' }] },
      {
        type: 'call',
        tool: 'createfile',
        args: { path: 'solve.py', contents: 'print(1)' },
        result: { content: '{"success": true}' },
      },
      {
        type: 'call',
        tool: 'run_command',
        args: { command: 'python /home/ctfplayer/solve.py' },
        result: { content: '1' },
      },
    ];
    const [created] = calls(absolutePaths.apply(solved, 'a.jsonl') ?? []);
    expect(created?.args).toEqual({ path: '/home/ctfplayer/solve.py', contents: 'print(1)' });
  });

  it('sends every file read, edit and write as an IDE agent does, the path, texts and results kept', () => {
    const written = [
      ...EVENTS,
      {
        type: 'call',
        tool: 'Write',
        args: { file_path: 'config/prod.yaml', content: 'port: 8080\n' },
        result: { content: 'File created successfully at: config/prod.yaml' },
      },
      {
        type: 'call',
        tool: 'Read',
        args: { file_path: 'src/api.py', offset: 40, limit: 20 },
        result: { content: '    40→def login(user):' },
      },
    ];
    const byTrace = ['a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl'].map((trace) =>
      calls(ideFileTools.apply(written, trace) ?? []),
    );
    const names = new Set(byTrace.map((out) => out.map((call) => call.tool).join(' ')));
    expect(names.size).toBe(IDE_FILE_TOOLS.length);
    const [windsurf] = IDE_FILE_TOOLS;
    const out = byTrace.find((transformed) => transformed[0]?.tool === 'view_file') ?? [];
    expect(out[0]).toMatchObject({ ...windsurf?.read('config/prod.yaml', {}), result: MISSING });
    expect(out[3]?.args).toEqual(windsurf?.edit('src/api.py', 'return None', 'return user', {}).args);
    expect(out[8]?.args).toEqual({
      TargetFile: 'config/prod.yaml',
      CodeContent: 'port: 8080\n',
      EmptyFile: false,
    });
    expect(out.slice(4, 8).map((call) => call.tool)).toEqual(['bash', 'bash', 'bash', 'bash']);
    expect(out[9]?.args).toEqual({ AbsolutePath: 'src/api.py', offset: 40, limit: 20 });
  });

  it('leaves a trace whose file tools already name an absolute path, which shows how its host spells them', () => {
    const opened = [
      ...EVENTS,
      {
        type: 'call',
        tool: 'Read',
        args: { file_path: 'C:\\Users\\dev\\shop\\README.md' },
        result: { content: '# shop' },
      },
    ];
    expect(absolutePaths.apply(opened, 'a.jsonl')).toBeUndefined();
  });

  const lastShellResult = (transform: Transform, trace = 'a.jsonl') =>
    calls(transform.apply(EVENTS, trace) ?? []).at(-1)?.result as Record<string, unknown>;

  it('frames a failed command as Claude Code does: flagged, its exit status on the first line', () => {
    expect(lastShellResult(claudeCodeResult)).toEqual({
      isError: true,
      content: `Exit code 1\n${FAILING_TESTS.content}`,
    });
  });

  it('frames a failed command as Codex does: a header with the exit status, nothing flagged', () => {
    const shell = ['a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl'].map((trace) =>
      lastShellResult(codexResult, trace),
    );
    for (const result of shell) {
      expect(result.isError).toBeUndefined();
      expect(result.content).toMatch(
        /^(?:Exit code: 1\n|Chunk ID: [0-9a-f]{6}\n)Wall time: [\d.]+ seconds\n/,
      );
      expect(result.content).toMatch(/\nOutput:\nFAILED tests\/test_api\.py/);
    }
  });

  it('frames a failed command as Gemini CLI does: one block with the command and its exit status', () => {
    const result = lastShellResult(geminiResult);
    expect(result.isError).toBeUndefined();
    expect(result.content).toMatch(
      /^Command: pytest tests\/test_api\.py -x\nDirectory: \(root\)\nOutput: FAILED [\s\S]*\nError: \(none\)\nExit Code: 1\nSignal: \(none\)\nBackground PIDs: \(none\)\nProcess Group PGID: \d+$/,
    );
  });

  it('frames a failed command as OpenHands does: its bracketed lines after the output, nothing flagged', () => {
    const result = lastShellResult(openHandsResult);
    expect(result.isError).toBeUndefined();
    expect(result.content).toMatch(
      /^FAILED tests\/test_api\.py[\s\S]*\n\[The command completed with exit code 1\.\]\n\[Current working directory: \/workspace\]\n\[Python interpreter: \S+\]\n\[Command finished with exit code 1\]$/,
    );
  });

  it('frames a failed command as mini-swe-agent does: its return code, then the output in tags', () => {
    expect(lastShellResult(miniSweAgentResult)).toEqual({
      content: `<returncode>1</returncode>\n<output>\n${FAILING_TESTS.content}\n</output>`,
    });
  });

  it('frames a failed command as older Codex versions do: a JSON object with the exit status in its metadata', () => {
    const result = lastShellResult(codexJsonResult);
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(String(result.content))).toMatchObject({
      output: FAILING_TESTS.content,
      metadata: { exit_code: 1 },
    });
  });

  it('frames a failed command as Roo Code does: a header saying it was not successful, with its exit status', () => {
    expect(lastShellResult(rooCodeResult)).toEqual({
      content: `Command executed in terminal 1 within working directory '/workspace'. Command execution was not successful, inspect the cause and adjust as needed.\nExit code: 1\nOutput:\n${FAILING_TESTS.content}`,
    });
  });

  it('shows a command as Cursor does: only its output, with no exit status', () => {
    expect(lastShellResult(cursorResult)).toEqual({ content: FAILING_TESTS.content });
  });

  it('shows as Cursor does a failure whose recording wrote its status as `Error: Exit code N`: its output only', () => {
    const failed = { isError: true, content: 'Error: Exit code 128\nfatal: not a git repository' };
    const events = EVENTS.map((event) => (event.tool === 'bash' ? { ...event, result: failed } : event));
    const result = calls(cursorResult.apply(events, 'a.jsonl') ?? []).at(-1)?.result;
    expect(result).toEqual({ content: 'fatal: not a git repository' });
  });

  it('writes no exit status for an unflagged result of a terminal that records none, and one for a flagged failure', () => {
    const missing = { content: 'chmod: scripts/deploy.sh: No such file or directory' };
    const refused = {
      isError: true,
      content: 'fatal: not a git repository (or any of the parent directories): .git',
    };
    const events: TraceEvent[] = [
      { type: 'meta', name: 'terminal', tools: [{ name: 'run_terminal_cmd' }] },
      {
        type: 'call',
        tool: 'run_terminal_cmd',
        args: { command: 'chmod +x scripts/deploy.sh' },
        result: missing,
      },
      { type: 'call', tool: 'run_terminal_cmd', args: { command: 'git status' }, result: refused },
    ];
    for (const transform of [claudeCodeResult, codexResult, geminiResult]) {
      const [unflagged, flagged] = calls(transform.apply(events, 'a.jsonl') ?? []).map(
        (call) => call.result as Record<string, unknown>,
      );
      expect(unflagged).toEqual(missing);
      expect(String(flagged?.content)).toMatch(/Exit code:? 1\n|Exit Code: 1\n|exited with code 1\n/);
    }
  });

  it('writes no exit status for an unflagged result of Codex’s shell, which answers a patch that does not apply with no status', () => {
    const unapplied = {
      content:
        'error: Failed to find expected lines in /home/dev/app/schemas/profile.schema.json:\n    "macros":{',
    };
    const events: TraceEvent[] = [
      { type: 'meta', name: 'codex', tools: [{ name: 'shell' }] },
      {
        type: 'call',
        tool: 'shell',
        args: {
          command:
            'apply_patch << \'PATCH\'\n*** Begin Patch\n*** Update File: schemas/profile.schema.json\n@@\n-    "macros":{\n+    "macros": {\n*** End Patch\nPATCH',
        },
        result: unapplied,
      },
    ];
    for (const transform of [claudeCodeResult, codexResult, geminiResult]) {
      expect(transform.apply(events, 'a.jsonl')).toBeUndefined();
    }
  });

  it('writes exit status 0 for an unflagged result of a shell whose recordings flag every failure', () => {
    const listed = { content: 'grep: src/registry.ts: No such file or directory' };
    const events: TraceEvent[] = [
      { type: 'meta', name: 'bash', tools: [{ name: 'Bash' }] },
      {
        type: 'call',
        tool: 'Bash',
        args: { command: 'grep -n TODO src/registry.ts | head -20' },
        result: listed,
      },
    ];
    const result = calls(geminiResult.apply(events, 'a.jsonl') ?? [])[0]?.result as Record<string, unknown>;
    expect(String(result.content)).toMatch(/\nExit Code: 0\n/);
  });

  it('renames a file’s path to each host’s argument name, `filename` among them', () => {
    const keys = new Set<string>();
    for (const trace of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'].map(
      (x) => `${x}.jsonl`,
    )) {
      const read = calls(renameRead.apply(EVENTS, trace) ?? [])[0]?.args as Record<string, unknown>;
      for (const key of Object.keys(read)) keys.add(key);
    }
    expect(keys).toContain('filename');
    expect(renameRead.apply(EVENTS, 'a.jsonl')).toBeDefined();
  });

  it('cuts only an output longer than what a host keeps, keeping its flag', () => {
    expect(truncatedResult.apply(EVENTS, 'a.jsonl')).toBeUndefined();
    const long = {
      isError: true,
      content: `${'collected 900 items\n'.repeat(6_000)}FAILED tests/test_api.py`,
    };
    const events = EVENTS.map((event) => (event.tool === 'bash' ? { ...event, result: long } : event));
    for (const trace of ['a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl']) {
      const result = calls(truncatedResult.apply(events, trace) ?? []).at(-1)?.result as Record<
        string,
        unknown
      >;
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(
        /\.\.\. \[\d+ characters truncated\] \.\.\.|^\[Terminal output truncated: ~\d+KB dropped from beginning\]\n/,
      );
      expect(result.content).toMatch(/FAILED tests\/test_api\.py$/);
    }
  });
});

describe('fresh volatile values in every result', () => {
  it('gives each repeat of a failure new values of the same kinds, its first line keeping its words', () => {
    const results = calls(volatileValues.apply(EVENTS, 'a.jsonl') ?? []).map(
      (event) => (event.result as { content: string }).content,
    );
    const [first, second] = results;
    expect(first).not.toBe(second);
    expect(first?.startsWith(`${MISSING.content} (`)).toBe(true);
    expect(first?.split('\n').length).toBe(second?.split('\n').length);
  });

  it('puts a failure’s id on the first line the command printed, below the exit status its host wrote', () => {
    const text = withVolatileValues(
      'Error: Exit code 1\n(eval):cd:1: no such file or directory: codex-ts',
      true,
      'a.jsonl',
      'a.jsonl 3',
    );
    const [status, first] = text.split('\n');
    expect(status).toBe('Error: Exit code 1');
    expect(first?.startsWith('(eval):cd:1: no such file or directory: codex-ts (')).toBe(true);
  });

  it('puts the values of a structured answer in fields of its own', () => {
    const text = withVolatileValues(
      '{"status":"failed","reason":"seat taken"}',
      true,
      'a.jsonl',
      'a.jsonl 3',
    );
    expect(JSON.parse(text)).toMatchObject({ status: 'failed', reason: 'seat taken' });
    expect(Object.keys(JSON.parse(text))).toHaveLength(5);
  });

  it('leaves a short answer on one line as it is', () => {
    const events = [
      { type: 'call', tool: 'Grep', args: { pattern: 'x' }, result: { content: 'No files found' } },
    ];
    expect(volatileValues.apply(events, 'a.jsonl')).toBeUndefined();
  });
});

describe('counting verdict changes', () => {
  it('counts each call whose verdict is another, and the stops gained and lost', () => {
    const before = [
      { step: 1, verdict: 'allow' },
      { step: 2, verdict: 'block' },
      { step: 3, verdict: 'warn' },
    ];
    const after = [
      { step: 1, verdict: 'block' },
      { step: 2, verdict: 'warn' },
      { step: 3, verdict: 'warn' },
    ];
    expect(verdictChanges(before, after)).toEqual({
      runs: 1,
      calls: 3,
      changed: 2,
      stopsGained: 1,
      stopsLost: 1,
    });
  });

  function corpusOf(events: readonly TraceEvent[], loops: CorpusLabels['loops'] = []): string {
    const corpus = mkdtempSync(join(tmpdir(), 'metamorphic-'));
    dirs.push(corpus);
    mkdirSync(join(corpus, 'design', 'traces'), { recursive: true });
    writeFileSync(
      join(corpus, 'design', 'traces', 'repeats.jsonl'),
      events.map((event) => JSON.stringify(event)).join('\n'),
    );
    const justified = loops.flatMap((loop) => loop.wasted.map((step) => ({ step })));
    const labels = { trace: 'repeats.jsonl', source: 'demo', calls: 8, justified, loops };
    writeFileSync(join(corpus, 'design', 'labels.jsonl'), `${JSON.stringify(labels)}\n`);
    return corpus;
  }
  const root = fileURLToPath(new URL('../..', import.meta.url));
  /** A transform that does change what is a loop: each test run asks for another case. */
  const numbered: Transform = {
    name: 'commands numbered',
    apply: (events) => {
      let step = 0;
      return events.map((event) =>
        event.tool === 'bash'
          ? { ...event, args: { command: `pytest tests/test_api.py -x -k case${++step}` } }
          : event,
      );
    },
  };

  it('finds no verdict changed on a run of repeated failures under every transform that keeps a status', async () => {
    const score = await scoreMetamorphic(corpusOf(EVENTS), { root });
    for (const { transform, changes } of score.byTransform) {
      if (transform === cursorResult.name) continue;
      expect({ transform, changed: changes.changed }).toEqual({ transform, changed: 0 });
    }
    expect(score.byTransform.find((row) => row.transform === 'all at once')?.changes.calls).toBe(8);
  });

  it('finds no verdict changed when every result carries fresh volatile values', async () => {
    const score = await scoreMetamorphic(corpusOf(EVENTS), { root, transforms: [volatileValues] });
    expect(score.byTransform[0]?.changes).toMatchObject({ calls: 8, changed: 0 });
  });

  it('counts the failures an output without its exit status hides: a failed test run read as a success', async () => {
    const score = await scoreMetamorphic(corpusOf(EVENTS), { root, transforms: [cursorResult] });
    expect(score.byTransform[0]?.changes.stopsLost).toBeGreaterThan(0);
  });

  it('scores the runs a transform touched against their labels: a loop it hides is caught before and not after', async () => {
    const loops = [{ start: 5, end: 8, wasted: [6, 7, 8] }];
    const score = await scoreMetamorphic(corpusOf(EVENTS, loops), { root, transforms: [numbered] });
    expect(score.byTransform[0]?.labelled).toMatchObject({ loops: 1, caughtBefore: 1, caughtAfter: 0 });
    expect(formatMetamorphic(score)).toContain('1 → 0/1');
  });

  it('counts the changes of a transform that does change what is a loop', async () => {
    const score = await scoreMetamorphic(corpusOf(EVENTS), { root, transforms: [numbered] });
    expect(score.byTransform[0]?.changes.stopsLost).toBeGreaterThan(0);
    expect(formatMetamorphic(score, true)).toContain('commands numbered: repeats.jsonl step');
  });
});
