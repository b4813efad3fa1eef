/**
 * Texts of 256 characters or more are hashed by SHA-256: natively when the runtime hands a hash in,
 * by the engine's own otherwise, with the same keys either way.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolCallAdapter, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { isNarrowingError } from '../../src/core/errors.js';
import {
  hashLanes,
  hashString,
  LONG_TEXT,
  LONG_TEXT_PROBE,
  LONG_TEXT_PROBE_DIGEST,
  useLongTextHash,
} from '../../src/core/identity/hashing.js';
import { canonicalJson, digestResult, identifyCall, maskVolatile } from '../../src/core/identity/index.js';
import { sha256Hex } from '../../src/core/identity/sha256.js';
import { NarrowingEngine } from '../../src/core/loop.js';
import { nativeLongTextHash } from '../../src/node/native-hash.js';

const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Any UTF-16 text, lone surrogates included, across several SHA-256 blocks. */
const anyText = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 700 })
  .map((codes) => String.fromCharCode(...codes));
const astralText = fc.string({ unit: 'binary', maxLength: 300 });

afterEach(() => useLongTextHash(undefined));

describe('the engine’s own SHA-256', () => {
  it('gives what Node’s gives for any text, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, astralText), (text) => {
        expect(sha256Hex(text)).toBe(nodeSha256(text));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the digest written out for the text a handed-in hash is checked on', () => {
    expect(sha256Hex(LONG_TEXT_PROBE)).toBe(LONG_TEXT_PROBE_DIGEST);
    expect(nodeSha256(LONG_TEXT_PROBE)).toBe(LONG_TEXT_PROBE_DIGEST);
  });

  it('gives the published digests of the standard test texts', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });
});

describe('hashing long texts', () => {
  it('gives the same keys with the native hash as without it', () => {
    const long = fc.string({ minLength: LONG_TEXT - 2, maxLength: 2_000 });
    fc.assert(
      fc.property(long, (text) => {
        useLongTextHash(undefined);
        const own = [hashString(text), { ...hashLanes(text) }];
        useLongTextHash(nativeLongTextHash);
        expect([hashString(text), { ...hashLanes(text) }]).toEqual(own);
      }),
      { numRuns: 100 },
    );
  });

  it('keys a call with long arguments, and digests a long result, alike with and without it', () => {
    const args = {
      path: 'src/orders/parse.ts',
      old_string: `export function parse(line: string) {\n${'  const [id, amount] = line.split(",");\n'.repeat(8)}}`,
      new_string: 'export function parse() {}',
    };
    const result = `FAIL src/orders/parse.test.ts (2026-01-05T09:00:07Z)\n${'  ✕ parses a line (12 ms)\n'.repeat(40)}`;
    const own = [identifyCall('edit_file', args).callKey, digestResult(result)];
    useLongTextHash(nativeLongTextHash);
    expect([identifyCall('edit_file', args).callKey, digestResult(result)]).toEqual(own);
    expect(own[0]).toBe(`edit_file#${hashString(canonicalJson(args))}`);
    expect(own[1]).toBe(hashString(maskVolatile(result, 'result')));
  });

  it('starts at 256 characters: a shorter text keeps the key it always had', () => {
    expect(hashString('x'.repeat(LONG_TEXT - 1))).not.toBe(
      nodeSha256('x'.repeat(LONG_TEXT - 1)).slice(0, 16),
    );
    expect(hashString('x'.repeat(LONG_TEXT))).toBe(nodeSha256('x'.repeat(LONG_TEXT)).slice(0, 16));
  });

  it('refuses a hash handed in that is not SHA-256, so that keys never depend on where they were made', () => {
    const md5 = (text: string) => createHash('md5').update(text).digest('hex');
    let thrown: unknown;
    try {
      useLongTextHash(md5);
    } catch (error) {
      thrown = error;
    }
    expect(isNarrowingError(thrown) && thrown.code).toBe('USAGE');
    expect(hashString('y'.repeat(300))).toBe(nodeSha256('y'.repeat(300)).slice(0, 16));
  });
});

describe('an edit checked with the native hash', () => {
  it('hashes a search text of a few hundred characters once, for its key and its failure key alike', () => {
    const oldString = [
      'export function parseOrder(line: string): Order {',
      "  const [id, amount, currency] = line.split(',');",
      "  if (id === undefined || id.trim() === '') throw new Error('order without an id: ' + line);",
      "  const total = Number.parseFloat(amount ?? '');",
      "  if (Number.isNaN(total)) throw new Error('order ' + id + ' has no total');",
      "  if (total < 0) throw new Error('order ' + id + ' has a negative total: ' + total);",
      "  const code = (currency ?? 'EUR').trim().toUpperCase();",
      "  if (!SUPPORTED_CURRENCIES.has(code)) throw new Error('order ' + id + ' is in an unsupported currency');",
      '  return { id: id.trim(), total, currency: code, receivedAt: new Date().toISOString() };',
      '}',
    ].join('\n');
    expect(oldString.length).toBeGreaterThan(512);
    expect(oldString.length).toBeLessThan(1024);
    let searchTextHashes = 0;
    useLongTextHash((text) => {
      if (text === oldString) searchTextHashes++;
      return nativeLongTextHash(text);
    });
    const loop = new NarrowingEngine({ adapter: createToolCallAdapter(), sessionId: 'search-text-hash' });
    loop.checkProposal(
      toolCallToProposal('edit_file', {
        path: 'src/orders/parse.ts',
        old_string: oldString,
        new_string: oldString.replace("'EUR'", "'USD'"),
      }),
    );
    expect(searchTextHashes).toBe(1);
  });
});
