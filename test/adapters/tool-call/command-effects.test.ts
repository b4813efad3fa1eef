import { describe, expect, it } from 'vitest';
import { leavesSourcesAlone } from '../../../src/adapters/tool-call/command-effects.js';

describe('leavesSourcesAlone', () => {
  it.each([
    'npm test',
    'npm run build',
    'npx vitest run test/core',
    'python -m pytest -x tests/',
    'cargo test',
    'go test ./...',
    'tsc -p tsconfig.json --noEmit',
  ])('says %s writes only outputs', (command) => {
    expect(leavesSourcesAlone(command)).toBe(true);
  });

  it.each([
    'npx prettier --write src',
    'npx jest -u',
    'cargo clippy --fix',
    'make',
    'node scripts/migrate.js',
    'npm test && git checkout src/app.ts',
    "sed -i 's/a/b/' src/app.ts",
  ])('says %s may rewrite sources', (command) => {
    expect(leavesSourcesAlone(command)).toBe(false);
  });
});
