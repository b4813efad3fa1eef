/** `--store file|sqlite|memory|redis://…`: one option, the same on every command that reads or writes learned state. */
import { join } from 'node:path';
import { Option } from 'commander';
import type { PersistedState } from '../../core/types.js';
import type { StoreOption } from '../../guard/index.js';
import { parseStoreChoice } from '../../guard/store-choice.js';

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
  if (!parsed.ok) throw new Error(`${path} cannot be read: ${parsed.reason}`);
  return parsed.state;
}
