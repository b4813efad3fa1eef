import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFeedback } from '../../../src/cli/commands/feedback.js';
import { runInspect } from '../../../src/cli/commands/inspect.js';
import { openGuardSync } from '../../../src/guard/open.js';
import { parseDisputeSelector } from '../../../src/report/feedback.js';
import { captureIO } from './cli-io.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const MISSING_LINT =
  'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n';
const lint = { tool: 'Bash', args: { command: 'npm run lint' } };

/** A project whose guard blocked `npm run lint` after it failed once. */
async function projectWithBlock(): Promise<{ project: string; stateDir: string }> {
  const project = mkdtempSync(join(tmpdir(), 'narrowing-feedback-'));
  dirs.push(project);
  writeFileSync(join(project, 'package.json'), '{ "name": "shop", "scripts": { "test": "vitest run" } }\n');
  const stateDir = join(project, '.narrowing');
  const guard = openGuardSync({
    workspaceRoot: project,
    stateDir,
    sessionId: 'session-1',
    onProblem: () => undefined,
  });
  guard.check(lint);
  guard.record({ proposal: lint, success: false, content: MISSING_LINT, exitCode: 1 });
  expect(guard.check(lint).verdict).toBe('block');
  await guard.close();
  return { project, stateDir };
}

async function verdictIn(project: string, stateDir: string): Promise<string> {
  const guard = openGuardSync({ workspaceRoot: project, stateDir, journal: false });
  try {
    return guard.check(lint).verdict;
  } finally {
    await guard.close();
  }
}

function journalEntries(stateDir: string): Record<string, unknown>[] {
  return readFileSync(join(stateDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('narrowing-guard feedback', () => {
  it('lifts the constraint a disputed block rested on, so the next identical call is allowed', async () => {
    const { project, stateDir } = await projectWithBlock();
    const { io, stdout } = captureIO();
    const code = await runFeedback('last', { wrong: 'I added the lint script' }, io, project);
    expect(code).toBe(0);
    expect(stdout()).toMatch(
      /^Recorded: entry journal\.jsonl:\d+ \(Bash, blocked by identical-failure\) was wrong\./,
    );
    expect(stdout()).toContain('Lifted 1 constraint');
    expect(await verdictIn(project, stateDir)).toBe('allow');
  });

  it('records the dispute in the journal with the reason, the rule and the constraints lifted', async () => {
    const { project, stateDir } = await projectWithBlock();
    const { io } = captureIO();
    await runFeedback('last', { wrong: 'I added the lint script' }, io, project);
    const entries = journalEntries(stateDir);
    const block = entries.find((entry) => entry.type === 'proposal' && entry.verdict === 'block');
    const dispute = entries.find((entry) => entry.type === 'dispute');
    expect(dispute).toMatchObject({
      entry: block?.seq,
      journal: 'journal.jsonl',
      tool: 'Bash',
      rule: 'identical-failure',
      why: 'I added the lint script',
      sessionId: 'session-1',
      constraintIds: block?.constraintIds,
      lifted: block?.constraintIds,
    });
    expect(typeof dispute?.hash).toBe('string');
  });

  it('is counted per rule by inspect', async () => {
    const { project } = await projectWithBlock();
    await runFeedback('last', { wrong: 'I added the lint script' }, captureIO().io, project);
    const { io, stdout } = captureIO();
    await runInspect({}, io, { cwd: project, now: Date.now() });
    expect(stdout()).toContain('Disputed as wrong: 1 of 1 block, by rule:\n  identical-failure: 1 of 1\n');
  });

  it('finds a verdict by its journal entry number', async () => {
    const { project, stateDir } = await projectWithBlock();
    const seq = journalEntries(stateDir).find((entry) => entry.verdict === 'block')?.seq;
    const { io, stdout } = captureIO();
    expect(await runFeedback(String(seq), { wrong: 'flaky', json: true }, io, project)).toBe(0);
    expect(JSON.parse(stdout())).toMatchObject({
      disputed: { entry: `journal.jsonl:${seq}`, verdict: 'block' },
    });
  });

  it('refuses an allowed entry, and says nothing matched when the selector names no verdict', async () => {
    const { project, stateDir } = await projectWithBlock();
    const allowed = journalEntries(stateDir).find((entry) => entry.verdict === 'allow')?.seq;
    const first = captureIO();
    expect(await runFeedback(String(allowed), { wrong: 'x' }, first.io, project)).toBe(1);
    expect(first.stderr()).toContain('was allowed');
    const second = captureIO();
    expect(await runFeedback('ffffffffff', { wrong: 'x' }, second.io, project)).toBe(1);
    expect(second.stderr()).toContain('no blocked or warned call');
  });

  it('reads selectors as last, entry numbers, journal slots and call keys', () => {
    expect(parseDisputeSelector('last')).toEqual({ kind: 'last' });
    expect(parseDisputeSelector('42')).toEqual({ kind: 'entry', seq: 42 });
    expect(parseDisputeSelector('journal.2.jsonl:7')).toEqual({
      kind: 'entry',
      seq: 7,
      journal: 'journal.2.jsonl',
    });
    expect(parseDisputeSelector('3F9C2A71')).toEqual({ kind: 'call', callKey: '3f9c2a71' });
    expect(parseDisputeSelector('../etc/passwd:3')).toBeUndefined();
    expect(parseDisputeSelector('0')).toBeUndefined();
  });
});
