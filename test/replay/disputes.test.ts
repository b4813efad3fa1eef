import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFeedback } from '../../src/cli/commands/feedback.js';
import { runReplay } from '../../src/cli/commands/replay.js';
import { openGuardSync } from '../../src/guard/open.js';
import { judgeBlocks } from '../../src/replay/judge.js';
import type { ReplayStep } from '../../src/replay/replay.js';
import { journalToTrace } from '../../src/trace/convert/index.js';
import { captureIO } from '../cli/commands/cli-io.js';

const MISSING_LINT =
  'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n';
const lint = (callId: string) => ({ tool: 'Bash', args: { command: 'npm run lint' }, callId });

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A project whose live guard only warns (advisory): `npm run lint` fails, is warned about and run
 * again, and fails the same way. The person then says the warning was wrong.
 */
async function disputedProject() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-disputes-')));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), '{ "name": "shop", "scripts": { "test": "vitest run" } }\n');
  const stateDir = join(dir, '.narrowing');
  const guard = openGuardSync({
    workspaceRoot: dir,
    stateDir,
    enforcement: 'advisory',
    onProblem: () => undefined,
  });
  for (const id of ['toolu_01', 'toolu_02']) {
    guard.check(lint(id));
    guard.record({ proposal: lint(id), success: false, content: MISSING_LINT, exitCode: 1 });
  }
  await guard.close();
  const feedback = captureIO();
  const code = await runFeedback(
    'last',
    { wrong: 'I was adding the lint script', stateDir },
    feedback.io,
    dir,
  );
  expect(code, feedback.stderr()).toBe(0);
  const journal = join(stateDir, 'journal.jsonl');
  const trace = join(dir, 'run.jsonl');
  const { events } = journalToTrace(readFileSync(journal, 'utf8').split('\n'));
  writeFileSync(trace, `${events.map((event) => JSON.stringify(event)).join('\n')}\n`);
  return { dir, journal, trace };
}

const lastJson = (text: string) => JSON.parse(text.trim().split('\n').at(-1) ?? '{}');

describe('replay --disputes', () => {
  it('counts a replayed block of a disputed call as false, where the judge alone finds it justified', async () => {
    const { journal, trace } = await disputedProject();

    const judged = captureIO();
    expect(await runReplay(trace, { json: true, judge: true }, judged.io)).toBe(0);
    expect(lastJson(judged.stdout())).toEqual({
      judge: { blocks: 1, justified: 1, false: 0, falseSteps: [] },
    });

    const labelled = captureIO();
    expect(await runReplay(trace, { json: true, disputes: journal }, labelled.io)).toBe(0);
    expect(lastJson(labelled.stdout())).toEqual({
      judge: { blocks: 1, justified: 0, false: 1, falseSteps: [2], disputed: 1, disputedSteps: [2] },
    });
  });

  it('says in the table line how many false blocks were disputed', async () => {
    const { journal, trace } = await disputedProject();
    const run = captureIO();
    expect(await runReplay(trace, { disputes: journal }, run.io)).toBe(0);
    expect(run.stdout()).toContain(
      'judge: 1 block, 0 justified (the call would have repeated a failure or a result with nothing changed), ' +
        '1 false (it would have done new work, or a person said blocking it was wrong) (step 2); ' +
        '1 of them disputed in the journal (step 2)',
    );
  });

  it('leaves out, with a warning, a dispute whose call is not the same step of the trace', async () => {
    const { dir, journal } = await disputedProject();
    const other = join(dir, 'other.jsonl');
    const read = JSON.stringify({ type: 'call', tool: 'Read', args: { file_path: 'README.md' } });
    writeFileSync(other, `${read}\n${read}\n`);
    const run = captureIO();
    expect(await runReplay(other, { json: true, disputes: journal }, run.io)).toBe(0);
    expect(run.stderr()).toMatch(
      /the dispute of journal\.jsonl:\d+ \(Bash\) does not match step 2 of the trace \(Read\)/,
    );
    expect(lastJson(run.stdout()).judge.disputed).toBe(0);
  });

  it('exits with 2 when the journal of disputes cannot be read', async () => {
    const { dir, trace } = await disputedProject();
    const run = captureIO();
    expect(await runReplay(trace, { disputes: join(dir, 'nope.jsonl') }, run.io)).toBe(2);
    expect(run.stderr()).toMatch(/^cannot read the disputes: There is no journal at .*nope\.jsonl/);
  });
});

describe('judgeBlocks with disputes', () => {
  const step = (n: number, verdict: ReplayStep['verdict']) => ({ step: n, verdict }) as ReplayStep;

  it('counts a disputed block false even when the call then repeated a failure', () => {
    const judgement = judgeBlocks(
      [step(1, 'allow'), step(2, 'block'), step(3, 'block')],
      new Set([2, 3]),
      new Set([3]),
    );
    expect(judgement).toEqual({
      blocks: 2,
      justified: 1,
      false: 1,
      falseSteps: [3],
      disputed: 1,
      disputedSteps: [3],
    });
  });

  it('ignores a dispute of a call the replay did not block', () => {
    expect(judgeBlocks([step(1, 'allow')], new Set(), new Set([1]))).toMatchObject({
      blocks: 0,
      disputed: 0,
    });
  });
});
