import { describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/convert.js';
import { Agent, ENOENT } from './support.js';

const bash = (command: string) => ({ command });

describe('status checks in quick succession', () => {
  const running = '{"status": "running", "exit_code": null}';

  it('blocks the sixth unchanged answer of a poll made every few seconds', () => {
    const agent = new Agent();
    const seen = agent.repeat(6, 'BashOutput', { bash_id: 'shell-3' }, running);
    expect(seen).toEqual(['allow', 'allow', 'warn', 'warn', 'warn', 'block']);
  });

  it('never blocks a poll with a sleep between checks', () => {
    const agent = new Agent();
    const seen: string[] = [];
    for (let index = 0; index < 10; index++) {
      seen.push(agent.call('BashOutput', { bash_id: 'shell-3' }, running).check.verdict);
      agent.call('Bash', bash('sleep 20'), '');
    }
    expect(seen).not.toContain('block');
  });

  it('blocks the sixth unchanged answer of a status check that waits the same ten seconds inside itself', () => {
    const agent = new Agent();
    const stillRunning = 'Script running with cell ID 18\nWall time 10.0 seconds\nOutput:\n';
    const seen = agent.repeat(
      6,
      'wait',
      { cell_id: '18', yield_time_ms: 10000, max_tokens: 2000 },
      stillRunning,
    );
    expect(seen.at(-1)).toBe('block');
  });

  it('never blocks a status check that waits half a minute inside itself for the job it asks about', () => {
    const agent = new Agent();
    const stillRunning = 'Script running with cell ID 18\nWall time 30.0 seconds\nOutput:\n';
    const seen = agent.repeat(
      10,
      'wait',
      { cell_id: '18', yield_time_ms: 30000, max_tokens: 2000 },
      stillRunning,
    );
    expect(seen).not.toContain('block');
  });

  it('still blocks the sixth unchanged answer of a status check whose wait is only a time limit', () => {
    const agent = new Agent();
    const seen = agent.repeat(6, 'get_job_status', { job_id: 'j-77', timeout_ms: 10000 }, running);
    expect(seen.at(-1)).toBe('block');
  });

  it('never blocks a command that sleeps before it checks', () => {
    const agent = new Agent();
    const seen = agent.repeat(10, 'Bash', bash('sleep 30 && gh run view 4242 --json status'), running);
    expect(seen).not.toContain('block');
  });
});

describe('guessing: varied arguments, one error shape', () => {
  it('blocks the fifth guessed path of one tool failing the same way, with advice to list first', () => {
    const agent = new Agent();
    const paths = ['config/prod.yaml', 'conf/prod.yml', 'settings/prod.yaml', 'prod.yaml', 'etc/prod.yaml'];
    const seen = paths.map((path) => agent.call('read_file', { path }, ENOENT(path)).check);
    expect(seen.map((check) => check.verdict)).toEqual(['allow', 'allow', 'warn', 'warn', 'block']);
    expect(seen[4]?.violations[0]?.rule).toBe('error-streak');
    expect(seen[4]?.violations[0]?.suggestion).toMatch(/list or search the valid values first/);
  });

  it('counts the guesses one model step issued at once as one guess, since none saw the others fail', () => {
    const agent = new Agent();
    const tool = 'mcp__codex_apps__github_fetch_file';
    const notFound = {
      content: [
        {
          type: 'text',
          text: 'Wall time: 2.2 seconds\nOutput:\n{"error":"GitHub API error 404: {\\"message\\":\\"Not Found\\",\\"status\\":\\"404\\"}","error_code":"NOT_FOUND"}',
        },
      ],
      isError: true,
    };
    /** One model step's calls: all checked before any runs, as a parallel dispatch does. */
    const step = (id: string, paths: readonly string[]) => {
      const proposals = paths.map((path) =>
        toolCallToProposal(tool, { repository_full_name: 'acme/backend', path }, { step: id }),
      );
      const checks = proposals.map((proposal) => agent.loop.checkProposal(proposal));
      proposals.forEach((proposal, index) => {
        if (!checks[index]?.allowed) return;
        agent.clock.advance(5);
        agent.loop.recordOutcome({ ...toolCallToOutcome(tool, proposal.args, notFound), proposal });
      });
      return checks.map((check) => check.verdict);
    };
    step('resp-1', ['package.json', 'pyproject.toml', 'requirements.txt']);
    step('resp-2', [
      'pom.xml',
      'start/pom.xml',
      'start/application.yml',
      'start/application-dev.yml',
      'Dockerfile',
    ]);
    expect(step('resp-3', ['jeecg-boot/pom.xml', 'jeecg-boot/Dockerfile'])).not.toContain('block');
  });

  it('starts the streak of guesses over when the tool finds one of the values it is asked for', () => {
    const agent = new Agent();
    const tool = 'mcp__codex_apps__github_fetch_file';
    const fetch = (path: string, answer: string | { text: string; isError: boolean }) =>
      agent.call(tool, { repository_full_name: 'acme/health-app', path, encoding: 'utf-8' }, answer).check
        .verdict;
    const notFound = {
      text: 'Wall time: 2.1 seconds\nOutput:\n{"error":"GitHub API error 404: {\\"message\\":\\"Not Found\\"}"}',
      isError: true,
    };
    const seen = ['README', 'gradlew', 'visualize.py'].map((path) => fetch(path, notFound));
    seen.push(
      fetch('api/main.py', 'Wall time: 6.2 seconds\nOutput:\n{"content":"from fastapi import FastAPI\\n"}'),
    );
    seen.push(
      ...['run_api.py', 'app/main.py', 'models/README.md', 'api/routers/pias_v2.py'].map((path) =>
        fetch(path, notFound),
      ),
    );
    expect(seen).not.toContain('block');
  });

  it('counts guessed tables as one shape while the error’s pid and duration gain digits', () => {
    const agent = new Agent();
    const guesses: [string, string, string][] = [
      ['orders', '812', '95'],
      ['order', '4096', '310'],
      ['orders_2024', '23817', '2210'],
      ['customer_orders', '5', '18077'],
      ['sales_orders', '130554', '40'],
    ];
    const seen = guesses.map(
      ([table, pid, ms]) =>
        agent.call(
          'execute_sql',
          { query: `SELECT COUNT(*) FROM ${table}` },
          {
            text: `Error executing query: Table 'shop.${table}' doesn't exist (worker pid ${pid}, ${ms} ms)`,
            isError: true,
          },
        ).check.verdict,
    );
    expect(seen.at(-1)).toBe('block');
  });

  it('counts ids guessed at an API as one shape however the ids are written', () => {
    const agent = new Agent();
    const ids = ['W2378156', 'w2378156', 'ZFA04Y', '2378156', 'W23781'];
    const seen = ids.map(
      (id) =>
        agent.call(
          'get_reservation_details',
          { reservation_id: id },
          {
            text: `Error: reservation ${id} not found`,
            isError: true,
          },
        ).check.verdict,
    );
    expect(seen.at(-1)).toBe('block');
  });

  it('counts a command guesses per program, so other programs failing do not add up', () => {
    const agent = new Agent();
    const verdicts = ['app.py', 'main.py', 'run.py', 'server.py', 'manage.py'].map((script) => {
      const text = `python3: can't open file '/repo/${script}': [Errno 2] No such file or directory`;
      const command = script === 'run.py' ? `node ${script}` : `python3 ${script}`;
      return agent.call('Bash', bash(command), { text, isError: true }).check.verdict;
    });
    expect(verdicts).not.toContain('block');
  });

  it('counts a guess that moves into a folder on its first line by the program on the next line', () => {
    const agent = new Agent();
    for (const path of ['.gitignore', 'app.py', 'README.md', 'requirements.txt', 'templates/home.html']) {
      const text = `fatal: path '${path}' does not exist in 'HEAD'`;
      agent.call('Bash', bash(`cd /home/dev/site\ngit show HEAD:${path}`), { text, isError: true });
    }
    const listing = agent.call(
      'Bash',
      bash('cd /home/dev/site\nls -la'),
      'total 8\n-rw-r--r-- 1 dev dev 61 app.js',
    );
    expect(listing.check.violations.map((violation) => violation.rule)).not.toContain('error-streak');
    expect(listing.check.verdict).not.toBe('block');
  });

  it('counts a command that pipes printed words into a program by that program', () => {
    const agent = new Agent();
    for (const program of ['sha3-512sum', 'sha3-384sum', 'sha3-256sum', 'sha3-224sum']) {
      const text = `bash: line 1: ${program}: command not found`;
      agent.call('Bash', bash(`echo -n example | ${program}`), { text, isError: true });
    }
    const hash = agent.call('Bash', bash('echo -n example | md5sum'), '1a79a4d60de6718e8e5b326e338ae533  -');
    expect(hash.check.violations.map((violation) => violation.rule)).not.toContain('error-streak');
    expect(hash.check.verdict).not.toBe('block');
  });

  it('never judges varied edits, which often succeed after a miss', () => {
    const agent = new Agent();
    const miss = { text: 'String to replace not found in file.', isError: true };
    const rules = ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((name) => {
      const edit = { file_path: 'src/app.ts', old_string: `const ${name} = 1;`, new_string: 'x' };
      return agent.call('Edit', edit, miss).check.violations.map((violation) => violation.rule);
    });
    expect(rules).not.toContain('error-streak');
  });
});

describe('configuration written by an editor', () => {
  it('lets a failing commit run again after a hidden settings file was created', () => {
    const agent = new Agent();
    const commit = bash('git add -A && git commit -m "feat: spans"');
    const failure = {
      text: 'Pre-commit validation failed:\n[DIALYZER] lib/app.ex:58:13 pattern can never match',
      isError: true,
    };
    const credo = {
      text: 'Pre-commit validation failed:\n\n[CREDO]\nPrefer using an implicit `try`',
      isError: true,
    };
    const edit = (from: string) => ({ file_path: '/repo/lib/app.ex', old_string: from, new_string: 'x' });
    agent.call('Bash', commit, failure);
    agent.call('Edit', edit('try do'), 'updated');
    agent.call('Bash', commit, failure);
    agent.call('Edit', edit('case'), 'updated');
    agent.call('Bash', commit, credo);
    agent.call('Edit', edit('do'), 'updated');
    agent.call('Bash', commit, failure);
    agent.call('Bash', bash('ls -la | grep dialyzer'), '');
    agent.call(
      'Write',
      { file_path: '/repo/.dialyzerignore', content: 'lib/app.ex:58:13\n' },
      'File created successfully',
    );
    expect(agent.call('Bash', commit, 'committed').check.verdict).not.toBe('block');
  });
});

describe('navigation changes what later calls see', () => {
  it('lets a search of the open file run again after another file was opened', () => {
    const agent = new Agent();
    const none = { text: 'No matches found for "parse_header" in /repo/a.py', isError: true };
    agent.call('open', { path: '/repo/a.py' }, '[File: /repo/a.py (120 lines total)]');
    agent.call('search_file', { search_term: 'parse_header' }, none);
    agent.call('search_file', { search_term: 'parse_header' }, none);
    agent.call('open', { path: '/repo/b.py' }, '[File: /repo/b.py (80 lines total)]');
    expect(
      agent.call('search_file', { search_term: 'parse_header' }, 'Found 1 match').check.verdict,
    ).not.toBe('block');
  });
});

describe('one command with cosmetic changes, one error', () => {
  const importError = (seconds: string) => ({
    text: `FAILED tests/test_api.py::test_get_user - AssertionError: assert 404 == 200\n1 failed, 7 passed in ${seconds}s`,
    isError: true,
  });

  it('takes reordered options, output flags and presentation variables as the same attempt', () => {
    const agent = new Agent();
    const spellings = [
      'pytest -x -v tests/test_api.py',
      'pytest -v -x tests/test_api.py',
      'NO_COLOR=1 pytest -q -x tests/test_api.py 2>&1 | tail -20',
    ];
    const seen = spellings.map(
      (command, index) => agent.call('Bash', bash(command), importError(`0.2${index}`)).check,
    );
    expect(seen.map((check) => check.verdict)).toEqual(['allow', 'allow', 'block']);
    expect(seen[2]?.violations[0]?.rule).toBe('identical-failure');
  });

  it('keeps a change of what runs a new attempt: another test file, or an option that selects tests', () => {
    const agent = new Agent();
    agent.call('Bash', bash('pytest -x tests/test_api.py'), importError('0.21'));
    agent.call('Bash', bash('pytest tests/test_api.py -x'), importError('0.22'));
    expect(agent.check('Bash', bash('pytest -x tests/test_client.py')).verdict).not.toBe('block');
    expect(agent.check('Bash', bash('pytest -x -k smoke tests/test_api.py')).verdict).not.toBe('block');
  });

  it.each([
    ['Bash', 'command'],
    ['run_shell_command', 'command'],
    ['run_terminal_cmd', 'command'],
  ])('keeps a glob quoted after it failed unquoted a new attempt (%s)', (tool, field) => {
    const agent = new Agent();
    const noMatch = {
      text: 'Exit code 1\n(eval):1: no matches found: @acme/crypto@workspace:*',
      isError: true,
    };
    agent.call(tool, { [field]: 'pnpm --filter @acme/e2e add -D @acme/crypto@workspace:*' }, noMatch);
    const quoted = agent.check(tool, {
      [field]: 'pnpm --filter "@acme/e2e" add -D "@acme/crypto@workspace:*"',
    });
    expect(quoted.verdict).toBe('allow');
    const again = agent.check(tool, { [field]: 'pnpm --filter @acme/e2e add -D @acme/crypto@workspace:*' });
    expect(again.verdict).toBe('block');
  });
});

describe('empty answers: rephrasings, sweeps and code searches', () => {
  it('blocks rephrasings of one request that keep coming back empty, with other calls in between', () => {
    const agent = new Agent();
    const queries = [
      'refund policy for damaged items',
      'Refund Policy Damaged Items',
      'return policy broken product',
      'refunds for damaged goods',
      'damaged item refund',
      'policy on refunds when item arrives damaged',
      'REFUND DAMAGED',
    ];
    const seen: string[] = [];
    for (const [index, query] of queries.entries()) {
      seen.push(agent.call('search_knowledge_base', { query }, '[]').check.verdict);
      if (index % 2 === 1)
        agent.call('get_order_details', { order_id: 'A1001' }, '{"id":"A1001","status":"delivered"}');
    }
    const firstBlock = seen.indexOf('block');
    expect(firstBlock).toBeGreaterThanOrEqual(3);
    expect(firstBlock).toBeLessThanOrEqual(6);
  });

  /** Patterns an agent tries in turn for code it has not found. */
  const headerPatterns = [
    'parseHeader',
    'parse_header',
    'headerParser',
    'HeaderParse',
    'read_headers',
    'class Header',
  ];
  const noResults = { text: 'No results found! Try a less restrictive/shorter query.', isError: true };

  const albumQueries = [
    'Mercedes Sosa studio albums 2000-2009',
    'Mercedes Sosa discography 2000s studio albums',
    'Mercedes Sosa albums released between 2000 and 2009',
    'list of Mercedes Sosa studio albums 2000 to 2009',
    'Mercedes Sosa studio album count 2000-2009',
    'how many studio albums Mercedes Sosa 2000 2009',
    'Mercedes Sosa 2000s albums',
  ];

  it('blocks rephrasings of one web search that each fail with "No results found", as empty lists would be', () => {
    const agent = new Agent();
    const seen = albumQueries.map((query) => agent.call('web_search', { query }, noResults).check.verdict);
    const firstBlock = seen.indexOf('block');
    expect(firstBlock).toBeGreaterThanOrEqual(3);
    expect(firstBlock).toBeLessThanOrEqual(6);
    expect(agent.check('web_search', { query: 'Mercedes Sosa' }).violations[0]?.rule).toBe('non-advancing');
  });

  it('blocks rephrasings of a web search whose failure quotes each query it found nothing for', () => {
    const agent = new Agent();
    const seen = albumQueries.map(
      (query) =>
        agent.call(
          'web_search',
          { query },
          { text: `No results found for query: '${query}'. Use a less restrictive query.`, isError: true },
        ).check.verdict,
    );
    const firstBlock = seen.indexOf('block');
    expect(firstBlock).toBeGreaterThanOrEqual(3);
    expect(firstBlock).toBeLessThanOrEqual(6);
  });

  it('never blocks a sweep of pages of a search that fails when a page holds nothing', () => {
    const agent = new Agent();
    const seen = [1, 2, 3, 4, 5, 6, 7, 8].map(
      (page) => agent.call('web_search', { query: 'Mercedes Sosa albums', page }, noResults).check.verdict,
    );
    expect(seen).not.toContain('block');
  });

  it('never blocks code searches failing with no output for different patterns', () => {
    const agent = new Agent();
    const seen = headerPatterns.map(
      (pattern) =>
        agent.call('Bash', bash(`grep -rn "${pattern}" src`), { text: 'Exit code 1', isError: true }).check
          .verdict,
    );
    expect(seen).not.toContain('block');
  });

  it('never blocks a sweep of one parameter returning empty lists, dates or pages in order', () => {
    const agent = new Agent();
    const seen: string[] = [];
    for (let day = 1; day <= 9; day++)
      seen.push(
        agent.call(
          'search_transactions',
          { account: 'acc-1', date: `2026-01-0${day}` },
          '{"transactions": []}',
        ).check.verdict,
      );
    for (let page = 1; page <= 8; page++)
      seen.push(
        agent.call('search_issues', { query: 'label:flaky', page }, '{"items": [], "total_count": 0}').check
          .verdict,
      );
    expect(seen).not.toContain('block');
  });

  it('never blocks code searches answering "no matches" for different patterns', () => {
    const agent = new Agent();
    const seen = [...headerPatterns, 'headers\\('].map(
      (pattern) => agent.call('Grep', { pattern, path: 'src' }, 'No matches found').check.verdict,
    );
    expect(seen).not.toContain('block');
  });

  it('never blocks code searches of the whole workspace, which name no path, for different patterns', () => {
    const agent = new Agent();
    const seen = headerPatterns.map(
      (pattern) => agent.call('Grep', { pattern }, 'No matches found').check.verdict,
    );
    expect(seen).not.toContain('block');
  });

  const flags = 'config/feature-flags.json';
  const flagQueries = [
    `jq '.flags[] | select(.name == "checkout-v2") | .enabled' ${flags}`,
    `cat ${flags} | jq '.flags[] | select(.name == "checkout-v2")'`,
    `jq -r '.flags[] | select(.name | test("checkout")) | .name' "${flags}"`,
    `jq '.flags["checkout-v2"]' ${flags}`,
    `cat ${flags} | jq -c '.rollout.checkout'`,
    `jq '.. | objects | select(has("checkout-v2"))' ${flags}`,
    `jq -r '.features.checkout.enabled' ${flags}`,
  ];

  it('blocks reworded jq queries of one file that keep answering nothing, with other commands in between', () => {
    const agent = new Agent();
    const seen: string[] = [];
    for (const [index, command] of flagQueries.entries()) {
      seen.push(agent.call('Bash', bash(command), index % 2 === 0 ? '' : 'null').check.verdict);
      if (index % 3 === 2) agent.call('Bash', bash('git status --short'), ' M src/checkout/cart.ts\n');
    }
    const firstBlock = seen.indexOf('block');
    expect(firstBlock).toBeGreaterThanOrEqual(3);
    expect(firstBlock).toBeLessThanOrEqual(6);
    const check = agent.check('Bash', bash(`jq '.flags | length' ${flags}`));
    expect(check.violations[0]?.rule).toBe('non-advancing');
    expect(check.violations[0]?.reason).toContain(flags);
  });

  it('never blocks other commands of the shell once queries of one file are stopped', () => {
    const agent = new Agent();
    for (const command of flagQueries) agent.call('Bash', bash(command), '');
    expect(agent.call('Bash', bash('mkdir -p tmp/reports'), '').check.verdict).toBe('allow');
    expect(agent.call('Bash', bash('git add config/'), '').check.verdict).toBe('allow');
    expect(agent.call('Bash', bash("jq '.name' package.json"), '"shop-web"').check.verdict).toBe('allow');
  });

  it('never blocks jq queries answering nothing when each asks another file', () => {
    const agent = new Agent();
    const files = [
      'package.json',
      'tsconfig.json',
      '.eslintrc.json',
      'app.json',
      'vercel.json',
      'turbo.json',
    ];
    const seen = files.map(
      (file) => agent.call('Bash', bash(`jq '.scripts.deploy' ${file}`), 'null').check.verdict,
    );
    expect(seen).not.toContain('block');
  });

  it('starts over when a query of the file answers something', () => {
    const agent = new Agent();
    const seen: string[] = [];
    for (const command of flagQueries.slice(0, 4))
      seen.push(agent.call('Bash', bash(command), '').check.verdict);
    agent.call('Bash', bash(`jq 'keys' ${flags}`), '[\n  "flags",\n  "version"\n]');
    for (const command of [...flagQueries.slice(4), `jq '.flags | map(.name)' ${flags}`])
      seen.push(agent.call('Bash', bash(command), '').check.verdict);
    expect(seen).not.toContain('block');
  });

  it('asks the file again once it has been written', () => {
    const agent = new Agent();
    for (const command of flagQueries) agent.call('Bash', bash(command), '');
    agent.call(
      'Edit',
      {
        file_path: flags,
        old_string: '"flags": []',
        new_string: '"flags": [{"name": "checkout-v2", "enabled": true}]',
      },
      'The file was edited.',
    );
    expect(agent.check('Bash', bash(flagQueries[0] as string)).verdict).toBe('allow');
  });

  it('counts a result the tool flags as non-advancing whatever the arguments, a sweep included', () => {
    const agent = new Agent();
    const flagged = { text: '{"items": []}', meta: { 'dev.narrowing/non-advancing': true } };
    const seen = [1, 2, 3, 4].map((page) => agent.call('list_events', { page }, flagged).check.verdict);
    expect(seen.at(-1)).toBe('block');
  });
});

describe('identical re-runs whose results differ only in volatile fields', () => {
  const failed = (run: number) => ({
    text: `FAIL src/cart.test.ts\n  ● cart › totals\n    expected 30 received 29\nTests: 1 failed, 12 passed, 13 total\nTime: ${(2.1 + run * 0.07).toFixed(3)} s\nRan all test suites at 10:0${run}:03.`,
    isError: true,
  });

  it('blocks the third run of a failing test whose output differs only in its duration and clock time', () => {
    const agent = new Agent();
    const seen = [0, 1, 2].map((run) => agent.call('Bash', bash('npm test'), failed(run)).check.verdict);
    expect(seen).toEqual(['allow', 'allow', 'block']);
  });

  const seeded = (run: number, worker: number, pid: number) => ({
    text: `Run #${1000 + run} started\n[worker-${worker}] pid ${pid} connecting to db... ok\nError: relation "users" does not exist\nexit status 1`,
    isError: true,
  });

  it('blocks the third run of a failing script whose output differs only in its run number, worker and pid', () => {
    const agent = new Agent();
    const runs = [seeded(1, 3313, 40112), seeded(2, 7869, 40177), seeded(3, 1024, 40230)];
    const seen = runs.map((run) => agent.call('Bash', bash('node scripts/seed.js'), run).check.verdict);
    expect(seen).toEqual(['allow', 'allow', 'block']);
  });

  it('lets a failing script run again while the words of its failure change from run to run', () => {
    const agent = new Agent();
    agent.call('Bash', bash('node scripts/seed.js'), seeded(1, 3313, 40112));
    const otherTable = {
      text: 'Run #1002 started\n[worker-7869] pid 40177 connecting to db... ok\nError: relation "orders" does not exist\nexit status 1',
      isError: true,
    };
    agent.call('Bash', bash('node scripts/seed.js'), otherTable);
    expect(agent.check('Bash', bash('node scripts/seed.js')).verdict).toBe('allow');
  });

  const drawn = (id: string) => ({
    text: `Error executing query: Unknown column 'origin' in 'where clause' (run ${id})`,
    isError: true,
  });

  it('blocks the third run of a failing query whose error ends with a run id drawn from letters alone', () => {
    const agent = new Agent();
    const query = { query: "SELECT count(*) FROM flights WHERE origin = 'APG'" };
    const runs = [drawn('ja61pf3nogt'), drawn('evvkvxoskel'), drawn('x9bq2mhtk0p')];
    const seen = runs.map((run) => agent.call('execute_sql', query, run).check.verdict);
    expect(seen).toEqual(['allow', 'allow', 'block']);
  });

  it('lets a failing script run again when a word of its failure changes to one of another length', () => {
    const agent = new Agent();
    const missing = (table: string) => ({
      text: `Run #1001 started\nError: relation ${table} does not exist\nexit status 1`,
      isError: true,
    });
    agent.call('Bash', bash('node scripts/seed.js'), missing('customers'));
    agent.call('Bash', bash('node scripts/seed.js'), missing('invoices'));
    expect(agent.check('Bash', bash('node scripts/seed.js')).verdict).toBe('allow');
  });

  it('lets a service that nobody can blame answer again when only its numbers changed', () => {
    const agent = new Agent();
    const session = (sensor: number) => ({
      text: `Welcome to the sensor network. This is sensor ID ${sensor}. Type HELP for a list of commands.\n>`,
      isError: true,
    });
    agent.call('Bash', bash('nc sensors.internal 2003'), session(6));
    agent.call('Bash', bash('nc sensors.internal 2003'), session(7));
    expect(agent.check('Bash', bash('nc sensors.internal 2003')).verdict).toBe('allow');
  });

  it('takes a failure that came back after an edit with only its timings changed as a second sighting', () => {
    const agent = new Agent();
    agent.call('Bash', bash('npm test'), failed(0));
    agent.call(
      'Edit',
      { file_path: 'src/cart.ts', old_string: 'total - 1', new_string: 'total' },
      'The file was edited.',
    );
    agent.call('Bash', bash('npm test'), failed(1));
    const check = agent.check('Bash', bash('npm test'));
    expect(check.verdict).toBe('block');
    expect(check.violations[0]?.rule).toBe('identical-failure');
  });
});

describe('cycles over states', () => {
  const failing = (text: string) => ({ text, isError: true });

  it('blocks when a third round of switching branches and running the same check on each starts', () => {
    const agent = new Agent();
    const seen: string[] = [];
    for (let round = 0; round < 3; round++) {
      seen.push(
        agent.call('Bash', bash('git checkout feature-a'), "Switched to branch 'feature-a'").check.verdict,
      );
      seen.push(
        agent.call('Bash', bash('npm test'), failing('FAIL src/a.test.ts\n  expected 1 received 2')).check
          .verdict,
      );
      seen.push(
        agent.call('Bash', bash('git checkout feature-b'), "Switched to branch 'feature-b'").check.verdict,
      );
      seen.push(
        agent.call('Bash', bash('npm test'), failing('FAIL src/b.test.ts\n  TypeError: x is not a function'))
          .check.verdict,
      );
    }
    expect(seen.indexOf('block')).toBe(8);
    expect(seen.slice(0, 8)).not.toContain('block');
  });

  it('counts two alternating errors of one command together, blocking only when the third round starts', () => {
    const agent = new Agent();
    const seen: string[] = [];
    for (let round = 0; round < 3; round++) {
      seen.push(
        agent.call('Bash', bash('python app.py'), failing("ModuleNotFoundError: No module named 'yaml'"))
          .check.verdict,
      );
      seen.push(
        agent.call('Bash', bash('pip install pyyaml'), 'Requirement already satisfied: pyyaml in ./venv')
          .check.verdict,
      );
      seen.push(
        agent.call(
          'Bash',
          bash('python app.py'),
          failing("ImportError: cannot import name 'CLoader' from 'yaml'"),
        ).check.verdict,
      );
      seen.push(
        agent.call(
          'Bash',
          bash('pip install --upgrade pyyaml'),
          'Requirement already satisfied: pyyaml in ./venv',
        ).check.verdict,
      );
    }
    expect(seen.indexOf('block')).toBe(8);
  });

  it('never blocks a check run on each branch whose answers change', () => {
    const agent = new Agent();
    const seen: string[] = [];
    for (let round = 0; round < 4; round++) {
      seen.push(
        agent.call('Bash', bash('git checkout feature-a'), "Switched to branch 'feature-a'").check.verdict,
      );
      seen.push(
        agent.call('Bash', bash('npm test'), failing(`FAIL src/a.test.ts\n  expected ${round} received 9`))
          .check.verdict,
      );
      seen.push(
        agent.call('Bash', bash('git checkout feature-b'), "Switched to branch 'feature-b'").check.verdict,
      );
      seen.push(agent.call('Bash', bash('npm test'), `Tests: ${round + 10} passed`).check.verdict);
    }
    expect(seen).not.toContain('block');
  });
});

describe('a program stopped at a prompt for input the call never gave', () => {
  const menu = (port: number) => ({
    error: `Welcome to the vault console\nSession port is: ${port}\nMain menu:\n1. Log in\n2. Show public key\n3. Exit\nEnter your choice: \nCommand timed out`,
  });

  it('blocks the third connection that stopped at the same prompt, answered alike each time', () => {
    const agent = new Agent();
    const seen = agent.repeat(4, 'run_command', bash('nc vault 4100'), menu(4101));
    expect(seen).toEqual(['allow', 'allow', 'block', 'block']);
  });

  it('lets a connection run again while the service answers each one otherwise', () => {
    const agent = new Agent();
    const seen = [4101, 4102, 4103, 4104].map(
      (port) => agent.call('run_command', bash('nc vault 4100'), menu(port)).check.verdict,
    );
    expect(seen).not.toContain('block');
  });
});
