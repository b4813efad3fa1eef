/** How long a service asks to be left alone, read from the text of its refusal. */
const RETRY_AFTER = [
  /\bretry[ _-]?after\b["']?\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i,
  /\b(?:retry|try again) in (\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)\b/i,
  /\bretryDelay\b["']?\s*:\s*["']?(\d+(?:\.\d+)?)(ms|s)\b/i,
];

const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/** Seconds to wait, from `Retry-After: 2`, `retry after 500ms`, `Please try again in 20s`, `"retryDelay": "17s"`. */
export function parseRetryAfter(text: string): number | undefined {
  for (const pattern of RETRY_AFTER) {
    const match = pattern.exec(text);
    if (!match) continue;
    const amount = Number(match[1]);
    const unit = (match[2] ?? 's').toLowerCase();
    const seconds =
      unit.startsWith('ms') || unit.startsWith('milli')
        ? amount / 1000
        : unit.startsWith('m')
          ? amount * 60
          : amount;
    if (Number.isFinite(seconds)) return Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
  }
  return undefined;
}
