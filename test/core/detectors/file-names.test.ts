import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LruMap } from '../../../src/core/detectors/bounded.js';
import { FileNames, fileName } from '../../../src/core/detectors/file-names.js';
import { samePath } from '../../../src/core/world.js';

const path = fc
  .array(fc.constantFrom('src', 'a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.md', 'lib', '', '/repo', 'a', 'ts'), {
    minLength: 1,
    maxLength: 4,
  })
  .map((parts) => parts.join('/'));
const step = fc.oneof(
  { arbitrary: fc.record({ hold: path }), weight: 20 },
  { arbitrary: fc.record({ ask: path }), weight: 3 },
  { arbitrary: fc.record({ forget: path }), weight: 2 },
  { arbitrary: fc.constant({ clear: true }), weight: 1 },
);

describe('the names of the files a detector holds', () => {
  it('hold the name of every file held that another spelling of a path may be', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const files = new LruMap<number>(2);
        const names = new FileNames(() => files.keys(), 2);
        for (const next of steps) {
          if ('hold' in next) {
            names.add(next.hold);
            files.set(next.hold, 1);
          } else if ('forget' in next) {
            files.delete(next.forget);
          } else if ('clear' in next) {
            files.clear();
            names.clear();
          } else {
            const heldUnderAnotherSpelling = [...files.keys()].some((file) => samePath(file, next.ask));
            if (heldUnderAnotherSpelling) expect(names.holdsNameOf(next.ask)).toBe(true);
            for (const file of files.keys()) expect(names.holdsNameOf(`/repo/${file}`)).toBe(true);
          }
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('find a name in every text that holds the name of a file held', () => {
    const text = fc
      .array(fc.constantFrom('cat ', 'a.ts', 'b.ts', 'e.md', 'src/', ' && ', 'ls', 'x'), { maxLength: 5 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.array(text, { maxLength: 5 }), (steps, texts) => {
        const files = new LruMap<number>(2);
        const names = new FileNames(() => files.keys(), 2);
        for (const next of steps) {
          if ('hold' in next) {
            names.add(next.hold);
            files.set(next.hold, 1);
          } else if ('forget' in next) {
            files.delete(next.forget);
          } else if ('clear' in next) {
            files.clear();
            names.clear();
          }
          for (const command of texts) {
            const namesOne = [...files.keys()].some((file) => command.includes(fileName(file)));
            if (namesOne) expect(names.mayNameIn(command)).toBe(true);
          }
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('find no name in a command that names none of the files held', () => {
    const files = new LruMap<number>(64);
    const names = new FileNames(() => files.keys(), 64);
    names.add('src/legacy/module-a.ts');
    files.set('src/legacy/module-a.ts', 1);
    expect(names.mayNameIn('npm test -- test/orders/module-b.test.ts')).toBe(false);
    expect(names.mayNameIn('cat src/legacy/module-a.ts')).toBe(true);
  });

  it('say that no file held can be a path of another name', () => {
    const files = new LruMap<number>(64);
    const names = new FileNames(() => files.keys(), 64);
    names.add('src/legacy/module-a.ts');
    files.set('src/legacy/module-a.ts', 1);
    expect(names.holdsNameOf('/repo/src/legacy/module-a.ts')).toBe(true);
    expect(names.holdsNameOf('src/orders/module-b.ts')).toBe(false);
  });

  it('find the names of files held before any text was looked at, across a rebuild of the names', () => {
    const files = new LruMap<number>(2);
    const names = new FileNames(() => files.keys(), 2);
    for (const file of ['src/legacy/module-a.ts', 'src/legacy/module-b.ts', 'src/legacy/module-c.ts']) {
      names.add(file);
      files.set(file, 1);
    }
    for (const file of ['src/legacy/module-d.ts', 'src/legacy/module-e.ts']) {
      names.add(file);
      files.set(file, 1);
    }
    expect(names.mayNameIn('git checkout -- src/legacy/module-e.ts')).toBe(true);
    expect(names.mayNameIn('sed -n 1,40p src/legacy/module-d.ts')).toBe(true);
    names.add('src/orders/parse.ts');
    files.set('src/orders/parse.ts', 1);
    expect(names.mayNameIn('cat src/orders/parse.ts')).toBe(true);
    names.clear();
    files.clear();
    expect(names.mayNameIn('cat src/orders/parse.ts')).toBe(false);
  });
});
