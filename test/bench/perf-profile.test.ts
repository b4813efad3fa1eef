import { describe, expect, it } from 'vitest';
import { type CpuProfile, formatProfileSplit, splitProfile } from '../../bench/perf-profile.js';

/** Frames as V8 names them: a function, its script's URL and its line counted from 0. */
function frame(functionName: string, file: string, lineNumber: number) {
  return { functionName, url: `file:///srv/narrowing/dist/${file}`, lineNumber };
}

/** Calls run under `runBlock`: a record that digests its result, a check; and time spent idle. */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', '', -1), children: [2, 6] },
    { id: 2, callFrame: frame('runBlock', 'bench/perf-ab.js', 120), children: [3, 5] },
    { id: 3, callFrame: frame('recordOutcome', 'core/loop.js', 184), children: [4] },
    { id: 4, callFrame: frame('digestResult', 'identity/call-identity.js', 768) },
    { id: 5, callFrame: frame('checkProposal', 'core/loop.js', 118) },
    { id: 6, callFrame: frame('(idle)', '', -1) },
  ],
  samples: [4, 3, 5, 6],
  timeDeltas: [50, 20, 30, 40],
};

describe('bench/perf-profile.ts', () => {
  it('shares out the time sampled within the calls by function, its own and with all it calls', () => {
    const split = splitProfile(PROFILE, { root: 'runBlock' });
    expect(split.sampledUs).toBe(100);
    expect(split.bySelf[0]).toEqual({
      frame: 'digestResult identity/call-identity.js:769',
      self: 0.5,
      total: 0.5,
    });
    expect(split.byTotal.find((row) => row.frame.startsWith('recordOutcome'))).toEqual({
      frame: 'recordOutcome core/loop.js:185',
      self: 0.2,
      total: 0.7,
    });
    expect(split.byTotal.some((row) => row.frame.startsWith('(idle)'))).toBe(false);
  });

  it('prints what the functions of one name call, indented by depth', () => {
    const split = splitProfile(PROFILE, { root: 'runBlock', tree: 'recordOutcome', depth: 1 });
    const text = formatProfileSplit(split, 10);
    expect(text.split('\n')[0]).toBe('10 calls, 10.0 µs a call under the profiler');
    expect(text).toContain(
      ' 20.0%   70.0%  recordOutcome core/loop.js:185\n 50.0%   50.0%    digestResult identity/call-identity.js:769',
    );
  });
});
