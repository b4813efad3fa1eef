/**
 * Session one of the sessions benchmark, in a process of its own: the guard keeps what it learns in
 * the default file store at the path given, and the process exits. Prints what a second session needs
 * (the calls that failed, the workspace as it was left) as one JSON line.
 *
 * Usage: node --import tsx bench/sessions-child.ts <engine module URL> <state file>
 */
import {
  blockedNow,
  failedCalls,
  ManualClock,
  MockWorkspace,
  runCalls,
  SESSION_ONE,
} from './sessions-workload.js';

type Engine = typeof import('../src/narrowing.js');

const [engineUrl, statePath] = process.argv.slice(2);
if (!engineUrl || !statePath) {
  process.stderr.write('usage: sessions-child.ts <engine module URL> <state file>\n');
  process.exit(2);
}

const { NarrowingLoop } = (await import(engineUrl)) as Engine;
const clock = new ManualClock(Date.UTC(2026, 1, 18, 9));
const workspace = new MockWorkspace();
const loop = new NarrowingLoop({ statePath, clock, sessionId: 'session-1' });
const steps = runCalls(SESSION_ONE, workspace, loop, clock);
const learned = steps.reduce((total, step) => total + step.newConstraints, 0);
const persisted = loop.exportState().constraints.length;
await loop.flush();
const failed = failedCalls(steps);
// After the state is saved: checking moves loop counters, and those must not reach the store.
const known = blockedNow(loop, failed);
await loop.close();
const report = { failed, known, files: workspace.snapshot(), calls: steps.length, learned, persisted };
process.stdout.write(`${JSON.stringify({ ...report, endedAt: clock.now() })}\n`);
