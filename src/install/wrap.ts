/**
 * Putting an MCP server behind narrowing in a client's project config, and taking it out again.
 * Planning reads the files and works out the new text without writing anything, so that a dry
 * run shows exactly what applying would do.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigScope, McpClient } from './clients.js';
import { keyPathLabel } from './config-locations.js';
import { type ConfigTarget, hasProblem, type SelectedConfig, selectConfigs } from './config-selection.js';
import { entryValue, fillEntry, maskEntry, sameMaskedValue } from './entry-secrets.js';
import {
  chooseLauncher,
  type LauncherChoice,
  readWrapped,
  type StdioCommand,
  wrapCommand,
} from './launcher.js';
import { replaceFileContents } from './replace-file.js';
import { restoreWrappedFields } from './restore-fields.js';
import {
  type EntryReading,
  findServer,
  parseEntryText,
  readConfigDocument,
  readEntry,
  replaceSpan,
  restoreCommand,
  rewriteCommand,
} from './server-entry.js';
import { detectStyle } from './text-style.js';
import { TomlReadError, tomlEditProblem } from './toml-config.js';
import { unifiedDiff } from './unified-diff.js';
import {
  readRecord,
  recordMismatch,
  recordPath,
  removeRecord,
  type WrapRecord,
  writeRecord,
} from './wrap-record.js';

/** Which configs a request acts on. */
export type WrapTarget = ConfigTarget;

export interface WrapRequest extends WrapTarget {
  /** Options for `narrowing-guard mcp`, placed before `--`. */
  readonly narrowingOptions?: readonly string[];
  /** The options for a user-scope server, which runs in every project; defaults to `narrowingOptions`. */
  readonly userNarrowingOptions?: readonly string[];
  readonly launcher?: LauncherChoice;
  /** Defaults to whether `node_modules/.bin/narrowing` exists in the project. */
  readonly installedLocally?: boolean;
  readonly now?: Date;
}

export interface UnwrapRequest extends WrapTarget {
  /**
   * Restore the saved original even when the wrapped command line was edited since. Without it,
   * edits elsewhere in the entry are kept and only the command line is put back.
   */
  readonly force?: boolean;
}

export type PlanStatus = 'change' | 'unchanged' | 'refused';

export interface PlannedChange {
  readonly client: McpClient;
  readonly path: string;
  /** The config file relative to the project (or `~/…`), for messages. */
  readonly label: string;
  readonly scope: ConfigScope;
  /** The keys to the map of servers, such as `mcpServers` or `projects["/home/me/web"].mcpServers`. */
  readonly serversAt: string;
  /** Outside the project: written only if unchanged since read, and never through a link. */
  readonly inHome: boolean;
  readonly status: PlanStatus;
  readonly message: string;
  readonly before: string;
  readonly after: string;
  readonly recordPath: string;
  /** A record to write, `null` to delete the record, absent to leave it. */
  readonly record?: WrapRecord | null;
  /** The saved entry that replaces the whole entry (`unwrap --force`), edits made since included. */
  readonly restoredEntry?: string;
}

export function planWrap(request: WrapRequest): PlannedChange[] {
  const installedLocally =
    request.installedLocally ??
    existsSync(join(request.projectDir, 'node_modules', '.bin', 'narrowing-guard'));
  return planEach(selectConfigs(request, 'wrap'), request.server, (config) => {
    const { scope } = config.location;
    const record = recordPath(request.stateDir, config.client.id, request.server, scope);
    const base = changeBase(config, record);
    const same = { ...base, before: config.text, after: config.text };
    if (hasProblem(config)) return { ...same, status: 'refused' as const, message: config.problem };
    const member = findServer(config.document, request.server)!;
    const reading = readEntry(member.value);
    const name = serverName(request.server, base);
    const unsupported = config.document.entryProblems?.get(request.server);
    if (unsupported !== undefined) {
      return { ...same, status: 'refused', message: `${name} cannot be wrapped: ${unsupported}.` };
    }
    if (reading.kind === 'remote')
      return { ...same, status: 'refused', message: remoteMessage(name, reading.url) };
    if (reading.kind === 'invalid') {
      return { ...same, status: 'refused', message: `${name} cannot be wrapped: ${reading.problem}.` };
    }
    if (readWrapped(reading.command).wrapped) {
      return {
        ...same,
        status: 'unchanged',
        message:
          `${name} already runs through narrowing; nothing to do. ` +
          `To change its narrowing options, run \`narrowing-guard unwrap ${request.server}\` and wrap it again.`,
      };
    }
    const launcher = chooseLauncher(request.launcher ?? 'auto', {
      client: config.client,
      // The user's own config is read in every project: only npx finds narrowing in all of them.
      installedLocally: scope === 'user' ? false : installedLocally,
      entryHasCwd: reading.hasCwd,
      platform: request.platform ?? process.platform,
      projectDir: request.projectDir,
    });
    // Paths relative to the project hold only for a client that starts the server there.
    const absolutePaths = scope === 'user' || !config.client.startsServersInProject;
    const narrowingOptions =
      (absolutePaths ? request.userNarrowingOptions : undefined) ?? request.narrowingOptions ?? [];
    const wrapped = wrapCommand(launcher, narrowingOptions, reading.command);
    let after: string;
    try {
      after = rewriteCommand(config.text, reading, wrapped, detectStyle(config.text), config.client.format);
    } catch (error) {
      if (!(error instanceof TomlReadError)) throw error;
      return { ...same, status: 'refused', message: `${name} cannot be wrapped: ${error.message}.` };
    }
    const entry = reading.entry;
    const wrappedEnd = entry.end + after.length - config.text.length;
    const originalEntry = maskEntry(config.text.slice(entry.start, entry.end), config.client);
    const wrappedEntry = maskEntry(after.slice(entry.start, wrappedEnd), config.client);
    const change = {
      ...base,
      before: config.text,
      after,
      status: 'change' as const,
      message: `${name} now runs through narrowing: ${commandLine(wrapped)}`,
    };
    if (!originalEntry.complete || !wrappedEntry.complete) {
      // A secret where no value holds it (a comment): keep no copy; unwrap reads the command line.
      return {
        ...change,
        message:
          `${change.message} (no copy of the entry was saved, because it holds a secret narrowing cannot ` +
          'mask; `unwrap` will restore it from the wrapped command line)',
      };
    }
    return {
      ...change,
      record: {
        version: 1,
        client: config.client.id,
        server: request.server,
        configFile: config.label,
        ...recordScope(base),
        wrappedAt: (request.now ?? new Date()).toISOString(),
        originalEntry: originalEntry.text,
        wrappedEntry: wrappedEntry.text,
      },
    };
  });
}

export function planUnwrap(request: UnwrapRequest): PlannedChange[] {
  return planEach(selectConfigs(request, 'unwrap'), request.server, (config) => {
    const record = recordPath(request.stateDir, config.client.id, request.server, config.location.scope);
    const base = changeBase(config, record);
    const same = { ...base, before: config.text, after: config.text };
    if (hasProblem(config)) return { ...same, status: 'refused' as const, message: config.problem };
    let saved: WrapRecord | undefined;
    try {
      saved = readRecord(record);
    } catch (error) {
      return { ...same, status: 'refused', message: (error as Error).message };
    }
    const name = serverName(request.server, base);
    const member = findServer(config.document, request.server);
    if (member === undefined) {
      return {
        ...same,
        status: 'unchanged',
        message: `${name} is no longer defined; nothing to restore. Its saved original stays in ${record}.`,
      };
    }
    const unsupported = config.document.entryProblems?.get(request.server);
    if (unsupported !== undefined) {
      return { ...same, status: 'refused', message: `${name} cannot be unwrapped: ${unsupported}.` };
    }
    const reading = readEntry(member.value);
    if (reading.kind !== 'stdio' || !readWrapped(reading.command).wrapped) {
      return {
        ...same,
        status: 'unchanged',
        message: `${name} does not run through narrowing; nothing to unwrap.`,
        ...(saved && { record: null }),
      };
    }
    if (saved === undefined) return restoreWithoutRecord({ ...same, name, reading, dir: request.stateDir });
    const entry = reading.entry;
    const current = config.text.slice(entry.start, entry.end);
    // The record holds the entry with its secrets masked: compare masked with masked.
    const masked = maskEntry(current, config.client).text;
    const unchanged = masked === saved.wrappedEntry || sameValue(masked, saved.wrappedEntry, config.client);
    const mismatch = recordMismatch(saved, {
      client: config.client.id,
      server: request.server,
      configFile: config.label,
      ...recordScope(base),
      current: parseEntryText(masked, config.client) ?? member.value,
      edited: !unchanged,
    });
    if (mismatch !== undefined) {
      return {
        ...same,
        status: 'refused',
        message:
          `${record} does not belong to ${name}: ${mismatch}. It was edited or copied from elsewhere, so ` +
          'nothing was restored from it. Delete it to unwrap from the wrapped command line instead.',
      };
    }
    // The secrets come back from the entry in the config, the only place that still has them.
    const original = fillEntry(saved.originalEntry, config.client, {
      value: entryValue(current, config.client),
      upstream: upstreamOf(reading.command),
    });
    if (unchanged && original.unfilled.length === 0) {
      const after = replaceSpan(config.text, entry, original.text);
      const restored = { ...base, before: config.text, after, status: 'change' as const, record: null };
      if (masked === saved.wrappedEntry) return { ...restored, message: `${name} is restored as it was.` };
      return {
        ...restored,
        message: `${name} is restored as it was (the wrapped entry had been reformatted, its content was unchanged).`,
      };
    }
    if (request.force) {
      if (original.unfilled.length > 0) {
        return {
          ...same,
          status: 'refused',
          message:
            `${name} was left alone: its saved original had secrets at ${original.unfilled.join(', ')}, which ` +
            'narrowing never keeps a copy of, and the entry no longer holds them there. Edit the entry by hand.',
        };
      }
      return {
        ...same,
        after: replaceSpan(config.text, entry, original.text),
        status: 'change',
        record: null,
        restoredEntry: original.text,
        message: `${name} is restored as it was; the edits made to it after wrapping were discarded (--force).`,
      };
    }
    const kept = restoreWrappedFields(config.text, reading, {
      original,
      wrapped: saved.wrappedEntry,
      current: masked,
      client: config.client,
    });
    if (kept !== undefined) {
      const edited =
        kept.editedKeys.length > 0 ? ` (${kept.editedKeys.map((key) => `"${key}"`).join(', ')})` : '';
      return {
        ...same,
        after: kept.text,
        status: 'change',
        record: null,
        message: `${name} runs its own command again; the edits made to the entry after wrapping${edited} are kept.`,
      };
    }
    // From the start of the entry's line, so that the diff shows the key and true indentation.
    const lead = config.text.slice(config.text.lastIndexOf('\n', entry.start - 1) + 1, entry.start);
    const edits = unifiedDiff(lead + saved.wrappedEntry, lead + masked, {
      oldLabel: `${config.label} (${request.server}, as wrapped)`,
      newLabel: `${config.label} (${request.server}, now)`,
    });
    return {
      ...same,
      status: 'refused',
      message:
        `${name} was left alone: its command line was edited after it was wrapped, so narrowing cannot tell ` +
        `which command to put back. The edits:\n${indent(edits)}` +
        `Run \`narrowing-guard unwrap ${request.server} --client ${config.client.id} --force\` to restore the ` +
        'original anyway, or edit the entry by hand.',
    };
  });
}

/**
 * Writes the record (wrap) before the config, and removes it (unwrap) after, so a crash loses nothing.
 * The config is written only if it still holds what was planned on: a change made by someone else
 * in between is never overwritten (`ConfigFileError`, and the record is not kept).
 */
export function applyChange(change: PlannedChange): void {
  if (change.status === 'refused') return;
  if (change.record) writeRecord(change.recordPath, change.record);
  if (change.after !== change.before) {
    try {
      replaceFileContents(change.path, change.after, { expected: change.before, followLink: !change.inHome });
    } catch (error) {
      if (change.record) removeRecord(change.recordPath);
      throw error;
    }
  }
  if (change.record === null) removeRecord(change.recordPath);
}

/** `-` and `+` lines of what a change does to its file; empty when nothing changes. */
export function changeDiff(change: PlannedChange): string {
  return unifiedDiff(change.before, change.after, {
    oldLabel: `a/${change.label}`,
    newLabel: `b/${change.label}`,
  });
}

/**
 * Plans each config in turn. Two scopes can live in one file (`~/.claude.json`): the second is
 * planned on the text the first leaves, so that applying both in order writes both.
 */
function planEach(
  configs: readonly SelectedConfig[],
  server: string,
  planOne: (config: SelectedConfig) => PlannedChange,
): PlannedChange[] {
  const latest = new Map<string, string>();
  return configs.map((config) => {
    const text = latest.get(config.path);
    let current = config;
    if (text !== undefined && text !== config.text && !hasProblem(config)) {
      const { location } = config;
      current = {
        ...config,
        text,
        document: readConfigDocument(text, location.client, location.label, location.serversPaths),
      };
    }
    const change = checkedEdit(planOne(current), server);
    latest.set(change.path, change.after);
    return change;
  });
}

/**
 * A TOML config is edited through offsets found beside the parser: the edited text is parsed again
 * and the change is refused unless exactly the server's command and arguments differ.
 */
function checkedEdit(change: PlannedChange, server: string): PlannedChange {
  if (change.client.format !== 'toml' || change.status !== 'change' || change.after === change.before) {
    return change;
  }
  const problem = tomlEditProblem(change.before, change.after, server, change.restoredEntry);
  if (problem === undefined) return change;
  const { record: _record, ...rest } = change;
  return {
    ...rest,
    after: change.before,
    status: 'refused',
    message:
      `"${server}" in ${change.label} was left alone: ${problem}, so the file was not written. ` +
      'Edit its command line by hand.',
  };
}

type ChangeBase = Pick<
  PlannedChange,
  'client' | 'path' | 'label' | 'scope' | 'serversAt' | 'inHome' | 'recordPath'
>;

function changeBase(config: SelectedConfig, record: string): ChangeBase {
  const serversPath = hasProblem(config) ? config.location.serversPaths[0]! : config.document.serversPath;
  return {
    client: config.client,
    path: config.path,
    label: config.label,
    scope: config.location.scope,
    serversAt: keyPathLabel(serversPath),
    inHome: config.location.inHome,
    recordPath: record,
  };
}

/** How messages name the server: with its scope and keys when they are not the project file's. */
function serverName(server: string, base: ChangeBase): string {
  if (base.scope === 'project') return `"${server}" in ${base.label}`;
  return `"${server}" in ${base.label} (${base.scope} scope, ${base.serversAt})`;
}

function recordScope(base: ChangeBase): { scope?: 'local' | 'user'; serversAt?: string } {
  if (base.scope === 'project') return {};
  return { scope: base.scope, serversAt: base.serversAt };
}

function restoreWithoutRecord(input: {
  client: McpClient;
  path: string;
  label: string;
  scope: ConfigScope;
  serversAt: string;
  inHome: boolean;
  recordPath: string;
  before: string;
  after: string;
  name: string;
  dir: string;
  reading: Extract<EntryReading, { kind: 'stdio' }>;
}): PlannedChange {
  const { name, reading, dir, ...same } = input;
  const { upstream } = readWrapped(reading.command) as { upstream?: StdioCommand };
  if (upstream === undefined) {
    return {
      ...same,
      status: 'refused',
      message:
        `${name} runs narrowing without a server command after "--", and no saved original was found ` +
        `in ${join(dir, 'wrapped')}. Edit the entry by hand.`,
    };
  }
  return {
    ...same,
    after: restoreCommand(same.before, reading, upstream, same.client.format),
    status: 'change',
    message:
      `${name} is restored from its wrapped command line: ${commandLine(upstream)} ` +
      `(no saved original was found in ${join(dir, 'wrapped')}, so the entry's layout may differ from before).`,
  };
}

function remoteMessage(name: string, url: string | undefined): string {
  const upstream = url ?? '<server URL>';
  return (
    `${name} is a remote (HTTP) server: narrowing can only wrap servers it starts itself. ` +
    `Run the proxy in front of it instead — \`narrowing-guard mcp --http 127.0.0.1:8808 --upstream-url ${upstream}\` — ` +
    'and point the client at http://127.0.0.1:8808/mcp.'
  );
}

function upstreamOf(command: StdioCommand): StdioCommand | undefined {
  const reading = readWrapped(command);
  return reading.wrapped ? reading.upstream : undefined;
}

/** Whether two masked entries hold the same values. */
function sameValue(a: string, b: string, client: McpClient): boolean {
  const first = entryValue(a, client);
  return first !== undefined && sameMaskedValue(first, entryValue(b, client));
}

/** A command line as a shell would need it typed. */
export function commandLine(command: StdioCommand): string {
  return [command.command, ...command.args].map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.length > 0 ? `  ${line}` : line))
    .join('\n');
}
