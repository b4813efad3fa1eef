/**
 * A long-lived agent process on a store: it learns that config/prod.yaml is missing, says
 * `learned <id>` on stdout, then says `lifted` once another process has forgotten the ban (or
 * `still-banned` after 20 s). Arguments: the store, the project folder.
 */
import { join } from 'node:path';
import { openGuard } from '../../../../src/guard/open.js';
import { parseStoreChoice } from '../../../../src/guard/store-choice.js';

const [store = 'file', project = '.'] = process.argv.slice(2);
const read = { tool: 'read_file', args: { path: 'config/prod.yaml' } };
const guard = await openGuard({
  store: parseStoreChoice(store),
  stateDir: join(project, '.narrowing'),
  workspaceRoot: project,
  probe: false,
  journal: false,
  whenStateUnavailable: 'throw',
});
guard.check(read);
guard.record({
  proposal: read,
  success: false,
  content: "ENOENT: no such file or directory, open 'config/prod.yaml'",
});
await guard.flush();
const [constraint] = guard.engine.getActiveConstraints();
process.stdout.write(`learned ${constraint?.id ?? 'nothing'}\n`);
const deadline = Date.now() + 20_000;
let lifted = false;
while (!lifted && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  lifted = guard.engine.getActiveConstraints().length === 0;
}
process.stdout.write(lifted ? `lifted ${guard.check(read).verdict}\n` : 'still-banned\n');
await guard.close();
