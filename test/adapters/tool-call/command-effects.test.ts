import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commandsOf,
  configurationNamedBy,
  directoryAfter,
  leavesSourcesAlone,
  navigatesByName,
  onlyChangesDirectory,
  placeMovedTo,
  programOf,
  programOfLines,
  startsOrStopsByName,
  waitSecondsOf,
  waitSecondsOfArguments,
} from '../../../src/adapters/tool-call/command-effects.js';

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

  it('reads the first word past leading spaces, and no check in a later word', () => {
    expect(leavesSourcesAlone('  \t npm test')).toBe(true);
    expect(leavesSourcesAlone('echo npm test')).toBe(false);
    expect(leavesSourcesAlone('python3 -m pytest tests/')).toBe(true);
    expect(leavesSourcesAlone('')).toBe(false);
  });

  it('judges each line on its own when lines are asked about in turn, the same one twice', () => {
    const lines = ['npm test', 'npm test', 'npx prettier --write src', 'npm test', 'make', 'make'];
    expect(lines.map(leavesSourcesAlone)).toEqual([true, true, false, true, false, false]);
  });
});

describe('configurationNamedBy', () => {
  it('names package.json for a missing npm script, as npm 10 and npm 6 word it', () => {
    expect(
      configurationNamedBy(
        'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:',
      ),
    ).toEqual(['package.json']);
    expect(configurationNamedBy('npm ERR! missing script: start')).toEqual(['package.json']);
    expect(configurationNamedBy('npm ERR! Missing script: "start"')).toEqual(['package.json']);
  });

  it('names the Makefile for a missing Make target, but not for a missing prerequisite file', () => {
    expect(configurationNamedBy("make: *** No rule to make target 'deploy'.  Stop.")).toEqual(['Makefile']);
    expect(
      configurationNamedBy("make: *** No rule to make target 'src/util.c', needed by 'build/util.o'.  Stop."),
    ).toBeUndefined();
  });

  it('does not name the Makefile for a missing target that is a file a pattern rule may build', () => {
    expect(configurationNamedBy("make: *** No rule to make target 'build/app.o'.  Stop.")).toBeUndefined();
    expect(configurationNamedBy("make: *** No rule to make target 'report.pdf'.  Stop.")).toBeUndefined();
  });
});

describe('waitSecondsOf', () => {
  it.each([
    ['sleep 30', 30],
    ['sleep 30 && gh run view 42', 30],
    ['sleep 2m; kubectl get pods', 120],
    ['cd app && sleep 5 && tail -n 20 build.log', 5],
    ['sleep 1.5 && sleep 1.5', 3],
    ['Start-Sleep -Seconds 30; Invoke-WebRequest -Uri https://localhost:44395/ -UseBasicParsing', 30],
    ['start-sleep 5', 5],
    ['Start-Sleep -Milliseconds 1500; Get-Process node', 1.5],
    ['timeout /t 10 /nobreak > nul & curl http://localhost:3000/health', 10],
    ['timeout /T 5', 5],
  ])('reads a wait of %s as %i seconds', (command, seconds) => {
    expect(waitSecondsOf(command)).toBe(seconds);
  });

  it.each([
    'gh run view 42',
    'grep sleep notes.txt',
    'echo "sleep 30"',
    'sleep_tool 5',
    'echo "Start-Sleep 30"',
    'timeout 60 npm test',
    'timeout 5s curl -s localhost:3000',
  ])('reads no wait in %s', (command) => {
    expect(waitSecondsOf(command)).toBeUndefined();
  });
});

describe('waitSecondsOfArguments', () => {
  it.each([
    [{ cell_id: '18', yield_time_ms: 10000 }, 10],
    [{ job_id: 'j-77', waitSeconds: 30 }, 30],
    [{ task_id: 'b3', block_ms: 1500 }, 1.5],
    [{ run_id: 42, 'wait-for-secs': 5 }, 5],
  ])('reads a wait of %j as %d seconds', (args, seconds) => {
    expect(waitSecondsOfArguments(args)).toBe(seconds);
  });

  it.each([
    { job_id: 'j-77', timeout_ms: 10000 },
    { cell_id: '18', yield_time_ms: 0 },
    { cell_id: '18', wait: true },
    { query: 'wait 30 seconds' },
  ])('reads no wait in %j', (args) => {
    expect(waitSecondsOfArguments(args)).toBeUndefined();
  });

  it('reads only the first 64 arguments of a call that holds thousands', () => {
    const args: Record<string, unknown> = {};
    for (let index = 0; index < 5_000; index++) args[`field_${index}`] = index;
    expect(waitSecondsOfArguments({ ...args, yield_time_ms: 10000 })).toBeUndefined();
    expect(waitSecondsOfArguments({ yield_time_ms: 10000, ...args })).toBe(10);
  });
});

describe('navigation', () => {
  it.each([
    'open',
    'goto',
    'scroll_down',
    'browser_navigate',
    'mcp__playwright__browser_navigate_back',
    'mcp_playwright_browser_navigate_back',
    'go_to',
    'mcp__alfworld__go_to',
    'mcp_alfworld_go_to',
  ])('takes %s for a tool that moves what later calls see', (tool) => {
    expect(navigatesByName(tool)).toBe(true);
  });

  it.each([
    'open_pull_request_review',
    'mcp_github_open_pull_request_review',
    'read_file',
    'Read',
    'get_open_issues',
    'search_file',
  ])('does not take %s for navigation', (tool) => {
    expect(navigatesByName(tool)).toBe(false);
  });

  it('gives the same answer for a name asked about again, also after thousands of other names', () => {
    expect(navigatesByName('browser_navigate')).toBe(true);
    for (let index = 0; index < 5_000; index++) navigatesByName(`tool_${index}`);
    expect(navigatesByName('browser_navigate')).toBe(true);
    expect(navigatesByName('browser_navigate')).toBe(true);
    expect(navigatesByName('read_file')).toBe(false);
    expect(navigatesByName('read_file')).toBe(false);
  });

  it('takes a command that only changes directory for navigation, and no other', () => {
    expect(onlyChangesDirectory('cd /repo/src')).toBe(true);
    expect(onlyChangesDirectory('cd /repo && make')).toBe(false);
    expect(onlyChangesDirectory('cdk deploy')).toBe(false);
  });
});

describe('programOf', () => {
  it.each([
    ['cargo build --release', 'cargo build'],
    ['cd app && npm run test -- --watch=false', 'npm run'],
    ['FOO=1 sudo python3 script.py | tail -5', 'python3'],
    ['timeout 60 pytest -x tests/', 'pytest'],
    ['A=1 B=2 C=3 D=4 E=5 F=6 sudo env cargo build', 'cargo build'],
    ['A=1 B=2 C=3 D=4 E=5 F=6 G=7 nice cargo', 'cargo'],
    ['  A=1   B=2 \t make  ', 'make'],
    ['echo -n example | sha256sum', 'sha256sum'],
    ["printf '%s|%s' a b | base64 -d", 'base64'],
    ['echo done', 'echo done'],
    ['python3 -c "import re; print(re.sub(1))"', 'python3'],
    [`node -e "const a = require('./a.js'); a.run()"`, 'node'],
    ["cd /srv/app && git commit -m 'fix: parse; retry' | cat", 'git commit'],
    ["echo 'a|b' | sha256sum", 'sha256sum'],
    ["python3 - <<'PY'\nimport os\nprint(os.getcwd())\nPY", 'python3'],
    ["cat > fix.py <<'EOF'\nimport re; print(1)\nEOF\npython3 fix.py", 'python3'],
    ['for f in tests/*.py; do pytest -q $f; done | tail -5', 'pytest'],
    ['(cd web && make build) | tee build.log', 'make build'],
    ['echo "unterminated; ls', 'ls'],
  ])('reads %j as %s', (command, program) => {
    expect(programOf(command)).toBe(program);
  });

  it('never splits a command at a separator inside quotes', () => {
    const separator = fc.constantFrom(';', '&&', '||', '|', '\n');
    const quoted = fc
      .tuple(fc.stringMatching(/^[a-z ]{0,8}$/), separator, fc.stringMatching(/^[a-z ]{0,8}$/))
      .map(([before, mark, after]) => `${before}${mark}${after}`);
    fc.assert(
      fc.property(fc.constantFrom("'", '"'), quoted, (quote, code) => {
        expect(programOf(`cd /srv/app && python3 -c ${quote}${code}${quote}`)).toBe('python3');
      }),
    );
  });
});

describe('commandsOf', () => {
  it('gives each command of a list, before its pipe, with quoted words whole', () => {
    expect(commandsOf("git add -A && git commit -m 'a; b' | cat; npm test")).toEqual([
      ['git', 'add', '-A'],
      ['git', 'commit', '-m', "'a;", "b'"],
      ['npm', 'test'],
    ]);
  });

  it("reads the lines of a here-document as its command's input, not as commands", () => {
    expect(commandsOf("python3 - <<'PY'\nimport shutil; shutil.rmtree('build')\nPY\nls build")).toEqual([
      ['python3', '-', "<<'PY'"],
      ['ls', 'build'],
    ]);
  });

  it('gives the commands inside loops, conditionals and subshells', () => {
    expect(commandsOf('if [ -f package.json ]; then npm ci; fi; (cd docs && make html)')).toEqual([
      ['[', '-f', 'package.json', ']'],
      ['npm', 'ci'],
      ['cd', 'docs'],
      ['make', 'html'],
    ]);
  });

  it('gives a list of word lists for any text, quotes, here-documents and keywords left open included', () => {
    const piece = fc.constantFrom(
      'a',
      ' ',
      ';',
      '&&',
      '|',
      "'",
      '"',
      '\\',
      '\n',
      '<<EOF',
      'EOF',
      '$(',
      ')',
      '(',
      'do',
      'done',
      'for x in y;',
      'if',
      'fi',
      '{',
      '}',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const commands = commandsOf(pieces.join(''));
        expect(Array.isArray(commands)).toBe(true);
        for (const words of commands) expect(words.every((word) => typeof word === 'string')).toBe(true);
      }),
    );
  });

  it('splits a line the shell cannot read at every separator', () => {
    expect(commandsOf('echo "unterminated; ls -la')).toEqual([
      ['echo', '"unterminated'],
      ['ls', '-la'],
    ]);
  });
});

describe('startsOrStopsByName', () => {
  it.each([
    'connect_start',
    'debug_stop',
    'restart_server',
    'mcp__playwright__browser_launch',
    'killProcess',
  ])('reads %s as starting or stopping something', (tool) => {
    expect(startsOrStopsByName(tool)).toBe(true);
  });

  it.each(['connect_sendline', 'debug_step', 'get_reservation_details', 'date_lookup'])(
    'reads %s as neither',
    (tool) => {
      expect(startsOrStopsByName(tool)).toBe(false);
    },
  );
});

describe('programOfLines', () => {
  it.each([
    ['cd /home/dev/site\ngit show HEAD:app.py', 'git show'],
    ['cd /srv/app\nexport NODE_ENV=test\nnpm test', 'npm test'],
    ['cd /srv/app\npython3 -c "\nimport os\nprint(os.getcwd())\n"', 'python3'],
  ])('reads %j as %s', (command, program) => {
    expect(programOfLines(command)).toBe(program);
  });
});

describe('placeMovedTo', () => {
  it.each([
    ['cd apps/dashboard && pnpm run typecheck', 'apps/dashboard'],
    ['cd apps/dashboard/ && pnpm run typecheck', 'apps/dashboard'],
    ['cd "docs/api notes"; cat index.md', 'docs/api notes'],
    ['cd /home/dev/platform/dashboard && pnpm run typecheck 2>&1 || true', '/home/dev/platform/dashboard'],
  ])('says %s moves to %s as written', (command, place) => {
    expect(placeMovedTo(command)).toBe(place);
  });

  it.each(['pnpm run typecheck', 'cd apps/web && cd ../api && npm test', '(cd docs && make html)'])(
    'names no one place for %s',
    (command) => {
      expect(placeMovedTo(command)).toBeUndefined();
    },
  );
});

describe('directoryAfter', () => {
  it.each([
    ['cd /Users/dev/shop', '/Users/dev/shop'],
    ['cd /Users/dev/shop/ && pwd', '/Users/dev/shop'],
    ['cd "/Users/dev/my shop"; ls -la', '/Users/dev/my shop'],
    ['cd ~/code/shop && git status', '~/code/shop'],
    ['cd C:\\work\\shop && dir', 'C:/work/shop'],
    ['cd c:/work/shop/ && dir', 'C:/work/shop'],
    ['Set-Location C:\\work\\shop; Get-ChildItem', 'C:/work/shop'],
    ['cd /Users/dev/shop && npm test', '/Users/dev/shop'],
    ['cd / && ls', '/'],
    ['cd C:\\ && dir', 'C:/'],
  ])('says %s leaves the directory at %s', (command, place) => {
    expect(directoryAfter(command)).toBe(place);
  });

  it.each([
    'cd ..',
    'cd .. && ls -la docs/',
    'cd frontend && npm test',
    'cd -',
    'pushd /srv/app',
    'cd /srv/app && cd api && ls',
    'npm ci && cd /srv/app',
    '(cd docs && make html)',
  ])('says %s moves somewhere the line does not name in full', (command) => {
    expect(directoryAfter(command)).toBe('');
  });

  it.each(['ls -la scripts/', 'git add docs/cd.md', 'echo abcd /srv', 'npm run cd'])(
    'says %s does not move',
    (command) => {
      expect(directoryAfter(command)).toBeUndefined();
    },
  );

  it('answers any line with nothing, an unknown place, or a place named in full', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (line) => {
        const place = directoryAfter(line);
        expect(place === undefined || place === '' || /^(?:\/|~|[A-Za-z]:)/.test(place)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
