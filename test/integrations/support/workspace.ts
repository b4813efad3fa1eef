/**
 * A small project on disk and the tools a coding agent uses on it, with their real failures: a read
 * of a missing file fails with Node's ENOENT, a test run fails until the bug is fixed, and a fetch
 * times out. Every framework's tools call these.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

export const BUGGY_SUM = 'export const sum = (a, b) => a - b;\n';
export const FIXED_SUM = 'export const sum = (a, b) => a + b;\n';

export interface Workspace {
  readonly dir: string;
  /** The state directory the guard keeps in the project. */
  readonly stateDir: string;
  /** How many times each tool really ran. */
  readonly runs: Record<string, number>;
  readFile(path: string): string;
  editFile(path: string, content: string): string;
  runTests(): string;
  fetchUrl(url: string): never;
  remove(): void;
}

export function codingWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-framework-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'sum.js'), BUGGY_SUM);
  const runs: Record<string, number> = {};
  const ran = (tool: string) => {
    runs[tool] = (runs[tool] ?? 0) + 1;
  };
  return {
    dir,
    stateDir: join(dir, '.narrowing'),
    runs,
    readFile(path) {
      ran('read_file');
      return readFileSync(join(dir, path), 'utf8');
    },
    editFile(path, content) {
      ran('edit_file');
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
      return `wrote ${content.length} bytes to ${path}`;
    },
    runTests() {
      ran('run_tests');
      const source = readFileSync(join(dir, 'src', 'sum.js'), 'utf8');
      if (source !== FIXED_SUM) {
        throw new Error(
          'FAIL test/sum.test.js > sum adds two numbers: expected 3, received -1\nTests: 1 failed, 1 total',
        );
      }
      return 'PASS test/sum.test.js\nTests: 1 passed, 1 total';
    },
    fetchUrl(url) {
      ran('fetch_url');
      const error = new Error(`request to ${url} timed out after 30000 ms`);
      error.name = 'TimeoutError';
      throw error;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const quiet = (): void => undefined;

/** A workspace factory for one test file: each workspace it makes is removed after its test. */
export function workspaceFactory(): () => Workspace {
  const made: Workspace[] = [];
  afterEach(() => {
    for (const workspace of made.splice(0)) workspace.remove();
  });
  return () => {
    const workspace = codingWorkspace();
    made.push(workspace);
    return workspace;
  };
}

/** The verdicts of the proposals in the guard's journal, in order. */
export function journalVerdicts(ws: Workspace): string[] {
  return readFileSync(join(ws.stateDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; verdict?: string })
    .filter((entry) => entry.type === 'proposal')
    .map((entry) => entry.verdict ?? '');
}
