import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../../../src/cli/commands/io.js';
import { runClaudeConvert, runConvert } from '../../../src/cli/commands/trace.js';
import { type CallEvent, parseTrace, type TraceEvent } from '../../../src/trace/index.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-trace-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const transcript = fileURLToPath(
  new URL('../../fixtures/claude/auth-middleware-session.jsonl', import.meta.url),
);

function fakeIO() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe('narrowing trace from-claude', () => {
  it('writes a trace to standard output and a count to standard error', async () => {
    const { io, stdout, stderr } = fakeIO();
    expect(await runConvert('claude', transcript, {}, io)).toBe(0);
    const events = parseTrace(stdout());
    expect(events[0]).toMatchObject({ type: 'meta', name: 'auth-middleware-session' });
    expect(stderr()).toBe(
      '10 calls converted (1 by 1 subagent, marked with "agent"); 1 cancelled by the user, kept without a result\n' +
        'skipped: 1 line not JSON\n',
    );
  });

  it('writes the trace to the file given with -o', async () => {
    const output = join(dir, 'session.jsonl');
    const { io, stdout } = fakeIO();
    expect(await runConvert('claude', transcript, { output, name: 'auth' }, io)).toBe(0);
    expect(stdout()).toBe('');
    expect(parseTrace(readFileSync(output, 'utf8'))[0]).toMatchObject({ name: 'auth' });
  });

  it('exits 2 when the input cannot be read', async () => {
    const { io, stderr } = fakeIO();
    expect(await runConvert('journal', join(dir, 'nothing.jsonl'), {}, io)).toBe(2);
    expect(stderr()).toContain('nothing.jsonl: cannot read the file (ENOENT)');
  });
});

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/claude/${name}`, import.meta.url));

/** A home folder as Claude Code leaves it after two sessions in /home/dev/shop.app, the newer with a subagent. */
function claudeHome() {
  const home = mkdtempSync(join(dir, 'home-'));
  const project = join(home, '.claude', 'projects', '-home-dev-shop-app');
  mkdirSync(join(project, '7c0e4a52-9b1d-4f3e-8a26-d51c0f9e2b47', 'subagents'), { recursive: true });
  const older = join(project, '0b7c5a8e-3f21-4d6a-9c1e-52f0d8a7b611.jsonl');
  const newer = join(project, '7c0e4a52-9b1d-4f3e-8a26-d51c0f9e2b47.jsonl');
  copyFileSync(fixture('auth-middleware-session.jsonl'), older);
  copyFileSync(fixture('subagent-session.jsonl'), newer);
  copyFileSync(
    fixture('subagent-session-agent.jsonl'),
    join(project, '7c0e4a52-9b1d-4f3e-8a26-d51c0f9e2b47', 'subagents', 'agent-a4f19c2.jsonl'),
  );
  utimesSync(older, new Date('2026-03-02T10:30:00Z'), new Date('2026-03-02T10:30:00Z'));
  utimesSync(newer, new Date('2026-03-05T09:02:00Z'), new Date('2026-03-05T09:02:00Z'));
  return { home, project };
}

const toolsOf = (events: TraceEvent[]) =>
  events.filter((event): event is CallEvent => event.type === 'call').map((call) => call.tool);

describe('narrowing trace from-claude, finding the transcripts', () => {
  it("converts the newest session of the current directory's project with --latest and no path", async () => {
    const { home } = claudeHome();
    const { io, stdout } = fakeIO();
    (io.env as Record<string, string>).HOME = home;
    expect(await runClaudeConvert(undefined, { latest: true, cwd: '/home/dev/shop.app' }, io)).toBe(0);
    const events = parseTrace(stdout());
    expect(events[0]).toMatchObject({ name: '7c0e4a52-9b1d-4f3e-8a26-d51c0f9e2b47' });
    expect(toolsOf(events)).toEqual(['Task', 'Grep', 'Read', 'Read', 'Bash', 'Edit', 'Edit']);
  });

  it('looks in CLAUDE_CONFIG_DIR when it is set', async () => {
    const { home } = claudeHome();
    const { io } = fakeIO();
    (io.env as Record<string, string>).CLAUDE_CONFIG_DIR = join(home, '.claude');
    expect(await runClaudeConvert(undefined, { latest: true, cwd: '/home/dev/shop.app' }, io)).toBe(0);
  });

  it('says where it looked when the project has no transcripts', async () => {
    const { home } = claudeHome();
    const { io, stderr } = fakeIO();
    (io.env as Record<string, string>).HOME = home;
    expect(await runClaudeConvert(undefined, { latest: true, cwd: '/home/dev/other' }, io)).toBe(2);
    expect(stderr()).toBe(
      `no Claude Code transcripts for /home/dev/other: ${join(home, '.claude', 'projects', '-home-dev-other')} ` +
        'does not exist. Give a transcript or a project folder instead.\n',
    );
  });

  it('converts every session of a project folder, oldest first, each opening with its session', async () => {
    const { project } = claudeHome();
    const { io, stdout } = fakeIO();
    expect(await runClaudeConvert(project, {}, io)).toBe(0);
    const events = parseTrace(stdout());
    expect(events[0]).toMatchObject({ name: '-home-dev-shop-app' });
    expect(
      events.filter((event) => event.type === 'session').map((event) => event.type === 'session' && event.id),
    ).toEqual([
      '0b7c5a8e-3f21-4d6a-9c1e-52f0d8a7b611',
      'a41e9d02-7c55-4b1f-8e3a-0c9d2f6b7e48',
      '7c0e4a52-9b1d-4f3e-8a26-d51c0f9e2b47',
    ]);
    expect(toolsOf(events)).toHaveLength(17);
  });

  it('converts only the newest session of a folder with --latest', async () => {
    const { project } = claudeHome();
    const { io, stdout } = fakeIO();
    expect(await runClaudeConvert(project, { latest: true }, io)).toBe(0);
    expect(toolsOf(parseTrace(stdout()))).toHaveLength(7);
  });

  it("reads a session's subagent files when given the session's transcript", async () => {
    const { project } = claudeHome();
    const { io, stdout, stderr } = fakeIO();
    expect(await runClaudeConvert(join(project, '7c0e4a52-9b1d-4f3e-8a26-d51c0f9e2b47.jsonl'), {}, io)).toBe(
      0,
    );
    expect(toolsOf(parseTrace(stdout()))).toEqual(['Task', 'Grep', 'Read', 'Read', 'Bash', 'Edit', 'Edit']);
    expect(stderr()).toContain(
      '7 calls converted (3 by 1 subagent, marked with "agent"); 2 cancelled by the user',
    );
  });

  it('reads the subagent files older versions kept beside the sessions, matched by session id', async () => {
    const { project } = claudeHome();
    const nested = join(project, '7c0e4a52-9b1d-4f3e-8a26-d51c0f9e2b47');
    rmSync(nested, { recursive: true });
    copyFileSync(fixture('subagent-session-agent.jsonl'), join(project, 'agent-a4f19c2.jsonl'));
    // Another session's subagent, beside it in the same folder.
    writeFileSync(
      join(project, 'agent-b0000ff.jsonl'),
      readFileSync(fixture('subagent-session-agent.jsonl'), 'utf8')
        .replaceAll('7c0e4a52-9b1d-4f3e-8a26-d51c0f9e2b47', '0b7c5a8e-3f21-4d6a-9c1e-52f0d8a7b611')
        .replaceAll('a4f19c2', 'b0000ff'),
    );
    const { io, stdout } = fakeIO();
    expect(await runClaudeConvert(project, { latest: true }, io)).toBe(0);
    const agents = parseTrace(stdout()).flatMap((event) =>
      event.type === 'call' && event.agent ? [event.agent] : [],
    );
    expect(agents).toEqual(['a4f19c2', 'a4f19c2', 'a4f19c2']);
  });

  it('reads a transcript from standard input for -', async () => {
    const { io, stdout } = fakeIO();
    const stdin = Readable.from([readFileSync(fixture('checkout-fix-session.jsonl'))]);
    expect(await runClaudeConvert('-', { stdin }, io)).toBe(0);
    expect(toolsOf(parseTrace(stdout()))).toHaveLength(16);
  });

  it('does not follow a link to a transcript', async () => {
    const link = join(dir, 'linked.jsonl');
    symlinkSync(fixture('checkout-fix-session.jsonl'), link);
    const { io, stdout, stderr } = fakeIO();
    expect(await runClaudeConvert(link, {}, io)).toBe(2);
    expect(stdout()).toBe('');
    expect(stderr()).toBe(`${link}: a link, not followed: give the file it points to\n`);
  });

  it('asks for a path when given neither a path nor --latest', async () => {
    const { io, stderr } = fakeIO();
    expect(await runClaudeConvert(undefined, {}, io)).toBe(2);
    expect(stderr()).toContain('--latest for the newest session of this project');
  });
});
