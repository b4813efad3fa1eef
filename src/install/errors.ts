/** A problem with a client's config file or the command line, worded for the person at the terminal. */
export class ConfigFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigFileError';
  }
}
