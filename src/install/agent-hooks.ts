/**
 * Installing `narrowing-guard hook <agent>` into an agent's settings, and taking it out again byte
 * for byte. Planning reads the file and works out the new text without writing anything, so a dry
 * run shows exactly what installing would do; the text before and after is kept in the state
 * directory, so uninstall puts back the very bytes it found (or removes the file it created).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { HostAgent } from '../adapters/tool-call/host-tools.js';
import { writeFileAtomicSync } from '../node/atomic-file.js';
import { prepareFolderFor } from '../node/state-dir.js';
import { ConfigFileError } from './errors.js';
import {
  addItems,
  addMembers,
  applyInsertions,
  type Insertion,
  removeInsertions,
  rootObject,
} from './json-insert.js';
import { memberOf } from './jsonc.js';
import { replaceFileContents } from './replace-file.js';
import { nearestBinInShell, ownLauncherWords, projectBin } from './self-command.js';
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

/**
 * What install did, without a copy of the settings (they may hold keys): the text it inserted, by
 * offset, and a digest of the file as it left it. Uninstall takes out the insertions, which gives
 * back the very bytes it found, or removes the file it created.
 */
interface HookRecord {
  readonly version: 2;
  readonly agent: HostAgent;
  readonly file: string;
  readonly installedAt: string;
  /** Install created the file. */
  readonly created: boolean;
  readonly insertions: readonly Insertion[];
  /** SHA-256 of the file's text after install. */
  readonly installedSha256: string;
}

/** The record of earlier versions, which kept the whole text (read, to uninstall; never written). */
interface HookRecordV1 {
  readonly version: 1;
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

/**
 * How long the agent lets the hook run before it stops it, in seconds: past the 50 s the hook takes
 * at most to save what a call taught (it exits once the outcome is written, see `hooks/run.ts`), so
 * the agent never stops it halfway. A check before a call answers within the hook's own deadline
 * (`--deadline-ms`, 5 s) whatever this is.
 */
export const HOOK_TIMEOUT_SECONDS = 60;

const AGENTS: Readonly<Record<HostAgent, AgentSettings>> = {
  'claude-code': {
    file: join('.claude', 'settings.json'),
    projectDirVariable: '"$CLAUDE_PROJECT_DIR"',
    entries: (command) => {
      const hook = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
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
      // Gemini CLI's timeout is in milliseconds.
      const hook = {
        name: 'narrowing-guard',
        type: 'command',
        command,
        timeout: HOOK_TIMEOUT_SECONDS * 1000,
      };
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
      const hook = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
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
  const entries = settings.entries(command);
  let insertions: Insertion[];
  try {
    insertions =
      before === undefined || before.trim() === '' ? [] : planHookInsertions(before, settings, entries);
  } catch (error) {
    return {
      ...same,
      status: 'refused',
      message:
        `${base.label} cannot be edited safely (${(error as Error).message}). ` +
        `Add these hooks by hand:\n${JSON.stringify({ hooks: entries }, null, 2)}`,
    };
  }
  if (mentionsHookText(before, request.agent)) {
    return {
      ...same,
      status: 'unchanged',
      message: `${base.label} already runs narrowing-guard hook ${request.agent}; nothing to do.`,
    };
  }
  const created = before === undefined || before.trim() === '';
  const after = created
    ? `${JSON.stringify({ ...settings.root, hooks: entries }, null, 2)}\n`
    : applyInsertions(before, insertions);
  return {
    ...base,
    before,
    after,
    status: 'change',
    message: `Installed narrowing-guard hook ${request.agent} in ${base.label}; ${settings.reloadHint}.`,
    record: {
      version: 2,
      agent: request.agent,
      file: path,
      installedAt: new Date().toISOString(),
      created,
      insertions: created ? [] : insertions,
      installedSha256: sha256(after),
    },
  };
}

/** Where the hook entries go in an existing settings text, each an insertion that changes no other byte. */
function planHookInsertions(
  text: string,
  settings: AgentSettings,
  entries: Record<string, unknown[]>,
): Insertion[] {
  const root = rootObject(text);
  const insertions: Insertion[] = [];
  const hooks = memberOf(root, 'hooks');
  const rootMembers: [string, unknown][] = Object.entries(settings.root ?? {});
  if (hooks === undefined) rootMembers.push(['hooks', entries]);
  else if (hooks.value.kind !== 'object') throw new Error('its "hooks" is not an object');
  const atRoot = addMembers(text, root, rootMembers);
  if (atRoot) insertions.push(atRoot);
  if (hooks !== undefined && hooks.value.kind === 'object') {
    const newEvents: [string, unknown][] = [];
    for (const [event, items] of Object.entries(entries)) {
      const existing = memberOf(hooks.value, event);
      if (existing === undefined) newEvents.push([event, items]);
      else if (existing.value.kind === 'array') insertions.push(addItems(text, existing.value, items));
      else throw new Error(`its "hooks.${event}" is not an array`);
    }
    const added = addMembers(text, hooks.value, newEvents);
    if (added) insertions.push(added);
  }
  return insertions.sort((a, b) => a.at - b.at);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
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
        ? `${base.label} runs narrowing-guard hook ${request.agent}, but install left no record in ${recordPath}; remove the entries by hand.`
        : `${base.label} does not run narrowing-guard hook ${request.agent}; nothing to do.`,
    };
  }
  const untouched =
    record.version === 1
      ? before === record.installed
      : before !== undefined && sha256(before) === record.installedSha256;
  let after: string | undefined;
  if (record.version === 1) after = record.original ?? undefined;
  else if (record.created) after = undefined;
  else after = before === undefined ? undefined : removeInsertions(before, record.insertions);
  if (!untouched && !(request.force && record.version === 2 && (record.created || after !== undefined))) {
    return {
      ...same,
      status: 'refused',
      message:
        `${base.label} was edited after narrowing-guard was installed, so it is not put back by itself. ` +
        (record.version === 1
          ? `Remove the narrowing-guard hook ${request.agent} entries by hand.`
          : !record.created && after !== undefined
            ? `Run \`narrowing-guard uninstall ${request.agent} --force\` to take out only the entries install added, or remove them by hand.`
            : `Remove the narrowing-guard hook ${request.agent} entries by hand${record.created ? `, or run \`narrowing-guard uninstall ${request.agent} --force\` to delete the file install created` : ''}.`),
    };
  }
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
    // The state directory as every part of narrowing makes it: private, with a .gitignore.
    prepareFolderFor(change.recordPath);
    writeFileAtomicSync(change.recordPath, `${JSON.stringify(change.record, null, 2)}\n`);
  }
  if (change.after === undefined) rmSync(change.path, { force: true });
  else if (change.before === undefined) {
    mkdirSync(dirname(change.path), { recursive: true });
    writeFileAtomicSync(change.path, change.after);
  } else if (change.after !== change.before) replaceFileContents(change.path, change.after);
  if (change.record === null) {
    rmSync(change.recordPath, { force: true });
    removeIfEmpty(dirname(change.recordPath));
  }
}

/**
 * Removes the hooks folder once it is empty, and the state directory when nothing but the
 * .gitignore narrowing put there is left: uninstall leaves no folder install made.
 */
function removeIfEmpty(hooksDir: string): void {
  try {
    if (readdirSync(hooksDir).length > 0) return;
    rmdirSync(hooksDir);
    const stateDir = dirname(hooksDir);
    const left = readdirSync(stateDir);
    if (left.length === 1 && left[0] === '.gitignore') {
      if (!readFileSync(join(stateDir, '.gitignore'), 'utf8').startsWith('# Created by narrowing')) return;
      rmSync(join(stateDir, '.gitignore'));
      rmdirSync(stateDir);
    } else if (left.length === 0) rmdirSync(stateDir);
  } catch {
    // Something else is there, or went away meanwhile: the folder stays.
  }
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

/** A word as a POSIX shell reads it back unchanged. */
function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function mentionsHookText(text: string | undefined, agent: HostAgent): boolean {
  return text !== undefined && new RegExp(`narrowing(?:-guard)?[^"]* hook ${agent}\\b`).test(text);
}

function readRecord(path: string): HookRecord | HookRecordV1 | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigFileError(`${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as Partial<HookRecord> | Partial<HookRecordV1>;
    if (
      value.version === 2 &&
      typeof value.installedSha256 === 'string' &&
      typeof value.created === 'boolean' &&
      Array.isArray(value.insertions) &&
      value.insertions.every(
        (insertion) =>
          Number.isSafeInteger(insertion?.at) && insertion.at >= 0 && typeof insertion?.text === 'string',
      )
    ) {
      return value as HookRecord;
    }
    if (
      value.version === 1 &&
      typeof value.installed === 'string' &&
      (typeof value.original === 'string' || value.original === null)
    ) {
      return value as HookRecordV1;
    }
  } catch {
    // Reported below.
  }
  throw new ConfigFileError(`${path} is damaged, so the original settings cannot be restored from it.`);
}
