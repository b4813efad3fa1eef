import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandAttemptKey } from '../../../src/adapters/tool-call/command-attempt.js';
import {
  commandOperands,
  printsServiceLogs,
  shellEffectsOf,
} from '../../../src/adapters/tool-call/shell-effects.js';

describe('what a command line writes, read with a shell parser', () => {
  it('says a line writes a file when the path it writes holds an expansion it does not read', () => {
    const effects = shellEffectsOf('chmod +x ~/ctf_files/solve.py');
    expect([effects.writes, effects.touchesOnly]).toEqual([true, false]);
    expect(shellEffectsOf('python3 ~/ctf_files/solve.py').writes).toBe(false);
  });

  it('reads the same effects and attempt key from a line whichever reader parses it first', () => {
    const lines = [
      "sed -i 's/29/30/' src/cart.ts && echo done > build/log.txt",
      'NO_COLOR=1 npm test -- --reporter=dot 2>&1 | tail -20',
      'git checkout main && pytest -q tests/test_cart.py',
      'for f in *.ts; do echo $f; done',
    ];
    const effectsFirst = lines.map((line) => [shellEffectsOf(line), commandAttemptKey(line)]);
    const keyFirst = lines.map((line) => {
      const key = commandAttemptKey(line);
      return [shellEffectsOf(line), key];
    });
    const readTwice = lines.map((line) => {
      shellEffectsOf(line);
      commandAttemptKey(line);
      return [shellEffectsOf(line), commandAttemptKey(line)];
    });
    expect(keyFirst).toEqual(effectsFirst);
    expect(readTwice).toEqual(effectsFirst);
    expect(effectsFirst[1]?.[1]).toBe('npm test -- --reporter=dot');
    expect(effectsFirst[3]?.[1]).toBeUndefined();
  });

  it('reads a line of plain words as it reads the tree the shell parser builds for the same words', () => {
    // A line that opens with a space is left to the parser, whose tree is walked; the same words
    // without it are read as one command at once.
    const program = fc.constantFrom(
      'rm',
      'mv',
      'cp',
      'touch',
      'git',
      'npm',
      'ls',
      'cat',
      'tee',
      'docker',
      'sed',
    );
    const word = fc.oneof(
      fc.constantFrom('-f', '-rf', '-la', '--', 'checkout', 'reset', 'run', 'logs', 'install', 'test'),
      fc.stringMatching(/^[A-Za-z0-9_\-./:,+@%^=]{1,16}$/),
    );
    fc.assert(
      fc.property(program, fc.array(word, { maxLength: 6 }), (name, words) => {
        const line = [name, ...words].join(' ');
        expect(shellEffectsOf(line)).toEqual(shellEffectsOf(` ${line}`));
      }),
      { numRuns: 1_000 },
    );
    expect(shellEffectsOf('rm -f build/app.js dist/app.js').touches).toEqual(['build/app.js', 'dist/app.js']);
  });

  it("leaves a short output option out of a check's attempt key only, after a wrapper too", () => {
    expect(commandAttemptKey('nice pytest -v -x tests/test_cart.py')).toBe('pytest -x tests/test_cart.py');
    expect(commandAttemptKey('node scripts/serve.js -v')).toBe('node scripts/serve.js -v');
    expect(commandAttemptKey('pytest --verbose tests/test_cart.py -q')).toBe('pytest tests/test_cart.py');
  });

  it('reads the files an in-place sed and a redirection write', () => {
    const effects = shellEffectsOf("sed -i 's/29/30/' src/cart.ts && echo done > build/log.txt");
    expect([...effects.touches].sort()).toEqual(['build/log.txt', 'src/cart.ts']);
    expect(effects.touchesOnly).toBe(true);
  });

  it('reads moves, copies, removals, new directories and touched files', () => {
    expect([...shellEffectsOf('mv old.py new.py').touches].sort()).toEqual(['new.py', 'old.py']);
    expect(shellEffectsOf('cp -r config.example.yaml config/app.yaml').touches).toEqual(['config/app.yaml']);
    expect(shellEffectsOf('rm -f -- -odd.txt').touches).toEqual(['-odd.txt']);
    expect([...shellEffectsOf('mkdir -p out/a && touch out/a/x.txt').touches].sort()).toEqual([
      'out/a',
      'out/a/x.txt',
    ]);
  });

  it('reads the files tee appends to, and a heredoc written to a file', () => {
    expect(shellEffectsOf('printf x | tee -a notes.md').touches).toEqual(['notes.md']);
    expect(shellEffectsOf('cat <<EOF > setup.cfg\n[tool]\nEOF').touches).toEqual(['setup.cfg']);
  });

  it('sees a write inside a command substitution', () => {
    expect(shellEffectsOf('echo "$(rm -rf build)"').touches).toEqual(['build']);
  });

  it('takes output sent to /dev/null or to another stream as no write', () => {
    const effects = shellEffectsOf('grep -rn total src 2>/dev/null | head -20 >&2');
    expect(effects.onlyLooks).toBe(true);
    expect(effects.touches).toEqual([]);
  });

  it("takes PowerShell's $null as a redirection target that writes no file", () => {
    const effects = shellEffectsOf('rg --files src/main/java 2>$null');
    expect(effects.readsFilesOnly).toBe(true);
    expect(effects.writes).toBe(false);
    expect(shellEffectsOf('rg --files src 2>$nullfile').writes).toBe(true);
  });

  it('names the file `sort -o` and `iconv --output` write, as a redirection would', () => {
    expect(shellEffectsOf('sort -o names.txt names.txt').touches).toEqual(['names.txt']);
    expect(shellEffectsOf('iconv -f cp949 -t utf-8 --output=utf8.csv data.csv').touches).toEqual([
      'utf8.csv',
    ]);
    expect(shellEffectsOf('iconv -f cp949 -t utf-8 -o utf8.csv data.csv').onlyLooks).toBe(false);
  });

  it('takes a branch switch, a reset, a stash and an applied patch as changing the whole tree', () => {
    for (const command of [
      'git checkout feature/x',
      'git -C repo switch main',
      'git reset --hard HEAD~1',
      'git restore .',
      'git stash pop',
      'git apply fix.diff',
      'patch -p1 < fix.diff',
    ])
      expect(shellEffectsOf(command).changesTree, command).toBe(true);
    expect(shellEffectsOf('git status && git diff').changesTree).toBe(false);
  });

  it('names what `patch FILE` changes', () => {
    expect(shellEffectsOf('patch src/a.c < fix.diff').touches).toEqual(['src/a.c']);
  });

  it('leaves the effects of a path it cannot read, or of an unknown program, unknown', () => {
    expect(shellEffectsOf('echo hi > "$OUT"').touchesOnly).toBe(false);
    expect(shellEffectsOf('rm build/*.o').touchesOnly).toBe(false);
    expect(shellEffectsOf('python scripts/migrate.py').touchesOnly).toBe(false);
    expect(shellEffectsOf('pip install pyyaml 2>&1 | tail -1').onlyLooks).toBe(false);
    expect(shellEffectsOf('find . -name "*.pyc" -delete').onlyLooks).toBe(false);
  });

  it('takes type checkers, linters without their fixing flags, check-mode formatters and tests as looking', () => {
    for (const line of [
      'npx tsc --noEmit -p packages/orders',
      'npx eslint src --ext .ts',
      'python -m mypy src',
      'ruff check .',
      'prettier --check "src/**/*.ts"',
      'black --check .',
      'cargo fmt --check',
      'test -f dist/index.js && echo built',
      '[ -d node_modules ] || echo missing',
      'grep -q "export default" src/app.ts',
      'git diff --quiet',
      'command -v docker',
    ]) {
      expect(shellEffectsOf(line).onlyLooks, line).toBe(true);
    }
  });

  it('takes the same tools rewriting or emitting as doing more than looking', () => {
    for (const line of [
      'npx tsc -p packages/orders',
      'npx eslint --fix src',
      'ruff check --fix .',
      'prettier --write "src/**/*.ts"',
      'black .',
      'cargo fmt',
      'command rm -rf build',
    ]) {
      expect(shellEffectsOf(line).onlyLooks, line).toBe(false);
    }
  });

  it('reads nothing into a line that does not parse', () => {
    expect(shellEffectsOf('if then ((')).toEqual({
      onlyLooks: false,
      touches: [],
      touchesOnly: false,
      writes: false,
      changesTree: false,
      changesOutside: false,
      readsFilesOnly: false,
      computesOnly: false,
      operands: [],
      printsLogs: false,
    });
  });
});

describe('the shell effects reader on any input', () => {
  const shellish = fc.stringMatching(/^[a-z $`'"\\|&;<>(){}\n=*./-]{0,200}$/);
  const commands = fc.oneof(
    fc.string({ maxLength: 400 }),
    shellish,
    fc
      .array(
        fc.constantFrom(
          'git',
          'checkout',
          'sed',
          '-i',
          'x',
          '>',
          '>>',
          '2>&1',
          '|',
          'tee',
          '&&',
          '$(',
          ')',
          '"',
          "'",
          '<<EOF',
          '\n',
          'rm',
          '-rf',
        ),
        {
          maxLength: 60,
        },
      )
      .map((words) => words.join(' ')),
  );

  it('never throws, and says only what a command line can say', () => {
    fc.assert(
      fc.property(commands, (command) => {
        const effects = shellEffectsOf(command);
        expect(Array.isArray(effects.touches)).toBe(true);
        if (effects.onlyLooks) expect(effects.touches).toEqual([]);
        if (effects.changesTree) expect(effects.touchesOnly).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('answers deeply nested and very long lines in bounded time', () => {
    const nested = `${'$('.repeat(2_000)}rm x${')'.repeat(2_000)}`;
    const long = 'echo a && '.repeat(5_000);
    const braces = `${'{ '.repeat(3_000)}true${'; }'.repeat(3_000)}`;
    for (const command of [nested, long, braces, 'x'.repeat(100_000)]) {
      const effects = shellEffectsOf(command);
      expect(effects.touches.length).toBeLessThan(5_000);
    }
  });
});

describe('commandOperands', () => {
  it('finds what each command of a line acts on, without its program, subcommand, flags and numbers', () => {
    expect(commandOperands('docker logs shop-app | tail -n 50')).toEqual(['shop-app']);
    expect(commandOperands('sudo systemctl restart nginx && sleep 5')).toEqual(['nginx']);
    expect(commandOperands('cd /srv/shop && kubectl rollout restart deploy/api')).toEqual([
      'restart',
      'deploy/api',
    ]);
    expect(commandOperands('python reproduce.py --count=3')).toEqual(['reproduce.py']);
    expect(commandOperands('npm run build')).toEqual(['build']);
  });

  it('finds the program past wrappers with options, durations and assignments', () => {
    expect(commandOperands('timeout 30 docker restart shop-app')).toEqual(['shop-app']);
    expect(commandOperands('COMPOSE_FILE=prod.yml docker restart shop-app')).toEqual(['shop-app']);
    expect(commandOperands('sudo -u deploy systemctl restart nginx')).toEqual(['nginx']);
    expect(commandOperands('timeout -s KILL 60 kubectl delete pod api-7d9f')).toEqual(['pod', 'api-7d9f']);
  });

  it('reads a quoted operand as the one word the shell passes', () => {
    expect(commandOperands('docker logs "shop app" --tail 20')).toEqual(['shop app']);
  });

  it('reads the same operands and log printing behind any wrapper, assignment or change of directory', () => {
    const commands = fc.constantFrom(
      'docker logs shop-app',
      'docker restart shop-app',
      'kubectl rollout restart deploy/api',
      'journalctl -u nginx --no-pager',
      'tail -n 200 logs/app.log',
      'grep -i error',
      'python reproduce.py --count=3',
      'npm run build',
      'systemctl restart nginx',
      'pytest -q tests/test_cart.py',
      'sleep 5',
    );
    const wrappers = fc.constantFrom(
      '',
      'sudo ',
      'sudo -u deploy ',
      'env ',
      'env X=1 ',
      'env -u HOME ',
      'NO_COLOR=1 ',
      'A=1 B=two ',
      'timeout 5 ',
      'timeout -s KILL 30s ',
      'nohup ',
      'nice -n 10 ',
      'time ',
      'command ',
      'stdbuf -oL ',
    );
    const line = fc.array(fc.tuple(commands, wrappers), { minLength: 1, maxLength: 3 });
    const joiner = fc.constantFrom(' | ', ' && ', '; ');
    const moves = fc.constantFrom('', 'cd /srv/shop && ', 'cd "$HOME/app"; ');
    fc.assert(
      fc.property(line, joiner, moves, (parts, join, move) => {
        const bare = parts.map(([command]) => command).join(join);
        const wrapped = move + parts.map(([command, wrapper]) => wrapper + command).join(join);
        expect(commandOperands(wrapped)).toEqual(commandOperands(bare));
        expect(printsServiceLogs(wrapped)).toBe(printsServiceLogs(bare));
      }),
    );
  });

  it('reads any line in bounded time without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (line) => {
        for (const operand of commandOperands(line)) expect(operand.length).toBeGreaterThan(0);
      }),
    );
    expect(commandOperands(`docker restart ${'a'.repeat(100_000)}`).join('').length).toBeLessThanOrEqual(
      16_384,
    );
  });
});
