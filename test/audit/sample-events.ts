import type { JournalEvent } from '../../src/core/types.js';
import { missingFile } from '../stores/sample-state.js';

const T0 = 1_771_405_207_000;

/** A short, realistic run: a read of a missing file fails twice, and the engine learns from it. */
export function readMissingFile(start = 0): JournalEvent[] {
  const at = (step: number) => T0 + (start + step) * 1_000;
  const args = { path: 'src/config.ts' };
  const error = "ENOENT: no such file or directory, open '/srv/api/src/config.ts'";
  return [
    { type: 'session', sessionId: 'sess-7f3a', at: at(0) },
    { type: 'proposal', at: at(1), tool: 'read_file', callKey: 'read_file#9c1d', args, verdict: 'allow' },
    {
      type: 'outcome',
      at: at(2),
      tool: 'read_file',
      callKey: 'read_file#9c1d',
      success: false,
      signature: 'file_not_found',
      blame: 'agent_failure',
      resultDigest: 'e3b0c442',
      error,
    },
    { type: 'constraint_added', at: at(3), constraint: missingFile('src/config.ts', at(2)) },
    {
      type: 'proposal',
      at: at(4),
      tool: 'read_file',
      callKey: 'read_file#9c1d',
      args,
      verdict: 'block',
      rule: 'learned-constraint',
      reason: 'src/config.ts does not exist: reading it failed twice with ENOENT.',
    },
  ];
}

/** `count` events, cycling through the run above. */
export function events(count: number): JournalEvent[] {
  const out: JournalEvent[] = [];
  for (let round = 0; out.length < count; round++) out.push(...readMissingFile(round * 5));
  return out.slice(0, count);
}
