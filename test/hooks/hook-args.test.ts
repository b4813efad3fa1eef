import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/hooks/main.js';

/** The hook's options as `util.parseArgs` took them before the hook read its words itself. */
const OPTIONS = {
  policy: { type: 'string' },
  preset: { type: 'string' },
  'state-dir': { type: 'string' },
  store: { type: 'string' },
  'fail-closed': { type: 'boolean' },
  'deadline-ms': { type: 'string' },
  'no-daemon': { type: 'boolean' },
  otel: { type: 'boolean' },
  'idle-ms': { type: 'string' },
  socket: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const WORDS = [
  'claude-code',
  'serve',
  'x',
  '-',
  '--',
  '-h',
  '-hh',
  '-hx',
  '-x',
  '--help',
  '--otel',
  '--otel=1',
  '--policy',
  '--policy=p.yaml',
  '--policy=',
  '--state-dir',
  '--no-daemon',
  '--fail-closed',
  '--deadline-ms',
  '--deadline-ms=300',
  '--idle-ms',
  '--socket',
  '--store=sqlite',
  '--preset',
  '--policy-file',
  '--zzz=3',
  '---x',
  '--Policy',
];

const outcome = (read: () => { values: object; positionals: string[] }) => {
  try {
    const { values, positionals } = read();
    return { values: { ...values }, positionals };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe("the hook's command-line words", () => {
  it('are read as util.parseArgs reads them, errors included', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }), (words) => {
        expect(outcome(() => parse(words))).toEqual(
          outcome(() => parseArgs({ args: words, allowPositionals: true, options: OPTIONS })),
        );
      }),
      { numRuns: 500 },
    );
  });
});
