import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANDIDATE_SCANS, looksDrawnLetters } from '../../src/core/identity/call-identity.js';
import {
  digestResult,
  digestWithoutNumbers,
  looksRandom,
  maskVolatile,
  maskVolatileExhaustively,
} from '../../src/core/identity/index.js';
import { growth } from '../growth.js';
import { Agent } from './support.js';

/** Two runs of one failing command, as each printed it: only what the run drew afresh differs. */
const RERUNS: readonly (readonly [string, string, string])[] = [
  [
    'pytest with its temporary folders',
    [
      'FAILED tests/test_export.py::test_writes_report - FileNotFoundError: [Errno 2] No such file or directory:',
      "  '/tmp/pytest-of-runner/pytest-17/test_writes_report0/out/report.csv'",
      'E   cache dir /tmp/tmpk3j9x2ab/cache is not writable',
      '1 failed, 12 passed in 0.84s',
    ].join('\n'),
    [
      'FAILED tests/test_export.py::test_writes_report - FileNotFoundError: [Errno 2] No such file or directory:',
      "  '/tmp/pytest-of-runner/pytest-18/test_writes_report0/out/report.csv'",
      'E   cache dir /tmp/tmpq81mz0c4/cache is not writable',
      '1 failed, 12 passed in 0.91s',
    ].join('\n'),
  ],
  [
    'a node stack with the port the server was given',
    [
      "(node:48213) Warning: Accessing non-existent property 'padLevels' of module exports inside circular dependency",
      'Error: connect ECONNREFUSED 127.0.0.1:41873',
      '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)',
    ].join('\n'),
    [
      "(node:48377) Warning: Accessing non-existent property 'padLevels' of module exports inside circular dependency",
      'Error: connect ECONNREFUSED 127.0.0.1:53309',
      '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)',
    ].join('\n'),
  ],
  [
    'curl with the request ids a service answers with',
    [
      '< HTTP/2 503',
      '< x-request-id: req_7Hq2LmZ9xK4pTs',
      '< x-amz-cf-id: 9DYQFBXB7Y1Z2N6A',
      'curl: (22) The requested URL returned error: 503 (trace 4f9a2c1be07d)',
    ].join('\n'),
    [
      '< HTTP/2 503',
      '< x-request-id: req_Q3vN8wR1cJ6yBd',
      '< x-amz-cf-id: K2M7PX4TQ9R3W8VE',
      'curl: (22) The requested URL returned error: 503 (trace a83e5d20c9f1)',
    ].join('\n'),
  ],
  [
    'docker with the container it started',
    'docker: Error response from daemon: driver failed programming external connectivity on endpoint web (3f9a2c1b7e4d): Bind for 0.0.0.0:8080 failed: port is already allocated.',
    'docker: Error response from daemon: driver failed programming external connectivity on endpoint web (a1e08d5c63b2): Bind for 0.0.0.0:8080 failed: port is already allocated.',
  ],
  [
    'go test with its timings and build folder',
    [
      '--- FAIL: TestParseOrder (0.00s)',
      '    order_test.go:41: open /tmp/go-build2217749331/b001/testdata/order.json: no such file or directory',
      'FAIL\tgithub.com/shop/orders\t0.012s',
    ].join('\n'),
    [
      '--- FAIL: TestParseOrder (0.01s)',
      '    order_test.go:41: open /tmp/go-build3390181276/b001/testdata/order.json: no such file or directory',
      'FAIL\tgithub.com/shop/orders\t0.015s',
    ].join('\n'),
  ],
  [
    'Python with the address of an object',
    'TypeError: cannot pickle <_thread.lock object at 0x7f3a2b1c4d50> in worker (pid 4121, run 8f3kq2zx9w1)',
    'TypeError: cannot pickle <_thread.lock object at 0x7fd90c8e1a10> in worker (pid 4178, run m2x7k1q9v4b)',
  ],
  [
    'a structured answer with how long it took',
    '{"error":"upstream timed out","duration_ms":30012,"elapsed":30.01,"request":"a9f3c2e17b04"}',
    '{"error":"upstream timed out","duration_ms":30004,"elapsed":30.0,"request":"0c7d1e94f2a6"}',
  ],
  [
    'a run id of an epoch and a random part, and a log named for when it ran',
    'Setting up test environment for run: test-1758124590185-zdfxjzcqa\n- New console entries: console-2026-02-13T02-13-01-029Z.log',
    'Setting up test environment for run: test-1758124611302-3bnfjhjrr\n- New console entries: console-2026-02-13T02-14-22-060Z.log',
  ],
  [
    'a run id as its label names it, however few digits it drew',
    'Inventory: You are not carrying anything.\nrun saqauascu9j\ncontainer id: 4fmfjegtrp6',
    'Inventory: You are not carrying anything.\nrun jvsf0nieedf\ncontainer id: kq7wbnzexra',
  ],
  [
    'an API’s request id, behind its prefix and in both cases, or in digits alone',
    'Error: 529 {"type":"overloaded_error"} (x-request-id: req_2OwvdNR9edA264)\nrequest id: 146740535959',
    'Error: 529 {"type":"overloaded_error"} (x-request-id: req_zsTGekzjfw2UAV)\nrequest id: 902771345618',
  ],
  [
    'an API’s request id drawn of letters alone, in a header and in a JSON body',
    'Error: 400 invalid_request (x-request-id: req_APVzgfTvvcfxRq)\n{"error": "bad key", "trace_id": "QmXkTzLpRwVbNc"}',
    'Error: 400 invalid_request (x-request-id: req_kHqWzBnTyMvXpL)\n{"error": "bad key", "trace_id": "vRtEwQsDfGhJkL"}',
  ],
  [
    'a trace id in both cases',
    'upstream refused the call, trace_id=aL0TTQRKzwDXnt',
    'upstream refused the call, trace_id=Kq7WbNZexRa2mP',
  ],
  [
    'a status whose counters of time gone by ticked between two polls',
    '{"state": "running", "rows_written": 0, "idle_for_seconds": 12, "uptimeSec": 3601, "seconds_since_heartbeat": 4}',
    '{"state": "running", "rows_written": 0, "idle_for_seconds": 15, "uptimeSec": 3604, "seconds_since_heartbeat": 7}',
  ],
  [
    'a request id under its label that switches once between letters and digits',
    '{"articles": 3, "request_id": "req_d3569024", "trace-id": "a71200"}\nx-correlation-id: 88120b',
    '{"articles": 3, "request_id": "req_7bcaefd2", "trace-id": "9f0e2d"}\nx-correlation-id: 4dd9a1',
  ],
  [
    'a temporary file renamed beside its target',
    "EPERM: operation not permitted, rename 'node_modules/.prisma/client/query_engine.dll.node.tmp76932'",
    "EPERM: operation not permitted, rename 'node_modules/.prisma/client/query_engine.dll.node.tmp67444'",
  ],
];

/** Two failures of one command that say different things, each with its own volatile values. */
const DIFFERENT: readonly (readonly [string, string, string])[] = [
  [
    'another missing file',
    "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/tmpk3j9x2ab/config.yaml' (0.12s)",
    "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/tmpq81mz0c4/settings.yaml' (0.14s)",
  ],
  [
    'another missing module',
    "ModuleNotFoundError: No module named 'html5lib' (run 8f3kq2zx9w1)",
    "ModuleNotFoundError: No module named 'resilience4j' (run m2x7k1q9v4b)",
  ],
  [
    'another failing test',
    'FAILED tests/test_api.py::test_login2fa - AssertionError (took 41 ms, request 4f9a2c1be07d)',
    'FAILED tests/test_api.py::test_logout - AssertionError (took 38 ms, request a83e5d20c9f1)',
  ],
  [
    'another service refusing',
    'Error: connect ECONNREFUSED 127.0.0.1:5432',
    'Error: connect ECONNREFUSED 127.0.0.1:6379',
  ],
  [
    'another error code',
    'error TS2345: Argument of type string is not assignable (at 0x7f3a2b1c4d50)',
    'error TS2322: Argument of type string is not assignable (at 0x7fd90c8e1a10)',
  ],
  [
    'another job named in camel case',
    'job deployStaging2 failed: exit code 1',
    'job deployProduction2 failed: exit code 1',
  ],
  [
    'another request id a label names, in a written word that is no id',
    'request id: missing (retry 1)',
    'request id: invalid (retry 1)',
  ],
  [
    'another written name an id’s label names, in camel case',
    'id: ProductNameField not found',
    'id: OrderSummaryPanel not found',
  ],
  [
    'another time left: a countdown moving is the answer changing',
    '{"state": "running", "eta_seconds": 40, "remaining": 12}',
    '{"state": "running", "eta_seconds": 25, "remaining": 9}',
  ],
  [
    'another order id under a label that is not a request’s',
    '{"order_id": "ord_7a1c20", "status": "shipped"}',
    '{"order_id": "ord_7a1c21", "status": "shipped"}',
  ],
  [
    'another written name with digits',
    'ImportError: cannot import name Uint8ArrayToBase64 from utils',
    'ImportError: cannot import name Uint16ArrayToBase64 from utils',
  ],
];

describe('answers that differ only in what a run draws afresh', () => {
  for (const [what, first, second] of RERUNS) {
    it(`digests two runs alike: ${what}`, () => {
      expect(digestResult(first)).toBe(digestResult(second));
    });
  }

  for (const [what, first, second] of DIFFERENT) {
    it(`still tells two answers apart that differ in a real word: ${what}`, () => {
      expect(digestResult(first)).not.toBe(digestResult(second));
    });
  }

  it('blocks a command once its failures answered alike but for an address, a pid and a run id', () => {
    const agent = new Agent();
    const command = { command: 'python scripts/export_orders.py --workers 4' };
    const [, first, second] = RERUNS.find(([what]) => what.includes('address')) ?? ['', '', ''];
    agent.call('Bash', command, { text: `Exit code 1\n${first}`, isError: true });
    agent.call('Bash', command, { text: `Exit code 1\n${second}`, isError: true });
    expect(agent.check('Bash', command).verdict).toBe('block');
  });
});

describe('what looks drawn at random', () => {
  it('takes runs of letters alone whose case changes throughout for drawn', () => {
    for (const token of ['APVzgfTvvcfxRq', 'pRluTgKJfPqHje', 'QmXkTzLpRwVbNc'])
      expect({ token, drawn: looksDrawnLetters(token) }).toEqual({ token, drawn: true });
  });

  it('takes names in camel case, and capitals in runs, for written', () => {
    for (const token of [
      'ProductNameField',
      'myProductName',
      'XMLHttpRequest',
      'HTMLDivElement',
      'missingvalue',
    ])
      expect({ token, drawn: looksDrawnLetters(token) }).toEqual({ token, drawn: false });
  });

  it('takes ids that switch between letters and digits throughout for random', () => {
    for (const token of ['8f3kq2zx9w1', '45281d9d4', '3f9a2c1b', 'K2M7PX4TQ9R3W8VE', '7Hq2LmZ9xK4pTs'])
      expect({ token, random: looksRandom(token) }).toEqual({ token, random: true });
  });

  it('takes names with their digits in one or two places for written', () => {
    for (const token of [
      'Uint8Array',
      'html5lib',
      'RemovedInDjango40Warning',
      'python3',
      'test_case10',
      'e2etests',
    ])
      expect({ token, random: looksRandom(token) }).toEqual({ token, random: false });
  });
});

const HEX = '0123456789abcdef';
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
const drawn = (alphabet: string, min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
/** Values a run draws afresh, and near misses of them. */
const volatilePiece = fc.oneof(
  drawn(HEX, 8, 20).map((hex) => `request ${hex}`),
  drawn(BASE36, 6, 14),
  drawn(HEX, 6, 14).map((hex) => `0x${hex}`),
  fc.integer({ min: 0, max: 70000 }).map((port) => `127.0.0.1:${port}`),
  fc.integer({ min: 0, max: 99999 }).map((pid) => `(node:${pid})`),
  fc.integer({ min: 0, max: 99999 }).map((pid) => `(app.ts:${pid})`),
  drawn(BASE36, 3, 10).map((name) => `.tmp${name}`),
  fc
    .tuple(fc.constantFrom('.', '-', '_', ''), drawn('0123456789', 4, 12))
    .map(([mark, digits]) => `tmp${mark}${digits}`),
  drawn('0123456789abcdefABCDEFxyzXYZ', 8, 12),
  fc.integer({ min: 0, max: 9000 }).map((ms) => `"duration_ms": ${ms}, "timeout": ${ms}`),
  fc
    .tuple(
      fc.constantFrom(
        'total',
        'latencyMs',
        'Took',
        'elapsed_s',
        'start_ms',
        'a_b',
        'id',
        'ms',
        'x-duration',
        'idle_for_seconds',
        'uptimeSec',
        'since',
        'eta_seconds',
      ),
      fc.constantFrom('": ', '" : ', '":', '": -', '": "', '":\n'),
      fc.integer({ min: 0, max: 99999 }),
    )
    .map(([key, colon, value]) => `"${key}${colon}${value}`),
  fc
    .tuple(
      fc.constantFrom(
        'id',
        'Id',
        'ID',
        'iD',
        'request_id',
        'x-request-id',
        'requestId',
        'paid',
        '"trace_id',
        '"request_id"',
        'correlationId',
      ),
      fc.constantFrom(':', ': ', '": "', '" : ', ' :', ':  ', ': req_', '='),
      drawn('abcdefghijkKLMNOPQRSTUVWXYZ0123', 6, 18),
    )
    .map(([label, colon, value]) => `${label}${colon}${value}`),
  fc.constantFrom(
    'localhost:',
    'p',
    'P',
    'pid',
    ':',
    '"',
    '-',
    '_',
    ' ',
    '\n',
    'x',
    '0x',
    'é',
    '<hex>-',
    'id',
  ),
  fc.string({ maxLength: 12 }),
);

describe('the masking of volatile values in results', () => {
  it('masks what the scan lets through exactly as every rule tried in turn does', () => {
    fc.assert(
      fc.property(fc.array(volatilePiece, { maxLength: 14 }), (pieces) => {
        const text = pieces.join('');
        expect(maskVolatile(text, 'result')).toBe(maskVolatileExhaustively(text, 'result'));
      }),
      { numRuns: 3_000 },
    );
  });

  it('masks a long result exactly as every rule tried in turn does', () => {
    fc.assert(
      fc.property(fc.array(volatilePiece, { minLength: 40, maxLength: 80 }), (pieces) => {
        const text = pieces.join(' ').padEnd(300, ' ok');
        expect(maskVolatile(text, 'result')).toBe(maskVolatileExhaustively(text, 'result'));
      }),
      { numRuns: 500 },
    );
  });

  it('scans long texts with a copy of the scan of short ones, word for word', () => {
    const { candidateRules, candidateRulesOfLongText } = CANDIDATE_SCANS;
    const body = (scan: (text: string) => number) => scan.toString().replace(scan.name, 'scan');
    expect(body(candidateRulesOfLongText)).toBe(body(candidateRules));
  });

  it('finds the same masks to try with either copy of the scan', () => {
    const { candidateRules, candidateRulesOfLongText } = CANDIDATE_SCANS;
    fc.assert(
      fc.property(fc.array(volatilePiece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        expect(candidateRulesOfLongText(text)).toBe(candidateRules(text));
      }),
      { numRuns: 1_000 },
    );
  });

  it('masks a temporary name drawn without a digit in a text that has no digit at all', () => {
    const first = "OSError: cannot write '/tmp/tmpqyhchoyb/report.csv': disk quota exceeded";
    const second = "OSError: cannot write '/tmp/tmpzkwhpaxr/report.csv': disk quota exceeded";
    expect(maskVolatile(first, 'result')).toBe(maskVolatileExhaustively(first, 'result'));
    expect(digestResult(first)).toBe(digestResult(second));
  });

  it('masks a text masked once no further', () => {
    fc.assert(
      fc.property(fc.array(volatilePiece, { maxLength: 14 }), (pieces) => {
        const masked = maskVolatile(pieces.join(' '), 'result');
        expect(maskVolatile(masked, 'result')).toBe(masked);
      }),
      { numRuns: 1_000 },
    );
  });

  it('digests a line alike whatever random hex id it carries', () => {
    fc.assert(
      fc.property(drawn(HEX, 8, 15), drawn(HEX, 8, 15), (a, b) => {
        fc.pre(looksRandom(a) && looksRandom(b));
        expect(digestResult(`Error: upstream failed (request ${a})`)).toBe(
          digestResult(`Error: upstream failed (request ${b})`),
        );
      }),
    );
  });

  it('tells apart two answers whose only difference is a word of letters', () => {
    const word = fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(word, word, drawn(HEX, 8, 12), (a, b, id) => {
        fc.pre(a !== b);
        expect(digestResult(`No module named '${a}' (request ${id})`)).not.toBe(
          digestResult(`No module named '${b}' (request ${id})`),
        );
      }),
    );
  });
});

describe('digestWithoutNumbers', () => {
  it('digests two failures alike when they differ only in numbers and hex ids', () => {
    const run = (id: number, hash: string) =>
      `Run #${id} started\n[worker-${id * 7}] request ${hash}\nError: relation "users" does not exist`;
    expect(digestWithoutNumbers(run(1001, '9f86d081884c7d65'))).toBe(
      digestWithoutNumbers(run(1002, '2c26b46b68ffc68f')),
    );
  });

  it('digests two failures alike when both their drawn ids and their numbers changed', () => {
    const run = (id: string, pid: number) =>
      `x-request-id: ${id}\n[${pid}] POST /api/users\nError: relation "users" does not exist`;
    expect(digestWithoutNumbers(run('req_pRluTgKJfPqHje', 40112))).toBe(
      digestWithoutNumbers(run('req_QmXkTzLpRwVbNc', 40177)),
    );
  });

  it('tells two failures apart that differ in a word', () => {
    expect(digestWithoutNumbers('Error: relation "users" does not exist')).not.toBe(
      digestWithoutNumbers('Error: relation "orders" does not exist'),
    );
  });

  it('digests texts alike whatever counts stand in them, wherever they stand', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constantFrom('Error:', 'worker', 'pid', 'ms', ' ', '\n', '#'), fc.nat({ max: 99_999 })),
          {
            maxLength: 40,
          },
        ),
        fc.array(fc.nat({ max: 99_999 }), { minLength: 40, maxLength: 40 }),
        (parts, others) => {
          const written = parts.map(String).join(' ');
          const rewritten = parts
            .map((part, at) => String(typeof part === 'number' ? others[at] : part))
            .join(' ');
          expect(digestWithoutNumbers(rewritten)).toBe(digestWithoutNumbers(written));
        },
      ),
    );
  });

  it('reads a long failure by its start and its end only', () => {
    const log = '.'.repeat(2_000);
    const text = (word: string) => `Error: build failed\n${log}\n${word}\n${log}\nexit status 2`;
    expect(digestWithoutNumbers(text('alpha'))).toBe(digestWithoutNumbers(text('omega')));
    expect(digestWithoutNumbers(`${text('alpha')}!`)).not.toBe(digestWithoutNumbers(text('alpha')));
  });
});

describe('a temporary folder followed by a long name', () => {
  /** A tool's output naming `/tmp/` and then a long run of a name's characters with no digit in it. */
  const output = (scale: number, round: number) =>
    `${round} wrote /tmp/${'a_b.c-'.repeat(500 * scale)} and stopped`;

  it('leaves a name without a digit as it is, however long', () => {
    const text = output(4, 0);
    expect(maskVolatile(text, 'result')).toBe(text);
    expect(maskVolatile('cache at /tmp/tmpk3j9x2ab/x', 'result')).toBe('cache at /tmp/<tmp>/x');
  });

  it('is masked in time linear in the name: a sixteen times longer one costs under 64 times as much', async () => {
    let round = 0;
    expect(await growth((scale) => maskVolatile(output(scale, round++), 'result'), 16)).toBeLessThan(64);
  });
});
