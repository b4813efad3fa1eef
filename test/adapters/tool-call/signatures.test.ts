import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../../src/adapters/tool-call/adapter.js';
import { toolCallToOutcome } from '../../../src/adapters/tool-call/convert.js';
import { parseRetryAfter, TOOL_CALL_SIGNATURES } from '../../../src/adapters/tool-call/signatures.js';
import { adapter, failureOf } from './helpers.js';

const READ = { path: 'config/prod.yaml' };
const FETCH = { url: 'https://api.example.com/v1/items' };
const BASH = { command: 'npm test' };

/** Each command's failure read as `blame`: a list of commands and texts, told apart by command when one is not. */
function expectEveryBlame(cases: readonly (readonly [string, string])[], blame: string): void {
  expect(cases.map(([command, text]) => [command, failureOf('Bash', { command }, text)?.blame])).toEqual(
    cases.map(([command]) => [command, blame]),
  );
}

function signatureOf(tool: string, args: Record<string, unknown>, text: string): string | undefined {
  return failureOf(tool, args, text)?.signature;
}

describe('the signature list', () => {
  it('has the paper twelve, in priority order', () => {
    expect(adapter.signatures).toEqual([
      'tool_timeout',
      'tool_not_found',
      'permission_denied',
      'rate_limited',
      'file_not_found',
      'syntax_error',
      'edit_failed',
      'command_failed',
      'validation_error',
      'conflict',
      'empty_result',
      'api_error',
    ]);
    expect(TOOL_CALL_SIGNATURES).toHaveLength(12);
  });
});

describe('tool_timeout', () => {
  it('recognises a request that timed out, as a harness fault', () => {
    expect(failureOf('fetch', FETCH, 'Request timed out after 30s')).toMatchObject({
      signature: 'tool_timeout',
      blame: 'harness_fault',
      deterministic: false,
    });
  });

  it('recognises the MCP SDK request timeout and ETIMEDOUT', () => {
    expect(signatureOf('fetch', FETCH, 'MCP error -32001: Request timed out')).toBe('tool_timeout');
    expect(signatureOf('fetch', FETCH, 'connect ETIMEDOUT 10.0.0.7:443')).toBe('tool_timeout');
  });

  it('recognises a gateway timeout status', () => {
    expect(signatureOf('fetch', FETCH, 'Request failed with status code 504')).toBe('tool_timeout');
  });

  it('does not take a test timeout inside command output for a harness timeout', () => {
    const output =
      'RUN v4\n FAIL src/slow.test.ts > waits\nError: Test timed out in 5000ms.\n Tests  1 failed\nexit code 1';
    expect(failureOf('Bash', BASH, output)).toMatchObject({
      signature: 'command_failed',
      blame: 'agent_failure',
    });
  });

  it('believes a timeout the harness reports on the first line of command output', () => {
    expect(failureOf('Bash', BASH, 'Command timed out after 2m 0.0s\npartial output')?.signature).toBe(
      'tool_timeout',
    );
  });
});

describe('cancelled calls', () => {
  it.each([
    'MCP error -32800: Request cancelled',
    'Request was cancelled.',
    'AbortError: This operation was aborted',
    'The operation was canceled.',
    'asyncio.exceptions.CancelledError',
  ])('blames the environment for a call cancelled from outside: %s', (text) => {
    expect(failureOf('read_file', READ, text)).toMatchObject({
      blame: 'harness_fault',
      deterministic: false,
    });
  });

  it('blames the environment for an aborted call by its exception name alone', () => {
    const aborted = Object.assign(new Error('The user aborted a request.'), { name: 'AbortError' });
    const outcome = toolCallToOutcome('web_fetch', FETCH, aborted);
    expect(outcome.exceptionName).toBe('AbortError');
    expect(
      adapter.describeFailure(outcome, adapter.describeCall({ tool: 'web_fetch', args: FETCH })),
    ).toMatchObject({
      blame: 'harness_fault',
    });
  });

  it('leaves a command that aborted its own work to the other rules', () => {
    expect(
      failureOf(
        'Bash',
        { command: 'git rebase main' },
        'error: could not apply 3f2c1e0... fix\nhint: To abort and get back to the state before, run "git rebase --abort".',
      )?.blame,
    ).not.toBe('harness_fault');
  });
});

describe('tool_not_found', () => {
  it('blames the call for an unknown tool: in that session the identical call fails every time', () => {
    expect(failureOf('nope', {}, 'MCP error -32602: Tool nope not found')).toMatchObject({
      signature: 'tool_not_found',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('recognises Claude Code and generic wording', () => {
    expect(signatureOf('Foo', {}, 'Error: No such tool available: Foo')).toBe('tool_not_found');
    expect(signatureOf('foo', {}, 'Unknown tool: foo')).toBe('tool_not_found');
  });

  it('does not take a missing shell command for a missing tool', () => {
    expect(signatureOf('Bash', { command: 'foo' }, 'bash: foo: command not found')).toBe('command_failed');
  });
});

describe('permission_denied', () => {
  it('recognises EACCES as a harness fault', () => {
    expect(failureOf('read_file', READ, "EACCES: permission denied, open '/etc/shadow'")).toMatchObject({
      signature: 'permission_denied',
      blame: 'harness_fault',
    });
  });

  it('recognises 403 only in an HTTP context', () => {
    expect(signatureOf('fetch', FETCH, 'HTTP 403 Forbidden')).toBe('permission_denied');
    expect(signatureOf('fetch', FETCH, 'Request failed with status code 403')).toBe('permission_denied');
  });

  it('does not take "line 403" for a forbidden response', () => {
    expect(failureOf('read_file', READ, 'YAML error at line 403')?.signature).not.toBe('permission_denied');
  });

  it('reads a path outside the server sandbox as the agent’s choice of path', () => {
    const text = 'Access denied - path outside allowed directories: /etc/passwd not in /tmp/ws';
    expect(failureOf('read_text_file', { path: '/etc/passwd' }, text)).toMatchObject({
      signature: 'permission_denied',
      blame: 'agent_failure',
    });
  });

  it('reads a page a site’s robots.txt keeps a fetch tool from as the agent’s choice of page', () => {
    const refused =
      'The sites robots.txt (https://www.acme-news.com/robots.txt), specifies that autonomous fetching of this page is not allowed, <useragent>ModelContextProtocol/1.0 (Autonomous; +https://github.com/modelcontextprotocol/servers)</useragent>\n<url>https://www.acme-news.com/2026/11/sdk-release</url>';
    for (const text of [
      refused,
      'Error: https://www.acme-news.com/2026/11/sdk-release is disallowed by robots.txt',
    ]) {
      expect(failureOf('fetch', FETCH, text), text).toMatchObject({
        signature: 'permission_denied',
        blame: 'agent_failure',
        deterministic: true,
      });
    }
  });

  it('does not read a robots.txt the server could not get as the agent’s choice of page', () => {
    const text =
      'When fetching robots.txt (https://www.acme-news.com/robots.txt), received status 503 so assuming that autonomous fetching is not allowed, the user can try manually fetching by using the fetch prompt';
    expect(failureOf('fetch', FETCH, text)?.blame).not.toBe('agent_failure');
  });
});

describe('rate_limited', () => {
  it('recognises HTTP 429 and reads Retry-After', () => {
    expect(failureOf('fetch', FETCH, 'HTTP 429 Too Many Requests (retry-after: 2)')).toMatchObject({
      signature: 'rate_limited',
      blame: 'harness_fault',
      retryAfterSeconds: 2,
    });
  });

  it('recognises provider wording', () => {
    expect(signatureOf('fetch', FETCH, 'Rate limit reached for gpt-4o. Please try again in 20s.')).toBe(
      'rate_limited',
    );
    expect(signatureOf('fetch', FETCH, '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}')).toBe(
      'rate_limited',
    );
  });

  it('prefers the Retry-After the harness measured', () => {
    const outcome = toolCallToOutcome('fetch', FETCH, new Error('Too Many Requests'), {
      retryAfterSeconds: 7,
    });
    expect(adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))?.retryAfterSeconds).toBe(
      7,
    );
  });

  it('does not take a bare 429 for a rate limit', () => {
    expect(signatureOf('fetch', FETCH, 'processed 429 items before failing')).not.toBe('rate_limited');
  });
});

describe('file_not_found', () => {
  it('recognises the Node ENOENT message and bans reads of the missing target', () => {
    const text = "ENOENT: no such file or directory, open 'config/prod.yaml'";
    expect(failureOf('read_file', READ, text)).toMatchObject({
      signature: 'file_not_found',
      blame: 'agent_failure',
      deterministic: true,
      meaning: 'target-missing',
    });
  });

  it('recognises the MCP filesystem server wording', () => {
    const text = "Error: ENOENT: no such file or directory, open '/tmp/x'";
    expect(signatureOf('read_text_file', { path: '/tmp/x' }, text)).toBe('file_not_found');
  });

  it('recognises the Python and coreutils wordings', () => {
    const python = "FileNotFoundError: [Errno 2] No such file or directory: 'x.py'";
    expect(signatureOf('Bash', { command: 'python x.py' }, python)).toBe('file_not_found');
    expect(signatureOf('Bash', { command: 'cat foo.txt' }, 'cat: foo.txt: No such file or directory')).toBe(
      'file_not_found',
    );
  });

  it('recognises Claude Code and Gemini CLI wordings', () => {
    expect(signatureOf('Read', { file_path: '/w/a.ts' }, 'File does not exist.')).toBe('file_not_found');
    expect(signatureOf('read_file', { absolute_path: '/w/a.ts' }, 'File not found: /w/a.ts')).toBe(
      'file_not_found',
    );
  });

  it('keeps a missing file inside a command to that command', () => {
    expect(
      failureOf('Bash', { command: 'cat foo.txt' }, 'cat: foo.txt: No such file or directory')?.meaning,
    ).toBe('call');
  });

  it('does not take a function not found in a binary for a missing binary', () => {
    const args = { path: '~/ctf_files/chall.class', function: 'main' };
    const failure = failureOf(
      'disassemble_function',
      args,
      'Function main not found in ~/ctf_files/chall.class',
    );
    expect(failure?.signature).toBe('file_not_found');
    expect(failure?.meaning).toBe('call');
  });

  it('still takes a file missing from another folder for a missing target', () => {
    const text = 'config.yaml not found in /srv/app';
    expect(failureOf('read_file', { path: '/srv/app/config.yaml' }, text)?.meaning).toBe('target-missing');
  });

  it('does not generalise a whole-file write that failed on a missing parent', () => {
    const text = "ENOENT: no such file or directory, open '/w/sub/deep/x.txt'";
    expect(failureOf('write_file', { path: '/w/sub/deep/x.txt', content: 'x' }, text)?.meaning).toBe('call');
  });

  it('treats an edit of a missing file as target-missing', () => {
    const args = { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' };
    expect(failureOf('Edit', args, 'File does not exist.')?.meaning).toBe('target-missing');
  });

  it('reads a 404 status of a read as a missing target', () => {
    expect(
      failureOf('get_file_contents', { owner: 'o', repo: 'r', path: 'x.md' }, 'x', { status: 404 }),
    ).toMatchObject({ signature: 'file_not_found', meaning: 'target-missing' });
  });
});

describe('syntax_error', () => {
  it('recognises a SyntaxError as deterministic', () => {
    expect(failureOf('Bash', { command: 'node x.js' }, 'SyntaxError: Unexpected token')).toMatchObject({
      signature: 'syntax_error',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('recognises Python and JSON parse errors', () => {
    expect(signatureOf('Bash', { command: 'python x.py' }, 'IndentationError: unexpected indent')).toBe(
      'syntax_error',
    );
    expect(signatureOf('api', { body: '{' }, 'Unexpected end of JSON input')).toBe('syntax_error');
  });

  it("reads MySQL's and MariaDB's refusal of a statement as the agent's, however a driver words its code", () => {
    const query = {
      query: 'SELECT first_name FROM students WHERE pet_name IS NOT NULL\nThis query selects…',
    };
    for (const text of [
      "Error executing query: You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'This query selects…' at line 2",
      '(1064, "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near \'FORM students\' at line 1")',
    ]) {
      expect(failureOf('execute_sql', query, text)).toMatchObject({
        signature: 'syntax_error',
        blame: 'agent_failure',
        deterministic: true,
      });
    }
  });

  it('reads a harness refusing a command line it could not parse as the shell refusing its syntax', () => {
    const inline = { command: `python3 -c 'for c in s: print(c)'` };
    for (const text of [
      'Malformed command',
      'error: could not parse the command line',
      'malformed input',
      'Command rejected because it could not be parsed safely',
    ]) {
      expect(failureOf('bash', inline, text)).toMatchObject({
        signature: 'syntax_error',
        blame: 'agent_failure',
        deterministic: true,
      });
    }
  });

  it('leaves a malformed answer of a service to the service rules', () => {
    expect(signatureOf('web_fetch', FETCH, 'upstream sent a malformed response')).not.toBe('syntax_error');
  });
});

describe('files a syntax error depends on', () => {
  it('names the file Python points at', () => {
    const output =
      '  File "/w/app/models.py", line 12\n    def f(:\n          ^\nSyntaxError: invalid syntax';
    expect(failureOf('Bash', { command: 'python -m app' }, output)?.dependsOnFiles).toEqual([
      '/w/app/models.py',
    ]);
  });

  it('names the files tsc and Node point at', () => {
    const tsc =
      "src/a.ts(3,5): error TS1005: ';' expected.\nsrc/b.ts:7:1 - error TS1128: Declaration expected.";
    expect(failureOf('Bash', { command: 'npx tsc' }, tsc)?.dependsOnFiles).toEqual(['src/a.ts', 'src/b.ts']);
    const node = '/w/src/index.js:3\n  foo(\n     ^\n\nSyntaxError: Unexpected end of input';
    expect(failureOf('Bash', { command: 'node src/index.js' }, node)?.dependsOnFiles).toEqual([
      '/w/src/index.js',
    ]);
  });

  it('names nothing when the output names no file, so the whole workspace counts', () => {
    const bash = "bash: -c: line 1: syntax error near unexpected token `)'";
    expect(failureOf('Bash', { command: 'echo )' }, bash)).toMatchObject({ signature: 'syntax_error' });
    expect(failureOf('Bash', { command: 'echo )' }, bash)?.dependsOnFiles).toBeUndefined();
  });

  it('names at most sixteen of the files a long compiler output points at, the first ones', () => {
    const lines = Array.from({ length: 20 }, (_, index) => `error in src/module-${index}.c:3: expected ';'`);
    const named = failureOf('Bash', { command: 'make' }, `${lines.join('\n')}\nsyntax error`)?.dependsOnFiles;
    expect(named).toEqual(Array.from({ length: 16 }, (_, index) => `src/module-${index}.c`));
  });

  it('names nothing for other failures of commands', () => {
    expect(failureOf('Bash', BASH, 'FAIL src/a.test.ts:3\nexit code 1')?.dependsOnFiles).toBeUndefined();
  });
});

describe('quoted arguments', () => {
  it('do not count as the verdict: an old_string mentioning 401 and unauthorized is still a failed edit', () => {
    const oldString = "  if (!user) {\n    return res.status(401).json({ error: 'unauthorized' });\n  }";
    const args = { file_path: '/w/src/auth.ts', old_string: oldString, new_string: 'x' };
    const text =
      "<tool_use_error>String to replace not found in file.\nString:   if (!user) { return res.status(401).json({ error: 'unauthorized' }); }</tool_use_error>";
    expect(failureOf('Edit', args, text)).toMatchObject({ signature: 'edit_failed', blame: 'agent_failure' });
  });

  it('do not hide the verdict when the argument is short', () => {
    expect(signatureOf('read_file', { path: 'a.md' }, "ENOENT: no such file or directory, open 'a.md'")).toBe(
      'file_not_found',
    );
  });
});

describe('edit_failed', () => {
  const edit = { file_path: '/w/app/models.py', old_string: 'class User:', new_string: 'class Account:' };

  it('recognises the Claude Code Edit message and names the missing text', () => {
    expect(failureOf('Edit', edit, 'String to replace not found in file.')).toMatchObject({
      signature: 'edit_failed',
      blame: 'agent_failure',
      deterministic: true,
      meaning: 'content-missing',
      needle: 'class User:',
    });
  });

  it('recognises the other editors wordings', () => {
    expect(signatureOf('Edit', edit, 'Error: old_string not found in app/models.py')).toBe('edit_failed');
    expect(signatureOf('edit', edit, 'search string not found in file: "x"')).toBe('edit_failed');
    const gemini = 'Failed to edit, 0 occurrences found for old_string in /w/app/models.py. No edits made.';
    expect(signatureOf('replace', edit, gemini)).toBe('edit_failed');
    const anthropic = 'No replacement was performed, old_str `x` did not appear verbatim in /w/a.py.';
    expect(
      signatureOf('str_replace_based_edit_tool', { command: 'str_replace', path: '/w/a.py' }, anthropic),
    ).toBe('edit_failed');
  });

  it('takes the needle the filesystem server quotes from several edits', () => {
    const args = {
      path: '/w/a.txt',
      edits: [
        { oldText: 'first', newText: '1' },
        { oldText: 'second', newText: '2' },
      ],
    };
    expect(failureOf('edit_file', args, 'Could not find exact match for edit:\nsecond')).toMatchObject({
      signature: 'edit_failed',
      meaning: 'content-missing',
      needle: 'second',
    });
  });

  it('reads a Roo diff that does not match, with the search block as the missing text', () => {
    const diff =
      '<<<<<<< SEARCH\n:start_line:14\n-------\n  const [cart] = useState([]);\n=======\n  const [cart] = useState<Item[]>([]);\n>>>>>>> REPLACE';
    const text =
      'Unable to apply diff to file: /w/src/App.tsx\n\n<error_details>\nNo sufficiently similar match found at line: 14';
    expect(failureOf('apply_diff', { path: 'src/App.tsx', diff }, text)).toMatchObject({
      signature: 'edit_failed',
      meaning: 'content-missing',
      needle: '  const [cart] = useState([]);',
    });
  });

  it("reads Aider's reply to a SEARCH block that matches no lines, with the search text as the missing text", () => {
    const args = {
      path: 'src/components/Footer.tsx',
      search: '  <footer className="site-footer">',
      replace: '  <footer className="site-footer" role="contentinfo">',
    };
    const text =
      '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in src/components/Footer.tsx\n' +
      '<<<<<<< SEARCH\n  <footer className="site-footer">\n=======\n  <footer className="site-footer" role="contentinfo">\n>>>>>>> REPLACE\n\n' +
      'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc';
    expect(failureOf('edit_file', args, text)).toMatchObject({
      signature: 'edit_failed',
      blame: 'agent_failure',
      deterministic: true,
      meaning: 'content-missing',
      needle: '  <footer className="site-footer">',
    });
  });

  it('reads a Codex patch whose lines are not in the file, with the hunk its tool quotes as the missing text', () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: crypto-wallet-backend/internal/domain/entities/user.go',
      '@@',
      ' \tIsEmailVerified() bool',
      '+\tSetTwoFactorSecret(secret string)',
      '@@ func (u *User) GetLastLoginAt() *time.Time {',
      ' \treturn u.lastLoginAt',
      '-}',
      '+}\n',
      '*** End Patch',
    ].join('\n');
    const text =
      'apply_patch verification failed: Failed to find expected lines in /home/dev/crypto-wallet/crypto-wallet-backend/internal/domain/entities/user.go:\n\treturn u.lastLoginAt\n}';
    expect(failureOf('apply_patch', { patch }, text)).toMatchObject({
      signature: 'edit_failed',
      blame: 'agent_failure',
      meaning: 'content-missing',
      needle: '\treturn u.lastLoginAt\n}',
    });
  });

  it('keeps a patch run through the shell at the call: a command names no file the text could be added to', () => {
    const command =
      "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: src/app.py\n@@\n-import os\n+import sys\n*** End Patch\nPATCH";
    const text =
      'apply_patch verification failed: Failed to find expected lines in /w/src/app.py:\nimport os';
    expect(failureOf('shell', { command }, text)).toMatchObject({ meaning: 'call' });
  });

  it('does not call ambiguous text missing', () => {
    const text = 'Found 3 matches of the string to replace, but replace_all is false.';
    expect(failureOf('Edit', edit, text)).toMatchObject({ signature: 'edit_failed', meaning: 'call' });
  });

  it('stays at the call when the edit has no search text', () => {
    expect(
      failureOf(
        'apply_patch',
        { input: 'x' },
        'apply_patch verification failed: Failed to find expected lines',
      ),
    ).toMatchObject({ signature: 'edit_failed', meaning: 'call' });
  });
});

describe('command_failed', () => {
  it('blames nobody for an npm lifecycle failure that says no more', () => {
    expect(failureOf('Bash', BASH, 'npm ERR! code ELIFECYCLE\nnpm ERR! errno 1')).toMatchObject({
      signature: 'command_failed',
      blame: 'unknown',
      deterministic: false,
    });
  });

  it('recognises a failing test run', () => {
    const output =
      ' FAIL  src/sum.test.ts > sum > adds\nAssertionError: expected 3 to be 4\n Test Files  1 failed\nexit code 1';
    expect(signatureOf('Bash', BASH, output)).toBe('command_failed');
  });

  it('does not read exit code 0 as a failed command', () => {
    expect(signatureOf('read_file', READ, 'done, exit code 0')).toBe('api_error');
  });

  it('calls any failed shell command a failed command, with nobody to blame, when nothing else is recognised', () => {
    expect(failureOf('run_shell_command', { command: 'make' }, 'something odd happened')).toMatchObject({
      signature: 'command_failed',
      blame: 'unknown',
    });
  });
});

describe('validation_error', () => {
  it("reads MySQL's refusals of what a statement names or groups as the agent's", () => {
    const query = { query: 'SELECT name FROM students JOIN pets ON students.id = pets.owner_id' };
    for (const text of [
      "Error executing query: Column 'name' in field list is ambiguous",
      "Error executing query: Not unique table/alias: 'students'",
      'Error executing query: Every derived table must have its own alias',
      'Error executing query: Invalid use of group function',
      "Error executing query: Expression #1 of SELECT list is not in GROUP BY clause and contains nonaggregated column 'pets_1.students.name'",
      'Error executing query: Subquery returns more than 1 row',
      'Error executing query: Operand should contain 1 column(s)',
      'ERROR 1222 (21000): The used SELECT statements have a different number of columns',
    ]) {
      expect(failureOf('execute_sql', query, text)).toMatchObject({
        signature: 'validation_error',
        blame: 'agent_failure',
      });
    }
  });

  it('reads a text game refusing a command that does nothing where the player stands as the agent’s', () => {
    expect(failureOf('take', { input: 'knife 1 from cabinet 2' }, 'Nothing happens.')).toMatchObject({
      signature: 'validation_error',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('does not read output that only mentions nothing happening as a game’s refusal', () => {
    const text = 'Nothing happens if the queue is empty; retry later.';
    expect(failureOf('shell', { command: 'worker --drain' }, text)?.signature).not.toBe('validation_error');
  });

  it('reads input typed into a command whose input is closed as a write refused every time', () => {
    const text =
      'write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true to keep stdin open';
    expect(failureOf('write_stdin', { session_id: 28178, chars: '\u0003' }, text)).toMatchObject({
      signature: 'validation_error',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('reads a search pattern the search program cannot take as written as the agent failure', () => {
    const text =
      'rg: the literal "\\n" is not allowed in a regex\n\nConsider enabling multiline mode with the --multiline flag (or -U for short).';
    expect(failureOf('shell', { command: 'rg "retry\\nbackoff" src' }, text)).toMatchObject({
      signature: 'validation_error',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('recognises MCP input validation as the agent failure', () => {
    const text =
      'MCP error -32602: Input validation error: Invalid arguments for tool get-sum: expected number';
    expect(failureOf('get-sum', { a: 'x', b: 2 }, text)).toMatchObject({
      signature: 'validation_error',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('recognises a bad request whose body says a value is invalid', () => {
    const text =
      'Bad request - please check your parameters\n{"status":"error","message":"Property values were not valid"}';
    expect(failureOf('Create_HubSpot_Contact', { email: 'jane.doe@' }, text)).toMatchObject({
      signature: 'validation_error',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it("blames the agent when a text game's parser did not understand the command it was sent", () => {
    for (const text of [
      "That's not a verb I recognise.",
      'I only understood you as far as wanting to take inventory.',
      "I didn't understand that sentence.",
    ])
      expect(failureOf('command', { input: 'walk carefully to the north' }, text)).toMatchObject({
        signature: 'validation_error',
        blame: 'agent_failure',
      });
  });

  it('blames the agent when a checker refuses the answer it was given', () => {
    for (const text of ['Incorrect flag', 'Wrong answer! Try again.', "That's not the correct solution."])
      expect(failureOf('check_flag', { flag: 'flag{farmer}' }, text)).toMatchObject({
        signature: 'validation_error',
        blame: 'agent_failure',
      });
  });

  it('blames the agent when an interpreter asks back for what the command left out', () => {
    expect(failureOf('open', {}, 'What do you want to open?')).toMatchObject({
      signature: 'validation_error',
      blame: 'agent_failure',
    });
    expect(failureOf('go', {}, "You'll have to say which compass direction to go in.")).toMatchObject({
      signature: 'validation_error',
      blame: 'agent_failure',
    });
  });

  it('recognises HTTP 400 only in an HTTP context', () => {
    expect(signatureOf('fetch', FETCH, '400 Bad Request')).toBe('validation_error');
    expect(signatureOf('fetch', FETCH, 'Prompt is 4000 tokens long')).not.toBe('validation_error');
  });

  it('does not treat an edit before reading as deterministic', () => {
    const text = 'File has not been read yet. Read it first before writing to it.';
    expect(failureOf('Edit', { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' }, text)).toMatchObject(
      {
        signature: 'validation_error',
        deterministic: false,
        meaning: 'call',
      },
    );
  });

  it('says the target changed under the agent when an editor refuses an edit as modified since read', () => {
    const claude =
      '<tool_use_error>File has been modified since read, either by the user or by a linter. ' +
      'Read it again before attempting to write it.</tool_use_error>';
    const other =
      'Error: File /w/a.ts has been modified since it was last read.\nLast modification: 2026-03-02T10:00:12.000Z\n' +
      'Last read: 2026-03-02T10:00:02.000Z\n\nPlease read the file again before modifying it.';
    expect(
      failureOf('Edit', { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' }, claude),
    ).toMatchObject({
      targetChangedSinceRead: true,
    });
    expect(failureOf('edit', { filePath: '/w/a.ts', oldString: 'a', newString: 'b' }, other)).toMatchObject({
      targetChangedSinceRead: true,
    });
  });

  it('does not say the target changed when the editor only asks for a first read', () => {
    const text = 'File has not been read yet. Read it first before writing to it.';
    expect(
      failureOf('Edit', { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' }, text)
        ?.targetChangedSinceRead,
    ).toBeUndefined();
  });

  it('reads JSON-RPC invalid params as bad arguments when the text says nothing more', () => {
    const error = Object.assign(new Error('MCP error -32602: bad'), { code: -32602, name: 'McpError' });
    const outcome = toolCallToOutcome('get-sum', {}, error);
    expect(adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))?.signature).toBe(
      'validation_error',
    );
  });
});

describe('conflict', () => {
  const branch = { repo_path: '/w/repo', branch_name: 'x' };

  it('recognises an existing branch as target-exists on a create', () => {
    expect(failureOf('git_create_branch', branch, "fatal: A branch named 'x' already exists.")).toMatchObject(
      {
        signature: 'conflict',
        blame: 'agent_failure',
        deterministic: true,
        meaning: 'target-exists',
      },
    );
  });

  it('recognises 409 conflict wording', () => {
    expect(
      signatureOf('create_file', { path: 'a.md', content: 'x' }, '409 conflict: file already exists'),
    ).toBe('conflict');
    expect(signatureOf('fetch', FETCH, 'Request failed (409)')).toBe('conflict');
  });

  it('keeps a conflict of a non-create call to that call', () => {
    const text = 'Destination already exists: /w/b.txt';
    expect(failureOf('move_file', { source: '/w/a.txt', destination: '/w/b.txt' }, text)?.meaning).toBe(
      'call',
    );
  });
});

describe('api_error', () => {
  it('blames the harness for 5xx responses and network failures', () => {
    for (const text of ['503 Service Unavailable', 'socket hang up', 'ECONNREFUSED 127.0.0.1:5432']) {
      expect(failureOf('query', { sql: 'select 1' }, text)).toMatchObject({
        signature: 'api_error',
        blame: 'harness_fault',
      });
    }
  });

  it('recognises status code contexts', () => {
    expect(failureOf('fetch', FETCH, 'Request failed with status code: 500')?.blame).toBe('harness_fault');
    expect(failureOf('fetch', FETCH, 'HTTP/1.1 502 Bad Gateway')?.blame).toBe('harness_fault');
  });

  it('blames the harness for a server that says in words it could not answer, as Kubernetes and Apache do', () => {
    const kubectl = { command: 'kubectl get pods -n payments' };
    for (const text of [
      'Error from server (ServiceUnavailable): the server is currently unable to handle the request',
      'Error from server (InternalError): an error on the server ("") has prevented the request from succeeding',
      'The server is temporarily unable to service your request due to maintenance downtime or capacity problems.',
      'An error occurred (ServiceUnavailableException) when calling the Invoke operation: Rate exceeded',
    ]) {
      expect(failureOf('Bash', kubectl, text)?.blame).toBe('harness_fault');
    }
    expect(failureOf('Bash', kubectl, 'Error from server (NotFound): pods "api-7d9" not found')?.blame).toBe(
      'agent_failure',
    );
  });

  it('blames the harness for a TLS connection that failed under the handshake', () => {
    const curl = { command: 'curl -sS https://api.example.com/v1/items' };
    const text = 'curl: (35) OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to api.example.com:443 ';
    expect(failureOf('Bash', curl, text)?.blame).toBe('harness_fault');
  });

  it('blames the harness for clients that could not reach or keep their server, in their own words', () => {
    const cases: [string, string][] = [
      ['ruby fetch.rb', 'Net::OpenTimeout: execution expired'],
      ['python client.py', 'ssl.SSLEOFError: EOF occurred in violation of protocol (_ssl.c:2427)'],
      ['python consume.py', 'kafka.errors.NoBrokersAvailable: NoBrokersAvailable'],
      [
        'rsync -a dist/ deploy@web:/srv/app',
        'rsync: connection unexpectedly closed (0 bytes received so far) [sender]\n' +
          'rsync error: unexplained error (code 255) at io.c(231) [sender=3.2.7]',
      ],
      ['ls /mnt/data', "ls: reading directory '/mnt/data': Input/output error"],
      [
        'torchrun --nproc_per_node 8 train.py',
        'RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, ' +
          'unhandled system error, NCCL version 2.14.3',
      ],
    ];
    expectEveryBlame(cases, 'harness_fault');
  });

  it('does not take "processed 500 rows" for a server error', () => {
    expect(failureOf('query', { sql: 'x' }, 'processed 500 rows, then stopped')).toMatchObject({
      signature: 'api_error',
      blame: 'unknown',
    });
  });

  it('blames nobody for an internal error of the tool', () => {
    expect(failureOf('get-sum', {}, 'MCP error -32603: Internal error')).toMatchObject({
      signature: 'api_error',
      blame: 'unknown',
    });
  });

  it('blames nobody for a failure it cannot read', () => {
    expect(failureOf('read_file', READ, 'boom')).toMatchObject({ signature: 'api_error', blame: 'unknown' });
  });

  it('does not believe network words deep inside command output', () => {
    const output =
      'Running 12 tests\n  mock server: connection refused (expected)\n  1 failed, 11 passed\ndone';
    expect(failureOf('Bash', BASH, output)).toMatchObject({
      signature: 'command_failed',
      blame: 'agent_failure',
    });
  });
});

describe('structured data first', () => {
  it('reads the HTTP status before the text', () => {
    expect(failureOf('fetch', FETCH, 'the server said no', { status: 429 })?.signature).toBe('rate_limited');
    expect(failureOf('fetch', FETCH, 'not found', { status: 500 })?.signature).toBe('api_error');
  });

  it('reads the error code of a thrown Node error', () => {
    const error = Object.assign(new Error('connect failed'), { code: 'ECONNRESET' });
    const outcome = toolCallToOutcome('fetch', FETCH, error);
    expect(adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))).toMatchObject({
      signature: 'api_error',
      blame: 'harness_fault',
    });
  });

  it('reads the socket error hidden in the cause of fetch failed', () => {
    const error = new TypeError('fetch failed', {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });
    const outcome = toolCallToOutcome('fetch', FETCH, error);
    expect(outcome.errorCode).toBe('ECONNREFUSED');
    expect(adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))?.blame).toBe(
      'harness_fault',
    );
  });

  it('reads the exception name', () => {
    const error = new Error('The operation was aborted due to timeout');
    error.name = 'TimeoutError';
    const outcome = toolCallToOutcome('fetch', FETCH, error);
    expect(adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))?.signature).toBe(
      'tool_timeout',
    );
  });
});

describe('extra patterns', () => {
  const custom = createToolCallAdapter({
    patterns: [{ pattern: /\bE_NOFILE\b/g, signature: 'file_not_found' }],
  });
  const outcome = toolCallToOutcome(
    'read_doc',
    { path: 'a.md' },
    { error: 'E_NOFILE a.md (timed out after retry)' },
  );

  it('are tried before the built-in ones and keep the built-in blame', () => {
    const facts = custom.describeFailure(outcome, custom.describeCall(outcome.proposal));
    expect(facts).toMatchObject({ signature: 'file_not_found', blame: 'agent_failure', deterministic: true });
  });

  it('match on every call even when written with the global flag', () => {
    const call = custom.describeCall(outcome.proposal);
    const signatures = [1, 2, 3].map(() => custom.describeFailure(outcome, call)?.signature);
    expect(signatures).toEqual(['file_not_found', 'file_not_found', 'file_not_found']);
  });

  it('belong to their own adapter, not to those created before or after it', () => {
    const signatureBy = (adapter: ReturnType<typeof createToolCallAdapter>) =>
      adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))?.signature;
    const before = createToolCallAdapter();
    const own = createToolCallAdapter({
      patterns: [{ pattern: /\bE_NOFILE\b/, signature: 'file_not_found' }],
    });
    const after = createToolCallAdapter();
    expect([signatureBy(before), signatureBy(own), signatureBy(after)]).toEqual([
      'tool_timeout',
      'file_not_found',
      'tool_timeout',
    ]);
  });

  it('may name a new signature, which is listed after the built-in ones', () => {
    const custom = createToolCallAdapter({
      patterns: [{ pattern: /quota of builds used/i, signature: 'build_quota', blame: 'harness_fault' }],
    });
    expect(custom.signatures.at(-1)).toBe('build_quota');
    const outcome = toolCallToOutcome('trigger_build', {}, { error: 'Monthly quota of builds used up' });
    expect(custom.describeFailure(outcome, custom.describeCall(outcome.proposal))).toMatchObject({
      signature: 'build_quota',
      blame: 'harness_fault',
      deterministic: false,
    });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds, milliseconds and minutes', () => {
    expect(parseRetryAfter('Retry-After: 3')).toBe(3);
    expect(parseRetryAfter('retry after 500ms')).toBe(0.5);
    expect(parseRetryAfter('Please try again in 2 minutes')).toBe(120);
    expect(parseRetryAfter('"retryDelay": "17s"')).toBe(17);
  });

  it('finds nothing where nothing is said', () => {
    expect(parseRetryAfter('Too Many Requests')).toBeUndefined();
  });
});

describe('errors nobody has a rule for', () => {
  it('reads one that quotes the call’s own arguments as deterministic', () => {
    const failure = failureOf(
      'update_reservation_flights',
      { reservation_id: 'XEWRD9', flights: [{ flight_number: 'HAT030', date: '2024-05-13' }] },
      'Error: flight HAT030 not available on date 2024-05-13',
    );
    expect(failure).toMatchObject({ blame: 'unknown', deterministic: true });
  });

  it('reads one that names nothing of the call as possibly passing', () => {
    const failure = failureOf(
      'Read',
      { file_path: '/repo/lib/app.ex' },
      '<tool_use_error>Sibling tool call errored</tool_use_error>',
    );
    expect(failure).toMatchObject({ deterministic: false });
  });
});

describe("refusals in a program's own words", () => {
  it("blames the agent for what a program refused of the call's own making, however the program words it", () => {
    expect(
      failureOf('Bash', { command: 'go build ./...' }, './main.go:5:2: "fmt" imported and not used'),
    ).toMatchObject({ signature: 'syntax_error', blame: 'agent_failure' });
    expect(
      failureOf(
        'Bash',
        { command: 'jq .name data.json' },
        'jq: error (at data.json:1): Cannot index array with "name"',
      )?.blame,
    ).toBe('agent_failure');
    expect(
      failureOf(
        'Bash',
        { command: 'kubectl get podz' },
        'error: the server doesn\'t have a resource type "podz"',
      ),
    ).toMatchObject({ signature: 'validation_error', blame: 'agent_failure' });
  });

  it('blames the agent for a package, gem or artifact no repository holds, and for a build run outside its module', () => {
    const cases: [string, string][] = [
      ['apt-get install -y libfoo-dev', 'E: Unable to locate package libfoo-dev'],
      [
        'bundle install',
        "Could not find gem 'railz' in rubygems repository https://rubygems.org/ or installed locally.",
      ],
      [
        './gradlew build',
        "> Could not resolve all files for configuration ':app:debugCompileClasspath'.\n" +
          '   > Could not find com.foo:bar:1.0.\n     Required by:\n         project :app',
      ],
      ['go build ./...', 'go: cannot find main module, but found .git/config in /app'],
    ];
    expectEveryBlame(cases, 'agent_failure');
  });

  it('blames the environment, never the agent, for a file Windows holds open for another process', () => {
    const text =
      "Remove-Item : Cannot remove item C:\\app\\logs\\api.log: The process cannot access the file 'C:\\app\\logs\\api.log' " +
      'because it is being used by another process.';
    expect(failureOf('Bash', { command: 'Remove-Item C:\\app\\logs\\api.log' }, text)).toMatchObject({
      signature: 'conflict',
      blame: 'harness_fault',
    });
  });

  it("blames the environment for Windows' refusals of a path and of a name it could not resolve", () => {
    const cases: [string, string][] = [
      [
        'Copy-Item a.txt C:\\Windows\\a.txt',
        "Copy-Item : Access to the path 'C:\\Windows\\a.txt' is denied.",
      ],
      [
        'Invoke-RestMethod https://api.example.com/v1/items',
        "Invoke-RestMethod : The remote name could not be resolved: 'api.example.com'",
      ],
    ];
    expectEveryBlame(cases, 'harness_fault');
  });

  it("blames the environment for an authorisation refused in Azure's words, however the message ends", () => {
    const text =
      "(AuthorizationFailed) The client 'ci@acme.com' with object id '0000' does not have authorization to " +
      "perform action 'Microsoft.Compute/virtualMachines/read' over scope '/subscriptions/x' or the scope is invalid.";
    expect(failureOf('Bash', { command: 'az vm list' }, text)).toMatchObject({
      signature: 'permission_denied',
      blame: 'harness_fault',
    });
  });

  it("blames the agent for a cloud's resource it named wrong or made twice", () => {
    const cases: [string, string][] = [
      [
        'gcloud run services describe apii',
        'ERROR: (gcloud.run.services.describe) Cannot find service [apii]',
      ],
      [
        'aws s3 mb s3://acme-logs',
        'make_bucket failed: s3://acme-logs An error occurred (BucketAlreadyExists) when calling the CreateBucket ' +
          'operation: The requested bucket name is not available.',
      ],
    ];
    expectEveryBlame(cases, 'agent_failure');
  });

  it('reads the status of a fetch that got an answer, not the words that it failed', () => {
    const fetch = { url: 'https://example.com/private' };
    expect(
      failureOf('fetch', fetch, 'Failed to fetch https://example.com/private - status code 404'),
    ).toMatchObject({
      signature: 'file_not_found',
      blame: 'agent_failure',
    });
    expect(
      failureOf('fetch', fetch, 'Failed to fetch https://example.com/private - status code 503')?.blame,
    ).toBe('harness_fault');
    expect(failureOf('fetch', fetch, 'TypeError: Failed to fetch')?.blame).toBe('harness_fault');
  });

  it('blames the environment for a code sandbox that stopped running', () => {
    const text = 'SandboxError: Sandbox is probably not running anymore';
    expect(failureOf('run_code', { code: 'print(1)' }, text)?.blame).toBe('harness_fault');
  });

  it("blames the environment for a repository's, a package cache's or a locale's files damaged or missing", () => {
    const cases: [string, string][] = [
      [
        'git status',
        'error: object file .git/objects/ab/cdef0123 is empty\n' +
          'fatal: loose object abcdef0123 (stored in .git/objects/ab/cdef0123) is corrupt',
      ],
      [
        'npm ci',
        'npm error code EINTEGRITY\nnpm error sha512-abc== integrity checksum failed when using sha512: ' +
          'wanted sha512-abc== but got sha512-def==. (12345 bytes)',
      ],
      ['locale', 'locale: Cannot set LC_ALL to default locale: No such file or directory'],
    ];
    expectEveryBlame(cases, 'harness_fault');
  });

  it('blames the environment for a toolchain missing or a build daemon that died under the build', () => {
    const cases: [string, string][] = [
      ['cargo build', 'error: linker `cc` not found\n  |\n  = note: No such file or directory (os error 2)'],
      [
        'git status',
        'xcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), missing xcrun at: ' +
          '/Library/Developer/CommandLineTools/usr/bin/xcrun',
      ],
      [
        './gradlew test',
        'FAILURE: Build failed with an exception.\n\n* What went wrong:\n' +
          'Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)',
      ],
    ];
    expectEveryBlame(cases, 'harness_fault');
  });

  it("blames the agent for a type checker's diagnostic and a module loader's missing file", () => {
    const cases: [string, string][] = [
      [
        'mypy src',
        'src/app.py:3: error: Cannot find implementation or library stub for module named "yaml"  [import-untyped]',
      ],
      [
        'npx vitest run',
        'Error: Failed to load url ./src/x (resolved id: ./src/x) in /app/test/a.test.ts. Does the file exist?',
      ],
    ];
    expectEveryBlame(cases, 'agent_failure');
  });

  it("reads git's refusals: a merge of unrelated histories is the call's, a ref moved meanwhile or no identity to commit under the environment's", () => {
    expectEveryBlame(
      [['git pull origin main', 'fatal: refusing to merge unrelated histories']],
      'agent_failure',
    );
    expectEveryBlame(
      [
        [
          'git fetch',
          "error: cannot lock ref 'refs/remotes/origin/main': is at 1a2b3c4 but expected 4d5e6f7\n" +
            ' ! 4d5e6f7..7a8b9c0  main -> origin/main  (unable to update local ref)',
        ],
        [
          'git commit -m "Fix the parser"',
          'Author identity unknown\n\n*** Please tell me who you are.\n\n' +
            "fatal: unable to auto-detect email address (got 'root@abc.(none)')",
        ],
      ],
      'harness_fault',
    );
  });

  it("reads a web service's refusal of a request without credentials as the environment's, and of a field left out as the agent's", () => {
    expect(failureOf('create_user', { email: 'a@b.c' }, '{"detail":"Not authenticated"}')).toMatchObject({
      signature: 'permission_denied',
      blame: 'harness_fault',
    });
    const missing =
      '{"detail":[{"loc":["body","email"],"msg":"field required","type":"value_error.missing"}]}';
    expect(failureOf('create_user', { name: 'Ada' }, missing)).toMatchObject({
      signature: 'validation_error',
      blame: 'agent_failure',
    });
  });

  it("reads conda's missing packages as the agent's and a redis client's loading server as the environment's", () => {
    expectEveryBlame(
      [
        ['conda env create -f environment.yml', 'ResolvePackageNotFound: \n  - python=3.19'],
        [
          'conda install pytorch-nightly',
          'PackagesNotFoundError: The following packages are not available from current channels:',
        ],
      ],
      'agent_failure',
    );
    expectEveryBlame(
      [['python app.py', 'redis.exceptions.BusyLoadingError: Redis is loading the dataset in memory']],
      'harness_fault',
    );
  });

  it('still blames the network when a build tool could not fetch what it was asked for', () => {
    const text =
      "> Could not resolve com.squareup.okhttp3:okhttp:4.12.0.\n      > Could not GET 'https://repo.maven.apache.org/" +
      "maven2/com/squareup/okhttp3/okhttp/4.12.0/okhttp-4.12.0.pom'. Received status code 502 from server: Bad Gateway";
    expect(failureOf('Bash', { command: './gradlew build' }, text)?.blame).toBe('harness_fault');
  });
});
