/**
 * Which config files `wrap` and `unwrap` act on: per client and scope, the files that exist, read
 * as the client's config (or with the reason they cannot be), and among them the ones that define
 * the server.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { CLIENT_IDS, type ClientId, type ConfigScope, MCP_CLIENTS, type McpClient } from './clients.js';
import { type ConfigLocation, configLocation, keyPathLabel } from './config-locations.js';
import { ConfigFileError } from './errors.js';
import type { JsonNode } from './jsonc.js';
import { readWrapped } from './launcher.js';
import { readConfigBytes } from './replace-file.js';
import {
  type ConfigDocument,
  findServer,
  readConfigDocument,
  readEntry,
  serverNames,
} from './server-entry.js';
import { recordPath } from './wrap-record.js';

/** Which configs a request acts on. */
export interface ConfigTarget {
  /** The project whose config files are edited. */
  readonly projectDir: string;
  readonly server: string;
  /** One client, or every client whose config defines the server. */
  readonly client: ClientId | 'all';
  /** Where the originals are kept (`<stateDir>/wrapped/`). */
  readonly stateDir: string;
  /**
   * Which of the client's configs: `auto` (the default) takes, for wrap, the one the client uses
   * (Claude Code: local, then project, then user), and for unwrap every one that is wrapped.
   */
  readonly scope?: ConfigScope | 'auto';
  /** Where the user's own configs are; defaults to the home directory (`HOME`). */
  readonly homeDir?: string;
  readonly platform?: NodeJS.Platform;
  /** The environment that may move a user config (`CODEX_HOME`); defaults to this process's. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface ConfigFile {
  readonly location: ConfigLocation;
  readonly client: McpClient;
  readonly path: string;
  readonly label: string;
  readonly text: string;
  /** Why the file cannot be edited, when it cannot. */
  readonly problem?: string;
}

export type LoadedConfig = ConfigFile & { readonly document: ConfigDocument; readonly problem?: undefined };

export type SelectedConfig = LoadedConfig | (ConfigFile & { readonly problem: string });

export function hasProblem(config: SelectedConfig): config is ConfigFile & { readonly problem: string } {
  return config.problem !== undefined;
}

/**
 * The configs to act on. A named client and scope must have the file, and it must define the
 * server. Otherwise, per client: for wrap, the first scope (in the client's order) that defines the
 * server; for unwrap, every scope where the server runs through narrowing or has a saved original.
 */
export function selectConfigs(target: ConfigTarget, action: 'wrap' | 'unwrap'): SelectedConfig[] {
  const clients = target.client === 'all' ? CLIENT_IDS : [target.client];
  const scope = target.scope ?? 'auto';
  const context = {
    projectDir: target.projectDir,
    homeDir: target.homeDir ?? homedir(),
    platform: target.platform ?? process.platform,
    env: target.env ?? process.env,
  };
  const strict = target.client !== 'all' && scope !== 'auto';
  const looked: ConfigLocation[] = [];
  const elsewhere: string[] = [];
  const selected: SelectedConfig[] = [];
  for (const id of clients) {
    const client = MCP_CLIENTS[id];
    const scopes = scope === 'auto' ? client.scopes : [scope];
    const found: SelectedConfig[] = [];
    const wrappedHere: SelectedConfig[] = [];
    for (const each of scopes) {
      const location = configLocation(client, each, context);
      if (location === undefined) {
        if (target.client !== 'all') {
          throw new ConfigFileError(
            `${client.name} has no ${each}-scope MCP config; choose another --scope.`,
          );
        }
        continue;
      }
      looked.push(location);
      const file = readConfigFile(location, strict, target.projectDir);
      if (file === undefined) continue;
      if (file.problem !== undefined) {
        found.push({ ...file, problem: file.problem });
        continue;
      }
      let document: ConfigDocument;
      try {
        document = readConfigDocument(file.text, client, file.label, location.serversPaths);
      } catch (error) {
        if (!(error instanceof ConfigFileError)) throw error;
        found.push({ ...file, problem: error.message });
        continue;
      }
      const member = findServer(document, target.server);
      const hasRecord =
        action === 'unwrap' && existsSync(recordPath(target.stateDir, id, target.server, location.scope));
      if (member !== undefined || hasRecord) {
        const loaded = { ...file, document };
        found.push(loaded);
        if (hasRecord || (member !== undefined && runsNarrowing(member.value))) wrappedHere.push(loaded);
        continue;
      }
      const names = serverNames(document);
      const where =
        location.scope === 'project' ? file.label : `${file.label} ${keyPathLabel(document.serversPath)}`;
      elsewhere.push(`${where} (${names.length > 0 ? `servers: ${names.join(', ')}` : 'no servers'})`);
    }
    if (scope !== 'auto') selected.push(...found);
    else if (action === 'unwrap' && wrappedHere.length > 0) selected.push(...wrappedHere);
    else {
      // A file that cannot be read (a link, not JSON) is reported only when no other defines the server.
      const usable = found.find((config) => !hasProblem(config));
      selected.push(...(usable === undefined ? found : [usable]));
    }
  }
  if (selected.length === 0 && elsewhere.length === 0) {
    const labels = (inHome: boolean) => [
      ...new Set(looked.filter((location) => location.inHome === inHome).map((location) => location.label)),
    ];
    const home = labels(true);
    throw new ConfigFileError(
      `No MCP config in ${target.projectDir}: looked for ${labels(false).join(', ')}` +
        `${home.length > 0 ? `, and in the home directory for ${home.join(', ')}` : ''}. ` +
        'Run the command in the project directory (or pass --cwd), or add the server to your client first.',
    );
  }
  if (selected.length === 0) {
    throw new ConfigFileError(`No server named "${target.server}" in ${elsewhere.join(', ')}.`);
  }
  return selected;
}

function runsNarrowing(node: JsonNode): boolean {
  const reading = readEntry(node);
  return reading.kind === 'stdio' && readWrapped(reading.command).wrapped;
}

/** The file at a location; `undefined` when it does not exist and need not. */
function readConfigFile(
  location: ConfigLocation,
  mustExist: boolean,
  projectDir: string,
): ConfigFile | undefined {
  const { client, path, label } = location;
  const file = { location, client, path, label };
  let bytes: Buffer;
  try {
    bytes = readConfigBytes(path, !location.inHome);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !mustExist) return undefined;
    if (code === 'ENOENT' && location.scope === 'project') {
      throw new ConfigFileError(
        `${label} does not exist in ${projectDir}, so ${client.name} has no project ` +
          'MCP servers here. Add the server there first, or choose another --client.',
      );
    }
    if (code === 'ENOENT') {
      throw new ConfigFileError(
        `${label} does not exist, so ${client.name} has no ${location.scope}-scope MCP servers. ` +
          'Add the server there first, or choose another --scope.',
      );
    }
    if (error instanceof ConfigFileError) return { ...file, text: '', problem: error.message };
    throw new ConfigFileError(`${label} cannot be read: ${(error as Error).message}`);
  }
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    const problem = `${label} is not UTF-8 text, so it cannot be edited without changing other bytes.`;
    return { ...file, text, problem };
  }
  return { ...file, text };
}
