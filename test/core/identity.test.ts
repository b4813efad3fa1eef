import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextHash, withLegacyHash } from '../../src/core/identity/hashing.js';
import {
  canonicalJson,
  describeCall,
  digestResult,
  hashLanes,
  hashString,
  identifyCall,
  maskVolatile,
  maskVolatileExhaustively,
} from '../../src/core/identity/index.js';

/** Reorders an object's keys, recursively: canonical forms must not see the difference. */
function shuffled(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffled(item, seed));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  entries.sort((a, b) => (hashString(a[0] + seed) < hashString(b[0] + seed) ? -1 : 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    Object.defineProperty(out, key, {
      value: shuffled(item, seed),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

describe('canonical JSON', () => {
  it('never depends on the order of keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer(), (value, seed) => {
        expect(canonicalJson(shuffled(value, seed))).toBe(canonicalJson(value));
      }),
    );
  });

  it('is valid JSON that parses back to the same value for plain JSON input', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('writes stable stand-ins for values JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    expect(canonicalJson(cyclic)).toBe('{"name":"a","self":"[circular]"}');
    expect(canonicalJson({ n: Number.NaN, i: Number.POSITIVE_INFINITY, z: -0 })).toBe(
      '{"i":"[Infinity]","n":"[NaN]","z":0}',
    );
    expect(canonicalJson({ b: 12n, d: new Date(0), f: () => 1, u: undefined })).toBe(
      '{"b":"[bigint 12]","d":"1970-01-01T00:00:00.000Z"}',
    );
    expect(canonicalJson([undefined, () => 1])).toBe('[null,"[function]"]');
  });

  it('treats __proto__ and constructor as ordinary keys, without touching any prototype', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}}');
    expect(canonicalJson(hostile)).toBe('{"__proto__":{"polluted":true},"constructor":{"prototype":1}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('cuts nesting 10,000 deep instead of overflowing the stack', () => {
    const root: Record<string, unknown> = {};
    let node = root;
    for (let depth = 0; depth < 10_000; depth++) {
      const next: Record<string, unknown> = {};
      node.child = next;
      node = next;
    }
    expect(canonicalJson(root)).toContain('"[too deep]"');
  });

  it('identifies a 10 MB string by its length and hash', () => {
    const huge = 'x'.repeat(10_000_000);
    const { callKey } = identifyCall('write_file', { path: 'big.txt', content: huge });
    expect(callKey).not.toBe(identifyCall('write_file', { path: 'big.txt', content: `${huge}y` }).callKey);
  });
});

describe('call identity', () => {
  it('gives the same key whatever the order of arguments', () => {
    expect(identifyCall('edit_file', { path: 'a.ts', old_string: 'x', new_string: 'y' }).callKey).toBe(
      identifyCall('edit_file', { new_string: 'y', old_string: 'x', path: 'a.ts' }).callKey,
    );
  });

  it('masks timestamps, UUIDs and epochs, and says what it masked', () => {
    const a = identifyCall('git_create_branch', {
      name: 'agent/task-2026-03-02T10-15-00',
      run: 'c56a4180-65aa-42ec-a945-5fd21dec0538',
    });
    const b = identifyCall('git_create_branch', {
      name: 'agent/task-2026-03-02T10-15-07',
      run: '0f8fad5b-d9cb-469f-a165-70867728950e',
    });
    expect(a.callKey).toBe(b.callKey);
    expect([...a.masked].sort()).toEqual(['timestamp', 'uuid']);
  });

  it('masks the random part of a temporary path but not a temporary file the agent named', () => {
    expect(maskVolatile('/tmp/tmpa8f3k2x/out.txt')).toBe('/tmp/<tmp>/out.txt');
    expect(maskVolatile('/tmp/output.txt')).toBe('/tmp/output.txt');
  });

  it('keeps two commits apart in the call key, but gives them one shape', () => {
    const first = identifyCall('git_show', { ref: '3f2a9c1e4b5d6a7f8e9d0c1b2a3f4e5d6c7b8a90' });
    const second = identifyCall('git_show', { ref: '9b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c' });
    expect(first.callKey).not.toBe(second.callKey);
    expect(first.shapeKey).toBe(second.shapeKey);
  });

  it('identifies long texts exactly, without masking inside them', () => {
    const long = (stamp: string) => `${'x'.repeat(2000)} ${stamp}`;
    expect(identifyCall('write_file', { content: long('2026-03-02T10:15:00Z') }).callKey).not.toBe(
      identifyCall('write_file', { content: long('2026-03-02T10:15:07Z') }).callKey,
    );
  });

  it('gives flat and nested arguments the keys of the canonical form, whichever path computes them', () => {
    // Control characters, quotes, backslashes and lone surrogates are what JSON escapes.
    const awkward = fc.constantFrom('a', '7', '"', '\\', '\n', '\u0001', '\ud800', '\udc00', 'é', '-');
    const text = fc.oneof(
      fc.string({ maxLength: 700 }),
      fc.string({ unit: 'binary-ascii', maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: awkward, maxLength: 30 }),
    );
    const scalar = fc.oneof(
      text,
      fc.constantFrom('2026-03-02T10:15:00Z', '/tmp/tmpa8f3k2x/x', 'c56a4180-65aa-42ec-a945-5fd21dec0538'),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: awkward, maxLength: 4 })),
          scalar,
        ),
        fc.string({ maxLength: 12 }),
        (args, tool) => {
          const general = canonicalJson(args, {
            maxString: 512,
            mapString: (text) => (text.length > 1024 ? text : maskVolatile(text)),
          });
          expect(identifyCall(tool, args).callKey).toBe(`${tool}#${hashString(general)}`);
          // A nested copy takes the general path and must agree.
          expect(identifyCall(tool, { wrapped: args }).callKey).toBe(
            `${tool}#${hashString(canonicalJson({ wrapped: args }, { maxString: 512, mapString: (text) => (text.length > 1024 ? text : maskVolatile(text)) }))}`,
          );
        },
      ),
    );
  });

  it('gives flat arguments holding texts of kilobytes, as edits carry, the key of their canonical form', () => {
    const form = {
      maxString: 512,
      mapString: (text: string) => (text.length > 1024 ? text : maskVolatile(text)),
    };
    const edit = (bytes: number, stamp: string) => ({
      path: 'src/handlers/handler-5yc1s.ts',
      old_string: `${'  const value = context.lookup("key");\n'.repeat(bytes / 40)}// ${stamp}`,
      new_string: `// built ${stamp}\n${'  return new Response(JSON.stringify({ ok: true }));\n'.repeat(bytes / 50)}`,
      replace_all: false,
      expected_replacements: 1,
      note: null,
    });
    for (const args of [
      edit(1000, '2026-03-02T10:15:00Z'),
      edit(700, 'c56a4180-65aa-42ec-a945-5fd21dec0538'),
      edit(4000, 'x'),
    ])
      expect(identifyCall('edit_file', args).callKey).toBe(
        `edit_file#${hashString(canonicalJson(args, form))}`,
      );
  });
});

describe('the scan that skips masking rules', () => {
  // Fragments that each rule matches, and fragments that come close without matching.
  const fragment = fc.oneof(
    fc.constantFrom(
      '2026-03-02T10:15:00Z',
      '2026-03-02 10:15',
      '20260302T101500',
      'c56a4180-65aa-42ec-a945-5fd21dec0538',
      'deadbeef-abcd-abcd-abcd-abcdefabcdef',
      '1767225600',
      '1767225600123',
      '/tmp/tmpa8f3k2x/out.txt',
      '/private/var/folders/zz/x1/T/abc123def',
      '3f2a9c1e4b5d6a7f8e9d0c1b',
      '12ms',
      '1.5 s',
      '3\u00a0min',
      '4\tsec',
      '12.5}',
      'pid: 4120',
      'PID=77',
      'module-5yc1s.ts',
      'Wed Nov 25 17:03:58',
      'Sat, 1 Mar 2025 ',
      '9:01:02 up 5 min, 1 user, load average: 0.1, 0.2, 0.3',
      '0m41.923s',
      '"took" : 12',
      '"elapsed_ms" :412',
      '"durationMs":\t7',
    ),
    fc.string({
      unit: fc.constantFrom('0', '9', 'a', 'f', 'g', '-', '/', '.', ':', ' ', 'p', 'i', 'd', 's', 'm', 'µ'),
      maxLength: 24,
    }),
    fc.string({ maxLength: 12 }),
  );
  const text = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(''));

  it('masks exactly what trying every rule would mask', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('argument', 'shape', 'result'), (value, scope) => {
        expect(maskVolatile(value, scope)).toBe(maskVolatileExhaustively(value, scope));
      }),
      { numRuns: 2_000 },
    );
  });

  it('masks exactly what trying every rule would mask when characters beyond ASCII stand beside the values', () => {
    // What a test log prints between its ids and numbers (`✓`, `→`, accents, emoji, a lone half of
    // a surrogate pair, spaces beyond ASCII), each ending a run of letters and digits or not.
    const beside = fc.constantFrom('✓', '×', '→', 'é', 'Ä', '\u00a0', '\u1680', '😀', '\ud800', '\udc00');
    const mixed = fc.array(fc.oneof(fragment, beside), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(mixed, fc.constantFrom('argument', 'shape', 'result'), (value, scope) => {
        expect(maskVolatile(value, scope)).toBe(maskVolatileExhaustively(value, scope));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('result digests and descriptions', () => {
  it('digests whole results, ignoring durations and process ids that change between runs', () => {
    expect(digestResult('Done in 1.23s (pid 4120)')).toBe(digestResult('Done in 2.5s (pid 993)'));
    expect(digestResult(`${'a'.repeat(600)}b`)).not.toBe(digestResult(`${'a'.repeat(600)}c`));
  });

  it('digests a long result that only looks volatile as the hash of the result itself', () => {
    const output = ` RUN  v3.2.4 /srv/app\n${' × test/orders/parse.test.ts > rejects 3 mangoes\n'.repeat(400)}`;
    expect(digestResult(output)).toBe(hashString(output));
    expect(digestResult(`${output}done in 12ms`)).toBe(hashString(`${output}done in <duration>`));
  });

  it('digests the output of date alike whatever time it printed', () => {
    expect(digestResult('Wed Nov 25 17:03:58 UTC 2026\n')).toBe(
      digestResult('Thu Nov 26 09:12:07 UTC 2026\n'),
    );
    expect(digestResult('Date: Wed, 25 Nov 2026 17:03:58 GMT')).toBe(
      digestResult('Date: Wed, 25 Nov 2026 17:04:13 GMT'),
    );
  });

  it('digests the output of uptime alike however long the machine has been up and whatever its load', () => {
    expect(digestResult(' 17:04:01 up 3 days,  4:12,  2 users,  load average: 0.52, 0.58, 0.59')).toBe(
      digestResult(' 17:09:44 up 3 days,  4:18,  2 users,  load average: 1.07, 0.71, 0.63'),
    );
    expect(digestResult('17:04  up 3 days,  4:12, 2 users, load averages: 1.52 1.58 1.59')).toBe(
      digestResult('17:06  up 3 days,  4:14, 2 users, load averages: 2.01 1.66 1.61'),
    );
  });

  it('digests the timings time prints alike, and times of day with or without AM/PM', () => {
    expect(digestResult('real\t0m41.923s\nuser\t0m33.590s\nsys\t0m5.338s')).toBe(
      digestResult('real\t1m2.004s\nuser\t0m40.100s\nsys\t0m6.020s'),
    );
    expect(digestResult('Build finished at 5:04:01 PM')).toBe(digestResult('Build finished at 11:59:30 AM'));
  });

  it('keeps line and column positions, which follow a colon, apart', () => {
    expect(digestResult('src/app.ts:12:34:56 error TS2304')).not.toBe(
      digestResult('src/app.ts:12:40:10 error TS2304'),
    );
    expect(digestResult('test.py:10:20: E501 line too long')).not.toBe(
      digestResult('test.py:11:20: E501 line too long'),
    );
  });

  it('digests a result as the hash of its masked form, whether or not anything needed masking', () => {
    const volatile = fc.constantFrom(
      'Wed Nov 25 17:03:58',
      '0m41.923s',
      ' 9:01:02 up 5 min, 1 user, load average: 0.1, 0.2, 0.3',
      '12ms',
      ' 3 s',
      '2026-11-21T10:00:00Z',
      'pid=41',
      'deadbeefcafe12345678',
      '/tmp/abc123xyz',
      // What the scan takes for a volatile value until a regular expression says it is not one.
      '3 mangoes',
      'pidgin',
      '/tmp/out',
      '2026-',
      'abcdef12-',
    );
    const text = fc.array(fc.oneof(fc.string(), volatile), { maxLength: 8 }).map((parts) => parts.join(' '));
    fc.assert(
      fc.property(text, (content) => {
        const expected = content === '' ? 'empty' : hashString(maskVolatile(content, 'result'));
        expect(digestResult(content)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('hashes a range of a text as hashString hashes that range cut out', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), fc.nat(), (text, a, b) => {
        const start = a % (text.length + 1);
        const end = start + (b % (text.length - start + 1));
        const hash = new TextHash().add('<').addRange(text, start, end).add('>');
        expect(hash.finish()).toBe(hashString(`<${text.slice(start, end)}>`));
      }),
    );
  });

  it('gives the lanes of the hash that hashString writes in hex', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const { high, low } = hashLanes(text);
        const hex = (lane: number) => (lane >>> 0).toString(16).padStart(8, '0');
        expect(hex(high) + hex(low)).toBe(hashString(text));
      }),
    );
  });

  it('gives the hashes that call keys and digests were stored under, for texts of odd and even length', () => {
    expect(hashString('')).toBe('1aee8d83488bdcb8');
    expect(hashString('a')).toBe('4e6551e7145b39fb');
    expect(hashString('ab')).toBe('09c33ff65eb2d467');
    expect(hashString('read_file#{"path":"src/app.ts"}')).toBe('f0b2b1e1e8fac7f1');
    expect(hashString('é✓→ × \u{1F600}')).toBe('e63ac54da123129e');
    expect(hashString('x'.repeat(255))).toBe('d071b7b0839e4eff');
  });

  it('gives a text of 256 characters or more the first 64 bits of its SHA-256, and older keys on demand', () => {
    expect(hashString('x'.repeat(1001))).toBe('cbe4a2e86e808c9b');
    expect(hashString('x'.repeat(256))).toBe('85e62acd750c4eb5');
    // What a state written before hash generation 2 keyed such a text by.
    expect(withLegacyHash(() => hashString('x'.repeat(1001)))).toBe('6c559f718e7b0e0c');
  });

  it('gives each long text its own hash when texts hashed one after another are recalled', () => {
    const longText = fc.string({ minLength: 1024, maxLength: 1400 });
    fc.assert(
      fc.property(
        fc.array(longText, { minLength: 1, maxLength: 7 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (texts, order) => {
          const expected = texts.map((text) => ({ ...hashLanes(text) }));
          const hex = (lane: number) => (lane >>> 0).toString(16).padStart(8, '0');
          for (const pick of [...texts.keys(), ...order]) {
            const index = pick % texts.length;
            const { high, low } = expected[index] as { high: number; low: number };
            // The same text, as another string built from pieces, and the very same string.
            expect(hashString(texts[index] as string)).toBe(hex(high) + hex(low));
            expect(hashString(` ${texts[index]}`.slice(1))).toBe(hex(high) + hex(low));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hashes a text as a character-by-character reference computes it', () => {
    const reference = (text: string): string => {
      let h1 = 0xdeadbeef;
      let h2 = 0x41c6ce57;
      for (let index = 0; index < text.length; index++) {
        h1 = Math.imul(h1 ^ text.charCodeAt(index), 2654435761);
        h2 = Math.imul(h2 ^ text.charCodeAt(index), 1597334677);
      }
      h1 ^= text.length;
      h2 ^= text.length;
      h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
      h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
      const hex = (lane: number) => (lane >>> 0).toString(16).padStart(8, '0');
      return hex(h1) + hex(h2);
    };
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 65 })), (text) => {
        expect(hashString(text)).toBe(reference(text));
      }),
      { numRuns: 1_000 },
    );
  });

  it('describes a call in a short line a model can read', () => {
    expect(describeCall('read_file', { path: 'src/app.ts' })).toBe('read_file {path: "src/app.ts"}');
    expect(describeCall('bash', { command: 'x'.repeat(500) }).length).toBeLessThanOrEqual(120);
  });

  it('never throws on any value', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(() => identifyCall('tool', value)).not.toThrow();
        expect(() => describeCall('tool', value)).not.toThrow();
      }),
    );
  });
});
