/**
 * Installing `narrowing-guard hook <agent>` into an agent's settings, and taking it out again byte
 * for byte. Planning reads the file and works out the new text without writing anything, so a dry
 * run shows exactly what installing would do; the text before and after is kept in the state
 * directory, so uninstall puts back the very bytes it found (or removes the file it created).
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { HostAgent } from '../adapters/tool-call/host-tools.js';
import { writeFileAtomicSync } from '../node/atomic-file.js';
import { ConfigFileError } from './errors.js';
import { replaceFileContents } from './replace-file.js';
import { nearestBinInShell, ownLauncherWords, projectBin } from './self-command.js';
import { detectStyle } from './text-style.js';
import { unifiedDiff } from './unified-diff.js';

export type HookScope = 'project' | 'user';

export interface HookInstallTarget {
  readonly agent: HostAgent;
  readonly scope: HookScope;
  /** The project (for `project` scope, and to find a local install). */
  readonly projectDir: string;
  /** The user's home (for `user` scope). */
  readonly homeDir: string;
  /** Where the original text is kept (`<stateDir>/hooks/`). */
  readonly stateDir: string;
}

export interface HookInstallRequest extends HookInstallTarget {
  /** The command the agent runs, without the agent name; default: see `hookCommand`. */
  readonly command?: string;
  /** Options of `narrowing-guard hook` written after the agent name (`--store sqlite`), quoted for a POSIX shell as needed. */
  readonly hookOptions?: readonly string[];
}

export interface HookUninstallRequest extends HookInstallTarget {
  /** Restore the saved original even when the settings were edited since install. */
  readonly force?: boolean;
}

export interface HookChange {
  readonly agent: HostAgent;
  readonly path: string;
  /** The settings file for messages (relative to the project or `~`). */
  readonly label: string;
  readonly status: 'change' | 'unchanged' | 'refused';
  readonly message: string;
  /** The file's text; `undefined` when the file does not exist (before) or goes away (after). */
  readonly before: string | undefined;
  readonly after: string | undefined;
  readonly recordPath: string;
  /** A record to write (install), `null` to delete it (uninstall), absent to leave it. */
  readonly record?: HookRecord | null;
}

interface HookRecord {
  readonly version: 1;
  readonly agent: HostAgent;
  readonly file: string;
  readonly installedAt: string;
  /** The file's text before install; null when install created it. */
  readonly original: string | null;
  readonly installed: string;
}

interface AgentSettings {
  /** The settings file, relative to the project (project scope) or the home (user scope). */
  readonly file: string;
  /** Where the agent runs hooks from, as a shell word; undefined when hooks run in the project. */
  readonly projectDirVariable?: string;
  /** The hook entries for `command`, by event. */
  readonly entries: (command: string) => Record<string, unknown[]>;
  /** Keys the file must have at the top (Cursor's `version`). */
  readonly root?: Record<string, unknown>;
  readonly reloadHint: string;
}

const CLAUDE_TOOL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];

const AGENTS: Readonly<Record<HostAgent, AgentSettings>> = {
  'claude-code': {
    file: join('.claude', 'settings.json'),
    projectDirVariable: '"$CLAUDE_PROJECT_DIR"',
    entries: (command) => {
      const hook = { type: 'command', command, timeout: 10 };
      return {
        ...Object.fromEntries(CLAUDE_TOOL_EVENTS.map((event) => [event, [{ matcher: '*', hooks: [hook] }]])),
        UserPromptSubmit: [{ hooks: [hook] }],
        SessionStart: [{ hooks: [hook] }],
        PreCompact: [{ hooks: [hook] }],
      };
    },
    reloadHint: 'start a new Claude Code session (or run /hooks) so it reads the settings',
  },
  'gemini-cli': {
    file: join('.gemini', 'settings.json'),
    projectDirVariable: '"$GEMINI_PROJECT_DIR"',
    entries: (command) => {
      const hook = { name: 'narrowing-guard', type: 'command', command, timeout: 10_000 };
      return {
        BeforeTool: [{ matcher: '.*', hooks: [hook] }],
        AfterTool: [{ matcher: '.*', hooks: [hook] }],
        BeforeAgent: [{ hooks: [hook] }],
        SessionStart: [{ hooks: [hook] }],
        PreCompress: [{ hooks: [hook] }],
      };
    },
    reloadHint: 'restart Gemini CLI and trust the project hooks when it asks',
  },
  codex: {
    file: join('.codex', 'hooks.json'),
    entries: (command) => {
      const hook = { type: 'command', command, timeout: 10 };
      return Object.fromEntries(
        ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'PreCompact'].map((event) => [
          event,
          [{ hooks: [hook] }],
        ]),
      );
    },
    reloadHint: 'start Codex again and trust the hooks in /hooks',
  },
  cursor: {
    file: join('.cursor', 'hooks.json'),
    root: { version: 1 },
    entries: (command) =>
      Object.fromEntries(
        [
          'preToolUse',
          'postToolUse',
          'postToolUseFailure',
          'beforeSubmitPrompt',
          'sessionStart',
          'preCompact',
        ].map((event) => [event, [{ command }]]),
      ),
    reloadHint: 'restart Cursor so it reads .cursor/hooks.json',
  },
};

const BIN_NAMES = ['narrowing-guard', 'narrowing'];

/**
 * The command an agent runs, from whichever folder of the project it runs hooks in: the project's
 * own install when there is one (no download, the pinned version), found through the folder the
 * agent names (Claude Code, Gemini CLI) or, for Codex and Cursor, looked for from the folder the hook
 * runs in upwards (Codex runs hooks in the session's folder, which may be a subfolder); otherwise
 * this installation, by its absolute path.
 */
export function hookCommand(target: HookInstallTarget, installed = localBin(target.projectDir)): string {
  const settings = AGENTS[target.agent];
  if (target.scope === 'project' && installed !== undefined && process.platform !== 'win32') {
    if (settings.projectDirVariable)
      return `${settings.projectDirVariable}/node_modules/.bin/${installed} hook ${target.agent}`;
    return nearestBinInShell(installed, `hook ${target.agent}`);
  }
  return `${ownLauncherWords().map(shellWord).join(' ')} hook ${target.agent}`;
}

function localBin(projectDir: string): string | undefined {
  return projectBin(projectDir, BIN_NAMES);
}

export function settingsPath(target: HookInstallTarget): string {
  const base = target.scope === 'user' ? target.homeDir : target.projectDir;
  return join(base, AGENTS[target.agent].file);
}

export function hookRecordPath(target: HookInstallTarget): string {
  return join(target.stateDir, 'hooks', `${target.agent}-${target.scope}.json`);
}

export function planHookInstall(request: HookInstallRequest): HookChange {
  const settings = AGENTS[request.agent];
  const path = settingsPath(request);
  const base = {
    agent: request.agent,
    path,
    label: label(request, path),
    recordPath: hookRecordPath(request),
  };
  const before = readText(path);
  const same = { ...base, before, after: before };
  const command = [
    request.command ? `${request.command} ${request.agent}` : hookCommand(request),
    ...(request.hookOptions ?? []).map(shellWord),
  ].join(' ');
  let document: Record<string, unknown>;
  try {
    document = before === undefined ? {} : parseObject(before);
  } catch (error) {
    return {
      ...same,
      status: 'refused',
      message:
        `${base.label} cannot be edited safely (${(error as Error).message}). ` +
        `Add these hooks by hand:\n${JSON.stringify({ hooks: settings.entries(command) }, null, 2)}`,
    };
  }
  if (mentionsHook(document.hooks, request.agent)) {
    return {
      ...same,
      status: 'unchanged',
      message: `${base.label} already runs narrowing-guard hook ${request.agent}; nothing to do.`,
    };
  }
  const hooks = isObject(document.hooks) ? { ...document.hooks } : {};
  for (const [event, entries] of Object.entries(settings.entries(command))) {
    const existing = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    hooks[event] = [...existing, ...entries];
  }
  const updated = { ...settings.root, ...document, hooks };
  const style = before === undefined ? { eol: '\n', indentUnit: '  ' } : detectStyle(before);
  const after = `${JSON.stringify(updated, null, style.indentUnit).replace(/\n/g, style.eol)}${style.eol}`;
  return {
    ...base,
    before,
    after,
    status: 'change',
    message: `Installed narrowing-guard hook ${request.agent} in ${base.label}; ${settings.reloadHint}.`,
    record: {
      version: 1,
      agent: request.agent,
      file: path,
      installedAt: new Date().toISOString(),
      original: before ?? null,
      installed: after,
    },
  };
}

export function planHookUninstall(request: HookUninstallRequest): HookChange {
  const path = settingsPath(request);
  const recordPath = hookRecordPath(request);
  const base = { agent: request.agent, path, label: label(request, path), recordPath };
  const before = readText(path);
  const same = { ...base, before, after: before };
  const record = readRecord(recordPath);
  if (record === undefined) {
    return {
      ...same,
      status: mentionsHookText(before, request.agent) ? 'refused' : 'unchanged',
      message: mentionsHookText(before, request.agent)
        ? `${base.label} runs narrowing-guard hook ${request.agent}, but no copy of the original was saved in ${recordPath}; remove the entries by hand.`
        : `${base.label} does not run narrowing-guard hook ${request.agent}; nothing to do.`,
    };
  }
  if (before !== record.installed && !request.force) {
    const edits = unifiedDiff(record.installed, before ?? '', { oldLabel: 'as installed', newLabel: 'now' });
    return {
      ...same,
      status: 'refused',
      message:
        `${base.label} was edited after narrowing-guard was installed; restoring it would undo these edits:\n${edits}` +
        `Run \`narrowing-guard uninstall ${request.agent} --force\` to restore the original anyway, or remove the hooks by hand.`,
    };
  }
  const after = record.original ?? undefined;
  return {
    ...base,
    before,
    after,
    status: 'change',
    record: null,
    message:
      after === undefined
        ? `Removed ${base.label}, which narrowing-guard install had created.`
        : `Restored ${base.label} as it was before narrowing-guard install.`,
  };
}

/** Writes the record before the settings (install) and removes it after (uninstall): a crash loses nothing. */
export function applyHookChange(change: HookChange): void {
  if (change.status !== 'change') return;
  if (change.record) {
    mkdirSync(dirname(change.recordPath), { recursive: true });
    writeFileAtomicSync(change.recordPath, `${JSON.stringify(change.record, null, 2)}\n`);
  }
  if (change.after === undefined) rmSync(change.path, { force: true });
  else if (change.before === undefined) {
    mkdirSync(dirname(change.path), { recursive: true });
    writeFileAtomicSync(change.path, change.after);
  } else if (change.after !== change.before) replaceFileContents(change.path, change.after);
  if (change.record === null) rmSync(change.recordPath, { force: true });
}

export function hookChangeDiff(change: HookChange): string {
  return unifiedDiff(change.before ?? '', change.after ?? '', {
    oldLabel: change.before === undefined ? '/dev/null' : `a/${change.label}`,
    newLabel: change.after === undefined ? '/dev/null' : `b/${change.label}`,
  });
}

function label(target: HookInstallTarget, path: string): string {
  return target.scope === 'user' ? `~/${relative(target.homeDir, path)}` : relative(target.projectDir, path);
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigFileError(`${path} cannot be read: ${(error as Error).message}`);
  }
}

function parseObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const value: unknown = JSON.parse(text);
  if (!isObject(value)) throw new Error('it is not a JSON object');
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A word as a POSIX shell reads it back unchanged. */
function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function mentionsHook(hooks: unknown, agent: HostAgent): boolean {
  return mentionsHookText(hooks === undefined ? undefined : JSON.stringify(hooks), agent);
}

function mentionsHookText(text: string | undefined, agent: HostAgent): boolean {
  return text !== undefined && new RegExp(`narrowing(?:-guard)?[^"]* hook ${agent}\\b`).test(text);
}

function readRecord(path: string): HookRecord | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigFileError(`${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as Partial<HookRecord>;
    if (
      value.version === 1 &&
      typeof value.installed === 'string' &&
      (typeof value.original === 'string' || value.original === null)
    ) {
      return value as HookRecord;
    }
  } catch {
    // Reported below.
  }
  throw new ConfigFileError(`${path} is damaged, so the original settings cannot be restored from it.`);
}
