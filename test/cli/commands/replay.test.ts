import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../../../src/cli/commands/io.js';
import { runReplay } from '../../../src/cli/commands/replay.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-replay-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function fakeIO(options: { tty?: boolean; columns?: number; env?: Record<string, string> } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = {
    stdout: {
      write: (text: string) => out.push(text),
      isTTY: options.tty ?? false,
      columns: options.columns,
    },
    stderr: { write: (text: string) => err.push(text) },
    env: options.env ?? {},
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

const emptyRead = (t: number) =>
  JSON.stringify({
    type: 'call',
    tool: 'read_file',
    args: { path: 'data.json' },
    result: { content: '' },
    t,
  });
const loop = file(
  'loop.jsonl',
  [
    JSON.stringify({ type: 'meta', name: 'empty-read', description: 'The same empty read, four times.' }),
    emptyRead(0),
    emptyRead(2),
    emptyRead(4),
    emptyRead(6),
  ].join('\n'),
);

describe('narrowing replay', () => {
  it('prints one JSON object per call and a summary with --json', async () => {
    const { io, stdout } = fakeIO();
    expect(await runReplay(loop, { json: true }, io)).toBe(0);
    const lines = stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toEqual({ step: 1, tool: 'read_file', verdict: 'allow', returned: '(empty)' });
    expect(lines[2]).toMatchObject({
      step: 3,
      verdict: 'block',
      rule: expect.any(String),
      reason: expect.any(String),
    });
    expect(lines[4]).toEqual({ summary: { calls: 4, allow: 2, warn: 0, block: 2, halt: 0 } });
  });

  it('writes --json output in chunks of many lines, not one write per call', async () => {
    const reads = Array.from({ length: 3_000 }, (_, index) =>
      JSON.stringify({
        type: 'call',
        tool: 'read_file',
        args: { path: `src/orders/module-${index}.ts` },
        result: { content: `export const value${index} = ${index};` },
        t: index * 2,
      }),
    );
    const path = file('many.jsonl', `${reads.join('\n')}\n`);
    const writes: string[] = [];
    const { io } = fakeIO();
    const counting: CommandIO = {
      ...io,
      stdout: { ...io.stdout, write: (text: string) => writes.push(text) },
    };
    expect(await runReplay(path, { json: true }, counting)).toBe(0);
    const lines = writes.join('').trim().split('\n');
    expect(lines).toHaveLength(3_001);
    expect(JSON.parse(lines[2_999] as string)).toMatchObject({ step: 3_000, verdict: 'allow' });
    expect(JSON.parse(lines[3_000] as string)).toEqual({
      summary: { calls: 3_000, allow: 3_000, warn: 0, block: 0, halt: 0 },
    });
    expect(writes.every((text) => text.endsWith('\n'))).toBe(true);
    expect(writes.length).toBeLessThan(20);
  });

  it('prints a table and a summary line without --json', async () => {
    const { io, stdout } = fakeIO();
    expect(await runReplay(loop, {}, io)).toBe(0);
    const lines = stdout().trimEnd().split('\n');
    expect(lines[0]).toContain('empty-read — The same empty read, four times.');
    expect(lines[1]).toMatch(/^STEP\s+TOOL\s+RETURNED\s+VERDICT\s+RULE\s+REASON$/);
    expect(lines.at(-1)).toBe('4 calls: 2 allow, 0 warn, 2 block, 0 halt');
  });

  it('prints the table of a turn with a coalesced call, counting it apart from blocks', async () => {
    const failed = { isError: true, content: "ENOENT: no such file or directory, open 'config/prod.yaml'" };
    const read = { type: 'call', tool: 'read_file', args: { path: 'config/prod.yaml' }, turn: '1' };
    const trace = file(
      'parallel.jsonl',
      [JSON.stringify({ ...read, result: failed }), JSON.stringify({ ...read, coalesced: true })].join('\n'),
    );
    const { io, stdout } = fakeIO({ tty: true, columns: 120 });
    expect(await runReplay(trace, {}, io)).toBe(0);
    const lines = stdout().trimEnd().split('\n');
    expect(lines.some((line) => line.includes('coalesced') && line.includes('in-flight-duplicate'))).toBe(
      true,
    );
    expect(lines.at(-1)).toContain('0 block');
    expect(lines.at(-1)).toContain('1 coalesced');
  });

  it('says with --judge how many blocks stopped a repeat and how many stopped new work', async () => {
    const { io, stdout } = fakeIO();
    expect(await runReplay(loop, { json: true, judge: true }, io)).toBe(0);
    const last = JSON.parse(stdout().trim().split('\n').at(-1) ?? '{}');
    expect(last).toEqual({ judge: { blocks: 2, justified: 2, false: 0, falseSteps: [] } });
  });

  it('uses no colour when stdout is not a terminal', async () => {
    const { io, stdout } = fakeIO();
    await runReplay(loop, {}, io);
    expect(stdout()).not.toContain('\u001b[');
  });

  it('colours verdicts on a terminal', async () => {
    const { io, stdout } = fakeIO({ tty: true, columns: 100 });
    await runReplay(loop, {}, io);
    expect(stdout()).toContain('\u001b[31m');
  });

  it('honours NO_COLOR on a terminal', async () => {
    const { io, stdout } = fakeIO({ tty: true, columns: 100, env: { NO_COLOR: '1' } });
    await runReplay(loop, {}, io);
    expect(stdout()).not.toContain('\u001b[');
  });

  it('fits rows to the terminal width', async () => {
    const { io, stdout } = fakeIO({ tty: true, columns: 72, env: { NO_COLOR: '1' } });
    await runReplay(loop, {}, io);
    const rows = stdout().split('\n').slice(1, -2);
    expect(rows.every((row) => row.length <= 72)).toBe(true);
  });

  it('fits rows to 100 columns when stdout is not a terminal', async () => {
    const { io, stdout } = fakeIO();
    await runReplay(loop, {}, io);
    const rows = stdout().split('\n').slice(1, -2);
    expect(rows.some((row) => row.endsWith('…'))).toBe(true);
    expect(rows.every((row) => row.length <= 100)).toBe(true);
  });

  it('fits rows to COLUMNS when stdout is not a terminal and the shell says its width', async () => {
    const { io, stdout } = fakeIO({ env: { COLUMNS: '64' } });
    await runReplay(loop, {}, io);
    const rows = stdout().split('\n').slice(1, -2);
    expect(rows.every((row) => row.length <= 64)).toBe(true);
  });

  it('exits 2 naming the file and line of a bad line, and prints no steps', async () => {
    const path = file('bad.jsonl', `${emptyRead(0)}\n// fine\n{"type":"call","tool":"read_file"}\n`);
    const { io, stdout, stderr } = fakeIO();
    expect(await runReplay(path, { json: true }, io)).toBe(2);
    expect(stderr()).toMatch(new RegExp(`^${path.replace(/[.\\]/g, '\\$&')}:3: `));
    expect(stdout()).toBe('');
  });

  it('prints no steps when the bad line comes after thousands of calls', async () => {
    const reads = Array.from({ length: 3_000 }, (_, index) =>
      JSON.stringify({
        type: 'call',
        tool: 'read_file',
        args: { path: `src/m${index}.ts` },
        result: { content: 'x' },
      }),
    );
    const path = file('late-bad.jsonl', `${reads.join('\n')}\n{"type":"call","tool":"read_file"}\n`);
    const { io, stdout, stderr } = fakeIO();
    expect(await runReplay(path, { json: true }, io)).toBe(2);
    expect(stderr()).toContain(`${path}:3001: call event: a call needs "args"`);
    expect(stdout()).toBe('');
  });

  it('exits 2 when the trace does not exist', async () => {
    const { io, stderr } = fakeIO();
    expect(await runReplay(join(dir, 'missing.jsonl'), {}, io)).toBe(2);
    expect(stderr()).toContain('missing.jsonl: cannot read the trace (no such file)');
  });

  it('exits 2 with the policy problem when the policy is invalid', async () => {
    const policy = file('policy.yaml', 'detectors:\n  identicalFailure:\n    threshold: -1\n');
    const { io, stderr } = fakeIO();
    expect(await runReplay(loop, { policy }, io)).toBe(2);
    expect(stderr()).toBe(
      `${policy}: detectors.identicalFailure.threshold must be a positive integer (got -1)\n`,
    );
  });

  it('applies a policy file', async () => {
    const policy = file('advisory.yaml', 'enforcement: advisory\n');
    const { io, stdout } = fakeIO();
    await runReplay(loop, { policy, json: true }, io);
    expect(stdout()).toContain('"summary":{"calls":4,"allow":2,"warn":2,"block":0,"halt":0}');
  });

  it('lets --preset win over the policy file', async () => {
    const policy = file('strict.yaml', 'preset: strict\n');
    const { io, stdout } = fakeIO();
    await runReplay(loop, { policy, preset: 'off', json: true }, io);
    expect(stdout()).toContain('"block":0');
  });

  it('runs from the command line', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "import { main } from './src/cli/main.ts'; await main(process.argv.slice(1));",
        'replay',
        loop,
        '--json',
      ],
      { cwd: repoRoot },
    );
    expect(stdout.trim().split('\n').at(-1)).toBe(
      '{"summary":{"calls":4,"allow":2,"warn":0,"block":2,"halt":0}}',
    );
  });
});

describe('narrowing replay as the built command line runs it', () => {
  /** Whether the schema library was set up: it registers itself on `globalThis` as it loads. */
  const reportsSchemaLibrary = file(
    'schema-library.cjs',
    "process.on('exit', () => process.stderr.write('schema library: ' + ('__zod_globalRegistry' in globalThis) + '\\n'));\n",
  );
  const replayFromBin = (...args: string[]) =>
    promisify(execFile)(
      process.execPath,
      [
        '--require',
        reportsSchemaLibrary,
        join(repoRoot, 'bin', 'narrowing.js'),
        'replay',
        loop,
        '--json',
        ...args,
      ],
      { cwd: dir, env: { ...process.env, NARROWING_GUARD_CODE_CACHE: 'off' } },
    );

  it('sets up no schema library for a trace replayed without a policy file', async () => {
    const { stdout, stderr } = await replayFromBin();
    expect(stdout.trim().split('\n').at(-1)).toBe(
      '{"summary":{"calls":4,"allow":2,"warn":0,"block":2,"halt":0}}',
    );
    expect(stderr).toContain('schema library: false');
  });

  it('sets the schema library up to read a policy file', async () => {
    const { stderr } = await replayFromBin('--policy', file('precise.yaml', 'preset: precise\n'));
    expect(stderr).toContain('schema library: true');
  });
});

describe('narrowing replay of a Claude Code transcript', () => {
  const transcript = fileURLToPath(new URL('../../fixtures/claude/subagent-session.jsonl', import.meta.url));

  it('converts a transcript that opens with a summary line on the way, and says so', async () => {
    const { io, stdout, stderr } = fakeIO();
    expect(await runReplay(transcript, { json: true }, io)).toBe(0);
    const summary = JSON.parse(stdout().trim().split('\n').at(-1) ?? '{}');
    expect(summary).toEqual({ summary: { calls: 4, allow: 4, warn: 0, block: 0, halt: 0 } });
    expect(stderr()).toBe(
      `${transcript} is a Claude Code transcript: replaying its 4 calls (1 unreadable line left out); ` +
        '`narrowing-guard trace from-claude` saves the conversion\n',
    );
  });

  it('converts a transcript that opens with a file-history snapshot', async () => {
    const snapshot = JSON.stringify({
      type: 'file-history-snapshot',
      messageId: 'fe2d',
      snapshot: { messageId: 'fe2d', trackedFileBackups: {}, timestamp: '2026-03-05T09:00:00.000Z' },
      isSnapshotUpdate: false,
    });
    const path = file('snapshot-first.jsonl', `${snapshot}\n${readFileSync(transcript, 'utf8')}`);
    const { io, stderr } = fakeIO();
    expect(await runReplay(path, { json: true }, io)).toBe(0);
    expect(stderr()).toContain('is a Claude Code transcript: replaying its 4 calls');
  });

  it('reads a transcript given through a link as a trace, never as a transcript', async () => {
    const link = join(dir, 'linked-transcript.jsonl');
    symlinkSync(transcript, link);
    const { io, stderr } = fakeIO();
    expect(await runReplay(link, { json: true }, io)).toBe(2);
    expect(stderr()).not.toContain('is a Claude Code transcript');
    expect(stderr()).toMatch(new RegExp(`^${link.replace(/[.\\]/g, '\\$&')}:1: `));
  });

  it('still names the first bad line of a trace that is not a transcript', async () => {
    const path = file('bad-trace.jsonl', `${emptyRead(0)}\n{"type":"summary"}\n`);
    const { io, stderr } = fakeIO();
    expect(await runReplay(path, {}, io)).toBe(2);
    expect(stderr()).toContain(`${path}:2: unknown event type "summary"`);
  });
});
