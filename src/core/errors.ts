/**
 * One base for every error narrowing throws on purpose. Each carries a stable `code` that callers
 * branch on, and a brand that survives two copies of the package in one process (a hook and a
 * framework adapter may each bundle their own), where `instanceof` does not.
 */

const BRAND = Symbol.for('narrowing-guard.error');

/**
 * The codes, by what the caller should do:
 * - `POLICY_INVALID`: refuse to start; the message names every bad field.
 * - `STATE_UNREADABLE`: the state cannot be read; the message says why.
 * - `UNSAFE_STATE_FILE`, `UNSAFE_STATE_DIR`: a file or the folder of the state is a link narrowing
 *   will not follow, or (`UNSAFE_STATE_DIR`) a found state folder not private to the user; nothing
 *   was written through it.
 * - `NO_PROJECT_ROOT`: no project around the working directory (it is `/` or a home directory):
 *   run from the project, or pass a state directory.
 * - `PROJECT_FOLDER_GONE`: the folder that held a `.narrowing` this process used was removed;
 *   nothing was written and the folder was not made again: make it again, or pass another state
 *   directory.
 * - `STATE_TOO_LARGE`, `STATE_NOT_JSON`, `STATE_INVALID`: a state file to import cannot be read as one.
 * - `ADAPTER_INVALID`: a domain adapter lacks what the engine needs from it.
 * - `STORE_UNAVAILABLE`: the store cannot be opened (a missing driver, an unreachable server).
 * - `JOURNAL_IN_USE`: another process writes this journal; use another slot or state directory.
 * - `TRACE_INVALID`: a trace file is malformed; the message names the line.
 * - `CONFIG_INVALID`: a client configuration file cannot be read or changed safely.
 * - `GUARD_FAULT`: the guard itself broke while checking or recording; fail open unless told otherwise.
 * - `DEPENDENCY_MISSING`: an optional package this needs is not installed; the message names it.
 * - `PROVIDER_ERROR`: a model provider failed in a way retrying will not fix, or retries ran out.
 * - `MODEL_UNSUPPORTED`: a model implements a provider interface version this does not accept; the
 *   message names the versions that are.
 * - `USAGE`: a call or a command was given arguments it cannot take.
 * - `CALL_REFUSED`: the guard refused a tool call; the message is what the model should read.
 */
export type NarrowingErrorCode =
  | 'POLICY_INVALID'
  | 'STATE_UNREADABLE'
  | 'UNSAFE_STATE_FILE'
  | 'UNSAFE_STATE_DIR'
  | 'NO_PROJECT_ROOT'
  | 'PROJECT_FOLDER_GONE'
  | 'STATE_TOO_LARGE'
  | 'STATE_NOT_JSON'
  | 'STATE_INVALID'
  | 'ADAPTER_INVALID'
  | 'STORE_UNAVAILABLE'
  | 'JOURNAL_IN_USE'
  | 'TRACE_INVALID'
  | 'CONFIG_INVALID'
  | 'GUARD_FAULT'
  | 'DEPENDENCY_MISSING'
  | 'PROVIDER_ERROR'
  | 'MODEL_UNSUPPORTED'
  | 'USAGE'
  | 'CALL_REFUSED';

export class NarrowingError extends Error {
  override readonly name: string = 'NarrowingError';
  readonly code: NarrowingErrorCode;

  constructor(code: NarrowingErrorCode, message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /**
   * `Name: message`, except for a refusal: its message alone, since a framework that hands the model
   * `String(error)` must give it the same words every other path gives.
   */
  override toString(): string {
    return this.code === 'CALL_REFUSED' ? this.message : super.toString();
  }
}

/** True for an error of any copy of narrowing, with its `code` to branch on. */
export function isNarrowingError(value: unknown): value is NarrowingError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[BRAND] === true &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}
