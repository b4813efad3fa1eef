/**
 * What `wrap` keeps so that `unwrap` can put a server's definition back byte for byte: the exact
 * text of the entry before and after wrapping. Comparing the file's current entry with the
 * wrapped text tells whether someone edited it since.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../node/atomic-file.js';
import { CLIENT_IDS, type ClientId } from './clients.js';
import { ConfigFileError } from './errors.js';

export const WRAPPED_DIR = 'wrapped';

const recordSchema = z.object({
  version: z.literal(1),
  client: z.enum(CLIENT_IDS as [ClientId, ...ClientId[]]),
  server: z.string(),
  configFile: z.string(),
  wrappedAt: z.string(),
  originalEntry: z.string(),
  wrappedEntry: z.string(),
});

export type WrapRecord = z.infer<typeof recordSchema>;

/** `<state dir>/wrapped/<client>-<server>.json`; odd characters in a server name are replaced. */
export function recordPath(stateDir: string, client: ClientId, server: string): string {
  const safe = server.replace(/[^A-Za-z0-9._-]/g, '_');
  const name =
    safe === server ? server : `${safe}-${createHash('sha256').update(server).digest('hex').slice(0, 8)}`;
  return join(stateDir, WRAPPED_DIR, `${client}-${name}.json`);
}

/** The record at `path`, `undefined` when there is none; throws `ConfigFileError` when it is damaged. */
export function readRecord(path: string): WrapRecord | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigFileError(`${path} cannot be read: ${(error as Error).message}`);
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

export function writeRecord(path: string, record: WrapRecord): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(path, `${JSON.stringify(record, null, 2)}\n`);
}

/** Removes the record, and the folders that held it once they are empty, as before the first wrap. */
export function removeRecord(path: string): void {
  rmSync(path, { force: true });
  const wrappedDir = dirname(path);
  for (const dir of [wrappedDir, dirname(wrappedDir)]) {
    try {
      rmdirSync(dir);
    } catch {
      // Other servers are still wrapped, or narrowing keeps state there: the folder stays.
      return;
    }
  }
}
