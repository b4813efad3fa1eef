/**
 * Whether a command line runs tests. What a test run answers is not a function of the files the
 * guard sees: tests talk to services, browsers and clocks, run in varying order and time out under
 * load, and print whatever their assertions found. A failure of one run, however certain its words
 * ("Unexpected token", "not found"), says only that this run failed; the next may fail another way.
 */
import { commandsOf } from './command-effects.js';
import { programName } from './program-name.js';

/** Programs whose every run is a test run. */
const TEST_PROGRAMS = new Set([
  'pytest',
  'py.test',
  'jest',
  'vitest',
  'mocha',
  'playwright',
  'cypress',
  'rspec',
  'phpunit',
  'tox',
  'nox',
  'ctest',
  'nosetests',
  'ava',
  'karma',
]);
/** Programs with a `test` subcommand (`go test`, `cargo test`, `npm test`). */
const WITH_TEST_SUBCOMMAND = new Set([
  'npm',
  'yarn',
  'pnpm',
  'bun',
  'deno',
  'go',
  'cargo',
  'dotnet',
  'mvn',
  'gradle',
  'gradlew',
  'mix',
  'swift',
  'make',
]);
/** Package managers whose scripts are run by name (`npm run test:e2e`, `yarn test:agent`). */
const SCRIPT_RUNNERS = new Set(['npm', 'yarn', 'pnpm', 'bun']);
/** A script or target named for tests: `test`, `test:e2e`, `e2e`, `unit-tests`, `spec:api`. */
const TEST_NAME = /^(?:test|tests|e2e|spec|specs)(?:$|[:_.-])|[:_.-](?:test|tests|e2e|spec|specs)$/;
/** Longer lines are not read: they are scripts, not one test run. */
const MAX_CHARS = 4_096;

export function runsTests(command: string): boolean {
  return command.length <= MAX_CHARS && commandsOf(command).some(isTestRun);
}

function isTestRun(words: readonly string[]): boolean {
  const path = words[0];
  if (path === undefined || path === '') return false;
  const program = programName(path);
  const next = words[1] ?? '';
  if (TEST_PROGRAMS.has(program)) return true;
  if ((program === 'python' || program === 'python3') && next === '-m')
    return TEST_PROGRAMS.has(words[2] ?? '') || words[2] === 'unittest';
  if (!WITH_TEST_SUBCOMMAND.has(program)) return false;
  if (next === 'test' || (SCRIPT_RUNNERS.has(program) && TEST_NAME.test(next))) return true;
  return (
    SCRIPT_RUNNERS.has(program) && (next === 'run' || next === 'run-script') && TEST_NAME.test(words[2] ?? '')
  );
}
