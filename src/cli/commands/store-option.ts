/** `--store file|sqlite|memory|redis://…`: the same choice on every command that reads or writes state. */
import { join } from 'node:path';
import type { PersistedState } from '../../core/types.js';
import type { StoreOption } from '../../guard/index.js';
import { isRedisUrl, redactRedisUrl } from '../../stores/redis-url.js';

export const STORE_OPTION_HELP = 'where learned state is kept: file (default), sqlite or a redis:// URL';

/** The store a command was given, checked; throws a sentence for the user when it is not one. */
export function parseStoreOption(value: string): StoreOption {
  if (value === 'file' || value === 'sqlite' || value === 'memory') return value;
  if (isRedisUrl(value)) return value as `redis://${string}`;
  throw new Error(`--store takes file, sqlite, memory or a redis:// URL (got "${redactRedisUrl(value)}")`);
}

/** The learned state of a shared store, read once; `undefined` when it holds nothing. */
export async function readSharedState(store: string, stateDir: string): Promise<PersistedState | undefined> {
  const opened =
    store === 'sqlite'
      ? await (await import('../../stores/sqlite-store.js')).openSqliteStore({
          path: join(stateDir, 'state.db'),
        })
      : await (await import('../../stores/redis-store.js')).openRedisStore({ url: store });
  try {
    return opened.load();
  } finally {
    await opened.close();
  }
}
