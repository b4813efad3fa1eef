/** A store named in words, as a command line or a launcher gives it: `file`, `sqlite`, `memory` or a Redis URL. */
import { NarrowingError } from '../core/errors.js';
import { isRedisUrl, parseRedisAddress, redactRedisUrl } from '../stores/redis-url.js';
import type { StoreOption } from './open.js';

/** The forms a store takes in words, for messages. */
export const STORE_FORMS = 'file, sqlite, memory or a redis:// (rediss://) URL';

/** Longest store text taken: a Redis URL is far shorter. */
const MAX_STORE_CHARS = 2_048;

/** The store `value` names; a `USAGE` error that lists the accepted forms when it names none. */
export function parseStoreChoice(value: string, option = '--store'): StoreOption {
  if (value === 'file' || value === 'sqlite' || value === 'memory') return value;
  let problem = '';
  if (value.length <= MAX_STORE_CHARS && isRedisUrl(value)) {
    // Malformed URLs are refused here, not at the first connection.
    try {
      parseRedisAddress(value);
      return value as `redis://${string}`;
    } catch (error) {
      problem = `: ${(error as Error).message}`;
    }
  }
  const shown = value.length > 80 ? `${redactRedisUrl(value.slice(0, 80))}…` : redactRedisUrl(value);
  throw new NarrowingError('USAGE', `${option} takes ${STORE_FORMS} (got "${shown}"${problem})`);
}

/** True for the stores several processes or machines share: `sqlite` and Redis. */
export function isSharedStoreChoice(value: string): boolean {
  return value === 'sqlite' || isRedisUrl(value);
}
