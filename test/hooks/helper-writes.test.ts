/**
 * What the helper writes per event: one append to the session's log and the journal's lines, with
 * no rename and no sync of any file (the contract asks that an answered event be on disk, not
 * synced). The journal's head follows within its durability window, not per event.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exited, helperProjects, runHookProcess, until } from './support.js';

const { hookPath, project, startHelper } = helperProjects();

/** Claude Code's events of a session reading the files of a project, one call after another. */
function readEvent(dir: string, index: number): Record<string, unknown> {
  const step = Math.floor(index / 2);
  const file = join(dir, `src/module-${step % 5}.ts`);
  const call = {
    session_id: 'cc-writes',
    cwd: dir,
    tool_name: 'Read',
    tool_input: { file_path: file },
    tool_use_id: `toolu_${step}`,
  };
  return index % 2 === 0
    ? { ...call, hook_event_name: 'PreToolUse' }
    : {
        ...call,
        hook_event_name: 'PostToolUse',
        tool_response: { type: 'text', file: { filePath: file, content: `// module ${step}\n` } },
      };
}

/**
 * A file given to the helper's `--require`: before the helper loads anything, Node's renames and
 * syncs are wrapped to note each one (what, and the path renamed to) in the file `COUNTS_FILE` names.
 */
const COUNTER = `
const fs = require('node:fs');
const out = process.env.COUNTS_FILE;
const note = (what, path) => fs.appendFileSync(out, JSON.stringify([what, String(path ?? '')]) + '\\n');
const renameSync = fs.renameSync;
fs.renameSync = (from, to) => { note('rename', to); return renameSync(from, to); };
const rename = fs.promises.rename;
fs.promises.rename = async (from, to) => { note('rename', to); return rename(from, to); };
for (const name of ['fsyncSync', 'fdatasyncSync']) {
  const original = fs[name];
  fs[name] = (fd) => { note('sync'); return original(fd); };
}
const open = fs.promises.open;
fs.promises.open = async (...args) => {
  const handle = await open(...args);
  for (const name of ['sync', 'datasync']) {
    const original = handle[name].bind(handle);
    handle[name] = () => { note('sync'); return original(); };
  }
  return handle;
};
`;

describe('the hook helper’s writes per event', () => {
  it('are one append per event: no session file renamed, no sync, the journal head at most once a second', async () => {
    const { dir, stateDir, socket } = project();
    const counter = join(dir, 'counter.cjs');
    const counts = join(dir, 'counts.jsonl');
    writeFileSync(counter, COUNTER);
    writeFileSync(counts, '');
    const helper = spawn(
      process.execPath,
      [
        '--require',
        counter,
        hookPath(),
        'serve',
        '--socket',
        socket,
        '--state-dir',
        stateDir,
        '--idle-ms',
        '30000',
      ],
      { stdio: 'ignore', env: { ...process.env, COUNTS_FILE: counts } },
    );
    await until(() => existsSync(socket));
    // The helper's first events: it reads the whole state and writes the session once.
    for (let index = 0; index < 4; index += 1)
      await runHookProcess(hookPath(), ['claude-code'], readEvent(dir, index));
    const before = readFileSync(counts, 'utf8').length;
    const startedAt = Date.now();
    const events = 12;
    for (let index = 4; index < 4 + events; index += 1) {
      const run = await runHookProcess(hookPath(), ['claude-code'], readEvent(dir, index));
      expect(run.stderr).toBe('');
    }
    const seconds = Math.ceil((Date.now() - startedAt) / 1000);
    const noted = readFileSync(counts, 'utf8')
      .slice(before)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as [string, string]);
    helper.kill('SIGTERM');
    await exited(helper);
    const renamed = noted.filter(([what]) => what === 'rename').map(([, path]) => path);
    expect(renamed.filter((path) => path.includes(join('.narrowing', 'sessions')))).toEqual([]);
    const heads = renamed.filter((path) => path.endsWith('.head.json')).length;
    expect(heads).toBeLessThanOrEqual(seconds + 1);
    // Each head rewrite syncs the journal, the new head and its folder; nothing else is synced. The
    // count may end inside a head rewrite, its two syncs made and its rename still to come.
    expect(noted.filter(([what]) => what === 'sync').length).toBeLessThanOrEqual(3 * heads + 2);
  });
});

describe('a session’s run state the helper appended', () => {
  it('is resumed by the next hook process after the helper is killed', async () => {
    const { dir, stateDir, socket } = project();
    const helper = startHelper(socket, stateDir);
    await until(() => existsSync(socket));
    // The same file read again and again, the same text each time: a loop the session's run state counts.
    const call = { ...readEvent(dir, 0), tool_use_id: 'toolu_again' };
    const done = { ...readEvent(dir, 1), tool_use_id: 'toolu_again' };
    for (let round = 0; round < 4; round += 1) {
      await runHookProcess(hookPath(), ['claude-code'], { ...call, tool_use_id: `toolu_${round}` });
      await runHookProcess(hookPath(), ['claude-code'], { ...done, tool_use_id: `toolu_${round}` });
    }
    expect(readdirSync(join(stateDir, 'sessions')).some((name) => name.endsWith('.log'))).toBe(true);
    helper.kill('SIGKILL');
    await exited(helper);
    const again = await runHookProcess(hookPath(), ['claude-code', '--no-daemon'], call);
    expect(again.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });
});
