import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExplain } from '../../../src/cli/commands/explain.js';
import { runInspect } from '../../../src/cli/commands/inspect.js';
import { runVerify } from '../../../src/cli/commands/verify.js';
import { DAY, type SampleStateDir, writeSampleStateDir } from '../../report/sample-state.js';
import { captureIO } from './cli-io.js';

const cwd = mkdtempSync(join(tmpdir(), 'narrowing-reports-cli-'));
let sample: SampleStateDir;

beforeAll(async () => {
  sample = await writeSampleStateDir(join(cwd, '.narrowing'));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('narrowing inspect', () => {
  it('shows the constraints and blocks of the default state directory', async () => {
    const { io, stdout } = captureIO();
    expect(await runInspect({}, io, { cwd, now: sample.end + DAY })).toBe(0);
    expect(stdout()).toContain('Learned constraints in .narrowing/ (3 active):');
    expect(stdout()).toContain('Blocks (4), newest first:');
  });

  it('explains an empty state directory', async () => {
    const { io, stdout } = captureIO();
    expect(await runInspect({ stateDir: 'elsewhere' }, io, { cwd, now: sample.end, homeDir: cwd })).toBe(0);
    expect(stdout()).toBe(
      'No learned constraints yet in elsewhere/, and no agent is guarded for it. To guard an agent through its ' +
        'hooks: `narrowing-guard install claude-code` (or gemini-cli, codex, cursor); to guard an MCP server: ' +
        '`narrowing-guard wrap <server>`. Constraints are learned once a guarded call fails.\n',
    );
  });

  it('refuses a damaged state file and says what will happen to it', async () => {
    const dir = join(cwd, 'damaged');
    cpSync(sample.dir, dir, { recursive: true });
    writeFileSync(join(dir, 'state.json'), '{"version": 1, "savedAt": 17');
    const { io, stderr } = captureIO();
    expect(await runInspect({ stateDir: dir }, io, { cwd, now: sample.end })).toBe(2);
    expect(stderr()).toContain('state.json cannot be read: it is not valid JSON');
    expect(stderr()).toContain('moves a damaged state file aside');
  });

  it('prints JSON with --json', async () => {
    const { io, stdout } = captureIO();
    expect(await runInspect({ json: true, recent: '1' }, io, { cwd, now: sample.end })).toBe(0);
    const json = JSON.parse(stdout());
    expect(json.constraints).toHaveLength(3);
    expect(json.blocks).toEqual([expect.objectContaining({ tool: 'read_file', rule: 'identical-failure' })]);
  });

  it('rejects a count of blocks that is not a number', async () => {
    const { io, stderr } = captureIO();
    expect(await runInspect({ recent: 'ten' }, io, { cwd, now: sample.end })).toBe(2);
    expect(stderr()).toContain('--recent takes a whole number (got "ten")');
  });
});

describe('narrowing verify', () => {
  it('says OK with the number of receipts and exits with 0', async () => {
    const { io, stdout } = captureIO();
    expect(await runVerify({}, io, { cwd })).toBe(0);
    expect(stdout()).toBe('OK: 32 receipts verified in .narrowing/journal.jsonl.\n');
  });

  it('names the receipt that was tampered with and exits with 1', async () => {
    const journal = join(cwd, 'tampered.jsonl');
    const lines = readFileSync(join(sample.dir, 'journal.jsonl'), 'utf8').split('\n');
    lines[6] = lines[6]!.replace('"tool":"read_file"', '"tool":"write_file"');
    writeFileSync(journal, lines.join('\n'));
    cpSync(join(sample.dir, 'journal.head.json'), join(cwd, 'tampered.head.json'));
    const { io, stderr } = captureIO();
    expect(await runVerify({ journal: 'tampered.jsonl' }, io, { cwd, timeZone: 'UTC' })).toBe(1);
    expect(stderr()).toContain('BROKEN at receipt 7 of tampered.jsonl: receipt 7 was modified');
  });

  it('exits with 2 when there is no journal', async () => {
    const { io, stderr } = captureIO();
    expect(await runVerify({ stateDir: 'missing' }, io, { cwd })).toBe(2);
    expect(stderr()).toMatch(/^Cannot verify missing\/journal\.jsonl: the file does not exist/);
  });

  it('refuses both a state directory and a journal', async () => {
    const { io, stderr } = captureIO();
    expect(await runVerify({ stateDir: '.narrowing', journal: 'j.jsonl' }, io, { cwd })).toBe(2);
    expect(stderr()).toBe('narrowing-guard verify: give either --state-dir or --journal, not both\n');
  });

  it('prints JSON with --json', async () => {
    const { io, stdout } = captureIO();
    await runVerify({ json: true }, io, { cwd });
    expect(JSON.parse(stdout())).toMatchObject({ ok: true, receipts: 32, entries: 32 });
  });
});

describe('narrowing explain', () => {
  it('tells the latest session', async () => {
    const { io, stdout } = captureIO();
    expect(await runExplain({}, io, { cwd, timeZone: 'UTC' })).toBe(0);
    expect(stdout()).toContain(`Session ${sample.sessions[1]}`);
    expect(stdout()).toContain('identical-failure — 3 blocks');
  });

  it('uses the assumed cost per call it is given', async () => {
    const { io, stdout } = captureIO();
    await runExplain({ secondsPerCall: '30', costPerCall: '0.02' }, io, { cwd, timeZone: 'UTC' });
    expect(stdout()).toContain('about 2 min of agent time and $0.08');
  });

  it('rejects a cost that is not a number', async () => {
    const { io, stderr } = captureIO();
    expect(await runExplain({ costPerCall: 'cheap' }, io, { cwd })).toBe(2);
    expect(stderr()).toContain('--cost-per-call takes an amount in dollars, 0 or more (got "cheap")');
  });

  it('exits with 2 for a session that is not in the journal', async () => {
    const { io, stderr } = captureIO();
    expect(await runExplain({ session: 'nope' }, io, { cwd })).toBe(2);
    expect(stderr()).toContain('.narrowing/journal.jsonl: no session "nope" in the journal');
  });

  it('explains from a journal with a damaged line, and says it skipped it', async () => {
    const journal = join(cwd, 'damaged.jsonl');
    cpSync(join(sample.dir, 'journal.jsonl'), journal);
    appendFileSync(journal, 'not json\n');
    const { io, stdout, stderr } = captureIO();
    expect(await runExplain({ journal: 'damaged.jsonl' }, io, { cwd })).toBe(0);
    expect(stdout()).toContain('What it saved');
    expect(stderr()).toContain('1 damaged journal line was skipped');
  });

  it('says what to do when there is no journal', async () => {
    const { io, stderr } = captureIO();
    expect(await runExplain({ stateDir: 'missing' }, io, { cwd })).toBe(2);
    expect(stderr()).toContain('There is no journal at');
    expect(stderr()).toContain('Run an agent through `narrowing-guard mcp` first.');
  });
});

describe('a state directory that several proxies share', () => {
  const shared = join(cwd, 'shared');
  beforeAll(() => {
    cpSync(sample.dir, shared, { recursive: true });
    for (const slot of [2, 10]) {
      cpSync(join(shared, 'journal.jsonl'), join(shared, `journal.${slot}.jsonl`));
      cpSync(join(shared, 'journal.head.json'), join(shared, `journal.${slot}.head.json`));
    }
  });

  it('names the other proxies’ journals after inspect, verify and explain', async () => {
    const note =
      'Other proxies sharing this state directory wrote journals of their own: shared/journal.2.jsonl, ' +
      'shared/journal.10.jsonl. Read one with --journal shared/journal.2.jsonl.\n';
    for (const run of [
      (io: ReturnType<typeof captureIO>['io']) =>
        runInspect({ stateDir: 'shared' }, io, { cwd, now: sample.end }),
      (io: ReturnType<typeof captureIO>['io']) => runVerify({ stateDir: 'shared' }, io, { cwd }),
      (io: ReturnType<typeof captureIO>['io']) => runExplain({ stateDir: 'shared' }, io, { cwd }),
    ]) {
      const { io, stderr } = captureIO();
      expect(await run(io)).toBe(0);
      expect(stderr()).toBe(note);
    }
  });

  it('verifies another proxy’s journal named with --journal, and says nothing of the others', async () => {
    const { io, stdout, stderr } = captureIO();
    expect(await runVerify({ journal: 'shared/journal.2.jsonl' }, io, { cwd })).toBe(0);
    expect(stdout()).toBe('OK: 32 receipts verified in shared/journal.2.jsonl.\n');
    expect(stderr()).toBe('');
  });
});
