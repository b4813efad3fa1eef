import fc from 'fast-check';
import { parse } from 'unbash';
import { describe, expect, it } from 'vitest';
import { commandAttemptKey, commandAttemptKeys } from '../../../src/adapters/tool-call/command-attempt.js';

const programs = fc.constantFrom('rg', 'grep', 'git', 'psql', 'npx', 'cargo', 'docker', 'kubectl');
const optionNames = fc.constantFrom(
  '-a',
  '-c',
  '-e',
  '-n',
  '-U',
  '-d',
  '--config',
  '--name',
  '--filter',
  '--max-count',
);
const operands = fc.constantFrom('src/app.ts', 'shop', 'main', 'TODO', 'tests/test_cart.py', '42', 'orders');
const dashWords = fc.constantFrom('- [ ]', '-1', '--not-an-option', '-x');

/** A word as the shell is given it: bare when it can be, else in single or double quotes. */
function quoted(word: string, how: number): string {
  const bare = /^[\w./@%+,:=-]+$/.test(word);
  if (how === 0 && bare) return word;
  return how === 1 ? `'${word}'` : `"${word}"`;
}

/** The words a real shell parser reads from a line: what the program is given. */
function wordsOf(line: string): string[] {
  const script = parse(line) as unknown as {
    commands: { command: { name?: { value: string }; args: { value: string }[] } }[];
  };
  const command = script.commands[0]?.command;
  return command === undefined ? [] : [command.name?.value ?? '', ...command.args.map((arg) => arg.value)];
}

const line = (words: readonly string[], quoting: readonly number[]): string =>
  words.map((word, index) => quoted(word, quoting[index % quoting.length] ?? 0)).join(' ');

const quotings = fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 6 });

describe("a command line's attempt key follows what the program is given", () => {
  it('is the same for every quoting of the same words', () => {
    fc.assert(
      fc.property(
        programs,
        fc.array(fc.oneof(optionNames, operands, dashWords), { maxLength: 6 }),
        quotings,
        quotings,
        (program, args, first, second) => {
          const a = `${program} ${line(args, first)}`;
          const b = `${program} ${line(args, second)}`;
          expect(wordsOf(a)).toEqual(wordsOf(b));
          expect(commandAttemptKey(a)).toBe(commandAttemptKey(b));
        },
      ),
    );
  });

  it('keeps a quoted path with blanks apart from the same words unquoted, which the program is given as several', () => {
    const quoted = 'git add "src/prompts/service accounts description.txt"';
    const split = 'git add src/prompts/service accounts description.txt';
    expect(wordsOf(quoted)).not.toEqual(wordsOf(split));
    expect(commandAttemptKey(quoted)).not.toBe(commandAttemptKey(split));
    expect(commandAttemptKey(quoted)).toBe(
      commandAttemptKey("git add 'src/prompts/service accounts description.txt'"),
    );
  });

  it('is the same for options in another order within a run that ends the line', () => {
    fc.assert(
      fc.property(
        programs,
        fc.array(operands, { maxLength: 3 }),
        fc.uniqueArray(optionNames, { minLength: 2, maxLength: 4 }),
        (program, words, options) => {
          const a = [program, ...words, ...options].join(' ');
          const b = [program, ...words, ...[...options].reverse()].join(' ');
          expect(commandAttemptKey(a)).toBe(commandAttemptKey(b));
        },
      ),
    );
  });

  it('differs when an option moves past the word after it, which it may take as its value', () => {
    fc.assert(
      fc.property(programs, optionNames, operands, operands, (program, option, value, operand) => {
        const taking = `${program} ${option} ${value} ${operand}`;
        const after = `${program} ${value} ${option} ${operand}`;
        expect(wordsOf(taking)).not.toEqual(wordsOf(after));
        expect(commandAttemptKey(taking)).not.toBe(commandAttemptKey(after));
      }),
    );
  });

  it('differs when two options swap the words after them', () => {
    fc.assert(
      fc.property(
        programs,
        fc.uniqueArray(optionNames, { minLength: 2, maxLength: 2 }),
        fc.uniqueArray(operands, { minLength: 2, maxLength: 2 }),
        (program, [first, second], [one, two]) => {
          const a = `${program} ${first} ${one} ${second} ${two}`;
          const b = `${program} ${second} ${one} ${first} ${two}`;
          expect(commandAttemptKey(a)).not.toBe(commandAttemptKey(b));
        },
      ),
    );
  });

  it('differs when `--` makes a word that starts with a dash an operand', () => {
    fc.assert(
      fc.property(
        programs,
        fc.array(optionNames, { maxLength: 2 }),
        dashWords,
        operands,
        quotings,
        (program, options, word, operand, how) => {
          const words = [...options, word, operand];
          const plain = `${program} ${line(words, how)}`;
          const ended = `${program} ${line([...options, '--', word, operand], how)}`;
          expect(wordsOf(ended)).toContain('--');
          expect(commandAttemptKey(plain)).not.toBe(commandAttemptKey(ended));
        },
      ),
    );
  });

  it('is the same with or without `--` when only options come before it and no word after it starts with a dash', () => {
    fc.assert(
      fc.property(
        programs,
        optionNames,
        fc.array(operands, { minLength: 1, maxLength: 3 }),
        (program, option, words) => {
          expect(commandAttemptKey(`${program} ${option} -- ${words.join(' ')}`)).toBe(
            commandAttemptKey(`${program} ${option} ${words.join(' ')}`),
          );
        },
      ),
    );
  });

  it('differs with and without `--` when an operand comes before it', () => {
    fc.assert(
      fc.property(
        programs,
        fc.array(optionNames, { maxLength: 2 }),
        operands,
        fc.array(operands, { minLength: 1, maxLength: 3 }),
        (program, options, before, after) => {
          const words = [...options, before];
          expect(commandAttemptKey(`${program} ${[...words, '--', ...after].join(' ')}`)).not.toBe(
            commandAttemptKey(`${program} ${[...words, ...after].join(' ')}`),
          );
        },
      ),
    );
  });

  it('keeps a git diff of a path apart from the same diff without `--`, which git reads as a revision', () => {
    expect(commandAttemptKey('git diff HEAD~4..HEAD -- db/functions/sync_items.sql | head -120')).not.toBe(
      commandAttemptKey('git diff HEAD~4..HEAD db/functions/sync_items.sql'),
    );
  });

  it('is the same for `--name=value` and `--name value`', () => {
    fc.assert(
      fc.property(
        programs,
        fc.constantFrom('--config', '--name', '--filter'),
        operands,
        operands,
        (program, option, value, operand) => {
          expect(commandAttemptKey(`${program} ${option}=${value} ${operand}`)).toBe(
            commandAttemptKey(`${program} ${option} ${value} ${operand}`),
          );
        },
      ),
    );
  });
});

describe("a command line's older attempt key, which bans learned under the keys before hold", () => {
  it('is the key of the line without that `--`', () => {
    fc.assert(
      fc.property(
        programs,
        fc.array(optionNames, { maxLength: 2 }),
        operands,
        fc.array(operands, { minLength: 1, maxLength: 3 }),
        (program, options, before, after) => {
          const words = [...options, before];
          const keys = commandAttemptKeys(`${program} ${[...words, '--', ...after].join(' ')}`);
          expect(keys?.older).toBe(commandAttemptKey(`${program} ${[...words, ...after].join(' ')}`));
          expect(keys?.older).not.toBe(keys?.key);
        },
      ),
    );
  });

  it('is that of each command of a line whose key changed, the others read as they are', () => {
    expect(commandAttemptKeys('git stash && git checkout main -- app.ts 2>&1 | tail -5')?.older).toBe(
      commandAttemptKey('git stash && git checkout main app.ts'),
    );
  });

  it('writes a quoted word holding a blank bare, as keys were before it was kept one word', () => {
    expect(commandAttemptKeys('git commit -m "fix login redirect"')?.older).toBe(
      commandAttemptKey('git commit -m fix login redirect'),
    );
  });

  it('is not given where the key did not change', () => {
    for (const command of [
      'npm test',
      'ls -la -- src',
      'git grep -n -- -x src',
      'rg -n TODO -- --not-an-option src',
      'pytest -x tests/test_cart.py',
      'git commit -m "fix-login"',
    ]) {
      expect(commandAttemptKeys(command)?.older).toBeUndefined();
    }
  });
});

/** `words` with each of `options` put in among them, at the place `places` draws for it. */
function placeOptions(
  words: readonly string[],
  options: readonly string[],
  places: readonly number[],
): string[] {
  const out = [...words];
  options.forEach((option, index) => {
    out.splice((places[index] ?? 0) % (out.length + 1), 0, option);
  });
  return out;
}

/** The key two spellings of one attempt share once they failed alike: the respelling, or the key. */
const respelling = (command: string): string | undefined => {
  const keys = commandAttemptKeys(command);
  return keys?.respelled ?? keys?.key;
};

describe("a command line's respelling, its options in one set wherever they stand", () => {
  it('is the same for an option written before an operand and after it', () => {
    expect(respelling('npx jest --runInBand src/date/parse.test.ts')).toBe(
      respelling('npx jest src/date/parse.test.ts --runInBand'),
    );
    expect(respelling('cp -r assets dist')).toBe(respelling('cp assets -r dist'));
  });

  it('keeps the operands in their order', () => {
    expect(respelling('cp -r assets dist')).not.toBe(respelling('cp -r dist assets'));
    expect(respelling('git diff -U3 main feature')).not.toBe(respelling('git diff -U3 feature main'));
  });

  it('keeps options that differ apart', () => {
    expect(respelling('npm install left-pad@9.9.9 --force')).not.toBe(
      respelling('npm install left-pad@9.9.9 --legacy-peer-deps'),
    );
  });

  it('is not given apart from the key where no option stands before a plain word', () => {
    for (const command of ['npm test', 'jest src/a.test.ts --runInBand --ci', 'ls -la', 'cargo build']) {
      expect(commandAttemptKeys(command)?.respelled).toBeUndefined();
    }
  });

  it('is the program itself when a runner or an interpreter starts it', () => {
    expect(respelling('python -m pytest tests/test_cart.py -x')).toBe(
      respelling('pytest tests/test_cart.py -x'),
    );
    expect(respelling('python3.12 -m pytest -x tests/test_cart.py')).toBe(
      respelling('pytest tests/test_cart.py -x'),
    );
    expect(respelling('uv run pytest tests/test_cart.py')).toBe(respelling('pytest tests/test_cart.py'));
    expect(respelling('npx jest src/a.test.ts')).toBe(respelling('jest src/a.test.ts'));
    expect(respelling('pnpm exec vitest run src/a.test.ts')).toBe(respelling('vitest run src/a.test.ts'));
  });

  it('keeps a variable that may name what the program works on', () => {
    expect(respelling('DATABASE_URL=postgres://localhost/shop npm run migrate')).not.toBe(
      respelling('DATABASE_URL=postgres://db.internal/shop npm run migrate'),
    );
    expect(respelling('PORT=3001 npm start')).not.toBe(respelling('npm start'));
  });

  it('leaves out the variables that only tune where the program looks for code or how much it says', () => {
    expect(respelling('PYTHONPATH=. pytest tests/test_cart.py')).toBe(
      respelling('pytest tests/test_cart.py'),
    );
    expect(respelling('DEBUG=1 LOG_LEVEL=trace npm test')).toBe(respelling('npm test'));
  });

  it('keeps a runner whose own options choose what it runs, and a script given to an interpreter', () => {
    expect(respelling('npx -p typescript tsc --noEmit')).not.toBe(respelling('tsc --noEmit'));
    expect(respelling('python pytest.py tests')).not.toBe(respelling('pytest.py tests'));
    expect(respelling('python -m pytest tests/a.py')).not.toBe(respelling('python -m pytest tests/b.py'));
  });

  it('leaves the key itself to the command as written', () => {
    expect(commandAttemptKey('python -m pytest tests/test_cart.py')).not.toBe(
      commandAttemptKey('pytest tests/test_cart.py'),
    );
    expect(commandAttemptKey('PYTHONPATH=src pytest')).not.toBe(commandAttemptKey('pytest'));
  });

  it('is the same however the options are placed among the operands', () => {
    fc.assert(
      fc.property(
        // An option right after a runner (`npx -y jest`) is the runner's own, not the program's.
        programs.filter((program) => program !== 'npx'),
        fc.uniqueArray(fc.constantFrom('-a', '-n', '--verbose-log', '--ci', '--runInBand', '--force'), {
          maxLength: 4,
        }),
        fc.array(operands, { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        (program, options, words, firstPlaces, secondPlaces) => {
          const placed = (places: readonly number[]): string =>
            `${program} ${placeOptions(words, options, places).join(' ')}`;
          expect(respelling(placed(firstPlaces))).toBe(respelling(placed(secondPlaces)));
        },
      ),
    );
  });
});

/** The key spellings that differ only in their options share: the optionless key, or the key. */
const optionless = (command: string): string | undefined => {
  const keys = commandAttemptKeys(command);
  return keys?.optionless ?? keys?.key;
};

describe("a command line's optionless key, every option left out", () => {
  it('is the same for an install spelled with other options, wherever they stand', () => {
    const key = optionless('npm install @tanstack/react-query@6.4.2');
    expect(optionless('npm install @tanstack/react-query@6.4.2 --legacy-peer-deps')).toBe(key);
    expect(optionless('npm install --save @tanstack/react-query@6.4.2 --legacy-peer-deps')).toBe(key);
    expect(optionless('npm install @tanstack/react-query@6.4.2 --no-audit --no-fund')).toBe(key);
  });

  it("keeps an option's value, which may name another place to look", () => {
    expect(optionless('npm install left-pad@9.9.9 --registry=https://npm.example.com')).not.toBe(
      optionless('npm install left-pad@9.9.9'),
    );
    expect(optionless('kubectl delete pod web-7f9c8d -n prod')).not.toBe(
      optionless('kubectl delete pod web-7f9c8d'),
    );
  });

  it('keeps the plain words and their order', () => {
    expect(optionless('npm i left-pad@9.9.9 --force')).not.toBe(optionless('npm install left-pad@9.9.9'));
    expect(optionless('cp -r dist assets')).not.toBe(optionless('cp -r assets dist'));
  });

  it('is not given apart from the key for a line with no option', () => {
    for (const command of ['npm test', 'cargo build', 'git status', 'make build-2']) {
      expect(commandAttemptKeys(command)?.optionless).toBeUndefined();
    }
  });

  it('is the same whichever options are added to the same plain words', () => {
    fc.assert(
      fc.property(
        programs,
        fc.uniqueArray(fc.constantFrom('-a', '-q', '--ci', '--runInBand', '--force', '--no-fund'), {
          maxLength: 4,
        }),
        fc.array(operands, { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        (program, options, words, places) => {
          const placed = placeOptions(words, options, places).join(' ');
          expect(optionless(`${program} ${placed}`)).toBe(optionless(`${program} ${words.join(' ')}`));
        },
      ),
    );
  });
});
