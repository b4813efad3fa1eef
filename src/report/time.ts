/** Times as people read them in a terminal: relative when near, dates when not. */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function count(value: number, unit: string): string {
  return `${value} ${unit}${value === 1 ? '' : 's'}`;
}

/** A span of time in its largest whole unit: "45 seconds", "3 minutes", "6 days". */
export function spanInWords(ms: number): string {
  const span = Math.abs(ms);
  if (span < MINUTE) return count(Math.floor(span / SECOND), 'second');
  if (span < HOUR) return count(Math.floor(span / MINUTE), 'minute');
  if (span < DAY) return count(Math.floor(span / HOUR), 'hour');
  return count(Math.floor(span / DAY), 'day');
}

/** "in 6 days", "3 minutes ago", "just now". */
export function relativeTime(at: number, now: number): string {
  if (at === Number.POSITIVE_INFINITY) return 'never';
  const delta = at - now;
  if (Math.abs(delta) < 5 * SECOND) return 'just now';
  return delta > 0 ? `in ${spanInWords(delta)}` : `${spanInWords(delta)} ago`;
}

/** "1 h 5 min", "2 min 3 s", "12 s". */
export function shortDuration(ms: number): string {
  const seconds = Math.round(Math.max(0, ms) / SECOND);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** "2026-03-04 09:15" in the given time zone (the local one by default). */
export function dateTime(at: number, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(timeZone !== undefined && { timeZone }),
  }).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}
