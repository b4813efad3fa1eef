import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Constraint, LiftedMark, PersistedState } from '../../src/core/types.js';

/** What the engine learns when `read_file` keeps failing on a file that does not exist. */
export function missingFile(path: string, at: number, extra: Partial<Constraint> = {}): Constraint {
  return {
    id: `target-missing:${path}`,
    type: 'banned_strategy',
    scope: 'target',
    signature: 'file_not_found',
    actionClass: 'file_read',
    tool: 'read_file',
    target: path,
    blocksKinds: ['read', 'mutate', 'delete'],
    evidence: {
      failures: 2,
      firstAt: at - 1_000,
      lastAt: at,
      lastError: `ENOENT: no such file or directory, open '/srv/api/${path}'`,
      calls: [`read_file {path: "${path}"}`, `read_file {path: "./${path}"}`],
    },
    createdAt: at - 1_000,
    expiresAt: at + 3_600_000,
    strikes: 0,
    probation: false,
    persistent: true,
    context: { repository: 'github.com/acme/api' },
    ...extra,
  };
}

export function stateOf(
  constraints: Constraint[],
  lifted: LiftedMark[] = [],
  savedAt = 1_760_000_000_000,
): PersistedState {
  return { version: 1, savedAt, constraints, lifted };
}

export function temporaryDir(prefix = 'narrowing-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
