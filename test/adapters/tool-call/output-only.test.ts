/**
 * A command's result that gives its output and no exit status (Cursor's shell shows only what the
 * command printed) is a failure when the output holds a line a command prints when it could not run
 * or stopped at once; a run's own report of failures inside it is left as the result has it.
 */
import { describe, expect, it } from 'vitest';
import { toolCallToOutcome } from '../../../src/adapters/tool-call/convert.js';
import { NarrowingLoop } from '../../../src/index.js';

const shell = (command: string, output: string) => toolCallToOutcome('run_terminal_cmd', { command }, output);

describe('a command’s output without an exit status', () => {
  it('reads a program the shell could not find as a failure', () => {
    expect(shell('exiftool cat.jpg', '/bin/bash: line 1: exiftool: command not found\n').success).toBe(false);
  });

  it('reads a command line the shell could not parse as a failure', () => {
    const output =
      "/bin/bash: -c: line 1: unexpected EOF while looking for matching `''\n/bin/bash: -c: line 2: syntax error: unexpected end of file\n";
    expect(shell("echo 'JTYzJTMw | base64 -d", output).success).toBe(false);
  });

  it('reads a script Python could not open as a failure', () => {
    const output = "python3: can't open file '/ctf/86/decode.py': [Errno 2] No such file or directory\n";
    expect(shell('python3 decode.py', output).success).toBe(false);
  });

  it('reads Python’s traceback and git’s fatal line as failures', () => {
    const traceback =
      'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nModuleNotFoundError: No module named \'scapy\'\n';
    expect(shell('python3 -c "import scapy"', traceback).success).toBe(false);
    const fatal = 'fatal: not a git repository (or any of the parent directories): .git\n';
    expect(shell('git add .', fatal).success).toBe(false);
  });

  it('reads a program that refused its command line as a failure (GNU grep, ripgrep)', () => {
    const grep =
      "grep: unrecognized option '--script'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";
    expect(shell('grep -n "--script" README.md', grep).success).toBe(false);
    expect(shell('rg -c "- \\[ \\]" specs/requirements.md', 'rg: unrecognized flag - \n').success).toBe(
      false,
    );
  });

  it('reads a tool named by its path or with its part in parentheses that could not open a file as a failure', () => {
    const linker = '/usr/bin/ld: cannot find 3251372985: No such file or directory\n';
    expect(shell('gcc -o chall_4 chall_4.S ./chall_4 3251372985', linker).success).toBe(false);
    const tar =
      'tar (child): Image-ExifTool-12.64.tar.gz: Cannot open: No such file or directory\ntar (child): Error is not recoverable: exiting now\ntar: Child returned status 2\n';
    expect(shell('tar -xvzf Image-ExifTool-12.64.tar.gz', tar).success).toBe(false);
  });

  it('reads a program’s own error line as a failure (the compiler driver’s `collect2: error: …`)', () => {
    const linker =
      "/usr/bin/ld: /tmp/main.o: in function `main':\nmain.c:(.text+0x5): undefined reference to `missing'\ncollect2: error: ld returned 1 exit status\n";
    expect(shell('gcc main.c -o main', linker).success).toBe(false);
  });

  it('reads zsh’s failed `cd` as a failure, and Python’s traceback after a prompt the script printed', () => {
    const cd = '(eval):cd:1: no such file or directory: codex-ts\n';
    expect(shell('cd codex-ts && git diff --name-only', cd).success).toBe(false);
    const prompted =
      'Please enter the password:Traceback (most recent call last):\n  File "/ctf/6/ende.py", line 39, in <module>\n    key = input("Please enter the password:")\nEOFError: EOF when reading a line\n';
    expect(shell('python3 ende.py -d flag.txt.en', prompted).success).toBe(false);
  });

  it('reads zsh’s missing program as a failure when the command runs that program', () => {
    expect(shell('vercel --version', 'zsh:1: command not found: vercel\n').success).toBe(false);
  });

  it('reads zsh’s failed glob and unmatched quote as failures: nothing of the command ran', () => {
    const glob = 'zsh:1: no matches found: /v9/projects/prj_mdLQ?teamId=team_6CmcD\n';
    expect(shell('npx vercel@latest api /v9/projects/prj_mdLQ?teamId=team_6CmcD', glob).success).toBe(false);
    expect(shell('echo "it\\"s', 'zsh:1: unmatched "\n').success).toBe(false);
  });

  it('reads ripgrep’s missing path, with the error number Rust adds, as a failure', () => {
    const output = 'rg: /home/edouard/test-framework/docs: No such file or directory (os error 2)\n';
    expect(shell("rg --files -g 'project-context.md' docs", output).success).toBe(false);
  });

  it('reads sudo asking for a password nobody can type as a failure', () => {
    expect(
      shell('sudo apt-get install -y ros-melodic-teb-local-planner', 'sudo: a password is required\n')
        .success,
    ).toBe(false);
  });

  it('reads a refused operation and refused input as failures (`hostname`, `base64`)', () => {
    expect(shell('hostname robot-a1', 'hostname: Operation not permitted\n').success).toBe(false);
    expect(shell("echo 'WTBkc2Ft' | base64 --decode", 'base64: invalid input\n').success).toBe(false);
  });

  it('reads PowerShell’s missing program as a failure when the command runs that program', () => {
    const output =
      "psql : The term 'psql' is not recognized as the name of a cmdlet, function, script file, or operable program. Check \nthe spelling of the name, or if a path was included, verify that the path is correct and try again.\nAt line:1 char:1\n+ psql -h localhost -U spisa_user -d spisa\n+ ~~~~\n    + CategoryInfo          : ObjectNotFound: (psql:String) [], CommandNotFoundException\n    + FullyQualifiedErrorId : CommandNotFoundException\n";
    expect(shell('psql -h localhost -U spisa_user -d spisa', output).success).toBe(false);
  });

  it('reads a script Python could not compile as a failure, with no traceback’s header', () => {
    const script =
      '  File "/srv/ctf/the_big_bang/solve.py", line 47\n    return\n    ^^^^^^\nSyntaxError: \'return\' outside function\n';
    expect(shell('python solve.py', script).success).toBe(false);
    const indented =
      '  File "/app/manage.py", line 12\n    execute_from_command_line(sys.argv)\nIndentationError: unexpected indent\n';
    expect(shell('python manage.py migrate', indented).success).toBe(false);
  });

  it('reads Python’s compile error in Windows line ends as a failure (`python -c` in PowerShell)', () => {
    const output =
      '  File "<string>", line 1\r\n    s=\\\r\n       ^\r\nSyntaxError: unexpected EOF while parsing\r\n';
    expect(shell('python -c "s=\\"', output).success).toBe(false);
  });

  it('leaves a program’s own mention of a SyntaxError, with no compile report above it, as a success', () => {
    const output = 'checked 12 files\nSyntaxError: is raised by the parser, see docs/errors.md\n';
    expect(shell('python scripts/check_docs.py', output).success).toBe(true);
  });

  it('reads a script Node could not compile as a failure, and an error the script threw while running as it is', () => {
    const compile =
      "/home/deploy/app/frontend/craco.config.js:11\n        buffer: require.resolve(buffer/),\n                                       ^\n\nSyntaxError: Unexpected token ')'\n    at wrapSafe (node:internal/modules/cjs/loader:1464:18)\n    at Module._compile (node:internal/modules/cjs/loader:1495:20)\n";
    expect(shell('node craco.config.js', compile).success).toBe(false);
    const thrown =
      'SyntaxError: Unexpected token } in JSON at position 12\n    at JSON.parse (<anonymous>)\n    at readConfig (/home/deploy/app/scripts/check.js:4:15)\n';
    expect(shell('node scripts/check.js', thrown).success).toBe(true);
  });

  it('reads a command line PowerShell could not parse as a failure (Windows PowerShell and PowerShell 7)', () => {
    const windows =
      'At line:1 char:15\r\n+ echo "deploy done\r\n+               ~~~~~~~~~~~~\r\nThe string is missing the terminator: ".\r\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\r\n    + FullyQualifiedErrorId : TerminatorExpectedAtEndOfString\r\n \r\n';
    expect(shell('echo "deploy done', windows).success).toBe(false);
    const seven =
      '\u001b[31;1mParserError: \u001b[0m\r\n\u001b[31;1m\u001b[36;1mLine |\u001b[0m\r\n\u001b[31;1m\u001b[36;1m   1 | \u001b[0m $p = Get-Content app.tsx -Raw; $p -replace "a\r\n\u001b[31;1m     | The string is missing the terminator: ".\u001b[0m\r\n';
    expect(shell('$p = Get-Content app.tsx -Raw; $p -replace "a', seven).success).toBe(false);
  });

  it('reads a PowerShell command that could not find its path as a failure, as `cd: no such file` is', () => {
    const output =
      "cd : Cannot find path 'D:\\shop\\backend\\src\\Shop.Api' because it does not exist.\r\nAt line:1 char:1\r\n+ cd backend\\src\\Shop.Api\r\n+ ~~~~~~~~~~~~~~~~~~~~~~~\r\n    + CategoryInfo          : ObjectNotFound: (D:\\shop\\backend\\src\\Shop.Api:String) [Set-Location], ItemNotFoundException\r\n    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.SetLocationCommand\r\n";
    expect(shell('cd backend\\src\\Shop.Api', output).success).toBe(false);
    const seven = "Get-Content: Cannot find path '/home/dev/app/.env' because it does not exist.\n";
    expect(shell('Get-Content .env', seven).success).toBe(false);
  });

  it('reads a path that has a file where a folder should be as a failure', () => {
    const output = "ls: cannot access '/home/ken/platform/scripts/db-init.sql/': Not a directory\n";
    expect(shell('ls -la /home/ken/platform/scripts/db-init.sql/', output).success).toBe(false);
  });

  it('reads a statement a database’s shell could not run as a failure (SQLite, MySQL, PostgreSQL)', () => {
    const sqlite = [
      'Parse error: near "SELEC": syntax error\n  SELEC * FROM books;\n  ^--- error here\n',
      "Error: in prepare, near \"s\": syntax error\n   Surface', 'Red Team Blues'\n        error here ---^\n",
      'Error: no such table: ZBKLIBRARYASSET\n',
      'Runtime error near line 3: UNIQUE constraint failed: users.email (19)\n',
    ];
    for (const output of sqlite)
      expect(shell('sqlite3 app.db "SELECT * FROM books"', output).success).toBe(false);
    const mysql = "ERROR 1146 (42S02) at line 1: Table 'shop.orders_2024' doesn't exist\n";
    expect(shell('mysql -u root shop -e "SELECT * FROM orders_2024"', mysql).success).toBe(false);
    const psql =
      'ERROR:  relation "users" does not exist\nLINE 1: SELECT * FROM users;\n                      ^\n';
    expect(shell('psql -d app -c "SELECT * FROM users"', psql).success).toBe(false);
    const script = 'psql:migrations/003_add_index.sql:4: ERROR:  column "emial" does not exist\n';
    expect(shell('psql -d app -f migrations/003_add_index.sql', script).success).toBe(false);
  });

  it('reads a compiler’s error on a line of a source file as a failure (gcc, clang, javac)', () => {
    const gcc =
      "src/main.c: In function 'main':\nsrc/main.c:12:5: error: expected ';' before 'return'\n   12 |     printf(\"%d\", x)\n      |     ^\n";
    expect(shell('gcc -Wall -o main src/main.c', gcc).success).toBe(false);
    const header =
      'include/util.h:3:10: fatal error: \'config.h\' file not found\n#include "config.h"\n         ^~~~~~~~~~\n1 error generated.\n';
    expect(shell('clang -c src/util.c', header).success).toBe(false);
    const javac =
      'Main.java:5: error: cannot find symbol\n        Sytem.out.println("hi");\n        ^\n1 error\n';
    expect(shell('javac Main.java', javac).success).toBe(false);
  });

  it('reads a Go build stopped at a package’s errors, pip refusing a requirement and Docker’s daemon refusing as failures', () => {
    const go =
      '# example.com/shop/cart\ncart/total.go:12:5: undefined: Discount\ncart/total.go:19:2: declared and not used: rate\n';
    expect(shell('go build ./...', go).success).toBe(false);
    const pip =
      'ERROR: Could not find a version that satisfies the requirement torch==2.9.9 (from versions: 2.5.1, 2.6.0)\nERROR: No matching distribution found for torch==2.9.9\n';
    expect(shell('pip install torch==2.9.9', pip).success).toBe(false);
    const docker = 'Error response from daemon: No such container: api\n';
    expect(shell('docker logs api', docker).success).toBe(false);
  });

  it('reads a JavaScript bundler’s verdict that the build stopped as a failure (Vite, webpack, esbuild, Next.js)', () => {
    const vite =
      '\n> shop-ui@0.3.0 build\n> vite build\n\nvite v5.4.2 building for production...\n✓ 41 modules transformed.\nx Build failed in 812ms\nerror during build:\n[vite]: Rollup failed to resolve import "@/components/CartBadge" from "/home/ana/shop-ui/src/App.tsx".\n';
    expect(shell('npm run build', vite).success).toBe(false);
    const webpack =
      "ERROR in ./src/index.ts 3:0-32\nModule not found: Error: Can't resolve './api' in '/srv/app/src'\n\nwebpack 5.90.1 compiled with 1 error in 2143 ms\n";
    expect(shell('npx webpack --mode production', webpack).success).toBe(false);
    const esbuild =
      '✘ [ERROR] Could not resolve "./routes"\n\n    src/server.ts:4:23:\n      4 │ import { routes } from "./routes";\n        ╵                        ~~~~~~~~~~\n\n1 error\n';
    expect(shell('npx esbuild src/server.ts --bundle --outfile=dist/server.js', esbuild).success).toBe(false);
    const next =
      "Failed to compile.\n\n./app/page.tsx\nType error: Property 'title' does not exist on type 'Props'.\n";
    expect(shell('npm run build', next).success).toBe(false);
  });

  it('reads a JVM, .NET, Apple or CMake build’s verdict that it failed as a failure (Gradle, Maven, MSBuild, Xcode, CMake, Ninja)', () => {
    const outputs = [
      "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:compileDebugKotlin'.\n> Compilation error. See log for more details\n\nBUILD FAILED in 14s\n",
      '[INFO] ------------------------------------------------------------------------\n[INFO] BUILD FAILURE\n[INFO] ------------------------------------------------------------------------\n',
      'Build FAILED.\n\n    0 Warning(s)\n    1 Error(s)\n',
      '** BUILD FAILED **\n\n\nThe following build commands failed:\n\tCompileSwift normal arm64\n',
      'CMake Error at CMakeLists.txt:12 (find_package):\n  Could not find a package configuration file provided by "OpenCV"\n',
      'FAILED: src/CMakeFiles/app.dir/main.cpp.o\nninja: build stopped: subcommand failed.\n',
    ];
    for (const output of outputs) expect(shell('./build.sh', output).success).toBe(false);
  });

  it('leaves a build that succeeded, and prose naming a failed build, as a success', () => {
    const built =
      'vite v5.4.2 building for production...\n✓ 41 modules transformed.\ndist/index.html  0.46 kB\n✓ built in 1.12s\n';
    expect(shell('npm run build', built).success).toBe(true);
    const gradle = 'BUILD SUCCESSFUL in 9s\n42 actionable tasks: 42 executed\n';
    expect(shell('./gradlew assembleDebug', gradle).success).toBe(true);
    const notes = '## Troubleshooting\nIf you see "Build FAILED." the log above it says why.\n';
    expect(shell('cat docs/BUILD.md', notes).success).toBe(true);
  });

  it('leaves a search’s lines of Go files, with no package header above them, and pip’s warnings as a success', () => {
    const listing = 'cart/total.go:12:5: // TODO: discount\n';
    expect(shell('grep -rn TODO --include=*.go .', listing).success).toBe(true);
    const warning =
      "WARNING: Running pip as the 'root' user can result in broken permissions\nSuccessfully installed rich-13.9.4\n";
    expect(shell('pip install rich', warning).success).toBe(true);
  });

  it('leaves a search’s matching lines that hold an error’s words as a success', () => {
    const matches =
      'src/log.c:41:// error: keep this message short\nsrc/log.c:88:    fputs("error: disk full", stderr);\n';
    expect(shell('grep -n "error:" src/log.c', matches).success).toBe(true);
  });

  it('leaves rows a query returned that mention an error as a success', () => {
    const rows = 'id|level|message\n41|error|Error: payment declined\n42|warn|retrying ERROR: timeout\n';
    expect(shell('sqlite3 logs.db "SELECT * FROM events"', rows).success).toBe(true);
  });

  it('reads a hostile output holding every word these lines look for, over long runs of blank lines', () => {
    const blank = `${' \n'.repeat(8_000)}\t`;
    const words = [
      'ParserError',
      'SyntaxError: ',
      'Cannot find path',
      'Not a directory',
      'IndentationError: ',
      'Parse error',
      'Error: ',
      'ERROR ',
      'ERROR:  ',
      '.go:',
      'Error response from daemon: ',
    ];
    const output = words.map((word) => `${word}${blank}`).join('');
    expect(shell('./render.sh', output).success).toBe(true);
  });

  it('leaves a shell hook’s missing command under a command’s own output as a success', () => {
    const output =
      '[main 8dd8711] fix: update agent tests\n 2 files changed, 121 insertions(+), 288 deletions(-)\nzsh:1: command not found: dump_zsh_state\n';
    expect(shell('git commit -m "fix: update agent tests"', output).success).toBe(true);
  });

  it('leaves what a start-up script printed ahead of a command’s output out of how the command went', () => {
    const output =
      '/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted\n# BMM Module Configuration\nproject_name: nu\n';
    expect(shell('cat .bmad/bmm/config.yaml', output).success).toBe(true);
    const profile =
      '/home/unitree/.bash_profile: line 1: souce: command not found\nthe rosdep view is empty\n';
    expect(shell("sed -n '1,120p' /tmp/mapping_manager.log", profile).success).toBe(true);
  });

  it('still reads the command’s own failure after a start-up script’s line', () => {
    const output =
      '/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted\ncat: architecture.md: No such file or directory\n';
    expect(shell('cat architecture.md', output).success).toBe(false);
  });

  it('reads a script the command runs by name, and the shell itself, complaining as a failure', () => {
    const script = '/home/ctfplayer/ctf_files/run.sh: line 2: socat: command not found\n';
    expect(shell('~/ctf_files/run.sh', script).success).toBe(false);
    expect(shell('ping -c 4 web.example.io', '/bin/bash: line 221: ping: command not found\n').success).toBe(
      false,
    );
  });

  it('blocks a file printed again and again on a machine whose shell complains at every start', () => {
    const noise =
      '/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted\n';
    const loop = new NarrowingLoop({});
    const run = (command: string, body: string) => {
      const args = { command, workdir: '/Users/carlo/Desktop/Projects/xentri' };
      const verdict = loop.checkProposal({ tool: 'shell', args }).verdict;
      loop.recordOutcome(toolCallToOutcome('shell', args, `${noise}${body}`));
      return verdict;
    };
    const files: Record<string, string> = {
      'cat .bmad/core/tasks/workflow.xml':
        '<task id="workflow">\n  <objective>Run a workflow</objective>\n</task>\n',
      'cat .bmad/bmm/workflows/workflow-status/workflow.yaml':
        'name: workflow-status\ndescription: status checker\n',
      'cat .bmad/bmm/workflows/workflow-status/instructions.md':
        '# Workflow Status Check\n\nRead the status file.\n',
    };
    for (const [command, body] of Object.entries(files)) run(command, body);
    run('ls docs', 'architecture.md\nprd.md\n');
    const again = Object.entries(files).map(([command, body]) => run(command, body));
    expect(again.slice(0, 2)).toEqual(['allow', 'allow']);
    expect(again[2]).toBe('block');
  });

  it('reads a network client’s line for a failed transfer as a failure when the line’s status is the client’s', () => {
    const curl = 'curl: (22) The requested URL returned error: 404\n';
    expect(shell('cd /tmp && curl -fsSLO https://example.com/releases/v1.2/tool.tar.gz', curl).success).toBe(
      false,
    );
    const wget =
      '--2026-01-31 10:42:17--  https://example.com/releases/1.2/tool.tar.gz\nResolving example.com (example.com)... 93.184.215.14\nHTTP request sent, awaiting response... 404 Not Found\n2026-01-31 10:42:17 ERROR 404: Not Found.\n';
    expect(shell('wget https://example.com/releases/1.2/tool.tar.gz', wget).success).toBe(false);
  });

  it('leaves a network client’s failed transfer as a success where another command gives the line’s status', () => {
    const curl =
      'curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused\nserver down\n';
    expect(shell('curl -sS http://localhost:8080/health || echo "server down"', curl).success).toBe(true);
    expect(shell('curl -sS http://localhost:8080/health; echo done', `${curl}done\n`).success).toBe(true);
  });

  it('leaves a test run’s report of failed tests as a success: such reports come under a success as often', () => {
    const output =
      ' FAIL  tests/api/chat.test.ts\n  ✕ should validate required fields (12 ms)\n\nTests:       2 failed, 1 passed, 3 total\n';
    expect(shell('npm test -- -t "/api/ai/chat"', output).success).toBe(true);
  });

  it('leaves an exit status of 0 as a success whatever the output says, when the status is the command’s own', () => {
    const outcome = toolCallToOutcome(
      'run_terminal_cmd',
      { command: 'git status' },
      { exitCode: 0, stdout: 'fatal: not a git repository\n' },
    );
    expect(outcome.success).toBe(true);
  });

  it('leaves a file that holds such a line as it is when no command printed it', () => {
    const outcome = toolCallToOutcome('read_file', { target_file: 'notes.md' }, 'fatal: is what git says\n');
    expect(outcome.success).toBe(true);
  });

  it('judges a command the shell cannot find, run again, as when its failure is flagged', () => {
    const args = { command: 'exiftool cat.jpg' };
    const output = '/bin/bash: line 1: exiftool: command not found\n';
    const verdicts = (result: unknown) => {
      const loop = new NarrowingLoop({});
      const out: string[] = [];
      for (let run = 0; run < 3; run++) {
        out.push(loop.checkProposal({ tool: 'run_terminal_cmd', args }).verdict);
        loop.recordOutcome(toolCallToOutcome('run_terminal_cmd', args, result));
      }
      return out;
    };
    const flagged = verdicts({ content: [{ type: 'text', text: output }], isError: true });
    expect(flagged).toContain('block');
    expect(verdicts(output)).toEqual(flagged);
  });
});
