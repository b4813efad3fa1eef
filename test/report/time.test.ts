import { describe, expect, it } from 'vitest';
import { dateTime, relativeTime, shortDuration } from '../../src/report/index.js';

const now = Date.UTC(2026, 2, 4, 9, 0, 0);
const minute = 60_000;
const day = 24 * 60 * minute;

describe('time in words', () => {
  it('says when something happens relative to now', () => {
    expect(relativeTime(now + 7 * day - minute, now)).toBe('in 6 days');
    expect(relativeTime(now - 3 * minute, now)).toBe('3 minutes ago');
    expect(relativeTime(now - 90 * minute, now)).toBe('1 hour ago');
    expect(relativeTime(now + 1_000, now)).toBe('just now');
    expect(relativeTime(Number.POSITIVE_INFINITY, now)).toBe('never');
  });

  it('writes durations in their two largest units', () => {
    expect(shortDuration(12_400)).toBe('12 s');
    expect(shortDuration(2 * minute + 3_000)).toBe('2 min 3 s');
    expect(shortDuration(65 * minute)).toBe('1 h 5 min');
  });

  it('writes dates in the time zone asked for', () => {
    expect(dateTime(now, 'UTC')).toBe('2026-03-04 09:00');
    expect(dateTime(now, 'Asia/Tokyo')).toBe('2026-03-04 18:00');
  });
});
