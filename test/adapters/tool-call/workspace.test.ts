import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../../src/adapters/tool-call/index.js';
import {
  commandMentions,
  commandTargets,
  isGeneratedPath,
  isProjectConfiguration,
  isReadOnlyCommand,
} from '../../../src/adapters/tool-call/workspace.js';

describe('isReadOnlyCommand', () => {
  it('tells commands that only look from commands that may change files', () => {
    expect(isReadOnlyCommand('git status && npm test -- src/app.test.ts')).toBe(true);
    expect(isReadOnlyCommand('CI=1 npm run test:unit')).toBe(true);
    expect(isReadOnlyCommand('ls -la > listing.txt')).toBe(false);
    expect(isReadOnlyCommand('find . -name "*.tmp" -delete')).toBe(false);
    expect(isReadOnlyCommand('npx tsc --noEmit -p packages/orders')).toBe(false);
  });

  it('reads Node’s code on its command line for what it does', () => {
    expect(isReadOnlyCommand(`node -p "require('./package.json').version"`)).toBe(true);
    expect(isReadOnlyCommand(`node -e "require('fs').writeFileSync('routes/a.js', 'x')"`)).toBe(false);
    expect(isReadOnlyCommand(`cd backend && node -e "require('fs').unlinkSync('.env')"`)).toBe(false);
  });

  it('takes a program named after a property of every object for an ordinary program', () => {
    expect(isReadOnlyCommand('constructor --help')).toBe(false);
    expect(isReadOnlyCommand('/usr/bin/toString run test')).toBe(false);
  });

  it('agrees with the rule written plainly, for any command line', () => {
    const word = fc.constantFrom(
      'git',
      'npm',
      'ls',
      'cat',
      'find',
      'cd',
      'echo',
      'vitest',
      'constructor',
      '/usr/bin/git',
      'status',
      'run',
      'test:unit',
      'lint',
      'build',
      '-la',
      '-delete',
      '-exec',
      'FOO=1',
      '_X2=y',
      '2x=1',
      '=x',
      'a=b=c',
      'src/app.ts',
      '>',
      '2>&1',
      '>out',
      '&&',
      '||',
      ';',
      '|',
      '\n',
      '\u00a0',
      '\u2003',
      '\t',
    );
    const line = fc.array(fc.tuple(word, fc.constantFrom(' ', '  ', '\t', '', '\u3000')), { maxLength: 9 });
    fc.assert(
      fc.property(line, (parts) => {
        const command = parts.map(([text, space]) => text + space).join('');
        expect(isReadOnlyCommand(command)).toBe(readOnlyByRule(command));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the workspace the tool-call adapter describes', () => {
  it('marks a command that only looks, so the engine takes it as changing nothing', () => {
    const adapter = createToolCallAdapter();
    expect(adapter.describeCall({ tool: 'Bash', args: { command: 'git status' } }).changesNothing).toBe(true);
    expect(adapter.describeCall({ tool: 'Bash', args: { command: 'npm run format' } }).changesNothing).toBe(
      undefined,
    );
  });

  it('knows build outputs and project configuration by their paths', () => {
    expect(isGeneratedPath('packages/api/dist/index.js')).toBe(true);
    expect(isGeneratedPath('src/distance.ts')).toBe(false);
    expect(isProjectConfiguration('packages/api/tsconfig.build.json')).toBe(true);
    expect(isProjectConfiguration('src/package.ts')).toBe(false);
  });

  it('takes hidden files and settings formats for configuration, whatever tool reads them', () => {
    for (const path of ['/repo/.dialyzerignore', '.credo.exs', 'api/.eslintrc', 'ruff.toml', 'tox.ini']) {
      expect(isProjectConfiguration(path)).toBe(true);
    }
    for (const path of ['src/app.ex', './src/main.rs', '../notes.md', 'lib/config.ex']) {
      expect(isProjectConfiguration(path)).toBe(false);
    }
  });

  it('finds the files a command line names', () => {
    expect(commandTargets("sed -i 's/a/b/' ./src/app.ts && cat README.md")).toEqual(
      expect.arrayContaining(['src/app.ts', 'README.md']),
    );
    expect(commandMentions('npx prettier --write src/app.ts', 'src/app.ts')).toBe(true);
    expect(commandMentions('npx prettier --write src/app.ts', 'src/application.ts')).toBe(false);
  });
});

/**
 * The rule read-only commands follow, written plainly for the programs the test uses: the fast scan
 * must agree with it everywhere.
 */
function readOnlyByRule(command: string): boolean {
  const looking = new Set(['ls', 'cat', 'grep', 'find', 'echo', 'pytest', 'vitest']);
  const subcommands: Record<string, string[]> = { git: ['status', 'log', 'diff'], npm: ['test', 'ls'] };
  for (const segment of command.split(/&&|\|\||[;|\n]/)) {
    const words = segment
      .trim()
      .split(/\s+/)
      .filter((word) => word.length > 0 && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
    if (words.length === 0) continue;
    const [first, second, third] = words as [string, string?, string?];
    const program = first.replace(/^.*\//, '');
    if (/[>]/.test(segment) && !/[0-9]?>&[0-9]/.test(segment)) return false;
    if (program === 'cd' || looking.has(program)) {
      if (program === 'find' && /\s-(delete|exec)\b/.test(segment)) return false;
      continue;
    }
    const known = Object.hasOwn(subcommands, program) ? subcommands[program] : undefined;
    if (known && second !== undefined && known.includes(second)) continue;
    // A package manager runs a check by its script's name; git has no such scripts.
    const runsCheck = second === 'run' && third !== undefined && /^(test|lint|check|typecheck)/.test(third);
    if (known && program !== 'git' && runsCheck) continue;
    return false;
  }
  return true;
}
