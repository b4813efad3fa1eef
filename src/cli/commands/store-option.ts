/** `--store file|sqlite|memory|redis://…`: one option, the same on every command that reads or writes learned state. */
import { dirname, join } from 'node:path';
import { Option } from 'commander';
import { NarrowingError } from '../../core/errors.js';
import type { PersistedState } from '../../core/types.js';
import type { StoreOption } from '../../guard/index.js';
import { parseStoreChoice } from '../../guard/store-choice.js';
import { isRedisUrl, parseRedisAddress } from '../../stores/redis-url.js';

export const STORE_OPTION_HELP =
  'where learned state is kept: file (default), sqlite, memory or a redis:// URL';

/** The `--store` option, for every command that takes it. */
export function storeOption(help = STORE_OPTION_HELP): Option {
  return new Option('--store <store>', help);
}

/** The store a command was given, checked; a `USAGE` NarrowingError naming the accepted forms when it is not one. */
export function parseStoreOption(value: string): StoreOption {
  return parseStoreChoice(value);
}

/**
 * The store as a command line written into a file (a client's MCP config, an agent's hook settings)
 * may carry it: checked, and never with a password, which the file would hold in clear.
 */
export function storeForConfig(value: string, file: string): string {
  parseStoreOption(value);
  if (isRedisUrl(value) && parseRedisAddress(value).secret !== undefined) {
    throw new NarrowingError(
      'CONFIG_INVALID',
      `--store: this Redis URL has a password, which would be written in clear into ${file}. ` +
        'Give a URL without one (a server on loopback or a private network, or TLS with rediss://), ' +
        'or put `store:` in a policy file only you can read and pass --policy instead.',
    );
  }
  return value;
}

/**
 * The learned state of a shared store, read once; `undefined` when it holds nothing. Reading never
 * creates a SQLite database that is not there yet.
 */
export async function readSharedState(store: string, stateDir: string): Promise<PersistedState | undefined> {
  const database = join(stateDir, 'state.db');
  if (store === 'sqlite' && !(await exists(database))) return undefined;
  const opened =
    store === 'sqlite'
      ? await (await import('../../stores/sqlite-store.js')).openSqliteStore({ path: database })
      : await (await import('../../stores/redis-store.js')).openRedisStore({
          url: store,
          // The state directory's project names the repository whose prefix is read by default.
          repository: (await import('../../node/project-context.js')).detectProjectContext(dirname(stateDir))
            .repository,
        });
  try {
    return opened.load();
  } finally {
    await opened.close();
  }
}

/** The learned state of any store: the state file for `file`, nothing for `memory`. */
export async function readStoreState(store: string, stateDir: string): Promise<PersistedState | undefined> {
  parseStoreOption(store);
  if (store === 'memory') return undefined;
  if (store !== 'file') return readSharedState(store, stateDir);
  const { existsSync, readFileSync } = await import('node:fs');
  const { parseStateText } = await import('../../stores/index.js');
  const { stateLayout } = await import('../../node/index.js');
  const path = stateLayout(stateDir).state;
  if (!existsSync(path)) return undefined;
  const parsed = parseStateText(readFileSync(path, 'utf8'));
  if (!parsed.ok) {
    throw new NarrowingError('STATE_UNREADABLE', `${path} cannot be read: ${parsed.reason}`);
  }
  return parsed.state;
}

async function exists(path: string): Promise<boolean> {
  const { lstat } = await import('node:fs/promises');
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
