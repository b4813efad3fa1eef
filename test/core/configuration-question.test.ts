import { describe, expect, it } from 'vitest';
import { ConstraintIndex, type Entry } from '../../src/core/constraints.js';
import type { CallContext } from '../../src/core/detectors/types.js';
import { invalidateAfter, NO_WORKSPACE_KNOWLEDGE } from '../../src/core/invalidation.js';
import type { WorkspaceKnowledge } from '../../src/core/types.js';
import type { Effect } from '../../src/core/world.js';
import { banEntry, learnedBan } from './support.js';

/** A ban on `npm run lint` failing, learned against the whole workspace, its error naming `src/app.ts`. */
function lintBan(): Entry {
  return banEntry(
    learnedBan({
      id: 'c-lint',
      signature: 'lint_failed',
      actionClass: 'shell',
      tool: 'bash',
      callKey: 'bash#lint',
      target: 'npm run lint',
      dependsOnWorkspace: true,
      dependsOnFiles: ['src/app.ts'],
      evidence: {
        failures: 2,
        lastAt: 1,
        lastError: "src/app.ts:3:1 error 'x' is never reassigned",
        calls: ['bash {command: "npm run lint"}'],
      },
    }),
  );
}

/** The edit that changed `target`, as the engine sees it: only its description is read, when a ban is relieved. */
function editOf(target: string): { effect: Effect; call: CallContext } {
  return {
    effect: { kind: 'mutate', changedTargets: [target], writtenText: 'export const x = 1;' },
    call: { description: `edit_file {path: "${target}"}` } as CallContext,
  };
}

/** The adapter's knowledge with `package.json` as configuration, noting each path it is asked about. */
function askedAbout(): { workspace: WorkspaceKnowledge; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    workspace: {
      ...NO_WORKSPACE_KNOWLEDGE,
      isConfiguration: (target) => {
        asked.push(target);
        return target === 'package.json';
      },
    },
  };
}

function relievedAfter(index: ConstraintIndex, target: string, workspace: WorkspaceKnowledge): string[] {
  const relieved: string[] = [];
  const { effect, call } = editOf(target);
  invalidateAfter(effect, call, {
    index,
    workspace,
    workspaceWide: true,
    relieve: (entry) => relieved.push(entry.constraint.id),
  });
  return relieved;
}

describe('whether a change is of configuration', () => {
  it('is not asked of a change while no ban is armed to hear it', () => {
    const { workspace, asked } = askedAbout();
    relievedAfter(new ConstraintIndex(100), 'src/orders/parse.ts', workspace);
    expect(asked).toEqual([]);
  });

  it('relieves an armed ban about another file when the change is of configuration', () => {
    const { workspace } = askedAbout();
    const index = new ConstraintIndex(100);
    index.put(lintBan());
    expect(relievedAfter(index, 'package.json', workspace)).toEqual(['c-lint']);
  });

  it('leaves an armed ban about another file alone when the change is of a source that is not configuration', () => {
    const { workspace } = askedAbout();
    const index = new ConstraintIndex(100);
    index.put(lintBan());
    expect(relievedAfter(index, 'src/orders/parse.ts', workspace)).toEqual([]);
  });
});

/** The adapter's knowledge of programs' own files (`node_modules/NAME/…`), noting each command asked about. */
function programsAsked(): { workspace: WorkspaceKnowledge; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    workspace: {
      ...NO_WORKSPACE_KNOWLEDGE,
      programHolding: (path) => /(?:^|\/)node_modules\/([^/]+)\//.exec(path)?.[1],
      runsProgram: (command, program) => {
        asked.push(command);
        return command.split(' ').includes(program);
      },
    },
  };
}

describe("whether a change is of a program's own files", () => {
  it('asks no ban whether it runs a program when the changed file belongs to none', () => {
    const { workspace, asked } = programsAsked();
    const index = new ConstraintIndex(100);
    index.put(lintBan());
    relievedAfter(index, 'src/orders/parse.ts', workspace);
    expect(asked).toEqual([]);
  });

  it('relieves a failing command that runs the program whose installed file changed', () => {
    const { workspace, asked } = programsAsked();
    const index = new ConstraintIndex(100);
    index.put(lintBan());
    expect(relievedAfter(index, 'node_modules/npm/lib/commands/run-script.js', workspace)).toEqual([
      'c-lint',
    ]);
    expect(asked).toEqual(['npm run lint']);
  });
});
