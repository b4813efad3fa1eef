/**
 * A real state directory, written by the engine itself: an agent using the MCP filesystem server
 * and fetch, reading a file that does not exist, repeating an edit that cannot apply, meeting a
 * rate limit, creating a missing file before reading it, and guessing a path with Claude Code's
 * Read, whose error does not name the file.
 */
import { join } from 'node:path';
import { NarrowingLoop } from '../../src/narrowing.js';

export const START = Date.UTC(2026, 2, 4, 9, 0, 0);
export const SECOND = 1_000;
export const DAY = 24 * 60 * 60 * SECOND;

const ENOENT_CONFIG = "ENOENT: no such file or directory, open '/home/dev/shop/src/config.ts'";
const ENOENT_API = "ENOENT: no such file or directory, open '/home/dev/shop/docs/api.md'";
const READ_MISSING = '<tool_use_error>File does not exist.</tool_use_error>';
const PORT_EDIT = {
  path: 'src/server.ts',
  edits: [{ oldText: 'const port = 3000;', newText: 'const port = Number(process.env.PORT);' }],
};

export interface SampleStateDir {
  readonly dir: string;
  /** Oldest first. */
  readonly sessions: readonly string[];
  /** When the last call was made. */
  readonly end: number;
}

export async function writeSampleStateDir(dir: string): Promise<SampleStateDir> {
  let now = START;
  const clock = { now: () => now };
  const open = () =>
    new NarrowingLoop({
      statePath: join(dir, 'state.json'),
      journalPath: join(dir, 'journal.jsonl'),
      clock,
      onProblem: (message) => {
        throw new Error(message);
      },
    });
  const sessions: string[] = [];
  const run = async (calls: [string, Record<string, unknown>, boolean, string][]) => {
    const loop = open();
    sessions.push(loop.sessionId);
    for (const [tool, args, success, content] of calls) {
      now += 2 * SECOND;
      const proposal = { tool, args };
      if (loop.checkProposal(proposal).allowed) loop.recordOutcome({ proposal, success, content });
    }
    await loop.close();
  };

  await run([
    ['list_directory', { path: 'src' }, true, '[FILE] server.ts\n[FILE] routes.ts\n[DIR] lib'],
    ['read_file', { path: 'package.json' }, true, '{"name": "shop", "type": "module"}'],
  ]);
  now += 3_600 * SECOND;
  await run([
    ['read_file', { path: 'src/config.ts' }, false, ENOENT_CONFIG],
    ['read_file', { path: 'src/config.ts' }, false, ENOENT_CONFIG],
    // Read first: the edit's text is not in the file, and no read since makes its retry new.
    ['read_file', { path: 'src/server.ts' }, true, 'import express from "express";\nconst PORT = 3000;\n'],
    ['edit_file', PORT_EDIT, false, 'Error: Could not find exact match for edit:\nconst port = 3000;'],
    ['edit_file', PORT_EDIT, false, 'Error: Could not find exact match for edit:\nconst port = 3000;'],
    ['fetch', { url: 'https://registry.npmjs.org/express' }, false, 'HTTP 429 Too Many Requests'],
    ['read_file', { path: 'docs/api.md' }, false, ENOENT_API],
    ['create_file', { path: 'docs/api.md', content: '# Shop API\n' }, true, 'Created docs/api.md'],
    ['read_file', { path: 'docs/api.md' }, true, '# Shop API\n'],
    [
      'edit_file',
      { path: 'src/config.ts', edits: [{ oldText: 'port', newText: 'PORT' }] },
      false,
      ENOENT_CONFIG,
    ],
    ['read_file', { path: 'src/config.ts' }, false, ENOENT_CONFIG],
    // Without the file named, only the exact call is known to fail: a ban on the call, not the path.
    ['Read', { file_path: '/home/dev/shop/src/routes/orders.ts' }, false, READ_MISSING],
  ]);
  return { dir, sessions, end: now };
}
