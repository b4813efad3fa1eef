import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { builtHook, generateResults, main, replaceResultsSection } from '../../bench/results.js';
import { svgProblems } from './support.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function repository(readme?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-results-'));
  dirs.push(dir);
  if (readme !== undefined) writeFileSync(join(dir, 'README.md'), readme);
  return dir;
}

const README = [
  '# project',
  '',
  '## Results',
  '',
  '<!-- results:start -->',
  'old figures',
  '<!-- results:end -->',
  '',
  '## Next',
  '',
].join('\n');

describe('the README results section', () => {
  it('replaces only what lies between the markers', () => {
    expect(replaceResultsSection(README, 'new figures')).toBe(
      [
        '# project',
        '',
        '## Results',
        '',
        '<!-- results:start -->',
        'new figures',
        '<!-- results:end -->',
        '',
        '## Next',
        '',
      ].join('\n'),
    );
  });

  it('leaves a README without markers alone', () => {
    expect(replaceResultsSection('# project\n\nno markers here\n', 'new figures')).toBeUndefined();
  });
});

describe('the hook the results time', () => {
  it('is the entry the package bin loads for a hook, not the ES module entry beside it', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const bin = readFileSync(join(root, 'bin', 'narrowing.js'), 'utf8');
    const loaded = /require\('(\.\.\/dist\/hooks\/[^']+)'\)/.exec(bin)?.[1];
    expect(loaded).toBeDefined();
    expect(builtHook(root)).toBe(join(root, 'bin', loaded as string));
  });
});

describe('generating the results', () => {
  it('writes the results page, the chart and the README section from the runs', async () => {
    const root = repository(README);
    const outcome = await generateResults({ root, only: ['long-horizon', 'ml-search'] });
    expect(outcome.problems).toEqual([]);
    expect(outcome.readmeUpdated).toBe(true);
    const page = readFileSync(join(root, 'docs/results.md'), 'utf8');
    expect(page).toContain('## Long-horizon tool calls (`narrowing bench long-horizon`)');
    expect(page).toMatch(/\| 42 \| paper's guard \| 3 \| 143 \| 43 \| 49 \|/);
    expect(page).toContain('## Hyperparameter search, simulated (`narrowing bench ml-search`)');
    expect(page).toContain('It does not show real agents');
    expect(svgProblems(readFileSync(join(root, 'docs/long-horizon.svg'), 'utf8'))).toEqual([]);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).not.toContain('old figures');
    expect(readme).toContain('Fidelity check: all 13 published vanilla figures reproduced exactly');
    expect(readme).toContain('[docs/results.md](docs/results.md)');
    expect(readme.endsWith('<!-- results:end -->\n\n## Next\n')).toBe(true);
  });

  it('keeps the figures of the benchmarks a run with --only leaves out', async () => {
    const root = repository(README);
    await generateResults({ root, only: ['ml-search'] });
    const outcome = await generateResults({ root, only: ['long-horizon'] });
    expect(outcome.problems).toEqual([]);
    const page = readFileSync(join(root, 'docs/results.md'), 'utf8');
    expect(page).toContain('## Long-horizon tool calls (`narrowing bench long-horizon`)');
    expect(page).toContain('## Hyperparameter search, simulated (`narrowing bench ml-search`)');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('Fidelity check: all 13 published vanilla figures reproduced exactly');
    expect(readme).toContain('**Hyperparameter search**');
  });

  it('creates no README where there is none', async () => {
    const root = repository();
    const outcome = await generateResults({ root, only: ['ml-search'] });
    expect(outcome.readmeUpdated).toBe(false);
    expect(existsSync(join(root, 'README.md'))).toBe(false);
    expect(existsSync(join(root, 'docs/results.md'))).toBe(true);
  });
});

describe('the results command line', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** What `main` printed on each stream, and its exit code. */
  async function run(argv: string[]) {
    const written = { stdout: '', stderr: '' };
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.stdout += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.stderr += String(chunk);
      return true;
    });
    const code = await main(argv);
    vi.restoreAllMocks();
    return { code, ...written };
  }

  it('prints its usage for --help and runs nothing', async () => {
    const { code, stdout, stderr } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: npm run results --');
    expect(stderr).toBe('');
  });

  it('scores only the corpora given when --blame-corpus comes alone, and runs no benchmark', async () => {
    const dir = repository();
    const text = (blame: string) =>
      `${JSON.stringify({ text: 'cat: nothere.txt: No such file or directory', blame, deterministic: true, category: 'not-found-file', source: 'local:`cat nothere.txt`' })}\n`;
    writeFileSync(join(dir, 'design.jsonl'), text('agent_failure'));
    writeFileSync(join(dir, 'validation.jsonl'), text('agent_failure'));
    const { code, stdout, stderr } = await run(['--blame-corpus', dir]);
    expect(code).toBe(0);
    expect(stdout).toContain('Real error texts, blame (the blame corpus)');
    expect(stdout).toContain('both readings: met');
    expect(stdout).not.toContain('Real agent runs');
    expect(stderr).toBe('');
  });

  it('refuses an unknown option with its usage instead of running every benchmark', async () => {
    const { code, stdout, stderr } = await run(['--bogus']);
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown option '--bogus'");
    expect(stderr).toContain('Usage: npm run results --');
    expect(stdout).toBe('');
  });
});
