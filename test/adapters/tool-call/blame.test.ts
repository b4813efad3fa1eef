/**
 * Blame of the error families the guard must get right: one behaviour per test. Texts are real
 * (real tools' and public threads' texts, as the blame corpus of scripts/blame-corpus holds them).
 */
import { describe, expect, it } from 'vitest';
import { toolCallToOutcome } from '../../../src/adapters/tool-call/convert.js';
import { NarrowingLoop } from '../../../src/index.js';
import { adapter, failureOf } from './helpers.js';

const BASH = { command: 'npm test' };

function blameOf(tool: string, text: string): string | undefined {
  return failureOf(tool, {}, text)?.blame;
}

function exitBlame(exitCode: number, text = '', args: Record<string, unknown> = { command: 'x' }) {
  const outcome = toolCallToOutcome('Bash', args, { stdout: '', stderr: text, exitCode });
  return adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
}

describe('network failures are the harness’s', () => {
  it('blames the network when a host name does not resolve', () => {
    expect(blameOf('Bash', 'curl: (6) Could not resolve host: api.github.com')).toBe('harness_fault');
    expect(blameOf('fetch', 'Error: getaddrinfo ENOTFOUND api.openai.com')).toBe('harness_fault');
    expect(blameOf('fetch', 'getaddrinfo EAI_AGAIN registry.npmjs.org')).toBe('harness_fault');
    expect(blameOf('query', 'java.net.UnknownHostException: tools.wmflabs.org')).toBe('harness_fault');
    expect(blameOf('Bash', 'ssh: Could not resolve hostname db: Name or service not known')).toBe(
      'harness_fault',
    );
  });

  it('blames the network when a connection is refused, reset or closed', () => {
    expect(blameOf('Bash', 'ssh: connect to host 127.0.0.1 port 2222: Connection refused')).toBe(
      'harness_fault',
    );
    expect(blameOf('Bash', 'curl: (56) Recv failure: Connection reset by peer')).toBe('harness_fault');
    expect(blameOf('Bash', 'curl: (52) Empty reply from server')).toBe('harness_fault');
    expect(
      blameOf('Bash', 'http.client.RemoteDisconnected: Remote end closed connection without response'),
    ).toBe('harness_fault');
  });

  it('blames the environment for TLS and certificate failures', () => {
    expect(blameOf('Bash', 'curl: (60) SSL certificate problem: self-signed certificate')).toBe(
      'harness_fault',
    );
    expect(
      blameOf(
        'Bash',
        "fatal: unable to access 'https://git.example.com/r.git/': server certificate verification failed. CAfile: none",
      ),
    ).toBe('harness_fault');
  });

  it('reads a browser fetch failure as the network’s', () => {
    expect(blameOf('browser_evaluate', 'TypeError: Failed to fetch')).toBe('harness_fault');
    expect(blameOf('browser_evaluate', 'TypeError: NetworkError when attempting to fetch resource.')).toBe(
      'harness_fault',
    );
  });

  it('finds harness evidence in the middle of a command’s output', () => {
    const output = [
      'npm error code ECONNRESET',
      'npm error syscall read',
      'npm error errno ECONNRESET',
      'npm error network Invalid response body while trying to fetch https://registry.npmjs.org/react',
      'npm error A complete log of this run can be found in: /root/.npm/_logs/debug-0.log',
    ].join('\n');
    expect(failureOf('Bash', { command: 'npm install' }, output)?.blame).toBe('harness_fault');
  });

  it('does not let a generic command failure outrank a full disk', () => {
    const output =
      'npm ERR! code ENOSPC\nnpm ERR! syscall write\nnpm ERR! nospc ENOSPC: no space left on device, write';
    expect(failureOf('Bash', { command: 'npm install' }, output)?.blame).toBe('harness_fault');
  });

  it('blames a service that names its own failure by error type, with no status, on the harness', () => {
    const body =
      '{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}';
    expect(blameOf('chat_completion', body)).toBe('harness_fault');
  });

  it('does not let make’s failure line outrank a 5xx', () => {
    const output = 'curl: (22) The requested URL returned error: 503\nmake: *** [Makefile:3: fetch] Error 22';
    expect(failureOf('Bash', { command: 'make fetch' }, output)?.blame).toBe('harness_fault');
  });
});

describe('what a silent program’s exit status says', () => {
  const curl = (command: string, exitCode: number) => exitBlame(exitCode, '', { command });

  it('blames the network when a silent curl could not connect, resolve or hear back, as its message would', () => {
    for (const status of [6, 7, 52, 56])
      expect(curl('curl -sf http://localhost:3000/health', status)?.blame).toBe('harness_fault');
    expect(curl('curl -s --max-time 5 https://api.example.com/v1/status', 28)?.signature).toBe(
      'tool_timeout',
    );
  });

  it('reads the status of the curl that ends a line after a move or a wait', () => {
    expect(curl('cd web && sleep 3 && curl -s localhost:3000/health', 7)?.blame).toBe('harness_fault');
    expect(curl('npm start & sleep 5; curl -s localhost:3000/health', 7)?.blame).toBe('harness_fault');
  });

  it('blames the agent for a URL a silent curl could not read', () => {
    expect(curl('curl -s "http://localhost:3000/api/items?id={id}"', 3)?.blame).toBe('agent_failure');
  });

  it('leaves a status to the program that ends the line: a pipeline’s last, either side of `||`', () => {
    expect(curl('curl -s localhost:3000/health | jq .status', 7)?.blame).toBe('unknown');
    expect(curl('curl -s localhost:3000/health || echo down', 7)?.blame).toBe('unknown');
  });

  it('leaves a status that names no cause to the text: curl’s 22 for any HTTP error', () => {
    expect(curl('curl -sf http://localhost:3000/api/items/42', 22)?.blame).toBe('unknown');
    expect(
      exitBlame(22, 'curl: (22) The requested URL returned error: 404', {
        command: 'curl -sf http://localhost:3000/api/items/42',
      })?.blame,
    ).toBe('agent_failure');
  });
});

describe('the environment’s other failures', () => {
  it('blames lock contention on the harness, as a passing condition', () => {
    const text =
      "fatal: Unable to create '/w/.git/index.lock': File exists.\n\nAnother git process seems to be running in this repository";
    expect(failureOf('Bash', { command: 'git add a.txt' }, text)).toMatchObject({
      blame: 'harness_fault',
      deterministic: false,
    });
    expect(blameOf('Bash', 'Error: in prepare, database is locked (5)')).toBe('harness_fault');
  });

  it('blames a command missing inside a script the environment provides, not the agent who ran the script', () => {
    const text =
      '/root/commands/search_stackoverflow.sh: line 16: _web_issue_retrieval_with_api: command not found';
    expect(failureOf('bash', { command: 'stackoverflow_search "GROUP BY subquery"' }, text)?.blame).toBe(
      'harness_fault',
    );
  });

  it('blames the command’s own error, not the complaint the shell’s start-up printed ahead of it', () => {
    const startup =
      '/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted\n';
    const missing = failureOf(
      'shell',
      { command: 'cat architecture.md', workdir: '/Users/carlo/Desktop/Projects/xentri' },
      `${startup}cat: architecture.md: No such file or directory\n`,
    );
    expect(missing?.blame).toBe('agent_failure');
    expect(missing?.signature).toBe('file_not_found');
    // Nothing of the command's own after it: the complaint is all there is to read.
    expect(failureOf('shell', { command: "rg --files -g 'epics.md' docs" }, startup)?.blame).toBe(
      'harness_fault',
    );
  });

  it('keeps the environment’s blame when what follows a script’s complaint names no failure of its own', () => {
    const text =
      '/root/commands/search_stackoverflow.sh: line 16: _web_issue_retrieval_with_api: command not found\nYou can refer to similar questions and their corresponding answers that you have searched for on StackOverflow.\n';
    expect(failureOf('bash', { command: 'stackoverflow_search "GROUP BY subquery"' }, text)?.blame).toBe(
      'harness_fault',
    );
  });

  it('still blames the agent for a command it mistyped itself, whichever shell reports it', () => {
    expect(failureOf('Bash', { command: 'gti status' }, 'bash: line 1: gti: command not found')?.blame).toBe(
      'agent_failure',
    );
    expect(
      failureOf('Bash', { command: 'gti status' }, '/bin/bash: line 1: gti: command not found')?.blame,
    ).toBe('agent_failure');
  });

  it('blames a full disk on the harness', () => {
    expect(blameOf('Bash', "dd: error writing '/tmp/full/big.bin': No space left on device")).toBe(
      'harness_fault',
    );
  });

  it('blames a daemon or database that is not running on the harness', () => {
    expect(
      blameOf(
        'Bash',
        'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
      ),
    ).toBe('harness_fault');
    const psql =
      'psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory\n\tIs the server running locally and accepting connections on that socket?';
    expect(blameOf('Bash', psql)).toBe('harness_fault');
  });

  it('blames a sandbox that expired or could not start on the environment, whatever it says is missing', () => {
    expect(
      blameOf(
        'run_code',
        'SandboxError: {"sandboxId":"i8k2q1zr0v","message":"The sandbox was not found","code":502}: This error is likely due to sandbox timeout.',
      ),
    ).toBe('harness_fault');
    expect(
      blameOf(
        'shell',
        'bwrap: execvp /usr/lib/node_modules/@openai/codex/vendor/codex: No such file or directory',
      ),
    ).toBe('harness_fault');
    expect(blameOf('shell', "bwrap: Can't find source path /nonexistent: No such file or directory")).toBe(
      'harness_fault',
    );
  });

  it('blames a cloud provider that finds no credentials on the harness', () => {
    const terraform =
      'Error: error configuring Terraform AWS Provider: no valid credential sources for Terraform AWS Provider found.\n\nError: NoCredentialProviders: no valid providers in chain. Deprecated.';
    expect(blameOf('Bash', terraform)).toBe('harness_fault');
  });

  it('blames a container that went away under a command that does not name it on the environment', () => {
    const gone = 'Error response from daemon: No such container: ctfenv\n';
    expect(failureOf('run_command', { command: 'ls -la ~/ctf_files' }, gone)?.blame).toBe('harness_fault');
    expect(failureOf('run_command', { command: 'file ./chall' }, gone)?.blame).toBe('harness_fault');
  });

  it('blames a container that is not running on the environment, whoever named it', () => {
    const stopped =
      'Error response from daemon: container 8a4f5634bf3c47ae810159e101fed2b6575fe681c63a10519e910c92802914dc is not running';
    expect(failureOf('Bash', { command: 'docker exec minio-init mc ls local' }, stopped)?.blame).toBe(
      'harness_fault',
    );
  });

  it('still blames the agent for a container it named that does not exist', () => {
    const guessed = 'Error response from daemon: No such container: shop-backend-1';
    expect(failureOf('Bash', { command: 'docker logs shop-backend-1 --tail 50' }, guessed)?.blame).not.toBe(
      'harness_fault',
    );
  });

  it('does not blame the environment for a command stopped at a prompt for input it was never given', () => {
    const menu =
      'Welcome to the vault console\nSession port is: 4101\nMain menu:\n1. Log in\n2. Show public key\n3. Exit\nEnter your choice: \nCommand timed out';
    const failure = failureOf('run_command', { command: 'nc vault 4100' }, menu);
    expect(failure?.blame).toBe('unknown');
    // One sighting is no proof: a service may answer the next connection otherwise.
    expect(failure?.deterministic).toBe(false);
    const ask =
      'How many tickets would you like to buy? There is a limit of 10 tickets\n>> \nCommand timed out';
    expect(failureOf('run_command', { command: 'python3 draw.py' }, ask)?.blame).toBe('unknown');
  });

  it('reads the prompt a command stopped at past lines of only fresh values its tool added after the timeout', () => {
    const ask =
      'How many tickets would you like to buy? There is a limit of 10 tickets\n>> \nCommand timed out\nlog: /tmp/tmpqyhchoyb/run.log\nreal\t0m0.775s';
    expect(failureOf('run_command', { command: 'python3 draw.py' }, ask)?.blame).toBe('unknown');
    const counted =
      'How many tickets would you like to buy?\n>> \nCommand timed out\nprocessed 12 tickets in 412 ms';
    expect(failureOf('run_command', { command: 'python3 draw.py' }, counted)?.blame).toBe('harness_fault');
  });

  it('still blames a command that timed out while printing on the environment', () => {
    const slow = 'Downloading model weights\n 41% |########            | 2.1G/5.0G\nCommand timed out';
    expect(failureOf('run_command', { command: 'python3 fetch_weights.py' }, slow)?.blame).toBe(
      'harness_fault',
    );
    const quiet = 'Command timed out';
    expect(failureOf('run_command', { command: 'nc vault 4100' }, quiet)?.blame).toBe('harness_fault');
  });

  it('blames missing or expired credentials on the harness', () => {
    expect(
      blameOf(
        'Bash',
        'Unable to locate credentials. You can configure credentials by running "aws configure".',
      ),
    ).toBe('harness_fault');
    expect(
      blameOf(
        'Bash',
        'npm error code ENEEDAUTH\nnpm error need auth This command requires you to be logged in.',
      ),
    ).toBe('harness_fault');
  });

  it('blames a commit whose signing failed on the environment, whatever hooks ran before it', () => {
    const hooks =
      'Exit code 128\n[STARTED] Running tasks for staged files...\n[STARTED] eslint --fix\n[COMPLETED] eslint --fix\n[COMPLETED] Applying modifications from tasks...\n';
    expect(
      blameOf(
        'Bash',
        `${hooks}error: signing agent returned an error\n\nfatal: failed to write commit object`,
      ),
    ).toBe('harness_fault');
    expect(
      blameOf(
        'run_shell_command',
        'error: gpg failed to sign the data\nfatal: failed to write commit object',
      ),
    ).toBe('harness_fault');
    expect(blameOf('run_terminal_cmd', "fatal: pathspec 'docs/a.md' did not match any files")).toBe(
      'agent_failure',
    );
  });

  it('blames spent quota and billing on the harness, as a lasting condition', () => {
    const text =
      "Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'Your credit balance is too low to access the Anthropic API.'}}";
    expect(failureOf('chat', {}, text)).toMatchObject({ blame: 'harness_fault', deterministic: true });
    expect(
      blameOf(
        'chat',
        'Error: insufficient_quota: You exceeded your current quota, please check your plan and billing details.',
      ),
    ).toBe('harness_fault');
  });

  it('reads the common system errors in the user’s locale', () => {
    expect(
      blameOf('Bash', 'Verbindungsaufbau zu 127.0.0.1:9 … fehlgeschlagen: Verbindungsaufbau abgelehnt.'),
    ).toBe('harness_fault');
    expect(
      blameOf('Bash', "dd: erreur d'écriture dans 'big.bin': Aucun espace disponible sur le périphérique"),
    ).toBe('harness_fault');
    expect(blameOf('Bash', "touch: no se puede efectuar `touch' sobre 'x': Permiso denegado")).toBe(
      'harness_fault',
    );
    expect(blameOf('Bash', 'cat: nothere.txt: 没有那个文件或目录')).toBe('agent_failure');
    expect(blameOf('Bash', 'bash: 行 1: gti: コマンドが見つかりません')).toBe('agent_failure');
    expect(
      blameOf('Bash', 'fatal: no es un repositorio git (ni ninguno de los directorios superiores): .git'),
    ).toBe('agent_failure');
  });
});

describe('a host refusing what the session was not allowed', () => {
  it('blames the session for a permission a headless host was not given, whatever the tool', () => {
    expect(
      blameOf(
        'Write',
        "Claude requested permissions to write to /workspace/out/sol01.py, but you haven't granted it yet.",
      ),
    ).toBe('harness_fault');
    expect(blameOf('Bash', "Claude requested permissions to use Bash, but you haven't granted it yet.")).toBe(
      'harness_fault',
    );
    expect(
      blameOf(
        'Read',
        "Claude requested permissions to read from /tmp/audit/data/README.md, but you haven't granted it yet.",
      ),
    ).toBe('harness_fault');
  });

  it('blames the session for a whole tool its settings deny', () => {
    expect(
      blameOf(
        'Bash',
        'Permission to use Bash has been denied. IMPORTANT: You *may* attempt to accomplish this action using other tools that might naturally be used to accomplish this goal.',
      ),
    ).toBe('harness_fault');
    expect(blameOf('Bash', 'Permission to use Bash has been auto-denied (prompts unavailable).')).toBe(
      'harness_fault',
    );
  });

  it('blames the environment for a command its sandbox killed by a signal', () => {
    expect(blameOf('shell', 'sandbox error: command was killed by a signal')).toBe('harness_fault');
  });

  it('blames the environment for a job the shell or make reports killed, out of memory or from outside', () => {
    expect(blameOf('Bash', 'bash: line 1:  4567 Killed                  python train.py')).toBe(
      'harness_fault',
    );
    expect(blameOf('Bash', 'make: *** [Makefile:12: all] Killed')).toBe('harness_fault');
    expect(
      blameOf('Bash', 'make: *** [Makefile:12: all] Error 137\nmake: *** Waiting for unfinished jobs....'),
    ).toBe('harness_fault');
    expect(blameOf('Bash', 'make: *** [Makefile:12: all] Error 2')).not.toBe('harness_fault');
  });

  it('blames the environment for a cluster or a database server that cannot be reached or is still starting', () => {
    expect(
      blameOf(
        'Bash',
        'The connection to the server localhost:8080 was refused - did you specify the right host or port?',
      ),
    ).toBe('harness_fault');
    expect(
      blameOf(
        'Bash',
        'psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: FATAL:  the database system is starting up',
      ),
    ).toBe('harness_fault');
    expect(
      blameOf(
        'Bash',
        "Error: P1001: Can't reach database server at `localhost:5432`\n\nPlease make sure your database server is running at `localhost:5432`.",
      ),
    ).toBe('harness_fault');
  });
});

describe('the agent’s failures the guard learns from', () => {
  it('blames the agent for a parameter its tool names as required and the call left out', () => {
    const text = 'ERROR:\nParameter `old_str` is required for command: str_replace.';
    expect(
      failureOf('str_replace_editor', { command: 'str_replace', path: '/workspace/app/parser.c' }, text),
    ).toMatchObject({ blame: 'agent_failure', signature: 'validation_error' });
  });

  it('blames the agent for a path outside the sandbox, and advises no waiting', () => {
    const text = 'Access denied - path outside allowed directories: /etc/passwd not in /home/dev/w';
    expect(failureOf('read_text_file', { path: '/etc/passwd' }, text)).toMatchObject({
      blame: 'agent_failure',
      signature: 'permission_denied',
      meaning: 'call',
    });
    const loop = new NarrowingLoop({});
    const proposal = { tool: 'read_text_file', args: { path: '/etc/passwd' } };
    for (let i = 0; i < 6; i++) {
      loop.checkProposal(proposal);
      loop.recordOutcome(
        toolCallToOutcome('read_text_file', proposal.args, {
          content: [{ type: 'text', text }],
          isError: true,
        }),
      );
    }
    const decision = loop.checkProposal(proposal);
    expect(`${decision.reason ?? ''} ${decision.suggestion ?? ''}`).not.toMatch(/wait/i);
  });

  it('blames the agent for a name lookup of what is no host name: a scheme, a dotted number short of an address', () => {
    expect(
      blameOf('http_get', 'Get "http://http://localhost:8080/health": dial tcp: lookup http: no such host'),
    ).toBe('agent_failure');
    expect(blameOf('Bash', 'listen tcp: lookup 0.0.0: no such host')).toBe('agent_failure');
    expect(blameOf('http_get', 'dial tcp: lookup api.internal.example: no such host')).toBe('harness_fault');
  });

  it('blames the agent for pushing a branch that does not exist or pulling one that tracks none', () => {
    const push =
      "error: src refspec feature/login does not match any\nerror: failed to push some refs to 'https://github.com/acme/shop.git'";
    expect(blameOf('Bash', push)).toBe('agent_failure');
    const pull =
      'There is no tracking information for the current branch.\nPlease specify which branch you want to merge with.\nSee git-pull(1) for details.';
    expect(blameOf('Bash', pull)).toBe('agent_failure');
  });

  it.each([
    ['de', 'Fehler: Src-Refspec main entspricht keiner Referenz.'],
    ['fr', 'erreur\u00a0: le spécificateur de référence source main ne correspond à aucune référence'],
    ['es', 'error: src refspec main no concuerda con ninguno'],
    ['it', 'error: nessuna corrispondenza per lo specificatore riferimento sorgente main'],
    ['ru', 'error: src refspec main ничему не соответствует'],
    ['zh_CN', '错误：源引用规格 main 没有匹配'],
    ['de', 'Es gibt keine Tracking-Informationen für den aktuellen Branch.'],
    ['fr', "Pas d'information de suivi distant pour la branche actuelle."],
    ['es', 'No hay información de rastreo para la rama actual.'],
    ['it', 'Non ci sono informazioni di tracciamento per il branch corrente.'],
    ['ru', 'У текущей ветки нет информации об отслеживании.'],
    ['zh_CN', '当前分支没有跟踪信息。'],
  ])('blames the agent for git refusing a ref that is not there in the %s locale: %s', (_locale, text) => {
    expect(blameOf('Bash', text)).toBe('agent_failure');
  });

  it('blames the agent for requirements no version satisfies, as a resolver says so', () => {
    const uv =
      '  × No solution found when resolving dependencies:\n  ╰─▶ Because there is no version of flask==9.9.9 and you require flask==9.9.9, we can conclude that your requirements are unsatisfiable.';
    expect(blameOf('Bash', uv)).toBe('agent_failure');
  });

  it('blames the agent for unknown ids of remote services', () => {
    expect(
      blameOf(
        'create_checkout',
        '{"error":{"code":"resource_missing","message":"No such price: \'price_1H\'","type":"invalid_request_error"}}',
      ),
    ).toBe('agent_failure');
    expect(blameOf('slack_post_message', '{"ok":false,"error":"channel_not_found"}')).toBe('agent_failure');
    expect(
      blameOf(
        'Bash',
        'An error occurred (NoSuchBucket) when calling the PutObject operation: The specified bucket does not exist',
      ),
    ).toBe('agent_failure');
    expect(
      blameOf(
        'get_issue',
        "GraphQL: Could not resolve to a Repository with the name 'owner/repo'. (repository)",
      ),
    ).toBe('agent_failure');
  });

  it('blames the agent for SQL that names a column or table that is not there', () => {
    expect(blameOf('query', 'ERROR:  42703: column "nickname" does not exist')).toBe('agent_failure');
    expect(blameOf('query', 'ERROR:  relation "accounts" does not exist')).toBe('agent_failure');
    expect(blameOf('query', 'sqlite3.OperationalError: no such table: orders')).toBe('agent_failure');
  });

  it('blames the agent for an npm script that does not exist', () => {
    expect(
      failureOf('Bash', { command: 'npm run deploy' }, 'npm error Missing script: "deploy"')?.blame,
    ).toBe('agent_failure');
  });

  it('judges an error about the agent’s input by its kind, not by the words it quotes', () => {
    expect(
      blameOf('Bash', "error: pathspec 'fix/ETIMEDOUT-retry' did not match any file(s) known to git"),
    ).toBe('agent_failure');
    expect(blameOf('Bash', "FileNotFoundError: [Errno 2] No such file or directory: 'rate_limit.py'")).toBe(
      'agent_failure',
    );
    expect(
      blameOf('Bash', "ValueError: invalid literal for int() with base 10: '503 Service Unavailable'"),
    ).toBe('agent_failure');
    expect(
      blameOf(
        'Bash',
        'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nKeyError: \'ECONNREFUSED\'',
      ),
    ).toBe('agent_failure');
  });

  it('blames the agent for a failing test run whatever its test names say', () => {
    const output =
      ' FAIL  net.test.js > maps ECONNREFUSED to a retry\nAssertionError: expected { code: "ECONNREFUSED" } to deeply equal { retry: true }\n Test Files  1 failed (1)\n      Tests  1 failed (1)';
    expect(failureOf('Bash', BASH, output)?.blame).toBe('agent_failure');
  });

  it('blames the agent for a host name that is visibly a broken URL', () => {
    expect(blameOf('fetch', 'Error: getaddrinfo ENOTFOUND https https:443')).toBe('agent_failure');
  });
});

describe('failures that blame nobody', () => {
  it('blames nobody for a shell command that failed without saying why', () => {
    expect(failureOf('run_shell_command', { command: 'make' }, 'something odd happened')).toMatchObject({
      signature: 'command_failed',
      blame: 'unknown',
    });
    expect(failureOf('Bash', { command: 'make' }, 'make: *** [Makefile:4: all] Error 4')?.blame).toBe(
      'unknown',
    );
  });

  it('records a failure without any text as a failure with unknown blame', () => {
    const outcome = toolCallToOutcome('deploy', { env: 'prod' }, { success: false });
    expect(outcome.success).toBe(false);
    const loop = new NarrowingLoop({});
    loop.checkProposal(outcome.proposal);
    expect(loop.recordOutcome(outcome).outcome).toMatchObject({ success: false, blame: 'unknown' });
  });
});

describe('the exit status', () => {
  it('is read from a command result in any common spelling, and makes it a failure', () => {
    expect(toolCallToOutcome('Bash', {}, { stdout: 'x', exitCode: 2 })).toMatchObject({
      success: false,
      exitCode: 2,
    });
    expect(toolCallToOutcome('shell', {}, { output: 'x', exit_code: 1 })).toMatchObject({
      success: false,
      exitCode: 1,
    });
    expect(toolCallToOutcome('run', {}, { stdout: 'ok', stderr: '', returncode: 0 })).toMatchObject({
      success: true,
      content: 'ok',
    });
    expect(toolCallToOutcome('Bash', {}, 'partial output', { exitCode: 3 })).toMatchObject({
      success: false,
      exitCode: 3,
    });
  });

  it('is read from a failed child process, signals counted as the shell counts them', () => {
    const killed = Object.assign(new Error('Command failed: sleep 5'), {
      status: null,
      signal: 'SIGKILL',
      pid: 7,
    });
    expect(toolCallToOutcome('Bash', {}, killed)).toMatchObject({ exitCode: 137 });
    expect(toolCallToOutcome('Bash', {}, killed).status).toBeUndefined();
    const failed = Object.assign(new Error('Command failed: false'), { status: 1, signal: null, pid: 8 });
    expect(toolCallToOutcome('Bash', {}, failed)).toMatchObject({ exitCode: 1 });
  });

  it('blames the harness for a command timeout(1) stopped, whatever it printed', () => {
    expect(exitBlame(124)).toMatchObject({ signature: 'tool_timeout', blame: 'harness_fault' });
    expect(exitBlame(124, 'FAIL src/a.test.ts\n Tests  1 failed')?.blame).toBe('harness_fault');
  });

  it('blames the harness for a command killed by a signal', () => {
    expect(exitBlame(137)?.blame).toBe('harness_fault');
    expect(exitBlame(143, 'Terminated')?.blame).toBe('harness_fault');
  });

  it('reads 127 as a command that is not there when the output says nothing more', () => {
    expect(exitBlame(127)?.blame).toBe('agent_failure');
  });

  it('reads 126 as a permission problem when the output says nothing more', () => {
    expect(exitBlame(126)?.blame).toBe('harness_fault');
  });

  it('lets the output decide over 126 and 127 when it is more specific', () => {
    expect(exitBlame(126, 'bash: line 1: ./src: Is a directory')?.blame).toBe('agent_failure');
    expect(
      exitBlame(127, "Command 'docker' not found, but can be installed with:\nsudo apt install docker.io")
        ?.blame,
    ).toBe('harness_fault');
  });

  it('says nothing on its own for other statuses', () => {
    expect(exitBlame(1)?.blame).toBe('unknown');
    expect(exitBlame(2, 'cat: a.txt: No such file or directory')?.blame).toBe('agent_failure');
  });
});

describe('structured signals', () => {
  it('let a bad-request status give way to a text that shows the environment failing', () => {
    const text = 'Your credit balance is too low to access the Anthropic API.';
    expect(failureOf('chat', {}, text, { status: 400 })?.blame).toBe('harness_fault');
    expect(failureOf('chat', {}, 'messages: field required', { status: 400 })?.blame).toBe('agent_failure');
  });
});

describe('wordings of tools and hosts read in public threads', () => {
  it('blames the agent for a resolver’s report on its requirements, whatever the packages it quotes are called', () => {
    const text = [
      'SolverProblemError',
      '',
      '  Because webapp depends on authlib (0.3.0) @ file:///srv/app/dist/authlib-0.3.0-py3-none-any.whl which depends on cachetools (>=9) which doesn’t match any versions, authlib is forbidden.',
      '  So, because webapp depends on authlib (0.3.0), version solving failed.',
    ].join('\n');
    expect(failureOf('Bash', { command: 'poetry lock' }, text)).toMatchObject({
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('still blames the session for a refusal that says it is forbidden outside a resolver’s report', () => {
    expect(
      blameOf(
        'Bash',
        'Error from server (Forbidden): pods is forbidden: User "ci" cannot list resource "pods"',
      ),
    ).toBe('harness_fault');
  });

  it('blames the environment for a state or stack that another run holds locked', () => {
    const text =
      'error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.';
    expect(failureOf('Bash', { command: 'pulumi up --yes' }, text)).toMatchObject({
      blame: 'harness_fault',
      deterministic: false,
    });
  });

  it('blames the environment for a sandbox that did not come up, however the host words it', () => {
    expect(blameOf('execute_bash', '500: Sandbox failed to start within 120s: runtime-7f3a')).toBe(
      'harness_fault',
    );
    expect(blameOf('shell', 'LandlockSandboxExecutableNotProvided')).toBe('harness_fault');
    expect(blameOf('shell', 'Error: failed to create sandbox: image pull backoff')).toBe('harness_fault');
  });

  it('reads an edit tool that could not find its anchor text in the file as a failed edit', () => {
    expect(
      failureOf(
        'file_edit_insert',
        { path: 'src/app.ts' },
        'Guard mismatch: unable to find insert_after substring in the current file.',
      ),
    ).toMatchObject({ blame: 'agent_failure', signature: 'edit_failed' });
  });

  it('blames the agent for a command name the tool says is misspelled', () => {
    expect(blameOf('Bash', "'vmlist' is misspelled or not recognized by the system.")).toBe('agent_failure');
  });

  it('blames the agent for a value that breaks a rule of what it may contain or start with', () => {
    expect(blameOf('Bash', 'admin user name cannot contain upper case characters or start with $ or -')).toBe(
      'agent_failure',
    );
    expect(
      blameOf('create_bucket', 'Bucket names can only contain lowercase letters, numbers, dots and hyphens.'),
    ).toBe('agent_failure');
  });

  it('blames the agent for a Redis reply of the wrong type, quoted by its client', () => {
    expect(
      blameOf(
        'redis',
        'Redis error: WRONGTYPE Operation against a key holding the wrong kind of value\nRedis command was: HGETALL session:9',
      ),
    ).toBe('agent_failure');
  });

  it('blames the agent for a query of one record that found none', () => {
    const text =
      "Error: {\n  code: 'PGRST116',\n  details: 'Results contain 0 rows, application/vnd.pgrst.object+json requires 1 row',\n  hint: null,\n  message: 'JSON object requested, multiple (or no) rows returned'\n}";
    expect(blameOf('supabase_query', text)).toBe('agent_failure');
    expect(blameOf('Bash', 'panic: sql: no rows in result set')).toBe('agent_failure');
  });

  it('blames the environment for a quota the cloud names between its words', () => {
    const text =
      'ERROR: (gcloud.run.deploy) INVALID_ARGUMENT: The following quotas were exceeded: CPUS (quota: 8, used: 8 + needed: 2).';
    expect(blameOf('Bash', text)).toBe('harness_fault');
  });

  it('blames the session for a command line that asks to be signed in first', () => {
    expect(blameOf('Bash', 'To get started with GitHub CLI, please run:  gh auth login')).toBe(
      'harness_fault',
    );
    expect(
      blameOf('Bash', 'PermissionDenied: Requires run access to "git", run again with the --allow-run flag'),
    ).toBe('harness_fault');
  });

  it('blames the environment for an update of a stack another run has in progress', () => {
    expect(blameOf('Bash', 'error: [409] Conflict: Another update is currently in progress.')).toBe(
      'harness_fault',
    );
  });

  it('blames the environment when the runtime could not run the command in its container at all', () => {
    const text =
      'error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "4f1c": open /run/containerd/io/4f1c.pid: no such file or directory: unknown';
    expect(blameOf('Bash', text)).toBe('harness_fault');
  });

  it('blames the harness for a model API that refused the list of tools it was sent', () => {
    const text =
      "MCP erroring: 'error': {'type': 'invalid_request_error', 'message': \"tools.3.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'\"}";
    expect(blameOf('chat', text)).toBe('harness_fault');
  });

  it('blames the agent for a tool its server withdrew', () => {
    const text =
      '{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"The run_query tool has been removed, use query_table instead"}}';
    expect(blameOf('mcp__warehouse__run_query', text)).toBe('agent_failure');
  });

  it('blames the agent for values and input the tool says it cannot take', () => {
    for (const text of [
      'Error running command: [WinError 87] The parameter is incorrect',
      "<error_details>ERROR: Diff block is malformed: marker '=======' found in your diff content at line 14</error_details>",
      "Provided region_name '[eu-west-1]' doesn't match a supported format.",
      'X Exiting due to RSRC_INSUFFICIENT_CORES: Requested cpu count 1 is less than the minimum allowed of 2',
      '{"errors":[{"message":"Cannot query field \\"orders\\" on type \\"Query\\"."}]}',
    ])
      expect(blameOf('Bash', text), text).toBe('agent_failure');
  });

  it('leaves an assertion that a value does not match what a test expected to the failing code', () => {
    const text =
      'Traceback (most recent call last):\n  File "check.py", line 12, in <module>\n    assert label == "Inline Dummies", "label does not match expected value"\nAssertionError: label does not match expected value';
    expect(failureOf('Bash', { command: 'python check.py' }, text)).toMatchObject({
      blame: 'agent_failure',
      deterministic: false,
    });
  });

  it('blames the agent for a module or package its tool could not resolve by name', () => {
    expect(
      blameOf(
        'Bash',
        "ERROR! couldn't resolve module/action 'community.general.sync'. This often indicates a misspelling",
      ),
    ).toBe('agent_failure');
    const cmake =
      'CMake Error at CMakeLists.txt:40 (find_package):\n  By not providing "FindSeal.cmake" in CMAKE_MODULE_PATH this project has\n  asked CMake to find a package configuration file provided by "Seal", but\n  CMake did not find one.';
    expect(blameOf('Bash', cmake)).toBe('agent_failure');
  });

  it('blames the agent for code, queries and records that conflict with what is there', () => {
    for (const text of [
      'PHP Fatal error:  Uncaught Error: Call to undefined function dumpx() in /srv/app/index.php:12',
      "Code: 47. DB::Exception: Missing columns: 'dur' 'check_name' while processing query: 'SELECT check_name FROM runs'. (UNKNOWN_IDENTIFIER)",
      'MongoServerError: E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: null }',
      'Error: accumulating resources: may not add resource with an already registered id: Service.v1.[noGrp]/api.system',
      '│ locked provider registry.terraform.io/hashicorp/random 3.1.0 does not match configured version constraint >= 3.5.0',
    ])
      expect(blameOf('Bash', text), text).toBe('agent_failure');
  });
});
