/** A problem with a client's config file or the command line, worded for the person at the terminal. */
import { NarrowingError } from '../core/errors.js';
export class ConfigFileError extends NarrowingError {
  override readonly name = 'ConfigFileError';

  constructor(message: string) {
    super('CONFIG_INVALID', message);
  }
}
