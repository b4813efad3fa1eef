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
