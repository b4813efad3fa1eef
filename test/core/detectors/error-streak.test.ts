import { describe, expect, it } from 'vitest';
import { errorShape } from '../../../src/core/detectors/error-shape.js';
import { createErrorStreakDetector } from '../../../src/core/detectors/error-streak.js';
import { Agent } from '../support.js';
import { countingShapes } from './counting-shapes.js';
import { callOf, failed, GARBAGE, policies, propose, roundTrip, succeeded, verdicts } from './support.js';

const PATHS = [
  'config/prod.yaml',
  'config/production.yaml',
  'conf/prod.yml',
  'settings/prod.yaml',
  'prod.yaml',
];

function read(path: string, policy = policies()) {
  return callOf('read_file', { path }, { policy });
}

function missing(path: string) {
  return failed('not_found', 'agent_failure', `ENOENT: no such file or directory, open '${path}'`);
}

function guesses(paths: readonly string[], policy = policies()) {
  return paths.map((path) => [read(path, policy), missing(path)] as const);
}

/** A household game's commands, as a ReAct agent on ALFWorld sends them, and its refusal of one. */
const goTo = (input: string) => callOf('go_to', { input }, { kind: 'other' });
const nothingHappens = () => failed('validation_error', 'agent_failure', 'Nothing happens.');

/** A policy that lets the streak block rather than only warn. */
const BLOCKING = policies({ detectors: { errorStreak: { effect: 'block' } } });

describe('error-streak', () => {
  it('warns on the third guess and blocks the fifth by default', () => {
    const detector = createErrorStreakDetector();
    expect(verdicts(detector, guesses(PATHS))).toEqual(['allow', 'allow', 'warn', 'warn', 'block']);
  });

  it('blocks the fifth guess under the strict preset as well', () => {
    const detector = createErrorStreakDetector();
    const strict = policies({ preset: 'strict' });
    expect(verdicts(detector, guesses(PATHS, strict))).toEqual(['allow', 'allow', 'warn', 'warn', 'block']);
  });

  it('lets one new guess through, steered, after two refused in a row, then after four, and ends the streak when it works', () => {
    const detector = createErrorStreakDetector();
    const paths = Array.from({ length: 14 }, (_, index) => `config/env-${index}.yaml`);
    expect(verdicts(detector, guesses(paths))).toEqual([
      'allow',
      'allow',
      'warn',
      'warn',
      'block',
      'block',
      'warn',
      'block',
      'block',
      'block',
      'block',
      'warn',
      'block',
      'block',
    ]);
    const more = ['app.yaml', 'app.yml', 'base.yaml', 'base.yml', 'local.yaml', 'local.yml'];
    expect(verdicts(detector, guesses(more.map((name) => `config/${name}`)))).toEqual(
      Array.from({ length: 6 }, () => 'block'),
    );
    // The next guess let through reads a file that exists: the streak is over.
    expect(propose(detector, read('config/settings.yaml'), succeeded('env: production'))?.severity).toBe(
      'warn',
    );
    expect(detector.check(read('config/other.yaml'))).toBeUndefined();
  });

  it('only warns on the fifth guess when the policy sets the effect to warn', () => {
    const detector = createErrorStreakDetector();
    const warning = policies({ detectors: { errorStreak: { effect: 'warn' } } });
    expect(verdicts(detector, guesses(PATHS, warning))).toEqual(['allow', 'allow', 'warn', 'warn', 'warn']);
  });

  it('takes one error worded with other values for the same shape, and another error for a new streak', () => {
    const detector = createErrorStreakDetector();
    const unknown = (name: string) =>
      failed('invalid_argument', 'agent_failure', `Unknown tool: ${name}. Did you mean list_pull_requests?`);
    const call = (name: string) => callOf('call_tool', { name }, { policy: BLOCKING });
    const names = ['github_list_prs', 'githubListPrs', 'gh_prs_v2', 'github_pr_list'];
    expect(
      verdicts(
        detector,
        names.map((name) => [call(name), unknown(name)] as const),
      ),
    ).toEqual(['allow', 'allow', 'warn', 'warn']);
    expect(detector.check(call('prs_list'))?.severity).toBe('block');
    const other = failed('invalid_argument', 'agent_failure', 'Server "github" is not connected');
    detector.observe(call('prs_list'), other);
    expect(detector.check(call('list_prs'))).toBeUndefined();
  });

  it('takes an error whose value no mask could tell from a word for the shape with that value masked', () => {
    const agent = new Agent();
    const queries = ['car_models', 'car_model', 'models', 'cars_data', 'car_makers'];
    const ids = ['4f2k9x7m1qz', 'r8t3v0w6y2b', 'xqzhwvkdmpt', 'k5n1p8s3d0f', 'h2j7l4c9g6a'];
    const verdicts = queries.map((table, index) => {
      const query = `SELECT COUNT(*) FROM ${table} WHERE maker = 'amc'`;
      const error = `Error executing query: Table 'car_1.${table}' doesn't exist (request ${ids[index]})`;
      return agent.call('execute_sql', { query }, { text: error, isError: true }).check.verdict;
    });
    expect(verdicts).toEqual(['allow', 'allow', 'warn', 'warn', 'block']);
  });

  it('takes an id its error echoes in several forms, masked whole or in part, for one value', () => {
    const agent = new Agent();
    const forms = ['INV-1001', 'INV-1002', 'inv_1001', '1001', 'INV1001'];
    const verdicts = forms.map(
      (invoice) =>
        agent.call(
          'get_invoice',
          { invoice_id: invoice },
          { text: `Error: invoice ${invoice} not found`, isError: true },
        ).check.verdict,
    );
    expect(verdicts.at(-1)).toBe('block');
  });

  it('blocks the fifth guess when the policy sets the effect to block', () => {
    const detector = createErrorStreakDetector();
    expect(verdicts(detector, guesses(PATHS, BLOCKING))).toEqual(['allow', 'allow', 'warn', 'warn', 'block']);
  });

  it('says which tool, which error and how many different calls failed', () => {
    const detector = createErrorStreakDetector();
    verdicts(detector, guesses(PATHS.slice(0, 4)));
    const violation = detector.check(read('prod.yaml'));
    expect(violation?.rule).toBe('error-streak');
    expect(violation?.reason).toContain('read_file has failed 4 times in a row with not_found');
    expect(violation?.evidence).toMatchObject({ count: 4, signature: 'not_found' });
    expect(violation?.evidence.lastError).toBe(
      "ENOENT: no such file or directory, open 'settings/prod.yaml'",
    );
  });

  it('does not count an identical retry as a new guess', () => {
    const detector = createErrorStreakDetector();
    const [first, second] = guesses(PATHS.slice(0, 2));
    expect(verdicts(detector, [first!, first!, first!, second!])).toEqual([
      'allow',
      'allow',
      'allow',
      'allow',
    ]);
    expect(detector.check(read('conf/prod.yml'))?.severity).toBe('warn');
  });

  it('starts over when the tool succeeds', () => {
    const detector = createErrorStreakDetector();
    verdicts(detector, guesses(PATHS.slice(0, 3)));
    expect(propose(detector, read('config/default.yaml'), succeeded('port: 8080'))?.severity).toBe('warn');
    expect(verdicts(detector, guesses(PATHS.slice(0, 3)))).toEqual(['allow', 'allow', 'warn']);
  });

  it('lets a call that succeeded before through a streak of refused guesses: a value known to work is no guess', () => {
    const detector = createErrorStreakDetector();
    const command = (input: string) => callOf('command', { input }, { kind: 'other' });
    const notAVerb = () => failed('validation_error', 'agent_failure', "That's not a verb I recognize.");
    const tap = succeeded('(the kitchen sink) Nothing comes from the tap but an eerie distant howling.');
    verdicts(detector, [[command('turn faucet'), tap]]);
    verdicts(
      detector,
      ['bathroom', 'use bathroom', 'sink', 'bathroom sink', 'use bathroom sink'].map(
        (input) => [command(input), notAVerb()] as const,
      ),
    );
    expect(detector.check(command('bathroom tap'))?.severity).toBe('block');
    expect(detector.check(command('turn faucet'))).toBeUndefined();
  });

  it('lets a guess through, steered, that changes a word every refused guess kept: their failures say nothing of it', () => {
    const detector = createErrorStreakDetector();
    const burners = [5, 6, 7, 8, 9].map(
      (number) => [goTo(`stoveburner ${number}`), nothingHappens()] as const,
    );
    expect(verdicts(detector, burners)).toEqual(['allow', 'allow', 'warn', 'warn', 'block']);
    expect(detector.check(goTo('stoveburner 10'))?.severity).toBe('block');
    expect(detector.check(goTo('toaster 1'))?.severity).toBe('warn');
  });

  it('still blocks a guess that only adds words after the others, or an argument: the same attempt written otherwise', () => {
    const detector = createErrorStreakDetector();
    const query = (sql: string, extra: Record<string, unknown> = {}) =>
      callOf('execute_sql', { query: sql, ...extra }, { kind: 'read' });
    const unknown = () =>
      failed(
        'validation_error',
        'agent_failure',
        "Error executing query: Unknown column 'email' in 'field list'",
      );
    const states = ["'Hawaii', 'Wisconsin'", "'Hawaii'", "'Ohio'", "'Texas', 'Utah'", "'Iowa'"];
    verdicts(
      detector,
      states.map(
        (list) => [query(`SELECT email FROM professionals WHERE state IN (${list})`), unknown()] as const,
      ),
    );
    const sql = "SELECT email FROM professionals WHERE state IN ('Maine')";
    expect(detector.check(query(`${sql} ORDER BY email`))?.severity).toBe('block');
    expect(detector.check(query(sql, { database: 'dog_kennels' }))?.severity).toBe('block');
  });

  it('takes a guess that changed a kept word and failed alike into the streak: the next guess varying that word is blocked', () => {
    const detector = createErrorStreakDetector();
    const take = (input: string) => callOf('take', { input }, { kind: 'mutate' });
    verdicts(
      detector,
      [1, 2, 3, 4, 5].map((number) => [take(`knife 1 from cabinet ${number}`), nothingHappens()] as const),
    );
    expect(propose(detector, take('knife 1 from drawer 1'), nothingHappens())?.severity).toBe('warn');
    expect(detector.check(take('knife 1 from drawer 2'))?.severity).toBe('block');
    expect(detector.check(take('knife 1 from fridge 1'))?.severity).toBe('block');
  });

  it('saves the words its guesses kept alike by their hashes, never in clear', () => {
    const detector = createErrorStreakDetector();
    const token = 'ghp_R8x2Lq0vKd7sYw3NcTf9UbZa1Hm4Jp6Ge5Wo';
    const request = (id: number) =>
      callOf('http_get', { url: `https://api.acme.dev/v2/orders/${id}`, token }, { kind: 'read' });
    const absent = () => failed('not_found', 'agent_failure', 'HTTP 404: order not found');
    verdicts(
      detector,
      [1042, 1043].map((id) => [request(id), absent()] as const),
    );
    const snapshot = detector.snapshot() as { tools: [string, { held?: unknown }][] };
    const held = JSON.stringify(snapshot.tools[0]?.[1].held);
    expect(held).toContain('token');
    expect(held).not.toContain('ghp_');
    expect(held).not.toContain('orders');
  });

  it('reads what guesses kept alike the same way when their arguments are too long to keep for later', () => {
    const detector = createErrorStreakDetector();
    const notes = 'Looked in the kitchen first. '.repeat(200);
    const goWithNotes = (input: string) => callOf('go_to', { input, notes }, { kind: 'other' });
    verdicts(
      detector,
      [5, 6, 7, 8, 9].map((number) => [goWithNotes(`stoveburner ${number}`), nothingHappens()] as const),
    );
    expect(detector.check(goWithNotes('stoveburner 10'))?.severity).toBe('block');
    expect(detector.check(goWithNotes('toaster 1'))?.severity).toBe('warn');
  });

  it('keeps the words its guesses kept alike through a snapshot and restore', () => {
    const first = createErrorStreakDetector();
    verdicts(
      first,
      [5, 6, 7, 8].map((number) => [goTo(`stoveburner ${number}`), nothingHappens()] as const),
    );
    const second = createErrorStreakDetector();
    roundTrip(first, second);
    expect(second.check(goTo('stoveburner 9'))?.severity).toBe('block');
    expect(second.check(goTo('toaster 1'))?.severity).toBe('warn');
  });

  it('still knows which calls worked after a snapshot and restore', () => {
    const first = createErrorStreakDetector();
    verdicts(first, [[read('config/default.yaml', BLOCKING), succeeded('port: 8080')]]);
    verdicts(first, guesses(PATHS, BLOCKING));
    const second = createErrorStreakDetector();
    roundTrip(first, second);
    expect(second.check(read('config/staging.yaml', BLOCKING))?.severity).toBe('block');
    expect(second.check(read('config/default.yaml', BLOCKING))).toBeUndefined();
  });

  it('counts changes that write no text into a file as guesses: a pull request opened with one guessed branch after another', () => {
    const detector = createErrorStreakDetector();
    const refused = failed(
      'validation_error',
      'agent_failure',
      'failed to create pull request: POST https://api.github.com/repos/acme/billing/pulls: 422 Validation Failed [{Resource:PullRequest Field:head Code:invalid Message:}]',
    );
    const heads = [
      'fix/totals',
      'acme:fix/totals',
      'fix-totals',
      'refs/heads/fix/totals',
      'origin/fix/totals',
    ];
    const open = (head: string) =>
      callOf(
        'mcp__github__create_pull_request',
        { owner: 'acme', repo: 'billing', head, base: 'main' },
        { kind: 'create' },
      );
    expect(
      verdicts(
        detector,
        heads.map((head) => [open(head), refused] as const),
      ),
    ).toEqual(['allow', 'allow', 'warn', 'warn', 'block']);
  });

  it('never counts an edit, a change that writes text into a file, as a guess', () => {
    const detector = createErrorStreakDetector();
    const notFound = failed('edit_failed', 'agent_failure', 'String to replace not found in file.');
    const edit = (index: number) => {
      const call = callOf(
        'Edit',
        { file_path: 'src/cart.ts', old_string: `total${index}`, new_string: 'sum' },
        { kind: 'mutate' },
      );
      return { ...call, facts: { ...call.facts, searchTexts: [`total${index}`], writtenText: 'sum' } };
    };
    expect(
      verdicts(
        detector,
        [0, 1, 2, 3, 4, 5].map((index) => [edit(index), notFound] as const),
      ),
    ).not.toContain('block');
  });

  it('starts over when any call changes the world', () => {
    const detector = createErrorStreakDetector();
    verdicts(detector, guesses(PATHS.slice(0, 4)));
    const write = callOf('write_file', { path: 'config/prod.yaml', content: 'port: 80' }, { kind: 'create' });
    propose(detector, write, succeeded('wrote config/prod.yaml', { changedWorld: true }));
    expect(detector.check(read('prod.yaml'))).toBeUndefined();
  });

  it('starts over when the error changes', () => {
    const detector = createErrorStreakDetector();
    verdicts(detector, guesses(PATHS.slice(0, 3)));
    const denied = failed(
      'permission_denied',
      'agent_failure',
      "EACCES: permission denied, open '/etc/shadow'",
    );
    expect(propose(detector, read('/etc/shadow'), denied)?.severity).toBe('warn');
    expect(detector.check(read('prod.yaml'))).toBeUndefined();
  });

  it('only warns when the failures are empty results, since looking for absent things is exploration', () => {
    const detector = createErrorStreakDetector();
    const grep = (pattern: string) =>
      callOf('grep', { pattern, path: 'src' }, { kind: 'search', policy: BLOCKING });
    const steps = ['sendMail', 'send_mail', 'mailer', 'smtp', 'nodemailer', 'emailClient', 'transport'].map(
      (pattern) => [grep(pattern), failed('empty_result', 'agent_failure', 'No matches found')] as const,
    );
    expect(verdicts(detector, steps)).toEqual(['allow', 'allow', 'warn', 'warn', 'warn', 'warn', 'warn']);
  });

  for (const tool of ['Lookup', 'mcp__wikipedia__search', 'search_file_content']) {
    it(`blocks ${tool} once its empty answers include a query asked again with nothing changed in between`, () => {
      const detector = createErrorStreakDetector();
      const lookup = (input: string) => callOf(tool, { input }, { kind: 'search' });
      const nothing = failed('empty_result', 'agent_failure', 'No Results');
      const page = callOf('Retrieve', { input: 'Lunar Module Pilot' }, { kind: 'read' });
      expect(
        verdicts(detector, [
          [lookup('Marta Okonkwo'), nothing],
          [page, succeeded('The lunar module pilot flew the lander with the commander and ran its systems.')],
          [lookup('Marta Okonkwo'), nothing],
          [lookup('Apollo mission 10'), nothing],
          [lookup('Apollo mission 15'), nothing],
          [lookup('Rocket'), nothing],
          [lookup('Apollo mission 17'), nothing],
        ]),
      ).toEqual(['allow', 'allow', 'allow', 'allow', 'warn', 'warn', 'block']);
    });
  }

  it('still only warns on empty answers asked again once something changed in between', () => {
    const detector = createErrorStreakDetector();
    const grep = (pattern: string) => callOf('grep', { pattern, path: 'src' }, { kind: 'search' });
    const nothing = failed('empty_result', 'agent_failure', 'No matches found');
    const write = callOf('write_file', { path: 'src/mail.ts', content: 'export {}' }, { kind: 'create' });
    expect(
      verdicts(detector, [
        [grep('sendMail'), nothing],
        [write, { ...succeeded('File written'), changedWorld: true }],
        [grep('sendMail'), nothing],
        [grep('mailer'), nothing],
        [grep('smtp'), nothing],
        [grep('transport'), nothing],
        [grep('emailClient'), nothing],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow', 'warn', 'warn', 'warn']);
  });

  it('is not fooled by other tools running in between', () => {
    const detector = createErrorStreakDetector();
    const list = callOf('list_directory', { path: 'config' }, { kind: 'read' });
    expect(
      verdicts(detector, [
        [read(PATHS[0]!), missing(PATHS[0]!)],
        [list, succeeded('default.yaml\nstaging.yaml')],
        [read(PATHS[1]!), missing(PATHS[1]!)],
        [read(PATHS[2]!), missing(PATHS[2]!)],
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'warn']);
  });

  it('neither counts nor resets on a harness fault in the middle of a streak', () => {
    const detector = createErrorStreakDetector();
    const steps = guesses(PATHS, BLOCKING);
    const timeout = [
      read('conf/prod.yml', BLOCKING),
      failed('timeout', 'harness_fault', 'read timed out after 30s'),
    ] as const;
    expect(verdicts(detector, [steps[0]!, steps[1]!, timeout, steps[2]!, steps[3]!, steps[4]!])).toEqual([
      'allow',
      'allow',
      'warn',
      'warn',
      'warn',
      'block',
    ]);
  });

  it('counts no failure of unknown blame as a guess', () => {
    const detector = createErrorStreakDetector();
    const unsure = (path: string) =>
      [
        read(path),
        failed('not_found', 'unknown', `ENOENT: no such file or directory, open '${path}'`),
      ] as const;
    const steps = guesses(PATHS);
    expect(
      verdicts(detector, [steps[0]!, steps[1]!, unsure('conf/prod.yml'), unsure('etc/prod.yml'), steps[3]!]),
    ).toEqual(['allow', 'allow', 'warn', 'warn', 'warn']);
    expect(detector.check(read('prod.yaml'))?.severity).toBe('warn');
  });

  it('ends the streak at a failure of unknown blame that went another way', () => {
    const detector = createErrorStreakDetector();
    verdicts(detector, guesses(PATHS.slice(0, 4)));
    expect(detector.check(read('prod.yaml'))?.severity).toBe('block');
    detector.observe(read('prod.yaml'), failed('unknown_error', 'unknown', 'EIO: i/o error, read'));
    expect(detector.check(read('prod.yml'))).toBeUndefined();
  });

  it('applies thresholds overridden for the tool by exact name', () => {
    const detector = createErrorStreakDetector();
    const policy = policies({
      tools: { read_file: { detectors: { errorStreak: { warnAt: 4, blockAt: 6, effect: 'block' } } } },
    });
    const steps = guesses([...PATHS, 'prod.yml'], policy);
    expect(verdicts(detector, steps)).toEqual(['allow', 'allow', 'allow', 'warn', 'warn', 'block']);
  });

  it('applies thresholds overridden for the tool by glob', () => {
    const detector = createErrorStreakDetector();
    const policy = policies({
      tools: { 'read_*': { detectors: { errorStreak: { warnAt: 2, blockAt: 3, effect: 'block' } } } },
    });
    expect(verdicts(detector, guesses(PATHS.slice(0, 3), policy))).toEqual(['allow', 'warn', 'block']);
  });

  it('never fires for an exempt tool', () => {
    const detector = createErrorStreakDetector();
    const policy = policies({ tools: { read_file: { exempt: true } } });
    expect(verdicts(detector, guesses(PATHS, policy))).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('shapes an error only once its tool fails again, and still saves the shape', () => {
    const shaped: string[] = [];
    const observed = (path: string) => countingShapes(missing(path), shaped);
    const detector = createErrorStreakDetector();
    detector.observe(read('config/prod.yaml'), observed('config/prod.yaml'));
    expect(shaped).toEqual([]);
    detector.observe(read('conf/prod.yml'), observed('conf/prod.yml'));
    expect(shaped).toHaveLength(2);
    detector.observe(read('prod.yaml'), succeeded('prod: true'));
    detector.observe(read('settings/prod.yaml'), observed('settings/prod.yaml'));
    expect(shaped).toHaveLength(2);
    const saved = JSON.stringify(detector.snapshot());
    expect(shaped).toHaveLength(3);
    expect(saved).toContain(errorShape("ENOENT: no such file or directory, open 'settings/prod.yaml'"));
    expect(saved).not.toContain('pendingShape');
  });

  it('keeps its streaks through a snapshot and restore', () => {
    const first = createErrorStreakDetector();
    verdicts(first, guesses(PATHS.slice(0, 4), BLOCKING));
    const second = createErrorStreakDetector();
    roundTrip(first, second);
    expect(second.check(read('prod.yaml', BLOCKING))?.severity).toBe('block');
  });

  it('saves the last error of a streak on one line, as its reason quotes it', () => {
    const detector = createErrorStreakDetector();
    const paths = ['config/prod.yaml', 'config/production.yaml'];
    for (const path of paths) {
      detector.observe(
        read(path),
        failed('not_found', 'agent_failure', `ENOENT:\n  no such file,\topen '${path}'`),
      );
    }
    const snapshot = detector.snapshot() as { tools: [string, Record<string, unknown>][] };
    expect(snapshot.tools).toEqual([
      [
        'read_file',
        {
          signature: 'not_found',
          shape: 'enoent: no such file, open q',
          distinct: 2,
          keys: expect.any(Array),
          calls: expect.any(Array),
          lastError: "ENOENT: no such file, open 'config/production.yaml'",
          world: 0,
        },
      ],
    ]);
    expect(Object.keys(snapshot.tools[0]?.[1] ?? {})).toEqual([
      'signature',
      'shape',
      'distinct',
      'keys',
      'calls',
      'lastError',
      'world',
    ]);
  });

  it('does not bring back a streak that a change to the world ended, through a snapshot', () => {
    const first = createErrorStreakDetector();
    verdicts(first, guesses(PATHS.slice(0, 4)));
    const touch = callOf('bash', { command: 'touch config/prod.yaml' }, { kind: 'exec' });
    propose(first, touch, succeeded('', { changedWorld: true }));
    const second = createErrorStreakDetector();
    roundTrip(first, second);
    expect(second.check(read('prod.yaml'))).toBeUndefined();
  });

  it('ignores a snapshot it cannot read and starts empty', () => {
    for (const garbage of GARBAGE) {
      const detector = createErrorStreakDetector();
      verdicts(detector, guesses(PATHS.slice(0, 4)));
      detector.restore(garbage);
      expect(detector.check(read('prod.yaml'))).toBeUndefined();
    }
  });

  it('remembers at most a thousand tools however many it sees', () => {
    const detector = createErrorStreakDetector();
    for (let index = 0; index < 100_000; index++) {
      detector.observe(callOf(`tool_${index}`, { id: index }), missing(`file-${index}`));
    }
    const snapshot = detector.snapshot() as { tools: unknown[] };
    expect(snapshot.tools.length).toBeLessThanOrEqual(1_000);
  });

  it('remembers a bounded number of calls for one long streak', () => {
    const detector = createErrorStreakDetector();
    for (let index = 0; index < 10_000; index++) detector.observe(read(`guess-${index}.yaml`), missing('x'));
    const snapshot = detector.snapshot() as { tools: [string, { keys: unknown[]; calls: unknown[] }][] };
    expect(snapshot.tools[0]?.[1].keys.length).toBeLessThanOrEqual(32);
    expect(snapshot.tools[0]?.[1].calls.length).toBeLessThanOrEqual(5);
  });
});
