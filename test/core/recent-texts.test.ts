import { describe, expect, it } from 'vitest';
import { RecentTexts } from '../../src/core/recent-texts.js';

/** A reading that counts how often it ran: the first line of a text, as an error's headline. */
function countedHeadline() {
  const reads: string[] = [];
  const read = (text: string) => {
    reads.push(text);
    return text.split('\n')[0] ?? '';
  };
  return { reads, read };
}

const TRACEBACK = 'ModuleNotFoundError: No module named pandas\n  File "train.py", line 3, in <module>';

describe('RecentTexts', () => {
  it('answers a text read lately from its last reading, even as another string of the same characters', () => {
    const { reads, read } = countedHeadline();
    const recent = new RecentTexts(read);
    expect(recent.of(TRACEBACK)).toBe('ModuleNotFoundError: No module named pandas');
    expect(recent.of([...TRACEBACK].join(''))).toBe('ModuleNotFoundError: No module named pandas');
    expect(reads).toHaveLength(1);
  });

  it('reads anew a text that is not among the last ones kept', () => {
    const { reads, read } = countedHeadline();
    const recent = new RecentTexts(read, 2);
    recent.of('npm ERR! missing script: build');
    recent.of('error TS2307: Cannot find module');
    recent.of('fatal: not a git repository');
    recent.of('npm ERR! missing script: build');
    expect(reads).toEqual([
      'npm ERR! missing script: build',
      'error TS2307: Cannot find module',
      'fatal: not a git repository',
      'npm ERR! missing script: build',
    ]);
  });

  it('keeps no text longer than its bound', () => {
    const { reads, read } = countedHeadline();
    const recent = new RecentTexts(read, 4, 64);
    const long = `${TRACEBACK}\n${'  at frame\n'.repeat(10)}`;
    recent.of(long);
    recent.of(long);
    expect(reads).toHaveLength(2);
  });

  it('keeps a reading that found nothing', () => {
    let reads = 0;
    const recent = new RecentTexts((_text: string) => {
      reads++;
      return undefined;
    });
    expect(recent.of('Permission denied')).toBeUndefined();
    expect(recent.of('Permission denied')).toBeUndefined();
    expect(reads).toBe(1);
  });
});
