import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runForget } from '../../../src/cli/commands/forget.js';
import { openGuardSync } from '../../../src/guard/open.js';
import { captureIO } from './cli-io.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const missingRead = { tool: 'read_file', args: { path: 'config/prod.yaml' } };

/** A project whose state has learned that config/prod.yaml does not exist. */
async function projectWithBan(): Promise<{ project: string; stateDir: string; id: string }> {
  const project = mkdtempSync(join(tmpdir(), 'narrowing-forget-'));
  dirs.push(project);
  const stateDir = join(project, '.narrowing');
  const guard = openGuardSync({ stateDir, probe: false, onProblem: () => undefined });
  guard.check(missingRead);
  guard.record({
    proposal: missingRead,
    success: false,
    content: "ENOENT: no such file or directory, open 'config/prod.yaml'",
  });
  const [constraint] = guard.engine.getActiveConstraints();
  await guard.close();
  return { project, stateDir, id: constraint?.id ?? '' };
}

async function verdictIn(stateDir: string): Promise<string> {
  const guard = openGuardSync({ stateDir, probe: false, journal: false });
  try {
    return guard.check(missingRead).verdict;
  } finally {
    await guard.close();
  }
}

describe('narrowing-guard forget', () => {
  it('lifts a ban named by the first characters of its id, for every later process', async () => {
    const { project, stateDir, id } = await projectWithBan();
    expect(await verdictIn(stateDir)).toBe('block');
    const { io, stdout } = captureIO();
    expect(await runForget([id.slice(0, 8)], {}, io, project)).toBe(0);
    expect(stdout()).toMatch(/^Forgot 1 constraint in \.narrowing:\n {2}\S+ {2}blocks .*config\/prod\.yaml/);
    expect(await verdictIn(stateDir)).toBe('allow');
  });

  it('lifts a ban named by its target, with or without ./', async () => {
    const { project, stateDir } = await projectWithBan();
    expect(await runForget(['./config/prod.yaml'], {}, captureIO().io, project)).toBe(0);
    expect(await verdictIn(stateDir)).toBe('allow');
  });

  it('writes what it forgot, and why, to the journal', async () => {
    const { project, stateDir, id } = await projectWithBan();
    await runForget([id], {}, captureIO().io, project);
    const events = readFileSync(join(stateDir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.at(-1)).toMatchObject({
      type: 'constraint_lifted',
      constraint: { id },
      why: expect.stringContaining('forgotten by hand'),
    });
  });

  it('changes nothing with --dry-run', async () => {
    const { project, stateDir, id } = await projectWithBan();
    const { io, stdout } = captureIO();
    expect(await runForget([id], { dryRun: true }, io, project)).toBe(0);
    expect(stdout()).toMatch(/^Would forget 1 constraint/);
    expect(await verdictIn(stateDir)).toBe('block');
  });

  it('exits with 1 and says where to look when nothing matches', async () => {
    const { project, stateDir } = await projectWithBan();
    const { io, stderr } = captureIO();
    expect(await runForget(['src/other.ts', 'abc'], {}, io, project)).toBe(1);
    expect(stderr()).toContain('Run narrowing-guard inspect to see ids and targets.');
    expect(await verdictIn(stateDir)).toBe('block');
  });

  it('does not take an id prefix shorter than six characters', async () => {
    const { project, id } = await projectWithBan();
    expect(await runForget([id.slice(0, 3)], {}, captureIO().io, project)).toBe(1);
  });
});
