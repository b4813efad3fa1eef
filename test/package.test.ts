import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyOfPackedProject, PACKED_PROJECT_REMOVAL_MS } from './packed-package.js';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'narrowing-pack-'));

describe('the published package', () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }), PACKED_PROJECT_REMOVAL_MS);

  it('builds itself when packed or installed from git, through its prepare script', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(manifest.scripts.prepare).toBe('npm run build');
    expect(manifest.scripts.build).toContain('tsc -p tsconfig.build.json');
  });

  it('installs from `npm pack` as narrowing-guard into an empty project where every subpath, the README example and both commands work', () => {
    const project = copyOfPackedProject(work);
    const subpaths = {
      'narrowing-guard': [
        'NarrowingLoop',
        'openGuard',
        'guardedCall',
        'isNarrowingError',
        'toolCallToOutcome',
      ],
      'narrowing-guard/core': ['NarrowingEngine', 'createDefaultDetectors', 'resolvePolicy'],
      'narrowing-guard/adapters/tool-call': ['createToolCallAdapter', 'toolCallToProposal'],
      'narrowing-guard/adapters/ml-training': ['createMlTrainingAdapter'],
      'narrowing-guard/guard': ['openGuardSync', 'verdictText', 'checkSafely'],
      'narrowing-guard/stores': ['createFileStore', 'createMemoryStore'],
      'narrowing-guard/audit': ['createJournal', 'verifyJournal'],
      'narrowing-guard/trace': ['parseTrace', 'readTraceFile'],
      'narrowing-guard/replay': ['replayTrace'],
      'narrowing-guard/mcp': ['runStdioProxy'],
      'narrowing-guard/compat': [
        'NarrowingLoop',
        'createMLTrainingAdapter',
        'computeParameterDeltas',
        'importPaperState',
      ],
    };
    writeFileSync(
      join(project, 'check.mjs'),
      [
        `const subpaths = ${JSON.stringify(subpaths)};`,
        'for (const [path, names] of Object.entries(subpaths)) {',
        '  const module = await import(path);',
        '  for (const name of names) if (module[name] === undefined) throw new Error(path + " lacks " + name);',
        '}',
        "const { NarrowingLoop } = await import('narrowing-guard');",
        "const { createMlTrainingAdapter } = await import('narrowing-guard/adapters/ml-training');",
        "const { toolCallToProposal } = await import('narrowing-guard/adapters/tool-call');",
        'const tools = new NarrowingLoop();',
        'const ml = new NarrowingLoop({ adapter: createMlTrainingAdapter() });',
        "console.log(tools.checkProposal(toolCallToProposal('read_file', { path: 'a.ts' })).verdict, typeof ml.isDone());",
      ].join('\n'),
    );
    expect(execFileSync('node', ['check.mjs'], { cwd: project, encoding: 'utf8' }).trim()).toBe(
      'allow boolean',
    );

    // The README's library example, as a user would copy it into their project.
    copyFileSync(
      join(project, 'node_modules', 'narrowing-guard', 'examples', 'quickstart.mjs'),
      join(project, 'quickstart.mjs'),
    );
    const quickstart = execFileSync('node', ['quickstart.mjs'], { cwd: project, encoding: 'utf8' });
    expect(quickstart).toContain('blocked read_file config/prod.yaml');

    for (const bin of ['narrowing-guard', 'narrowing']) {
      const help = execFileSync(join(project, 'node_modules', '.bin', bin), ['--help'], { encoding: 'utf8' });
      expect(help).toContain('Usage: narrowing-guard');
    }
    const viaNpx = execFileSync('npx', ['--no-install', 'narrowing-guard', '--help'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(viaNpx).toContain('replay');
  }, 240_000);
});
