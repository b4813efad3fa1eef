import { describe, expect, it } from 'vitest';
import { holdOptimisingCompiler } from '../../../src/cli/commands/compiler-hold.js';

function recorder(): { readonly set: (flags: string) => void; readonly flags: string[] } {
  const flags: string[] = [];
  return { set: (flag) => flags.push(flag), flags };
}

describe('the optimising compiler held for the first calls of a command-line process', () => {
  it('turns the compiler off at once and on again after the calls it holds it for', () => {
    const v8 = recorder();
    const hold = holdOptimisingCompiler(3, v8.set, '');
    expect(v8.flags).toEqual(['--no-turbofan']);
    hold.step();
    hold.step();
    expect(v8.flags).toEqual(['--no-turbofan']);
    hold.step();
    hold.step();
    hold.release();
    expect(v8.flags).toEqual(['--no-turbofan', '--turbofan']);
  });

  it('turns the compiler back on when released before its calls, once', () => {
    const v8 = recorder();
    const hold = holdOptimisingCompiler(100, v8.set, '');
    hold.step();
    hold.release();
    hold.release();
    hold.step();
    expect(v8.flags).toEqual(['--no-turbofan', '--turbofan']);
  });

  it.each([
    '--max-opt=1',
    '--no-opt',
    '--jitless',
    '--no-turbofan',
    '--max-old-space-size=4096 --always-sparkplug',
  ])('leaves V8 as the options %s set it', (options) => {
    const v8 = recorder();
    const hold = holdOptimisingCompiler(1, v8.set, options);
    hold.step();
    hold.release();
    expect(v8.flags).toEqual([]);
  });

  it('holds the compiler under options that name no tier', () => {
    const v8 = recorder();
    holdOptimisingCompiler(1, v8.set, '--max-old-space-size=4096 --enable-source-maps');
    expect(v8.flags).toEqual(['--no-turbofan']);
  });
});
