import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallFacts } from '../../src/core/types.js';
import { isReadOnlyCommand, WorldTracker } from '../../src/core/world.js';

const edit: CallFacts = { actionClass: 'edit', kind: 'mutate', targets: ['src/app.ts'] };
const build: CallFacts = { actionClass: 'exec', kind: 'exec', targets: ['npm run build'] };

describe('WorldTracker', () => {
  it('takes the same edit made twice in a row as changing nothing the second time', () => {
    const world = new WorldTracker();
    expect(world.effectOf(edit, 'edit_file#1', 'ok').kind).toBe('mutate');
    expect(world.effectOf(edit, 'edit_file#1', 'ok').kind).toBe('none');
    expect(world.effectOf(edit, 'edit_file#2', 'ok').kind).toBe('mutate');
  });

  it('takes a command rerun with the same output and nothing changed since as changing nothing', () => {
    const world = new WorldTracker();
    expect(world.effectOf(build, 'bash#b', 'out').kind).toBe('unknown');
    expect(world.effectOf(build, 'bash#b', 'out').kind).toBe('none');
    expect(world.effectOf(build, 'bash#b', 'other output').kind).toBe('unknown');
    world.effectOf(edit, 'edit_file#1', 'ok');
    expect(world.effectOf(build, 'bash#b', 'other output').kind).toBe('unknown');
  });

  it('remembers the last changes across a snapshot', () => {
    const world = new WorldTracker();
    world.effectOf(edit, 'edit_file#1', 'ok');
    world.effectOf(build, 'bash#b', 'out');
    const restored = new WorldTracker();
    restored.restore(JSON.parse(JSON.stringify(world.snapshot())));
    expect(restored.effectOf(build, 'bash#b', 'out').kind).toBe('none');
    expect(restored.effectOf(edit, 'edit_file#1', 'ok').kind).toBe('none');
  });

  it('reads a snapshot that kept targets and commands as texts', () => {
    const restored = new WorldTracker();
    restored.restore({
      lastChange: [['src/app.ts', 'edit_file#1']],
      lastCommand: [['bash#b', { digest: 'out', generation: 3 }]],
      generation: 3,
    });
    expect(restored.effectOf(build, 'bash#b', 'out').kind).toBe('none');
    expect(restored.effectOf(edit, 'edit_file#1', 'ok').kind).toBe('none');
  });

  it('keeps what it knows when given something that is not a snapshot', () => {
    const world = new WorldTracker();
    world.effectOf(edit, 'edit_file#1', 'ok');
    world.restore(undefined);
    expect(world.effectOf(edit, 'edit_file#1', 'ok').kind).toBe('none');
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
    if (known && second === 'run' && third !== undefined && /^(test|lint|check|typecheck)/.test(third))
      continue;
    return false;
  }
  return true;
}

describe('isReadOnlyCommand', () => {
  it('tells commands that only look from commands that may change files', () => {
    expect(isReadOnlyCommand('git status && npm test -- src/app.test.ts')).toBe(true);
    expect(isReadOnlyCommand('CI=1 npm run test:unit')).toBe(true);
    expect(isReadOnlyCommand('ls -la > listing.txt')).toBe(false);
    expect(isReadOnlyCommand('find . -name "*.tmp" -delete')).toBe(false);
    expect(isReadOnlyCommand('npx tsc --noEmit -p packages/orders')).toBe(false);
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
