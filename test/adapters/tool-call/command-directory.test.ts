import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runsInWorkspaceRoot } from '../../../src/adapters/tool-call/command-directory.js';

describe('runsInWorkspaceRoot', () => {
  it.each(['npm run lint', 'npm run lint 2>&1', 'pnpm run typecheck', 'make deploy', 'yarn build'])(
    'says %s reads the manifest at the workspace root',
    (command) => {
      expect(runsInWorkspaceRoot(command)).toBe(true);
    },
  );

  it.each([
    'cd packages/web && npm run lint',
    'pushd services/api; make deploy',
    '(cd docs && make html)',
    'make -C services/api deploy',
    'make --directory=services/api deploy',
    'make -f build/Makefile.release deploy',
    'npm --prefix packages/web run lint',
    'npm run lint -w packages/web',
    'npm run lint --workspace=packages/web',
    'pnpm --filter web run lint',
    'pnpm -r run lint',
    'yarn --cwd packages/web lint',
  ])('says %s may read another manifest', (command) => {
    expect(runsInWorkspaceRoot(command)).toBe(false);
  });

  it('answers any command line, however long or strange, without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2_000 }), (command) => {
        expect(typeof runsInWorkspaceRoot(command)).toBe('boolean');
      }),
    );
  });
});
