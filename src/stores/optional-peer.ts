/**
 * The drivers of the shared stores are optional peer dependencies, loaded only by the store that
 * needs them: a project that keeps its state in a file installs neither.
 */
import { NarrowingError } from '../core/errors.js';

/** Imports `name`, or says what to install when it is missing or cannot load. */
export async function importOptionalPeer<T>(name: string, store: string, range: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND';
    const why = missing ? 'is not installed' : `cannot be loaded (${(error as Error).message})`;
    throw new NarrowingError(
      'STORE_UNAVAILABLE',
      `the ${store} store needs the ${name} package, which ${why}: run \`npm install ${name}@${range}\``,
      { cause: error },
    );
  }
}
