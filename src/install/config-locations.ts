/**
 * The files, and the keys in them, where a client keeps its MCP servers for each scope: the
 * project's own file, the user's file, and (Claude Code) the user's file under the project's path.
 */
import { realpathSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import type { ConfigScope, McpClient } from './clients.js';

export interface LocationContext {
  readonly projectDir: string;
  readonly homeDir: string;
  readonly platform: NodeJS.Platform;
  /** The environment the client runs with, for a variable that moves its user config. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface ConfigLocation {
  readonly client: McpClient;
  readonly scope: ConfigScope;
  readonly path: string;
  /** The file for messages: relative to the project, or `~/…` in the home directory. */
  readonly label: string;
  /**
   * Keys from the document's root to the map of servers, one list per spelling of the path; the
   * first that the file has is used.
   */
  readonly serversPaths: readonly (readonly string[])[];
  /**
   * Outside the project: read and written without following a link, and only written when it
   * still holds what was read (the client rewrites such files itself).
   */
  readonly inHome: boolean;
}

export function configLocation(
  client: McpClient,
  scope: ConfigScope,
  context: LocationContext,
): ConfigLocation | undefined {
  if (!client.scopes.includes(scope)) return undefined;
  const serversKey = client.serversKey;
  if (scope === 'project') {
    return {
      client,
      scope,
      path: join(context.projectDir, ...client.configFile.split('/')),
      label: client.configFile,
      serversPaths: [[serversKey]],
      inHome: false,
    };
  }
  const file = client.userConfigFile(context.platform);
  const variable = client.userConfigDirVariable;
  const moved = variable === undefined ? undefined : context.env[variable];
  // Only an absolute folder: a relative one would depend on where the client was started.
  const base =
    moved !== undefined && isAbsolute(moved)
      ? {
          client,
          scope,
          path: join(moved, basename(file)),
          label: `$${variable}/${basename(file)}`,
          inHome: true,
        }
      : { client, scope, path: join(context.homeDir, ...file.split('/')), label: `~/${file}`, inHome: true };
  if (scope === 'user') return { ...base, serversPaths: [[serversKey]] };
  return {
    ...base,
    serversPaths: projectKeys(context.projectDir).map((key) => ['projects', key, serversKey]),
  };
}

/** The ways a client may have written the project's path as a key: as given, resolved, with `/`. */
function projectKeys(projectDir: string): string[] {
  let real = projectDir;
  try {
    real = realpathSync(projectDir);
  } catch {
    // A directory that cannot be resolved is looked up as given.
  }
  const keys = [projectDir, real, projectDir.replace(/\\/g, '/'), real.replace(/\\/g, '/')];
  return [...new Set(keys)];
}

/** `mcpServers`, `projects["/home/me/web"].mcpServers`: a key path as a reader of the file would write it. */
export function keyPathLabel(path: readonly string[]): string {
  return path
    .map((key, index) => {
      if (/^[A-Za-z_$][\w$]*$/.test(key)) return index === 0 ? key : `.${key}`;
      return `[${JSON.stringify(key)}]`;
    })
    .join('');
}
