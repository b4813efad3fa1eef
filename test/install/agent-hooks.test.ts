import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInstall } from '../../src/cli/commands/install.js';
import { SAVE_LIMIT_MS } from '../../src/hooks/run.js';
import { captureIO } from '../cli/commands/cli-io.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-install-')));
  mkdirSync(join(dir, '.git'));
  dirs.push(dir);
  return dir;
}

const SETTINGS = {
  'claude-code': [
    '.claude/settings.json',
    '{\r\n\t"permissions": {\r\n\t\t"allow": ["Bash(npm test)"]\r\n\t}\r\n}\r\n',
  ],
  'gemini-cli': ['.gemini/settings.json', '{\n    "theme": "GitHub",\n    "hooks": {}\n}'],
  codex: [
    '.codex/hooks.json',
    '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "./notify.sh" }] }]\n  }\n}\n',
  ],
  cursor: ['.cursor/hooks.json', '{\n  "version": 1,\n  "hooks": {}\n}\n'],
} as const;

const OWN_BIN = resolve(import.meta.dirname, '../../bin/narrowing.js');

describe('narrowing-guard install and uninstall', () => {
  for (const [agent, [file, original]] of Object.entries(SETTINGS)) {
    it(`adds the ${agent} hooks to ${file} and uninstall restores it byte for byte`, async () => {
      const dir = project();
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), original);
      const install = captureIO();
      expect(await runInstall('install', agent, { cwd: dir }, install.io)).toBe(0);
      expect(install.stdout()).toContain(`+++ b/${file}`);
      const installed = readFileSync(join(dir, file), 'utf8');
      expect(installed).toContain(`node ${OWN_BIN} hook ${agent}`);
      expect(installed).not.toContain('npx');
      expect(JSON.parse(installed)).toBeTypeOf('object');

      const again = captureIO();
      expect(await runInstall('install', agent, { cwd: dir }, again.io)).toBe(0);
      expect(again.stdout()).toContain('nothing to do');

      expect(await runInstall('uninstall', agent, { cwd: dir }, captureIO().io)).toBe(0);
      expect(readFileSync(join(dir, file), 'utf8')).toBe(original);
    });
  }

  it('keeps the hooks already in the file beside its own', async () => {
    const dir = project();
    mkdirSync(join(dir, '.codex'));
    writeFileSync(join(dir, '.codex/hooks.json'), SETTINGS.codex[1]);
    await runInstall('install', 'codex', { cwd: dir }, captureIO().io);
    const hooks = JSON.parse(readFileSync(join(dir, '.codex/hooks.json'), 'utf8')).hooks;
    expect(hooks.Stop[0].hooks[0].command).toBe('./notify.sh');
    expect(hooks.PreToolUse[0].hooks[0]).toEqual({
      type: 'command',
      command: `node ${OWN_BIN} hook codex`,
      timeout: 60,
    });
    expect(Object.keys(JSON.parse(readFileSync(join(dir, '.codex/hooks.json'), 'utf8')))).toEqual(['hooks']);
  });

  it('gives the hook longer than it takes at most to save what a call taught before the agent stops it', async () => {
    // Claude Code and Codex read `timeout` in seconds, Gemini CLI in milliseconds.
    const timeouts: [string, string, number][] = [
      ['claude-code', '.claude/settings.json', 1000],
      ['codex', '.codex/hooks.json', 1000],
      ['gemini-cli', '.gemini/settings.json', 1],
    ];
    for (const [agent, file, unitMs] of timeouts) {
      const dir = project();
      await runInstall('install', agent, { cwd: dir }, captureIO().io);
      const hooks = JSON.parse(readFileSync(join(dir, file), 'utf8')).hooks as Record<
        string,
        { hooks: { timeout: number }[] }[]
      >;
      for (const [event, entries] of Object.entries(hooks)) {
        const timeout = entries[0]?.hooks[0]?.timeout ?? 0;
        expect(timeout * unitMs, `${agent} ${event}`).toBeGreaterThan(SAVE_LIMIT_MS);
      }
    }
  });

  it('creates a missing settings file and uninstall removes it again', async () => {
    const dir = project();
    await runInstall('install', 'cursor', { cwd: dir }, captureIO().io);
    const hooks = JSON.parse(readFileSync(join(dir, '.cursor/hooks.json'), 'utf8'));
    expect(hooks.version).toBe(1);
    expect(hooks.hooks.preToolUse).toEqual([{ command: `node ${OWN_BIN} hook cursor` }]);
    await runInstall('uninstall', 'cursor', { cwd: dir }, captureIO().io);
    expect(existsSync(join(dir, '.cursor/hooks.json'))).toBe(false);
  });

  it('writes nothing on --dry-run and shows the diff', async () => {
    const dir = project();
    const run = captureIO();
    expect(await runInstall('install', 'claude-code', { cwd: dir, dryRun: true }, run.io)).toBe(0);
    expect(run.stdout()).toContain('"PreToolUse"');
    expect(existsSync(join(dir, '.claude/settings.json'))).toBe(false);
  });

  it('uses the project’s own install, through the directory the agent names, when there is one', async () => {
    const dir = project();
    mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
    writeFileSync(join(dir, 'node_modules/.bin/narrowing-guard'), '');
    await runInstall('install', 'claude-code', { cwd: dir }, captureIO().io);
    const settings = JSON.parse(readFileSync(join(dir, '.claude/settings.json'), 'utf8'));
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toBe(
      '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/narrowing-guard hook claude-code',
    );
  });

  it('runs the project’s install for Codex and Cursor from any subfolder the session begins in', async () => {
    const dir = project();
    mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
    writeFileSync(join(dir, 'node_modules/.bin/narrowing-guard'), '#!/bin/sh\necho "ran in $PWD with $*"\n', {
      mode: 0o755,
    });
    mkdirSync(join(dir, 'packages/api/src'), { recursive: true });
    await runInstall('install', 'codex', { cwd: dir }, captureIO().io);
    await runInstall('install', 'cursor', { cwd: dir }, captureIO().io);
    const codex = JSON.parse(readFileSync(join(dir, '.codex/hooks.json'), 'utf8'));
    const cursor = JSON.parse(readFileSync(join(dir, '.cursor/hooks.json'), 'utf8'));
    for (const [command, agent] of [
      [codex.hooks.PreToolUse[0].hooks[0].command, 'codex'],
      [cursor.hooks.preToolUse[0].command, 'cursor'],
    ]) {
      expect(command).not.toContain(dir);
      const ran = execFileSync('sh', ['-c', command], {
        cwd: join(dir, 'packages/api/src'),
        encoding: 'utf8',
      });
      expect(ran).toBe(`ran in ${dir} with hook ${agent}\n`);
    }
  });

  it('writes the user settings with --scope user', async () => {
    const dir = project();
    const home = project();
    await runInstall('install', 'gemini-cli', { cwd: dir, scope: 'user', home }, captureIO().io);
    expect(readFileSync(join(home, '.gemini/settings.json'), 'utf8')).toContain(
      `node ${OWN_BIN} hook gemini-cli`,
    );
    expect(existsSync(join(dir, '.gemini'))).toBe(false);
  });

  it('leaves a file edited after install alone, and with --force takes out only its own entries', async () => {
    const dir = project();
    const [file, original] = SETTINGS['claude-code'];
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, file), original);
    await runInstall('install', 'claude-code', { cwd: dir }, captureIO().io);
    writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8').replace('npm test', 'npm run lint'));
    const refused = captureIO();
    expect(await runInstall('uninstall', 'claude-code', { cwd: dir }, refused.io)).toBe(1);
    expect(refused.stderr()).toContain('was edited after narrowing-guard was installed');
    expect(await runInstall('uninstall', 'claude-code', { cwd: dir, force: true }, captureIO().io)).toBe(0);
    expect(readFileSync(join(dir, file), 'utf8')).toBe(original.replace('npm test', 'npm run lint'));
  });

  it('keeps no copy of the settings, edits only by insertion, and uninstall leaves no folder behind', async () => {
    const dir = project();
    const original =
      '{\n  "env": { "ANTHROPIC_API_KEY": "sk-ant-api03-Zq8vX2" },\n' +
      '  "permissions": {"allow": ["Bash(npm test)"],   "deny": []},\n' +
      '  "hooks": {\n    "Stop": [ { "hooks": [ { "type": "command", "command": "./notify.sh" } ] } ]\n  }\n}\n';
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), original);
    expect(await runInstall('install', 'claude-code', { cwd: dir }, captureIO().io)).toBe(0);
    const installed = readFileSync(join(dir, '.claude/settings.json'), 'utf8');
    // Every line of the original is still there, as written: only lines were added.
    let at = 0;
    for (const line of original.split('\n').filter(Boolean)) {
      const found = installed.indexOf(line, at);
      expect(found, line).toBeGreaterThanOrEqual(at);
      at = found + line.length;
    }
    expect(JSON.parse(installed).hooks.Stop[0].hooks[0].command).toBe('./notify.sh');
    const stateDir = join(dir, '.narrowing');
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(stateDir, '.gitignore'), 'utf8')).toContain('*');
    for (const name of readdirSync(join(stateDir, 'hooks')))
      expect(readFileSync(join(stateDir, 'hooks', name), 'utf8')).not.toContain('sk-ant-api03');
    expect(await runInstall('uninstall', 'claude-code', { cwd: dir }, captureIO().io)).toBe(0);
    expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toBe(original);
    expect(existsSync(stateDir)).toBe(false);
  });
});
