/**
 * Scopes: one guard serving several users or tenants (a server), each with constraints and evidence
 * of its own. `guard.scope(id)` is a session whose engine learns in the context `{ scope: id }`:
 * what it learns holds for that scope only, its streaks and budget are its own, and what the guard
 * learned unscoped still holds for every scope. Scopes share the guard's store and journal.
 */
import { NarrowingError } from '../core/errors.js';

/** What a scope's session must offer here: closing. */
interface Closable {
  close(): Promise<void>;
}

/** The context dimension a scope's constraints carry. */
export const SCOPE_DIMENSION = 'scope';
/** Scopes kept open at once; the least recently used beyond it is closed (its state is saved). */
export const MAX_OPEN_SCOPES = 1_000;
const MAX_SCOPE_CHARS = 200;

/** The id, checked: a non-empty string of at most 200 characters, without control characters. */
export function scopeId(id: unknown): string {
  if (typeof id !== 'string' || id === '' || id.length > MAX_SCOPE_CHARS || /\p{Cc}/u.test(id)) {
    throw new NarrowingError(
      'USAGE',
      `a scope is a non-empty string of at most ${MAX_SCOPE_CHARS} characters without control ` +
        'characters, such as a user or tenant id',
    );
  }
  return id;
}

export interface Scopes<Session extends Closable = Closable> {
  /** The session of scope `id`, opened on first use. */
  get(id: string): Session;
  /** Closes every open scope (what each learned is saved). */
  closeAll(): Promise<void>;
}

/** Open scopes, at most `max`, each opened by `open` and closed when evicted or at the end. */
export function createScopes<Session extends Closable>(
  open: (id: string, release: () => void) => Session,
  max = MAX_OPEN_SCOPES,
): Scopes<Session> {
  const sessions = new Map<string, Session>();
  const closing = new Set<Promise<void>>();
  const closeQuietly = (session: Session) => {
    const done = session.close().catch(() => undefined);
    closing.add(done);
    void done.finally(() => closing.delete(done));
  };
  return {
    get(id) {
      const key = scopeId(id);
      const open_ = sessions.get(key);
      if (open_ !== undefined) {
        // Most recently used last: the first entry is the one evicted.
        sessions.delete(key);
        sessions.set(key, open_);
        return open_;
      }
      const session = open(key, () => {
        if (sessions.get(key) === session) sessions.delete(key);
      });
      sessions.set(key, session);
      if (sessions.size > max) {
        const [oldest] = sessions.entries();
        if (oldest !== undefined) {
          sessions.delete(oldest[0]);
          closeQuietly(oldest[1]);
        }
      }
      return session;
    },
    async closeAll() {
      const open_ = [...sessions.values()];
      sessions.clear();
      await Promise.all([...open_.map((session) => session.close()), ...closing]);
    },
  };
}
