/**
 * The key of a keyed journal. A plain receipt chain shows careless edits, but anyone who can write
 * the journal can also rewrite the whole chain consistently. With a key kept outside the project
 * (`~/.config/narrowing/journal.key`, or the `NARROWING_JOURNAL_KEY` variable), receipts and the
 * head are HMACs: a rewrite without the key no longer verifies. Opt-in: without a key, journals
 * are chained with SHA-256 as before.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  CREATE_NEW_FLAGS,
  PRIVATE_DIR_MODE,
  readTextNoFollowSync,
  writeTextNoFollowSync,
} from '../node/safe-fs.js';

export const JOURNAL_KEY_VARIABLE = 'NARROWING_JOURNAL_KEY';
/** Shorter keys are refused: they could be guessed. */
const MIN_KEY_LENGTH = 16;

export class JournalKeyError extends Error {
  readonly code = 'NARROWING_JOURNAL_KEY';

  constructor(message: string) {
    super(message);
    this.name = 'JournalKeyError';
  }
}

/** `$XDG_CONFIG_HOME/narrowing/journal.key`, else `~/.config/narrowing/journal.key`. */
export function journalKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  const config = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(config, 'narrowing', 'journal.key');
}

function checked(key: string, from: string): string {
  const trimmed = key.trim();
  if (trimmed.length < MIN_KEY_LENGTH) {
    throw new JournalKeyError(
      `the journal key in ${from} has ${trimmed.length} characters; use at least ${MIN_KEY_LENGTH} ` +
        '(`narrowing-guard verify --create-key` writes a random one).',
    );
  }
  return trimmed;
}

/**
 * The journal key of this user, if there is one: the variable first, then the key file. Never
 * creates one. Throws `JournalKeyError` when one is set but unusable.
 */
export function resolveJournalKey(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env[JOURNAL_KEY_VARIABLE];
  if (fromEnv !== undefined && fromEnv !== '') return checked(fromEnv, JOURNAL_KEY_VARIABLE);
  const path = journalKeyPath(env);
  let text: string;
  try {
    text = readTextNoFollowSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new JournalKeyError(`the journal key ${path} cannot be read: ${(error as Error).message}`);
  }
  return checked(text, path);
}

/** Creates a random key file (0600) unless one exists; returns its path. */
export function createJournalKey(env: NodeJS.ProcessEnv = process.env): { path: string; created: boolean } {
  const path = journalKeyPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    writeTextNoFollowSync(path, `${randomBytes(32).toString('hex')}\n`, CREATE_NEW_FLAGS);
    return { path, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { path, created: false };
    throw error;
  }
}
