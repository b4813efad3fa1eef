/**
 * The words kept of a failure leave out the lines that only point elsewhere (a script list, a log
 * file, output above, an explanation command), and keep the error and the tool's suggestion.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  holdsMarker,
  holdsMarkerExhaustively,
  MARKER_PROBES,
  MARKERS,
  withoutPointerLines,
} from '../../../src/adapters/tool-call/pointer-lines.js';

/** `npm run tset` with npm 8 and 9: the log's path on a line of its own. */
const NPM_9_MISSING_SCRIPT = [
  'npm ERR! Missing script: "tset"',
  'npm ERR! ',
  'npm ERR! Did you mean this?',
  'npm ERR!     npm test # Test a package',
  'npm ERR! ',
  'npm ERR! To see a list of scripts, run:',
  'npm ERR!   npm run',
  '',
  'npm ERR! A complete log of this run can be found in:',
  'npm ERR!     /root/.npm/_logs/2023-05-02T10_11_12_345Z-debug-0.log',
].join('\n');

const RUSTC_UNKNOWN_NAME = [
  'error[E0425]: cannot find value `x` in this scope',
  ' --> src/main.rs:2:20',
  '  |',
  '2 |     println!("{}", x);',
  '  |                    ^ not found in this scope',
  '',
  'For more information about this error, try `rustc --explain E0425`.',
  'error: could not compile `demo` (bin "demo") due to 1 previous error',
].join('\n');

const PIP_BUILD_FAILED = [
  '  note: This error originates from a subprocess, and is likely not a problem with pip.',
  'error: metadata-generation-failed',
  '',
  '× Encountered error while generating package metadata.',
  '╰─> See above for output.',
  '',
  'note: This is an issue with the package mentioned above, not pip.',
  'hint: See above for details.',
].join('\n');

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('withoutPointerLines', () => {
  it("leaves out npm's pointers to the script list and to its log, whose path may be on the next line", () => {
    expect(withoutPointerLines(NPM_9_MISSING_SCRIPT).split('\n')).toEqual([
      'npm ERR! Missing script: "tset"',
      'npm ERR! ',
      'npm ERR! Did you mean this?',
      'npm ERR!     npm test # Test a package',
      'npm ERR! ',
      '',
    ]);
  });

  it("leaves out rustc's pointer to `rustc --explain` and keeps the error and cargo's summary", () => {
    const kept = withoutPointerLines(RUSTC_UNKNOWN_NAME);
    expect(kept).not.toContain('rustc --explain');
    expect(kept).toContain('error[E0425]: cannot find value `x` in this scope');
    expect(kept).toContain('error: could not compile `demo`');
  });

  it("leaves out pip's pointers to the output above and keeps what failed", () => {
    expect(lines(withoutPointerLines(PIP_BUILD_FAILED))).toEqual([
      '  note: This error originates from a subprocess, and is likely not a problem with pip.',
      'error: metadata-generation-failed',
      '× Encountered error while generating package metadata.',
      'note: This is an issue with the package mentioned above, not pip.',
    ]);
  });

  it("leaves out yarn's pointer to its documentation and a panic's pointer to backtraces", () => {
    expect(
      withoutPointerLines(
        'yarn run v1.22.19\nerror Command "tset" not found.\ninfo Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.',
      ),
    ).toBe('yarn run v1.22.19\nerror Command "tset" not found.');
    expect(
      withoutPointerLines(
        "thread 'main' panicked at src/main.rs:2:5:\nindex out of bounds: the len is 3 but the index is 7\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
      ),
    ).toBe(
      "thread 'main' panicked at src/main.rs:2:5:\nindex out of bounds: the len is 3 but the index is 7",
    );
  });

  it('keeps a line that only mentions such words, and a text that is nothing but a pointer', () => {
    const quoted =
      "Error: ENOENT: no such file, open 'See above for output.'\nsee `rustc --explain E0425` later";
    expect(withoutPointerLines(quoted)).toBe(quoted);
    expect(withoutPointerLines('See above for output.')).toBe('See above for output.');
  });

  it('keeps every other line in order, and leaving out again leaves out nothing more', () => {
    const line = fc.oneof(
      fc.string({ maxLength: 40 }).map((text) => text.replace(/\n/g, ' ')),
      fc.constantFrom(...NPM_9_MISSING_SCRIPT.split('\n'), ...PIP_BUILD_FAILED.split('\n')),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (parts) => {
        const text = parts.join('\n');
        const kept = withoutPointerLines(text);
        const remaining = text.split('\n');
        for (const keptLine of kept.split('\n')) {
          const at = remaining.indexOf(keptLine);
          expect(at).toBeGreaterThanOrEqual(0);
          remaining.splice(0, at + 1);
        }
        expect(withoutPointerLines(kept)).toBe(kept);
      }),
    );
  });

  it('looks for every pointer word through a piece of it that the word holds', () => {
    for (const marker of MARKERS) {
      const probes = MARKER_PROBES.filter((entry) => entry.markers.includes(marker));
      expect(probes.length).toBe(1);
      expect(marker.includes(probes[0]?.probe as string)).toBe(true);
    }
  });

  it('finds the words of a pointer line in a long log exactly as looking for each word whole does', () => {
    const piece = fc.constantFrom(
      ...MARKERS,
      ...MARKERS.map((marker) => marker.slice(0, -1)),
      ...MARKERS.map((marker) => marker.slice(1)),
      'with npm',
      'xpla',
      'explanations: ',
      'rustc --expla',
      ' ✓ test/orders/module-k.test.ts > parseOrder > reads the total 3 3ms\n',
      '   → expected -1.5 to be greater than or equal to 0\n',
      'npm error ',
      '\n',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), (pieces) => {
        const text = pieces.join('');
        expect(holdsMarker(text)).toBe(holdsMarkerExhaustively(text));
      }),
      { numRuns: 500 },
    );
  });
});
