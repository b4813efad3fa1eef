import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../../src/adapters/tool-call/adapter.js';
import { toolCallToOutcome, toolCallToProposal } from '../../../src/adapters/tool-call/convert.js';
import { adapter } from './helpers.js';

function factsOf(tool: string, args: unknown, inputSchema?: unknown) {
  return adapter.describeCall(
    toolCallToProposal(tool, args, inputSchema === undefined ? {} : { inputSchema }),
  );
}

describe('targets', () => {
  it('normalises the path of a read', () => {
    expect(factsOf('Read', { file_path: './src/../src/index.ts' }).targets).toEqual(['src/index.ts']);
  });

  it('takes the collapsed command line as the target of a shell call', () => {
    expect(
      factsOf('Bash', { command: '  npm   test\n -- --run ', description: 'run tests' }).targets,
    ).toEqual(['npm test -- --run']);
  });

  it('takes the script of a shell given as a list for the target', () => {
    expect(factsOf('shell', { command: ['bash', '-lc', 'ls  -la'] }).targets).toEqual(['ls -la']);
  });

  it('joins any other command given as a list', () => {
    expect(factsOf('shell', { command: ['cargo', 'build', '--release'] }).targets).toEqual([
      'cargo build --release',
    ]);
  });

  it('does not take the working directory of a shell call for its target', () => {
    expect(factsOf('run_shell_command', { command: 'make', directory: 'pkg' }).targets).toEqual(['make']);
  });

  it('takes the files a Codex patch touches', () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/app.py',
      '@@ def main():',
      '-    print("hi")',
      '+    print("hello")',
      '*** Add File: ./docs/new.md',
      '+# New',
      '*** End Patch',
    ].join('\n');
    expect(factsOf('apply_patch', { input: patch }).targets).toEqual(['src/app.py', 'docs/new.md']);
  });

  it('takes the files a Codex-style patch touches under a key its host names itself', () => {
    const patch = '*** Begin Patch\n*** Add File: /home/dev/shop/.npmrc\n+engine-strict=true\n*** End Patch';
    expect(factsOf('apply_patch', { patchText: patch }).targets).toEqual(['/home/dev/shop/.npmrc']);
  });

  it('pairs a resource id with the tool noun', () => {
    expect(factsOf('get_issue', { owner: 'o', repo: 'r', issue_number: 7 }).targets).toEqual(['o/r:issue/7']);
    expect(factsOf('get_page', { id: 'p1' }).targets).toEqual(['page/p1']);
  });

  it('names the branch a branch-creating tool creates', () => {
    expect(factsOf('git_create_branch', { repo_path: '/w/repo', branch_name: 'feat' }).targets).toEqual([
      '/w/repo:branch/feat',
    ]);
  });

  it('keeps the branch of a read as a qualifier', () => {
    expect(factsOf('git_checkout', { repo_path: '/w/repo', branch_name: 'feat' }).targets).toEqual([
      '/w/repo@feat',
    ]);
  });

  it('uses the input schema to find target arguments', () => {
    const schema = { properties: { notebook: { type: 'string', description: 'The path of the notebook' } } };
    expect(factsOf('open_notebook', { notebook: 'a.ipynb' }, schema).targets).toEqual(['a.ipynb']);
  });

  it('takes targets from JSON-string arguments', () => {
    expect(factsOf('read_file', '{"path":"./a.txt"}').targets).toEqual(['a.txt']);
  });
});

describe('written text', () => {
  it('is the new string of an edit', () => {
    const facts = factsOf('Edit', { file_path: 'a.ts', old_string: 'x', new_string: 'y' });
    expect(facts.writtenText).toBe('y');
  });

  it('is the content of a write', () => {
    expect(factsOf('write_file', { path: 'a.ts', content: 'hello' }).writtenText).toBe('hello');
  });

  it('joins the new texts of several edits', () => {
    const args = {
      path: 'a.ts',
      edits: [
        { oldText: 'a', newText: 'b' },
        { oldText: 'c', newText: 'd' },
      ],
    };
    expect(factsOf('edit_file', args).writtenText).toBe('b\nd');
  });

  it('is the added lines of a patch', () => {
    const patch = '*** Begin Patch\n*** Update File: a.py\n-old\n+new line\n*** End Patch';
    expect(factsOf('apply_patch', { input: patch }).writtenText).toBe('new line');
  });

  it('is the replace blocks of a search/replace diff', () => {
    const diff = '------- SEARCH\nold line\n=======\nnew line\n+++++++ REPLACE';
    expect(factsOf('replace_in_file', { path: 'a.ts', diff }).writtenText).toBe('new line');
  });

  it('is absent for calls that do not write', () => {
    expect(factsOf('Read', { file_path: 'a.ts', content: 'ignored' }).writtenText).toBeUndefined();
  });
});

describe('whole-file writes', () => {
  it('replace their target, so a missing file does not stop them', () => {
    expect(factsOf('write_file', { path: 'notes.md', content: '# Notes' }).replacesTarget).toBe(true);
    expect(factsOf('Write', { file_path: '/w/a.ts', content: 'x' }).replacesTarget).toBe(true);
  });

  it('do not include edits, which need the file to exist', () => {
    const edit = { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' };
    expect(factsOf('Edit', edit).replacesTarget).toBeUndefined();
  });

  it('do not include content sent anywhere but a file', () => {
    expect(factsOf('update_comment', { comment_id: 5, content: 'x' }).replacesTarget).toBeUndefined();
  });
});

describe('hostile input', () => {
  it('survives arguments that are not objects', () => {
    expect(factsOf('read_file', 42).kind).toBe('read');
    expect(factsOf('read_file', null).targets).toEqual([]);
  });

  it('survives a huge tool name', () => {
    expect(factsOf('read_'.repeat(10_000), {}).kind).toBe('read');
  });

  it('survives arguments named like prototype keys', () => {
    const args = JSON.parse('{"__proto__": {"path": "x"}, "constructor": "y", "path": "z"}');
    expect(factsOf('read_file', args).targets).toEqual(['z']);
  });
});

describe('what a syntax error depends on', () => {
  const adapter = createToolCallAdapter();
  const failure = (command: string, text: string) => {
    const proposal = toolCallToProposal('bash', { command });
    const outcome = toolCallToOutcome(
      'bash',
      { command },
      { content: [{ type: 'text', text }], isError: true },
    );
    return adapter.describeFailure(outcome, adapter.describeCall(proposal));
  };

  it('is the file the output names', () => {
    const text = "/srv/app/src/util.js:3\n  return }\n         ^\n\nSyntaxError: Unexpected token '}'";
    expect(failure('node src/app.js', text)?.dependsOnFiles).toEqual(['/srv/app/src/util.js']);
  });

  it('is the script the command runs when the output names none', () => {
    expect(
      failure('node scripts/migrate.js --dry-run', 'SyntaxError: Unexpected token')?.dependsOnFiles,
    ).toEqual(['scripts/migrate.js']);
  });

  it('is everything when neither names a file', () => {
    expect(failure('npm run build', 'SyntaxError: Unexpected token')?.dependsOnFiles).toBeUndefined();
  });
});

describe('what decides whether a call fails', () => {
  it('keeps two scripts apart whose first lines match, when a comment follows them', () => {
    const script = (comment: string, body: string) =>
      factsOf('run_command', {
        command: `\nimport gmpy2\nfrom Crypto.Util.number import getPrime\n\n# ${comment}\n${body}\n`,
      });
    const first = script('Generate some random 512-bit primes', 'p = getPrime(512)');
    const second = script('Assuming the following values:', 'N = 110605350330688089474619635191331160419');
    expect(first.failureKey).not.toBe(second.failureKey);
  });

  it('keeps the keys the failures of a command are saved under, for plain words, quoted globs and a working directory alike', () => {
    const keyOf = (args: Record<string, unknown>) => factsOf('bash', args).failureKey;
    expect([
      keyOf({ command: 'npm test -- test/orders/parse.test.ts' }),
      keyOf({ command: "git add 'src/*.ts' && npx tsc --noEmit -p packages/orders" }),
      keyOf({ command: 'pytest -x tests/test_api.py', cwd: '/srv/app', description: 'run the api tests' }),
    ]).toEqual([
      'bash\u0000attempt\u0000#455d09506a644687',
      'bash\u0000attempt\u0000#ac8b8a2eb4b6c350',
      'bash\u0000attempt\u0000#5d8ed49c2dc07f15',
    ]);
  });

  it('reads the lines of a command apart, not as one command with their words', () => {
    expect(factsOf('bash', { command: 'cd src\nnpm test' }).failureKey).not.toBe(
      factsOf('bash', { command: 'cd src npm test' }).failureKey,
    );
  });

  it('keys a search-and-replace edit by its file and old text, not by its replacement', () => {
    const edit = (newStr: string) =>
      factsOf('str_replace_editor', {
        command: 'str_replace',
        path: 'src/match.c',
        old_str: 'return x;',
        new_str: newStr,
      });
    expect(edit('return y;').failureKey).toBeDefined();
    expect(edit('return y;').failureKey).toBe(edit('return z;').failureKey);
  });

  it('keys a failing edit by a hash of the text it looks for, so that a ban written to disk holds no file contents', () => {
    const secret = 'const apiKey = "sk-live-0123456789abcdefghij";\n'.repeat(40);
    const edit = (oldString: string, newString: string) =>
      factsOf('edit_file', { path: 'src/config.ts', old_string: oldString, new_string: newString });
    const key = edit(secret, 'const apiKey = process.env.API_KEY;').failureKey as string;
    expect(key).not.toContain('apiKey');
    expect(key).toContain('src/config.ts');
    expect(key.length).toBeLessThan(100);
    expect(edit(secret, 'export {};').failureKey).toBe(key);
    expect(edit(`${secret} `, 'export {};').failureKey).not.toBe(key);
  });

  it('says an edit that names no file acts on state its arguments do not show', () => {
    expect(factsOf('edit', { lines: '2:2', replacement: 'x = 1\n' }).actsOnHiddenState).toBe(true);
    expect(
      factsOf('edit_file', { path: 'a.py', old_string: 'x', new_string: 'y' }).actsOnHiddenState,
    ).toBeUndefined();
  });
});

describe('outside effects', () => {
  it('marks bookings, payments, messages and new records as doing something twice when repeated', () => {
    const calls: [string, Record<string, unknown>][] = [
      [
        'book_reservation',
        { user_id: 'mia_li_3668', origin: 'JFK', destination: 'SEA', flight_type: 'one_way' },
      ],
      ['cancel_reservation', { reservation_id: 'ZFA04Y' }],
      ['transfer_to_human_agents', { summary: 'The user wants a refund for a basic economy ticket.' }],
      ['send_certificate', { user_id: 'mia_li_3668', amount: 50 }],
      ['slack_post_message', { channel_id: 'C024BE91L', text: 'Deploy finished' }],
      ['create_issue', { owner: 'octo', repo: 'hello', title: 'Crash on start' }],
      ['payInvoice', { invoiceId: 'in_1001', amount: 42.5 }],
    ];
    for (const [tool, args] of calls) expect(factsOf(tool, args).sideEffect, tool).toBe(true);
  });

  it('does not mark reads, searches, edits, files or commands', () => {
    const calls: [string, Record<string, unknown>][] = [
      ['get_reservation_details', { reservation_id: 'ZFA04Y' }],
      ['get_order_status', { order_id: 'A-1001' }],
      ['search_direct_flight', { origin: 'JFK', destination: 'SEA', date: '2024-05-20' }],
      ['update_reservation_flights', { reservation_id: 'ZFA04Y', cabin: 'economy' }],
      ['create_file', { path: 'src/new.ts', content: 'export {};\n' }],
      ['Bash', { command: 'git commit -m "add booking"' }],
      ['list_books', { shelf: 'fiction' }],
    ];
    for (const [tool, args] of calls) expect(factsOf(tool, args).sideEffect, tool).toBeUndefined();
  });

  it('trusts an MCP annotation that the tool is idempotent', () => {
    const proposal = toolCallToProposal(
      'create_or_get_customer',
      { email: 'mia@example.com' },
      { annotations: { idempotentHint: true, readOnlyHint: false } },
    );
    expect(adapter.describeCall(proposal).sideEffect).toBeUndefined();
  });
});

describe('the service a call talks to', () => {
  it('names the MCP server a tool belongs to', () => {
    expect(
      factsOf('mcp__github__create_issue', { owner: 'octo', repo: 'hello', title: 'Crash' }).service,
    ).toBe('github');
    expect(factsOf('mcp__slack__slack_post_message', { channel_id: 'C024BE91L', text: 'hi' }).service).toBe(
      'slack',
    );
    expect(factsOf('github.list_issues', { owner: 'octo', repo: 'hello' }).service).toBe('github');
  });

  it('puts the tools of a name without a server in one service', () => {
    const calls: [string, Record<string, unknown>][] = [
      ['cancel_reservation', { reservation_id: 'ZFA04Y' }],
      ['get_reservation_details', { reservation_id: 'ZFA04Y' }],
      ['search_direct_flight', { origin: 'JFK', destination: 'SEA', date: '2024-05-20' }],
      ['update_reservation_flights', { reservation_id: 'ZFA04Y', cabin: 'economy' }],
    ];
    for (const [tool, args] of calls) expect(factsOf(tool, args).service, tool).toBe('');
  });

  it('gives calls on files, commands and the agent notes no service', () => {
    const calls: [string, Record<string, unknown>][] = [
      ['read_file', { path: 'src/config.ts' }],
      ['Edit', { file_path: '/repo/README.md', old_string: 'a', new_string: 'b' }],
      ['mcp__github__get_file_contents', { owner: 'octo', repo: 'hello', path: 'README.md' }],
      ['Bash', { command: 'curl -X POST https://api.example.com/orders' }],
      ['think', { thought: 'The flight is full; look for another.' }],
    ];
    for (const [tool, args] of calls) expect(factsOf(tool, args).service, tool).toBeUndefined();
  });
});

describe('commands that start or stop something', () => {
  it.each(['debug_stop', 'connect_start pwn.example.io 9999', './stop_server.sh'])(
    'reads %j, a program named for starting or stopping, as a start or stop',
    (command) => {
      expect(factsOf('bash', { command }).startsOrStops).toBe(true);
    },
  );

  it.each(['npm start', 'docker stop shop-app', 'debug_step', 'python3 exploit.py'])(
    'leaves %j to what the line does',
    (command) => {
      expect(factsOf('bash', { command }).startsOrStops).toBeUndefined();
    },
  );
});

describe('a command that runs one script file', () => {
  it.each([
    'python3 solve.py',
    'python eccentric_solver.py',
    './run_check.sh',
    'cd ~/ctf_files && node exploit.js',
    '~/ctf_files/chal/decode.sh',
    'python3 "solve step 2.py"',
    'cd /srv/ctf; ./decode.sh',
    'PYTHONPATH=. python3 tools/check_flag.py',
  ])('reads %s as running a script and nothing else', (command) => {
    expect(factsOf('bash', { command }).runsScript).toBe(true);
  });

  it.each([
    "find /testbed -name '*.sh' -exec chmod 755 {} +",
    'python3 solve.py > out.txt',
    'python3 solve.py | tee log.txt',
    'python3 -c "print(1)"',
    'python3 -m http.server 8000',
    'python3 gen.py && python3 solve.py',
    'ls ./dist/',
    'python3 "$SOLVER"',
    'python3 solve.py &',
    'cd /srv/ctf || ./decode.sh',
    './decode.sh; cd /srv',
    `python3 ${'a/'.repeat(600)}solve.py`,
  ])('does not read %s as running one script', (command) => {
    expect(factsOf('bash', { command }).runsScript).toBeUndefined();
  });
});

describe('work started in the background', () => {
  it('is what a call asked to run in the background starts, as Claude Code, Gemini CLI and Cursor ask', () => {
    const subagent = { description: 'Create 03 + 04', prompt: 'Write the files', run_in_background: true };
    expect(factsOf('Agent', subagent).startsBackgroundWork).toBe(true);
    expect(factsOf('Bash', { command: 'npm run dev', run_in_background: true }).startsBackgroundWork).toBe(
      true,
    );
    expect(
      factsOf('run_shell_command', { command: 'npm run dev', is_background: true }).startsBackgroundWork,
    ).toBe(true);
    expect(factsOf('Bash', { command: 'npm run dev', run_in_background: false }).startsBackgroundWork).toBe(
      undefined,
    );
  });

  it('is what a shell line sends to the background, and not what it redirects or chains', () => {
    expect(
      factsOf('Bash', { command: 'nohup python worker.py > worker.log 2>&1 &' }).startsBackgroundWork,
    ).toBe(true);
    expect(
      factsOf('Bash', { command: 'npm run dev & sleep 5 && curl -s localhost:3000' }).startsBackgroundWork,
    ).toBe(true);
    expect(factsOf('Bash', { command: 'npm run build && npm test 2>&1' }).startsBackgroundWork).toBe(
      undefined,
    );
    expect(factsOf('Bash', { command: 'make &> build.log' }).startsBackgroundWork).toBe(undefined);
  });
});
