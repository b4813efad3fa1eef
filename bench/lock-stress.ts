/**
 * Stress of the cross-process file lock: rounds of many processes started at once, each taking the
 * lock once and bumping a shared counter under it (see `test/fixtures/node/lock-writer.ts`). Counts
 * the rounds where two processes held the lock at once (from the order of their journal lines) and
 * where a bump was lost. With `--store`, each process saves one ban through the file store instead,
 * and a round fails when the file lacks one of them.
 * Usage: npx tsx bench/lock-stress.ts [--writers 30] [--rounds 20] [--store]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWriter } from '../test/fixtures/node/bundle-writer.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const writers = argument('--writers', 30);
const rounds = argument('--rounds', 20);
const store = process.argv.includes('--store');

const work = mkdtempSync(join(tmpdir(), 'narrowing-lock-stress-'));
const child = join(work, 'writer.mjs');
await bundleWriter(
  join(root, store ? 'test/fixtures/node/ban-writer.ts' : 'test/fixtures/node/lock-writer.ts'),
  child,
);

function run(args: readonly string[]): Promise<string> {
  const process_ = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  process_.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => process_.on('close', () => resolve(stderr)));
}

/** How many times a process entered while another was inside, from the journal's order. */
function overlaps(journal: string): number {
  let inside = 0;
  let count = 0;
  for (const line of journal.split('\n')) {
    if (line.startsWith('enter')) {
      inside += 1;
      if (inside > 1) count += 1;
    } else if (line.startsWith('leave')) inside -= 1;
  }
  return count;
}

let failed = 0;
let totalOverlaps = 0;
let totalLost = 0;
let totalStderr = 0;
for (let round = 0; round < rounds; round++) {
  const dir = mkdtempSync(join(work, 'round-'));
  const file = join(dir, 'state.json');
  const journal = join(dir, 'journal');
  const startAt = String(Date.now() + 1_500);
  const started = Date.now();
  const errors = await Promise.all(
    Array.from({ length: writers }, (_, worker) =>
      run(store ? [file, String(worker), startAt] : [file, journal, startAt]),
    ),
  );
  const stderr = errors.filter((text) => text !== '').length;
  let lost: number;
  let overlap = 0;
  if (store) {
    const state = JSON.parse(readFileSync(file, 'utf8')) as { constraints: unknown[] };
    lost = writers - state.constraints.length;
  } else {
    lost = writers - Number(readFileSync(file, 'utf8'));
    overlap = overlaps(readFileSync(journal, 'utf8'));
  }
  totalOverlaps += overlap;
  totalLost += lost;
  totalStderr += stderr;
  if (lost > 0 || overlap > 0) failed += 1;
  console.log(
    `round ${round + 1}: ${Date.now() - started - 1_500} ms, lost ${lost}, overlaps ${overlap}, stderr ${stderr}` +
      (stderr > 0
        ? ` (${
            errors
              .find((text) => text !== '')
              ?.trim()
              .split('\n')[0]
          })`
        : ''),
  );
  rmSync(dir, { recursive: true, force: true });
}
rmSync(work, { recursive: true, force: true });
console.log(
  `${writers} writers x ${rounds} rounds: ${failed} rounds failed, ${totalLost} lost, ${totalOverlaps} overlaps, ${totalStderr} processes wrote to stderr`,
);
