/**
 * A server's guard and two of its users, each with a workspace of their own: only bob's holds
 * report.txt, so alice's read of it fails where bob's identical read succeeds.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openGuard } from '../../../src/guard/index.js';
import { guardOptionsFor } from './guard-options.js';
import type { Workspace } from './workspace.js';

export type ServerGuard = Awaited<ReturnType<typeof openGuard>>;

export const REPORT = 'Q3 revenue: 1.2M\n';

export async function serverWithTwoUsers(workspace: () => Workspace) {
  const server = workspace();
  const alice = workspace();
  const bob = workspace();
  writeFileSync(join(bob.dir, 'report.txt'), REPORT);
  const guard = await openGuard({ ...guardOptionsFor(server), probe: false });
  return { guard, alice, bob };
}
