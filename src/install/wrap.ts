/**
 * Putting an MCP server behind narrowing in a client's project config, and taking it out again.
 * Planning reads the files and works out the new text without writing anything, so that a dry
 * run shows exactly what applying would do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CLIENT_IDS, type ClientId, MCP_CLIENTS, type McpClient } from './clients.js';
import { ConfigFileError } from './errors.js';
import { nodeValue, parseJsonc } from './jsonc.js';
import {
  chooseLauncher,
  type LauncherChoice,
  readWrapped,
  type StdioCommand,
  wrapCommand,
} from './launcher.js';
import { replaceFileContents } from './replace-file.js';
import {
  type ConfigDocument,
  type EntryReading,
  findServer,
  readConfigDocument,
  readEntry,
  replaceSpan,
  restoreCommand,
  rewriteCommand,
  serverNames,
} from './server-entry.js';
import { detectStyle } from './text-style.js';
import { unifiedDiff } from './unified-diff.js';
import {
  readRecord,
  recordMismatch,
  recordPath,
  removeRecord,
  type WrapRecord,
  writeRecord,
} from './wrap-record.js';

export interface WrapTarget {
  /** The project whose config files are edited. */
  readonly projectDir: string;
  readonly server: string;
  /** One client, or every client that has a project config defining the server. */
  readonly client: ClientId | 'all';
  /** Where the originals are kept (`<stateDir>/wrapped/`). */
  readonly stateDir: string;
}

export interface WrapRequest extends WrapTarget {
  /** Options for `narrowing-guard mcp`, placed before `--`. */
  readonly narrowingOptions?: readonly string[];
  readonly launcher?: LauncherChoice;
  /** Defaults to whether `node_modules/.bin/narrowing` exists in the project. */
  readonly installedLocally?: boolean;
  readonly platform?: NodeJS.Platform;
  readonly now?: Date;
}

export interface UnwrapRequest extends WrapTarget {
  /** Restore the saved original even when the wrapped entry was edited since. */
  readonly force?: boolean;
}

export type PlanStatus = 'change' | 'unchanged' | 'refused';

export interface PlannedChange {
  readonly client: McpClient;
  readonly path: string;
  /** The config file relative to the project, for messages. */
  readonly label: string;
  readonly status: PlanStatus;
  readonly message: string;
  readonly before: string;
  readonly after: string;
  readonly recordPath: string;
  /** A record to write, `null` to delete the record, absent to leave it. */
  readonly record?: WrapRecord | null;
}

interface ConfigFile {
  readonly client: McpClient;
  readonly path: string;
  readonly label: string;
  readonly text: string;
  /** Why the file cannot be edited, when it cannot. */
  readonly problem?: string;
}

type LoadedConfig = ConfigFile & { readonly document: ConfigDocument; readonly problem?: undefined };

export function planWrap(request: WrapRequest): PlannedChange[] {
  const installedLocally =
    request.installedLocally ??
    existsSync(join(request.projectDir, 'node_modules', '.bin', 'narrowing-guard'));
  return selectConfigs(request, 'wrap').map((config) => {
    const record = recordPath(request.stateDir, config.client.id, request.server);
    const base = { client: config.client, path: config.path, label: config.label, recordPath: record };
    const same = { ...base, before: config.text, after: config.text };
    if (hasProblem(config)) return { ...same, status: 'refused' as const, message: config.problem };
    const member = findServer(config.document, request.server)!;
    const reading = readEntry(member.value);
    const name = `"${request.server}" in ${config.label}`;
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
      installedLocally,
      entryHasCwd: reading.hasCwd,
      platform: request.platform ?? process.platform,
    });
    const wrapped = wrapCommand(launcher, request.narrowingOptions ?? [], reading.command);
    const after = rewriteCommand(config.text, reading, wrapped, detectStyle(config.text));
    const entry = reading.entry;
    const wrappedEnd = entry.end + after.length - config.text.length;
    return {
      ...base,
      before: config.text,
      after,
      status: 'change',
      message: `${name} now runs through narrowing: ${commandLine(wrapped)}`,
      record: {
        version: 1,
        client: config.client.id,
        server: request.server,
        configFile: config.client.configFile,
        wrappedAt: (request.now ?? new Date()).toISOString(),
        originalEntry: config.text.slice(entry.start, entry.end),
        wrappedEntry: after.slice(entry.start, wrappedEnd),
      },
    };
  });
}

export function planUnwrap(request: UnwrapRequest): PlannedChange[] {
  return selectConfigs(request, 'unwrap').map((config) => {
    const record = recordPath(request.stateDir, config.client.id, request.server);
    const base = { client: config.client, path: config.path, label: config.label, recordPath: record };
    const same = { ...base, before: config.text, after: config.text };
    if (hasProblem(config)) return { ...same, status: 'refused' as const, message: config.problem };
    let saved: WrapRecord | undefined;
    try {
      saved = readRecord(record);
    } catch (error) {
      return { ...same, status: 'refused', message: (error as Error).message };
    }
    const name = `"${request.server}" in ${config.label}`;
    const member = findServer(config.document, request.server);
    if (member === undefined) {
      return {
        ...same,
        status: 'unchanged',
        message: `${name} is no longer defined; nothing to restore. Its saved original stays in ${record}.`,
      };
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
    const mismatch = recordMismatch(saved, {
      client: config.client.id,
      server: request.server,
      configFile: config.client.configFile,
      current: member.value,
      edited: current !== saved.wrappedEntry && !sameValue(current, saved.wrappedEntry),
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
    const after = replaceSpan(config.text, entry, saved.originalEntry);
    const restored = { ...base, before: config.text, after, status: 'change' as const, record: null };
    if (current === saved.wrappedEntry) return { ...restored, message: `${name} is restored as it was.` };
    if (sameValue(current, saved.wrappedEntry)) {
      return {
        ...restored,
        message: `${name} is restored as it was (the wrapped entry had been reformatted, its content was unchanged).`,
      };
    }
    if (request.force) {
      return {
        ...restored,
        message: `${name} is restored as it was; the edits made to it after wrapping were discarded (--force).`,
      };
    }
    // From the start of the entry's line, so that the diff shows the key and true indentation.
    const lead = config.text.slice(config.text.lastIndexOf('\n', entry.start - 1) + 1, entry.start);
    const edits = unifiedDiff(lead + saved.wrappedEntry, lead + current, {
      oldLabel: `${config.label} (${request.server}, as wrapped)`,
      newLabel: `${config.label} (${request.server}, now)`,
    });
    return {
      ...same,
      status: 'refused',
      message:
        `${name} was edited after it was wrapped, so restoring the saved original would undo these edits:\n` +
        `${indent(edits)}` +
        `Run \`narrowing-guard unwrap ${request.server} --client ${config.client.id} --force\` to restore the ` +
        'original anyway, or edit the entry by hand.',
    };
  });
}

/** Writes the record (wrap) before the config, and removes it (unwrap) after, so a crash loses nothing. */
export function applyChange(change: PlannedChange): void {
  if (change.status === 'refused') return;
  if (change.record) writeRecord(change.recordPath, change.record);
  if (change.after !== change.before) replaceFileContents(change.path, change.after);
  if (change.record === null) removeRecord(change.recordPath);
}

/** `-` and `+` lines of what a change does to its file; empty when nothing changes. */
export function changeDiff(change: PlannedChange): string {
  return unifiedDiff(change.before, change.after, {
    oldLabel: `a/${change.label}`,
    newLabel: `b/${change.label}`,
  });
}

function restoreWithoutRecord(input: {
  client: McpClient;
  path: string;
  label: string;
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
    after: restoreCommand(same.before, reading, upstream),
    status: 'change',
    message:
      `${name} is restored from its wrapped command line: ${commandLine(upstream)} ` +
      `(no saved original was found in ${join(dir, 'wrapped')}, so the entry's layout may differ from before).`,
  };
}

type SelectedConfig = LoadedConfig | (ConfigFile & { readonly problem: string });

function hasProblem(config: SelectedConfig): config is ConfigFile & { readonly problem: string } {
  return config.problem !== undefined;
}

/**
 * The configs to act on. A named client's file must exist and define the server; with `all`,
 * every existing file that defines it (or, for unwrap, has a saved original of it).
 */
function selectConfigs(target: WrapTarget, action: 'wrap' | 'unwrap'): SelectedConfig[] {
  const clients = target.client === 'all' ? CLIENT_IDS : [target.client];
  const files = clients.map((id) => MCP_CLIENTS[id]).flatMap((client) => readConfigFile(target, client));
  if (files.length === 0) {
    const looked = clients.map((id) => MCP_CLIENTS[id].configFile).join(', ');
    throw new ConfigFileError(
      `No MCP config in ${target.projectDir}: looked for ${looked}. ` +
        'Run the command in the project directory (or pass --cwd), or add the server to your client first.',
    );
  }
  const selected: SelectedConfig[] = [];
  const elsewhere: string[] = [];
  for (const file of files) {
    if (file.problem !== undefined) {
      selected.push({ ...file, problem: file.problem });
      continue;
    }
    let document: ConfigDocument;
    try {
      document = readConfigDocument(file.text, file.client, file.label);
    } catch (error) {
      if (!(error instanceof ConfigFileError)) throw error;
      selected.push({ ...file, problem: error.message });
      continue;
    }
    const hasRecord =
      action === 'unwrap' && existsSync(recordPath(target.stateDir, file.client.id, target.server));
    if (findServer(document, target.server) !== undefined || hasRecord) {
      selected.push({ ...file, document });
      continue;
    }
    const names = serverNames(document);
    elsewhere.push(`${file.label} (${names.length > 0 ? `servers: ${names.join(', ')}` : 'no servers'})`);
  }
  if (selected.length === 0) {
    throw new ConfigFileError(`No server named "${target.server}" in ${elsewhere.join(', ')}.`);
  }
  return selected;
}

function readConfigFile(target: WrapTarget, client: McpClient): ConfigFile[] {
  const path = join(target.projectDir, ...client.configFile.split('/'));
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && target.client === 'all') return [];
    if (code === 'ENOENT') {
      throw new ConfigFileError(
        `${client.configFile} does not exist in ${target.projectDir}, so ${client.name} has no project ` +
          'MCP servers here. Add the server there first, or choose another --client.',
      );
    }
    throw new ConfigFileError(`${client.configFile} cannot be read: ${(error as Error).message}`);
  }
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    const problem = `${client.configFile} is not UTF-8 text, so it cannot be edited without changing other bytes.`;
    return [{ client, path, label: client.configFile, text, problem }];
  }
  return [{ client, path, label: client.configFile, text }];
}

function remoteMessage(name: string, url: string | undefined): string {
  const upstream = url ?? '<server URL>';
  return (
    `${name} is a remote (HTTP) server: narrowing can only wrap servers it starts itself. ` +
    `Run the proxy in front of it instead — \`narrowing-guard mcp --http 127.0.0.1:8808 --upstream-url ${upstream}\` — ` +
    'and point the client at http://127.0.0.1:8808/mcp.'
  );
}

function sameValue(a: string, b: string): boolean {
  try {
    return isDeepStrictEqual(nodeValue(parseJsonc(a).root), nodeValue(parseJsonc(b).root));
  } catch {
    return false;
  }
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
