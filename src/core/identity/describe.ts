/** Calls said in a few words, for evidence and the reasons a model reads. */
import { redactText } from '../secrets.js';
import { canonicalJson } from './canonical-json.js';

/** A short, readable form of a call for evidence and reasons: `read_file {path: "a.ts"}`. */
export function describeCall(tool: string, args: unknown, limit = 120): string {
  let body: string;
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    const entries = Object.entries(args as Record<string, unknown>).slice(0, 4);
    body = entries
      .map(([key, value]) => {
        // Redacted before it is cut: a secret cut in half is no longer recognised as one.
        const shown =
          typeof value === 'string' ? JSON.stringify(truncate(redactText(value), 60)) : shortJson(value);
        return `${key}: ${shown}`;
      })
      .join(', ');
  } else {
    body = shortJson(args);
  }
  return truncate(`${tool} {${body}}`, limit);
}

function shortJson(value: unknown): string {
  return truncate(redactText(canonicalJson(value, { maxString: REDACTION_WINDOW })), 60);
}

/** How much of a value is redacted before its first 60 characters are shown. */
const REDACTION_WINDOW = 240;

export function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, Math.max(0, limit - 1))}…`;
}
