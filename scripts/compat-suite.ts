/**
 * Runs the test suite of `@sovereign-labs/narrowing` against `narrowing-guard/compat`, from a checkout
 * (or a bare git directory) of its repository, which stays outside this one:
 *
 *   npm run compat-suite -- <checkout-of-mcp-proxy> [--verbose]
 *
 * The test files are copied to a temporary folder with only their import specifiers rewritten (the
 * package's sources → `narrowing-guard/compat`, `bun:test` → `vitest`) and run with vitest against
 * the built package. Every test that fails must be listed, with its reason, in the section of
 * docs/compat.md named below; the script prints the figure and exits non-zero otherwise.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const TESTS = 'packages/narrowing/tests';
/** The heading in docs/compat.md under which each failing test is listed, one bullet per test. */
export const DOCUMENTED_SECTION = "## The original package's own tests";
const MAX_TEST_FILE_BYTES = 1 << 20;

interface SuiteFile {
  readonly name: string;
  readonly text: string;
}

/** The test files of the package, read from a work tree or, failing that, from a git directory. */
function readSuite(source: string): SuiteFile[] {
  const inTree = join(source, TESTS);
  if (existsSync(inTree) && statSync(inTree).isDirectory()) {
    return readdirSync(inTree)
      .filter((name) => name.endsWith('.test.ts'))
      .sort()
      .map((name) => ({ name, text: readBounded(join(inTree, name)) }));
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['--git-dir', gitDirOf(source), ...args], {
      encoding: 'utf8',
      maxBuffer: MAX_TEST_FILE_BYTES * 8,
    });
  return git('ls-tree', '--name-only', `HEAD:${TESTS}`)
    .split('\n')
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => ({ name, text: git('show', `HEAD:${TESTS}/${name}`) }));
}

function gitDirOf(source: string): string {
  return existsSync(join(source, '.git')) ? join(source, '.git') : source;
}

function readBounded(path: string): string {
  if (statSync(path).size > MAX_TEST_FILE_BYTES) throw new Error(`${path} is larger than 1 MiB`);
  return readFileSync(path, 'utf8');
}

/**
 * The same file with only its import specifiers changed: the package's own modules become
 * `narrowing-guard/compat`, `bun:test` becomes `vitest`. Nothing else is touched.
 */
export function rewriteImports(text: string): string {
  return text.replace(/(\bfrom\s+)(['"])([^'"\n]+)\2/g, (whole, from: string, quote: string, specifier: string) => {
    if (specifier === 'bun:test') return `${from}${quote}vitest${quote}`;
    if (/^\.\.?\/src(?:\/|$)/.test(specifier)) return `${from}${quote}narrowing-guard/compat${quote}`;
    return whole;
  });
}

interface TestResult {
  readonly file: string;
  readonly name: string;
  readonly passed: boolean;
  readonly message?: string;
}

/** A folder where the rewritten files import this package as a user's project would. */
function prepare(files: readonly SuiteFile[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-compat-suite-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'narrowing-guard'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  mkdirSync(join(dir, 'tests'));
  for (const file of files) writeFileSync(join(dir, 'tests', file.name), rewriteImports(file.text));
  return dir;
}

interface JsonReport {
  testResults: Array<{
    name: string;
    message?: string;
    assertionResults: Array<{ fullName: string; status: string; failureMessages?: string[] }>;
  }>;
}

function run(dir: string, verbose: boolean): TestResult[] {
  const report = join(dir, 'report.json');
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  spawnSync(
    process.execPath,
    [vitest, 'run', '--root', dir, '--reporter=json', `--outputFile=${report}`, ...(verbose ? ['--reporter=default'] : [])],
    { cwd: dir, stdio: verbose ? 'inherit' : 'ignore', env: { ...process.env, NO_COLOR: '1' } },
  );
  if (!existsSync(report)) throw new Error('vitest wrote no report');
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
  const results: TestResult[] = [];
  for (const file of parsed.testResults) {
    for (const test of file.assertionResults) {
      const result: TestResult = {
        file: basename(file.name),
        name: test.fullName,
        passed: test.status === 'passed',
        ...(test.failureMessages?.[0] !== undefined && { message: test.failureMessages[0].split('\n')[0] }),
      };
      results.push(result);
    }
  }
  return results;
}

/** The test names listed in docs/compat.md as failing on purpose. */
export function documentedFailures(markdown: string): Set<string> {
  const start = markdown.indexOf(DOCUMENTED_SECTION);
  if (start < 0) return new Set();
  const rest = markdown.slice(start + DOCUMENTED_SECTION.length);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  const names = new Set<string>();
  for (const match of section.matchAll(/^\|\s*`([^`]+)`\s*\|/gm)) if (match[1]) names.add(match[1]);
  return names;
}

function main(argv: readonly string[]): number {
  const verbose = argv.includes('--verbose');
  const source = argv.find((arg) => !arg.startsWith('--'));
  if (source === undefined) {
    console.error('usage: npm run compat-suite -- <checkout-or-git-dir-of-Born14/mcp-proxy> [--verbose]');
    return 2;
  }
  if (!existsSync(join(ROOT, 'dist', 'compat', 'index.js'))) {
    console.error('the package is not built: run npm run build first');
    return 2;
  }
  const files = readSuite(resolve(source));
  if (files.length === 0) {
    console.error(`no test files under ${TESTS} in ${source}`);
    return 2;
  }
  const dir = prepare(files);
  try {
    const results = run(dir, verbose);
    const documented = documentedFailures(readFileSync(join(ROOT, 'docs', 'compat.md'), 'utf8'));
    const perFile = files.map((file) => {
      const own = results.filter((result) => result.file === file.name);
      return `${file.name.replace(/\.test\.ts$/, '')} ${own.filter((r) => r.passed).length}/${own.length}`;
    });
    const failed = results.filter((result) => !result.passed);
    const undocumented = failed.filter((result) => !documented.has(result.name));
    const passed = results.length - failed.length;
    console.log(
      `compat: ${passed}/${results.length} passed (${perFile.join(', ')}); ` +
        `differences documented: ${failed.length - undocumented.length} of ${failed.length} failures in docs/compat.md`,
    );
    for (const result of failed) {
      const mark = documented.has(result.name) ? 'documented' : 'NOT DOCUMENTED';
      console.log(`  ${mark}: ${result.name}${result.message ? ` — ${result.message}` : ''}`);
    }
    const fixed = [...documented].filter((name) => results.some((r) => r.name === name && r.passed));
    for (const name of fixed) console.log(`  listed in docs/compat.md but passes: ${name}`);
    return undocumented.length === 0 && fixed.length === 0 ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  process.exitCode = main(process.argv.slice(2));
}
