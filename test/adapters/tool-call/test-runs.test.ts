import { describe, expect, it } from 'vitest';
import { runsTests } from '../../../src/adapters/tool-call/test-runs.js';

describe('runsTests', () => {
  it('recognises test runs whatever runs them', () => {
    for (const command of [
      'pytest -x tests/test_api.py',
      'python -m pytest tests',
      'npx playwright test tests/e2e/chat.spec.ts',
      'cd web && npm run test:e2e -- tests/e2e/chat.spec.ts:50 --reporter=line',
      'yarn test:agent',
      'pnpm test',
      'go test ./...',
      'CI=1 timeout 300 cargo test',
      'npm run unit-tests',
    ])
      expect(runsTests(command), command).toBe(true);
  });

  it('recognises test runs behind wrappers and package runners with their options', () => {
    for (const command of [
      'npx -y vitest run src/api.test.ts',
      'npx --package=vitest@3 vitest run',
      'timeout -s KILL 600 npm test',
      'sudo -u ci pytest -q',
      'nice -n 10 go test ./...',
    ])
      expect(runsTests(command), command).toBe(true);
  });

  it('takes `command -v` for a question about a program, not a run of it', () => {
    expect(runsTests('command -v pytest')).toBe(false);
  });

  it('leaves builds, scripts and installs alone', () => {
    for (const command of [
      'npm run build',
      'pnpm db:seed',
      'python reproduce.py',
      'node scripts/testdata.js',
      'npm install',
      'git commit -m "test: add e2e"',
      'ls tests',
    ])
      expect(runsTests(command), command).toBe(false);
  });
});
