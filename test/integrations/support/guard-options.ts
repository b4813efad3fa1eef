/** The options every framework test opens its guard with: state in the workspace, problems kept quiet. */
import type { OpenGuardOptions } from '../../../src/guard/index.js';
import { quiet, type Workspace } from './workspace.js';

export function guardOptionsFor(ws: Workspace, policy?: object) {
  return {
    workspaceRoot: ws.dir,
    stateDir: ws.stateDir,
    onProblem: quiet,
    ...(policy && { policy }),
  } satisfies OpenGuardOptions;
}
