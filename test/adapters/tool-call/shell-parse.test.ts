import fc from 'fast-check';
import { parse } from 'unbash';
import { describe, expect, it } from 'vitest';
import {
  parseShell,
  readableTree,
  statusProgram,
  visitTree,
} from '../../../src/adapters/tool-call/shell-parse.js';

/**
 * The tree as its readers see it: every field, own or read through a getter of unbash's node
 * classes (`args`, `redirects`, `value`, `parts`), fields in a fixed order.
 */
function written(tree: unknown): string {
  return JSON.stringify(view(tree));
}

function view(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(view);
  if (node === null || typeof node !== 'object') return node;
  const names = new Set(Object.keys(node));
  const prototype = Object.getPrototypeOf(node);
  if (prototype !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(prototype)) {
      if (name !== 'constructor' && name !== 'toJSON') names.add(name);
    }
  }
  const fields: Record<string, unknown> = {};
  for (const name of [...names].sort()) {
    const value = (node as Record<string, unknown>)[name];
    fields[name] = value === undefined ? '(undefined)' : view(value);
  }
  return fields;
}

describe('reading a command line of plain words without the shell parser', () => {
  it('builds the tree unbash builds for a program and its plain words', () => {
    for (const line of [
      'npm test -- test/orders/module-5yc1s.test.ts',
      'git diff --stat src/orders/module-5yc1s.ts',
      'npm run build --workspace=packages/orders-5yc1s',
      'ls -la  src/orders',
      'pytest tests/test_cart.py::test_total -x',
      'curl -sS https://api.example.com/v1/items?page=2',
    ]) {
      expect(written(parseShell(line))).toBe(written(parse(line)));
    }
  });

  it('leaves keywords, assignments, quotes and operators to unbash', () => {
    for (const line of [
      'export TOKEN=abc',
      'NO_COLOR=1 npm test',
      'time npm test',
      'for f in a b; do echo $f; done',
      "sed -i 's/a/b/' x.ts",
      'npm test 2>&1 | tail -20',
      ' npm test',
      'npm test ',
      'echo {a,b}',
      'ls ~/x',
    ]) {
      expect(written(parseShell(line))).toBe(written(parse(line)));
    }
  });

  it('agrees with unbash on any line of shell words, plain or not', () => {
    const word = fc.oneof(
      fc.constantFrom(
        'npm',
        'git',
        'ls',
        'export',
        'declare',
        'time',
        'in',
        'do',
        'if',
        'let',
        'eval',
        '--',
        '-la',
      ),
      fc.stringMatching(/^[A-Za-z0-9_\-./:,+@%^=~'"$*?![\]{}#\\]{1,12}$/),
    );
    const line = fc
      .tuple(fc.array(word, { minLength: 1, maxLength: 6 }), fc.constantFrom(' ', '  ', '\t'))
      .map(([words, gap]) => words.join(gap));
    fc.assert(
      fc.property(line, (text) => {
        let expected: string;
        try {
          expected = written(parse(text));
        } catch (error) {
          expect(() => parseShell(text)).toThrow((error as Error).message);
          return;
        }
        expect(written(parseShell(text))).toBe(expected);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('walking a parsed line', () => {
  it('visits every node of a line within its budget', () => {
    const types: string[] = [];
    const whole = visitTree(parseShell('cd /srv/app && npm test'), 100, (node) => {
      types.push(node.type);
      return true;
    });
    expect(whole).toBe(true);
    expect(types.filter((type) => type === 'Command')).toHaveLength(2);
  });

  it('stops at its budget on a line of more nodes than it allows', () => {
    let visited = 0;
    const line = Array.from({ length: 200 }, (_, index) => `echo ${index}`).join(' && ');
    const whole = visitTree(parseShell(line), 50, () => {
      visited++;
      return true;
    });
    expect(whole).toBe(false);
    expect(visited).toBe(50);
  });

  it('gives no tree for a line the parser reads only by recovering from an error', () => {
    expect(readableTree('python3 -c "print(1)')).toBeUndefined();
    expect(readableTree('python3 -c "print(1)"')?.type).toBe('Script');
  });
});

describe('the program whose exit status a line’s is', () => {
  it('is the last command of the last statement run in the foreground', () => {
    expect(statusProgram('curl -s localhost:3000/health')).toBe('curl');
    expect(statusProgram('cd web && sleep 3 && curl -s localhost:3000/health')).toBe('curl');
    expect(statusProgram('npm start & sleep 5; curl -s localhost:3000/health')).toBe('curl');
    expect(statusProgram('curl -s localhost:3000/health | jq .status')).toBe('jq');
  });

  it('is none when either side of a `||` may end the line, or the line cannot be read', () => {
    expect(statusProgram('curl -s localhost:3000/health || echo down')).toBeUndefined();
    expect(statusProgram('curl -s "localhost:3000')).toBeUndefined();
    expect(statusProgram('')).toBeUndefined();
  });

  it('reads any line without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (line) => {
        const program = statusProgram(line);
        expect(program === undefined || typeof program === 'string').toBe(true);
      }),
    );
  });
});
