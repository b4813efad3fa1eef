/**
 * What `wrap` keeps so that `unwrap` can put a server's definition back byte for byte: the text of
 * the entry before and after wrapping, with its secrets masked (entry-secrets.ts). Comparing the
 * file's current entry, masked alike, with the wrapped text tells whether someone edited it since.
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../node/atomic-file.js';
import { readTextNoFollowSync } from '../node/safe-fs.js';
import { prepareFolderFor, STATE_DIR_NAME } from '../node/state-dir.js';
import { CLIENT_IDS, type ClientId, type ConfigScope, MCP_CLIENTS } from './clients.js';
import { sameMaskedValue } from './entry-secrets.js';
import { ConfigFileError } from './errors.js';
import { type JsonNode, nodeValue } from './jsonc.js';
import { readWrapped } from './launcher.js';
import { parseEntryText, readEntry } from './server-entry.js';

/** A server definition is a few hundred bytes; a record much larger than this was not written by wrap. */
export const MAX_RECORD_BYTES = 256 * 1024;

export const WRAPPED_DIR = 'wrapped';

const recordSchema = z.object({
  version: z.literal(1),
  client: z.enum(CLIENT_IDS as [ClientId, ...ClientId[]]),
  server: z.string(),
  configFile: z.string(),
  /** Absent for a project's own config file. */
  scope: z.enum(['local', 'user']).optional(),
  /** The keys to the map of servers, when not the client's top-level key. */
  serversAt: z.string().optional(),
  wrappedAt: z.string(),
  originalEntry: z.string(),
  wrappedEntry: z.string(),
});

export type WrapRecord = z.infer<typeof recordSchema>;

/**
 * `<state dir>/wrapped/<client>-<server>.json` for a project's config, `<client>@<scope>-<server>.json`
 * for the user's (`@` never appears in the rest); odd characters in a server name are replaced.
 */
export function recordPath(
  stateDir: string,
  client: ClientId,
  server: string,
  scope: ConfigScope = 'project',
): string {
  const safe = server.replace(/[^A-Za-z0-9._-]/g, '_');
  const name =
    safe === server ? server : `${safe}-${createHash('sha256').update(server).digest('hex').slice(0, 8)}`;
  const owner = scope === 'project' ? client : `${client}@${scope}`;
  return join(stateDir, WRAPPED_DIR, `${owner}-${name}.json`);
}

/** The record at `path`, `undefined` when there is none; throws `ConfigFileError` when it is damaged. */
export function readRecord(path: string): WrapRecord | undefined {
  let text: string;
  try {
    text = readTextNoFollowSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigFileError(`${path} cannot be read: ${(error as Error).message}`);
  }
  if (text.length > MAX_RECORD_BYTES) {
    throw new ConfigFileError(
      `${path} is ${text.length} bytes, far more than a saved server definition; it was not written by ` +
        'narrowing wrap. Delete it to unwrap from the wrapped command line instead.',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success) {
    throw new ConfigFileError(
      `${path} is damaged, so the original definition cannot be restored from it. ` +
        'Delete it to unwrap from the wrapped command line instead.',
    );
  }
  return parsed.data;
}

export interface RecordExpectation {
  readonly client: ClientId;
  readonly server: string;
  readonly configFile: string;
  readonly scope?: 'local' | 'user' | undefined;
  readonly serversAt?: string | undefined;
  /** The server's entry in the config file now, which runs narrowing, with its secrets masked. */
  readonly current: JsonNode;
  /** The entry was edited after wrapping (and is restored only with `--force`). */
  readonly edited: boolean;
}

/**
 * Why a record cannot be the one wrap wrote for this entry, or `undefined` when it can: it names
 * the same client, server and config file, and its original entry runs exactly the command the
 * wrapped entry runs after `--` with nothing else changed. A record planted in a repository's
 * `.narrowing/wrapped/` therefore cannot put another command (or environment) in the user's config.
 */
export function recordMismatch(record: WrapRecord, expected: RecordExpectation): string | undefined {
  if (record.client !== expected.client) return `it was written for the client ${record.client}`;
  if (record.server !== expected.server) return `it was written for the server "${record.server}"`;
  if (record.configFile !== expected.configFile) return `it was written for ${record.configFile}`;
  if (record.scope !== expected.scope || record.serversAt !== expected.serversAt) {
    return `it was written for ${record.serversAt ?? 'the servers'} of ${record.scope ?? 'project'} scope`;
  }
  const safeParse = (text: string) => parseEntryText(text, MCP_CLIENTS[expected.client]);
  const parsed = safeParse(record.originalEntry);
  const original = parsed === undefined ? undefined : readEntry(parsed);
  if (original?.kind !== 'stdio') return 'its original entry is not a server definition with a command';
  // After hand edits (restored only with --force) the record can only be checked against itself.
  const against = expected.edited ? safeParse(record.wrappedEntry) : expected.current;
  const current = against === undefined ? undefined : readEntry(against);
  const wrapped = current?.kind === 'stdio' ? readWrapped(current.command) : undefined;
  const upstream = wrapped?.wrapped ? wrapped.upstream : undefined;
  if (upstream === undefined) return 'its wrapped entry names no server command after "--"';
  if (
    !sameMaskedValue(original.command.command, upstream.command) ||
    !sameMaskedValue(original.command.args, upstream.args)
  ) {
    return (
      `its original entry runs ${JSON.stringify([original.command.command, ...original.command.args])}, ` +
      `but the wrapped entry runs ${JSON.stringify([upstream.command, ...upstream.args])}`
    );
  }
  if (!expected.edited && !sameMaskedValue(withoutCommand(parsed), withoutCommand(expected.current))) {
    return 'its original entry differs from the wrapped entry in more than the command';
  }
  return undefined;
}

function withoutCommand(node: JsonNode | undefined): unknown {
  if (node === undefined) return undefined;
  const { command: _command, args: _args, ...rest } = nodeValue(node) as Record<string, unknown>;
  return rest;
}

export function writeRecord(path: string, record: WrapRecord): void {
  prepareFolderFor(path);
  writeFileAtomicSync(path, `${JSON.stringify(record, null, 2)}\n`);
}

/** Removes the record, and the folders that held it once they are empty, as before the first wrap. */
export function removeRecord(path: string): void {
  rmSync(path, { force: true });
  const wrappedDir = dirname(path);
  for (const dir of [wrappedDir, dirname(wrappedDir)]) {
    try {
      // A state folder that holds nothing but the .gitignore it was made with is empty.
      if (basename(dir) === STATE_DIR_NAME && readdirSync(dir).join('/') === '.gitignore') {
        rmSync(join(dir, '.gitignore'), { force: true });
      }
      rmdirSync(dir);
    } catch {
      // Other servers are still wrapped, or narrowing keeps state there: the folder stays.
      return;
    }
  }
}
