/**
 * The file system as the engine's probe: before a "does not exist" (or "already exists") ban on a
 * local path blocks, it looks. A file the user created by hand, or one a tool made outside the
 * agent's view, lifts the ban instead of being refused.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { WorldProbe } from '../core/types.js';

/** URLs, `repo@ref:path` qualifiers and the like are not local paths: the probe cannot tell. */
const NOT_A_LOCAL_PATH = /^[a-z][a-z0-9+.-]*:\/\/|@[^/@:\s]+:|\0/i;

export function createFileProbe(cwd: string = process.cwd()): WorldProbe {
  return {
    exists(target: string): boolean | undefined {
      if (target === '' || NOT_A_LOCAL_PATH.test(target)) return undefined;
      try {
        return existsSync(isAbsolute(target) ? target : resolve(cwd, target));
      } catch {
        return undefined;
      }
    },
  };
}
