/**
 * `guardHandle()`: a face that takes either a session or the options to open one. A session handed
 * in is used as it is and stays the caller's to close; options open a session on first use, which
 * the handle closes.
 */
import { NarrowingError } from '../core/errors.js';
import { type OpenGuardOptions, openGuardSync } from './open.js';
import type { GuardSession } from './session.js';

/** An open session, or the options to open one when it is first needed. */
export type GuardSource = GuardSession | OpenGuardOptions;

export interface GuardHandle {
  /** The session, opened now if this is the first use. */
  session(): GuardSession;
  /** Closes the session when this handle opened it; a session handed in is left open. Idempotent. */
  close(): Promise<void>;
}

/** True for an open session, false for the options to open one. */
export function isGuardSession(source: GuardSource): source is GuardSession {
  const candidate = source as Partial<GuardSession>;
  return typeof candidate.check === 'function' && typeof candidate.record === 'function';
}

export function guardHandle(source: GuardSource = {}): GuardHandle {
  if (isGuardSession(source)) {
    return { session: () => source, close: async () => undefined };
  }
  let opened: GuardSession | undefined;
  let closed = false;
  return {
    session() {
      if (closed) throw new NarrowingError('USAGE', 'this guard is closed: open a new one for another run');
      opened ??= openGuardSync(source);
      return opened;
    },
    async close() {
      closed = true;
      await opened?.close();
    },
  };
}
