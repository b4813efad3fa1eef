/**
 * The registry of calls in flight tells identical calls apart by their tool and arguments, and reads
 * a call's arguments only when another call of the same tool is remembered.
 */
import { describe, expect, it } from 'vitest';
import type { Proposal } from '../../src/core/types.js';
import { InFlightCalls } from '../../src/guard/in-flight.js';

/** Arguments of a file read that count how often the registry reads their path. */
function countedRead(path: string): { readonly args: Record<string, unknown>; readonly reads: () => number } {
  let reads = 0;
  const args = {
    get file_path() {
      reads++;
      return path;
    },
  };
  return { args, reads: () => reads };
}

function proposal(tool: string, args: Record<string, unknown>, step?: number): Proposal {
  return { tool, args, ...(step !== undefined && { step }) } as Proposal;
}

describe('InFlightCalls', () => {
  it('claims a call with no other call of its tool in flight without reading its arguments', () => {
    const calls = new InFlightCalls();
    const read = countedRead('src/app.ts');
    const claim = calls.claim(proposal('Read', read.args));
    expect(claim?.role).toBe('first');
    if (claim?.role === 'first') claim.settle(undefined);
    expect(read.reads()).toBe(0);
    expect(calls.size).toBe(0);
  });

  it('finds the twin of a call claimed while it runs, reading the first call only then', () => {
    const calls = new InFlightCalls();
    const first = countedRead('src/app.ts');
    const claim = calls.claim(proposal('Read', first.args));
    const duplicate = calls.claim(proposal('Read', { file_path: 'src/app.ts' }));
    expect(duplicate?.role).toBe('duplicate');
    expect(first.reads()).toBe(1);
    if (claim?.role === 'first') claim.settle({ status: 'ran', value: 'export {}', failed: false });
  });

  it('takes two calls that differ only in the words the model wrote about them for one call', () => {
    const calls = new InFlightCalls();
    const command = 'npm test -- --runInBand';
    const claim = calls.claim(proposal('Bash', { command, description: 'Run the test suite' }));
    const duplicate = calls.claim(
      proposal('Bash', { command, description: 'Run tests serially to see the failure' }),
    );
    expect(duplicate?.role).toBe('duplicate');
    if (claim?.role === 'first') claim.settle(undefined);
  });

  it('lets a call of the same tool with other arguments run beside the first', () => {
    const calls = new InFlightCalls();
    const first = calls.claim(proposal('Read', { file_path: 'src/app.ts' }));
    const other = calls.claim(proposal('Read', { file_path: 'src/main.ts' }));
    expect(other?.role).toBe('first');
    expect(calls.size).toBe(2);
    for (const claim of [first, other]) if (claim?.role === 'first') claim.settle(undefined);
    expect(calls.size).toBe(0);
  });

  it('answers a late duplicate of the same step from its settled twin, and not one of the next step', () => {
    const calls = new InFlightCalls();
    const edit = { file_path: 'src/app.ts', old_string: 'a', new_string: 'b' };
    const first = calls.claim(proposal('Edit', edit, 1));
    const failed = { status: 'ran', value: 'String not found', failed: true } as const;
    if (first?.role === 'first') first.settle(failed);
    const late = calls.claim(proposal('Edit', { ...edit }, 1));
    expect(late?.role === 'duplicate' && late.settled).toEqual(failed);
    const nextStep = calls.claim(proposal('Edit', { ...edit }, 2));
    expect(nextStep?.role).toBe('first');
    expect(calls.size).toBe(1);
  });

  it('never coalesces a call whose arguments cannot be read with another call of its tool', () => {
    const calls = new InFlightCalls();
    const { proxy: hostile, revoke } = Proxy.revocable<Record<string, unknown>>({}, {});
    revoke();
    const first = calls.claim(proposal('Read', hostile));
    expect(first?.role).toBe('first');
    expect(calls.claim(proposal('Read', hostile))).toBeUndefined();
    expect(calls.claim(proposal('Read', { file_path: 'src/app.ts' }))?.role).toBe('first');
  });
});
