/**
 * Claiming a journal for writing: a journal no writer file names is taken without the file lock
 * (every hook process without the helper claims one), and a live writer is refused without it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimWriter, JournalInUseError, writerFilePath } from '../../src/audit/writer.js';
import { exited, until } from '../hooks/support.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function journalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-writer-claim-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'journal.jsonl');
}

/** Another process holding the writer file's lock (as one taking over from a dead writer does); its pid. */
async function lockHeldElsewhere(path: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "require('proper-lockfile').lockSync(process.argv[1], { realpath: false, stale: 10000 }); setTimeout(() => {}, 60000);",
      path,
    ],
    { stdio: 'ignore' },
  );
  cleanups.push(async () => {
    child.kill();
    await exited(child);
  });
  await until(() => existsSync(`${path}.lock`));
  return child.pid as number;
}

describe('claiming a journal', () => {
  it('takes a journal no writer file names at once, while another process holds the lock', async () => {
    const path = journalPath();
    await lockHeldElsewhere(writerFilePath(path));
    const started = Date.now();
    const release = claimWriter(path);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(JSON.parse(readFileSync(writerFilePath(path), 'utf8'))).toEqual({ pid: process.pid });
    release();
    expect(existsSync(writerFilePath(path))).toBe(false);
  });

  it('refuses a journal a live process writes at once, while another process holds the lock', async () => {
    const path = journalPath();
    const writer = await lockHeldElsewhere(writerFilePath(path));
    writeFileSync(writerFilePath(path), `${JSON.stringify({ pid: writer })}\n`);
    const started = Date.now();
    expect(() => claimWriter(path)).toThrow(JournalInUseError);
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
