import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withLegacyHash } from '../../src/core/identity/hashing.js';
import { digestResult, hashString, looksRandom } from '../../src/core/identity/index.js';

/**
 * The masking of results as its expressions were first written, in the order they run. Digests are
 * persisted (a learned rule and a result seen before keep them), so however the masking is made
 * faster, a result must digest to what these expressions give. (Masking more kinds of volatile
 * values, the last nine, changed them once: an answer kept from before compares otherwise once.)
 */
const FIRST_WRITTEN: readonly (readonly [
  RegExp,
  string | ((match: string, ...groups: string[]) => string),
])[] = [
  [
    /\b\d{4}-\d{2}-\d{2}[T_ ]\d{2}[:-]\d{2}(?:[:-]\d{2}(?:[.,]\d+|-\d{3}(?=Z))?)?(?:Z|[+-]\d{2}:?\d{2})?/g,
    '<time>',
  ],
  [/\b20\d{2}[01]\d[0-3]\d[T_-]?[0-2]\d[0-5]\d[0-5]\d\b/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b1[6-9]\d{8}(?:\d{3})?\b/g, '<epoch>'],
  [
    /(\/(?:private\/)?(?:tmp|var\/tmp|var\/folders\/[^/\s]+\/[^/\s]+\/T)\/)([A-Za-z_.-]*(?=[A-Za-z_.-]*\d)[A-Za-z0-9_.-]{6,})/g,
    '$1<tmp>',
  ],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}\b/gi, '<hex>'],
  [
    /\b\d{1,2}:\d{2}(?::\d{2})?\s{1,4}up\s[^\n]{0,80}?load averages?:\s*\d+(?:[.,]\d+)?,?\s+\d+(?:[.,]\d+)?,?\s+\d+(?:[.,]\d+)?/g,
    '<uptime>',
  ],
  [
    /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\.?,?\s+(?:\d{1,2}\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2})(?:,?\s+\d{4})?(?=,?\s+\d{1,2}:\d{2}:\d{2})/g,
    '<date>',
  ],
  [/(?<![\w:.])(?:[01]?\d|2[0-3]):[0-5]\d:[0-5]\d(?:[.,]\d+)?(?:\s?[AaPp]\.?[Mm]\.?)?(?![\w:])/g, '<clock>'],
  [
    /\b\d+(?:h\d+m(?:\d+(?:\.\d+)?s)?|m\d+(?:\.\d+)?s|h\d+m)\b|\b\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds|m|min|mins|minutes|h|hrs|hours)\b/g,
    '<duration>',
  ],
  [/\b(pid[:= ]\s*)\d+/gi, '$1<pid>'],
  [/\(([A-Za-z][A-Za-z_-]{0,31}):\d{4,7}\)/g, '($1:<pid>)'],
  [/\b0x[0-9a-fA-F]{8,16}\b/g, '0x<address>'],
  [
    /((?:\blocalhost|\b\d{1,3}(?:\.\d{1,3}){3}|\]):)(?:3276[89]|327[7-9]\d|32[89]\d\d|3[3-9]\d{3}|[45]\d{4}|6[0-5]\d{3})\b/g,
    '$1<port>',
  ],
  [
    /(?<![A-Za-z0-9])tmp(?:[._-](?=[A-Za-z0-9]*\d)[A-Za-z0-9]{8,}|(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{5,})(?![A-Za-z0-9])/g,
    '<tmp>',
  ],
  [
    /(\/(?:private\/)?(?:tmp|var\/tmp|var\/folders\/[^/\s]+\/[^/\s]+\/T)\/)tmp[a-z0-9_]{8}(?![A-Za-z0-9_.-])/g,
    '$1<tmp>',
  ],
  [
    /(\/(?:private\/)?(?:tmp|var\/tmp|var\/folders\/[^/\s]+\/[^/\s]+\/T)\/)((?:[^/\s'"`]+\/)+)/g,
    (_path: string, root: string, folders: string) => `${root}${folders.replace(/\d+/g, '<n>')}`,
  ],
  [
    /("[A-Za-z_]*(?:[Dd]uration|[Ee]lapsed|[Tt]ook|[Ll]atency|_ms|Ms|_millis|Millis)[A-Za-z_]*"\s*:\s*)-?\d+(?:\.\d+)?/g,
    '$1<duration>',
  ],
  [
    /(?<![A-Za-z0-9\\])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{8,}(?![A-Za-z0-9])/g,
    (token) => (looksRandom(token) ? '<id>' : token),
  ],
  [/(<(?:epoch|hex|uuid|id)>[-_])[A-Za-z0-9]{6,}(?![A-Za-z0-9])/g, '$1<id>'],
];

function digestAsFirstWritten(text: string): string {
  if (text === '') return 'empty';
  let masked = text;
  for (const [index, [pattern, replacement]] of FIRST_WRITTEN.entries()) {
    // The last, the rest of an id, only once something was masked.
    if (index === FIRST_WRITTEN.length - 1 && masked === text) break;
    masked =
      typeof replacement === 'string'
        ? masked.replace(pattern, replacement)
        : masked.replace(pattern, replacement);
  }
  return hashString(masked);
}

/** What tools print around durations, and what only looks like one. */
const durationLike = fc.constantFrom(
  '0m41.923s',
  '1h2m',
  '2m30s',
  '3h4m5.5s',
  '12ms',
  '1.5 s',
  '3\u00a0min',
  '4\tsec',
  '250µs',
  '7 hours',
  'x12ms',
  '_3s',
  '12.ms',
  '1.2.3s',
  '12345678secs',
  '3 mangoes',
  'v1.2.3',
  'Duration  1.42s (transform 273ms, setup 0ms)',
  ' ✓ test/orders/parse.test.ts (4 tests) 12ms',
  'done in 2026-11-21T10:00:00Z after 9s',
);
/** Characters that make and break durations, so random texts come close to them often. */
const durationCharacter = fc.constantFrom(
  '0',
  '1',
  '9',
  '.',
  ' ',
  '\u00a0',
  '\n',
  'h',
  'm',
  's',
  'µ',
  'u',
  'n',
  'e',
  'c',
  'i',
  'o',
  'r',
  'a',
  '_',
  '-',
  ':',
  'é',
);
const piece = fc.oneof(
  durationLike,
  fc.string({ unit: durationCharacter, maxLength: 24 }),
  fc.string({ maxLength: 16 }),
);

describe('result digests as first written', () => {
  it('digests any text with durations and near misses as the expressions first written do', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        expect(digestResult(text)).toBe(digestAsFirstWritten(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('digests a short source file whose numbers only look like volatile values as its text unmasked', () => {
    const source = fc.constantFrom(
      '    expect(parseOrder(\'{"total": 12.5}\').total).toBe(12.5);\n',
      'const server = listen("localhost:8080"); // (worker:12)\n',
      'retry(3, { "timeoutMs": "slow" });\n',
      '  it("reads line 12:40 of the log", () => {});\n',
      '// module 5yc1s\n',
    );
    fc.assert(
      fc.property(fc.array(source, { minLength: 1, maxLength: 6 }), (lines) => {
        const text = lines.join('');
        expect(digestResult(text)).toBe(digestAsFirstWritten(text));
      }),
      { numRuns: 300 },
    );
    const file = '    expect(parseOrder(\'{"total": 12.5}\').total).toBe(12.5);\n';
    expect(digestResult(file)).toBe(hashString(file));
  });

  it('digests long outputs, whose scan and masking take other paths, as the expressions first written do', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 20, max: 200 }),
        (pieces, times) => {
          const text = pieces.join(' ').repeat(times);
          expect(digestResult(text)).toBe(digestAsFirstWritten(text));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('digests a 20 KB failing test run as the expressions first written do', () => {
    const lines = [' RUN  v3.2.4 /srv/app', ''];
    for (let test = 0; test < 150; test++) {
      lines.push(
        ` ✓ test/orders/module-${test.toString(36)}.test.ts > parseOrder > reads the total ${test} 3ms`,
        ` × test/orders/module-${test.toString(36)}.test.ts > parseOrder > rejects a negative total ${test} 5ms`,
        `   → expected -${test}.5 to be greater than or equal to 0`,
      );
    }
    lines.push('', ' Test Files  1 failed | 12 passed (13)', '   Duration  4.21s (transform 1.2s)');
    const output = lines.join('\n');
    expect(output.length).toBeGreaterThan(19_000);
    expect(digestResult(output)).toBe(digestAsFirstWritten(output));
  });

  it('digests a long output seen again, among others of its length, as it digested it the first time', () => {
    const run = (failed: number) =>
      ` FAIL  test/orders.test.ts > parseOrder > rejects ${failed} totals 12ms\n`.repeat(40);
    const outputs = [run(1), run(2), run(3), run(4), run(5), run(6)];
    const first = outputs.map((output) => digestAsFirstWritten(output));
    for (let round = 0; round < 3; round++) {
      outputs.forEach((output, index) => {
        // A copy made anew, as a repeated call's answer is decoded anew: equal, not the same string.
        const again = JSON.parse(JSON.stringify(output)) as string;
        expect(digestResult(again)).toBe(first[index]);
      });
    }
  });

  it('digests a long output seen before as generation 1 hashed it while keys of that generation are computed', () => {
    const output = ' FAIL  test/orders.test.ts > parseOrder > rejects a negative total 12ms\n'.repeat(40);
    const now = digestResult(output);
    const legacy = withLegacyHash(() => digestResult(output));
    expect(legacy).not.toBe(now);
    expect(legacy).toBe(withLegacyHash(() => hashString(output.replaceAll('12ms', '<duration>'))));
    expect(digestResult(output)).toBe(now);
  });
});
